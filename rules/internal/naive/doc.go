// Package naive is a slow, deliberately simple move generator for the three
// chess-family games, written straight from docs/RULES.md with no code shared with
// rules/chess: a grid of letters, copy-make, and "is my king attacked" by
// scanning every enemy piece. Tests use it as an independent reference where no
// outside program knows the game (Keltic, Go-Chess).
package naive
