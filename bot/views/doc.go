// Package views is what a player sees of the games: /board shows a game's board
// (as text for screen readers too), /games lists the player's games with those
// waiting for their move first, /next shows the most urgent of them, /history
// numbers a game's moves, /pgn exports it, /gif animates it, and /hint gives the
// engine's suggestion privately; a finished game's board carries a PGN button.
package views
