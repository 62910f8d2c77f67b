// Package keltic is Keltic Chess (D.T. Jagger): a 43-cell cross, bishops that also
// leap like knights, and pawns that step sideways when they cannot step forward.
//
// Positions are FENs of the 9x7 rectangle with '*' for each cell outside the cross:
//
//	***bkb***/**rnqnr**/ppppppppp/9/PPPPPPPPP/**RNQNR**/***BKB*** w - - 0 1
package keltic
