// Package gess implements Gess, chess played with Go stones, as a rules.Variant
// (key "gess"), following the Gess section of docs/RULES.md.
//
// # The board
//
// The frame is 20x20 squares, files a-t and ranks 1-20; stones stand only on the
// playing area b2-s19, and a stone that ends a move on the outer ring (files a and t,
// ranks 1 and 20) is removed. Squares are numbered as everywhere in package rules,
// rank by rank from a1 = 0 (square = 20*(rank-1) + file index):
//
//	rank 20 | 380 381 382 ... 397 398 399     <- outer ring
//	rank 19 | 360 361 362 ... 377 378 379
//	  ...   |             ...
//	rank  2 |  20  21  22 ...  37  38  39
//	rank  1 |   0   1   2 ...  17  18  19     <- outer ring
//	        +----------------------------
//	           a   b   c  ...   r   s   t
//	           ^ outer ring          ^ outer ring
//
// The playing area runs from b2 (21) to s19 (378).
//
// # Pieces and moves
//
// A piece is any 3x3 block whose centre lies in the frame and that holds at least
// one stone of the mover's and none of the opponent's; it is named by its centre, and
// a move by the centres before and after ("m3-m6", or "m3xm6" when stones are
// removed). The piece moves toward each of its perimeter stones:
//
//	NW  N  NE      a stone on a perimeter square opens that direction;
//	 W  C  E       a stone on C (the centre) lets the piece go any distance,
//	SW  S  SE      otherwise it goes 1 to 3 squares
//
// It stops at the first position where its footprint overlaps any stone that is not
// part of the piece, a friendly one included; every stone under the footprint there,
// of either colour, is captured. A
// ring is a block of eight stones of one's own around an empty centre; a player
// without a ring at the end of a turn loses, and a move that leaves neither player a
// ring loses for the player who made it. The house rule draws the third occurrence of
// the same stones with the same side to move.
//
// # Positions and searches
//
// Position is immutable to its callers and implements rules.Position and
// rules.Perfter; its text is 20 rows of 'x' (black), 'o' (white) and '.', rank 20
// first, separated by '/', then the side to move, 'b' or 'w'. Black moves first.
//
// Board is the search form of a position: a plain value of 20 bit rows a side that
// generates moves into a caller's buffer and plays them with Make and Unmake,
// without allocating. An engine takes one from Position.Mutable, searches on it, and
// plays its chosen move through Position.Play. For a search's speed the Board also
// generates the captures alone (AppendCaptures), counts a move's captures without
// playing it (Captures), tells whether any move lands in a rectangle (Reaches: can
// the opponent break a ring?), passes (Pass) and shows its stones as bit rows (Rows).
package gess
