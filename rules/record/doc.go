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
// move numbers for move lists and PGN. ReadPGN reads such a game back: its tags, and
// its moves replayed from the FEN tag.
//
// The package imports only package rules.
package record
