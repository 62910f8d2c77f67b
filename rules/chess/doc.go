// Package chess is the rules core of the chess family (Gothic Chess, Keltic
// Chess, Go-Chess's play phase): one move generator driven by piece definitions.
//
// A variant is a Spec: its board (a rectangle with Missing or Blocked cells,
// package board), its pieces as leapers, riders and compounds (PieceDef), its pawn
// hooks (PawnRules), castling, and the endgames drawn for lack of material. New
// compiles a Spec into a Variant, which implements rules.Variant.
//
// Positions (*Position) are immutable values: Play returns a new one. They carry
// what the automatic draws need: the hashes of the positions since the last
// irreversible move (threefold repetition counts castling rights, and an en
// passant square only when the capture is legal) and the halfmove clock. Outcome
// applies checkmate, stalemate, insufficient material, threefold and fifty-move,
// checkmate first.
//
// Move generation is legal (check and pin masks, no make/test/unmake) on 128-bit
// bitboards. Make and unmake live in SearchBoard, the mutable board for perft and
// engines, which generates into caller buffers without allocating.
//
// Notation: FEN (with '*' for holes), coordinates as in UCI ("e2e4", "b7b8c",
// castling as the king's move "f1i1") and SAN both ways, read forgivingly.
package chess
