// Package record holds a game's record, the one place where a game is replayed.
//
// A Record is the start of a game (a variant's start from a seed, or a position
// text) plus its entries: ordinary moves and the secret choices of simultaneous
// rounds (Go-Chess placement), each stored as the canonical text Position.UCI gives.
// Its operations read a move given as text (parse, validate, then play), take moves
// back, and replay the entries into a History of steps for move lists, PGN, GIFs and
// reviews. The History also gives the position reached, so a caller that needs both
// replays once.
//
// Positions are immutable values; a Record is plain data that its owner (storage)
// persists. What each viewer may see is decided here too: during a simultaneous
// round a viewer sees its own pending choice, never the opponent's (View, Public).
//
// WritePGN writes a History as PGN; Movetext numbers its moves, the one definition of
// move numbers for move lists and PGN. PGNReader reads the games of a PGN file back
// in the PGN standard's import format (NAGs, comments, nested variations, escaped
// lines, several games): their tags, their moves replayed from the FEN tag, and the
// notes on the moves; ReadPGN reads the first game.
//
// The package imports only package rules.
package record
