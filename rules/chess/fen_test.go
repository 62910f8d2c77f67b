package chess_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/chess"
	"github.com/missivechess/missive/rules/gochess"
	"github.com/missivechess/missive/rules/gothic"
	"github.com/missivechess/missive/rules/keltic"
)

var (
	gothicV  = gothic.New()
	kelticV  = keltic.New()
	gochessV = gochess.New()
)

const goFEN = "kp4****/7***/8**/9*/3p1r4/4P5/3b1n4/10/10/9K b - - 0 1"

// TestBadFEN checks that malformed and impossible positions are refused with an
// error that names the problem.
func TestBadFEN(t *testing.T) {
	for _, tc := range []struct {
		v    rules.Variant
		fen  string
		want string
	}{
		{gothicV, "", "A FEN has six fields separated by spaces: the board, the side to move, castling rights, the en passant square, the halfmove clock and the move number (the last four may be left out); this one has 0."},
		{gothicV, "rnbqckabnr/pppppppppp/10/10/10/10/PPPPPPPPPP w KQkq - 0 1", "7 ranks"},
		{gothicV, "rnbqckabnr/pppppppppp/11/10/10/10/PPPPPPPPPP/RNBQCKABNR w KQkq - 0 1", "more than 10 cells"},
		{gothicV, "rnbqckabnr/pppppppppp/9/10/10/10/PPPPPPPPPP/RNBQCKABNR w KQkq - 0 1", "Rank 6 of the FEN has 9 cells; the board has 10 files."},
		{gothicV, "rnbqckabnr/pppppppppp/10/4x5/10/10/PPPPPPPPPP/RNBQCKABNR w KQkq - 0 1", "unknown piece letter 'x'"},
		{kelticV, "***bkb***/**rnqnr**/ppppppppp/4c4/PPPPPPPPP/**RNQNR**/***BKB*** w - - 0 1", "unknown piece letter 'c'"},
		{gothicV, "rnbqcqabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQCKABNR w KQ - 0 1", "The FEN has 0 black kings; each side has exactly one."},
		{gothicV, "rnbqckabnr/pppppppppp/10/10/10/4K5/PPPPPPPPPP/RNBQCKABNR w kq - 0 1", "The FEN has 2 white kings"},
		{gothicV, "rnbqckabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQCKABNR x KQkq - 0 1", "side to move"},
		{gothicV, "rnbqckabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQCKABNR w KQkqK - 0 1", "names a right twice"},
		{gothicV, "rnbqckabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQCKABNR w KX - 0 1", "not a castling right"},
		{gothicV, "rnbqckabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQCKABN1 w KQkq - 0 1", "needs a white rook on j1"},
		{gothicV, "rnbqc1abnr/ppppppkppp/10/10/10/10/PPPPPPPPPP/RNBQCKABNR w KQkq - 0 1", "needs the black king on f8"},
		{gothicV, "rnbqckabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQCKABNR w KQkq e3 0 1", "With white to move, an en passant square is on rank 6, just behind a black pawn that has stepped two squares; e3 is not."},
		{gothicV, "rnbqckabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQCKABNR b KQkq e3 0 1", "The en passant square e3 needs a white pawn on e4 that has just stepped there from e2, with e2 and e3 empty."},
		{gothicV, "rnbqckabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQCKABNR w KQkq e6 0 1", "The en passant square e6 needs a black pawn on e5 that has just stepped there from e7, with e7 and e6 empty."},
		{gothicV, "rnbqckabnr/pppppppppp/10/10/4P5/10/PPPP1PPPPP/RNBQCKABNR b KQkq e4 0 1", "With black to move, an en passant square is on rank 3, just behind a white pawn"},
		{gothicV, "rnbqckabnr/pppppppppp/10/10/4P5/10/PPPP1PPPPP/RNBQCKABNR b KQkq z9 0 1", "The en passant field is a square or '-', not \"z9\"."},
		{gothicV, "rnbqckabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQCKABNR w KQkq - -1 1", "halfmove clock"},
		{gothicV, "rnbqckabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQCKABNR w KQkq - 0 0", "move number"},
		{gothicV, "rnbqckabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQCKABNR w KQkq - 0 1 extra", "this one has 7."},
		{gothicV, "5k4/4P5/10/10/10/10/10/5K4 w - - 0 1", "The black king is in check while it is white's turn to move"},
		{gothicV, "P4k4/10/10/10/10/10/10/5K4 w - - 0 1", "white pawn cannot stand on a8"},
		{gothicV, "5k4/10/10/10/10/10/10/p4K4 w - - 0 1", "black pawn cannot stand on a1"},
		{gothicV, "5k4/pppppppppp/p9/10/10/10/10/5K4 w - - 0 1", "The FEN gives black 11 pawns; a side starts with 10."},
		{gothicV, "qqqk6/pppppppppp/10/10/10/10/10/5K4 w - - 0 1", "The FEN gives black 2 promoted pieces but only 0 pawns are missing."},
		{gothicV, "5k4/10/10/10/10/4*5/10/5K4 w - - 0 1", "only cells that do not exist"},
		{gothicV, "5r3k/10/10/10/10/4n2b2/10/5K4 w - - 0 1", "3 pieces at once"},
		{kelticV, "***bkb***/**rnqnr**/ppppppppp/9/PPPPPPPPP/**RNQNR**/B**1K1*** w - - 0 1", "The FEN puts a piece on a1, which is not a cell of the Keltic Chess board"},
		{kelticV, "***bkb***/**rnqnr**/ppppppppp/9/PPPPPPPPP/**RNQNR**/3BKB*** w - - 0 1", "a1, which is not a cell"},
		{kelticV, "***bkb***/**rnqnr**/ppppppppp/9/PPPPPPPPP/**RNQNR**/***BK**** w - - 0 1", "The FEN writes '*' for f1, a cell of the Keltic Chess board"},
		{kelticV, "***bkb***/**rnqnr**/ppppppppp/9/PPPPPPPPP/**RNQNR**/***BKB*** w KQ - 0 1", "no castling in Keltic Chess"},
		{kelticV, "***bkb***/**rnqnr**/ppppppppp/9/PPPPPPPPP/**RNQNR**/***BKB*** w - e4 0 1", "There is no en passant in Keltic Chess"},
		{kelticV, "***bkb***/**rnqnr**/ppppppppp/9/9/**RNQNR**/***BKBP** w - - 0 1", "is not a cell"},
		{kelticV, "***bkb***/**rnqnr**/pppppppp1/9/9/**RNQNRP*/***BKB*** w - - 0 1", "is not a cell"},
		{kelticV, "***bkb***/**rnqnr**/pppppppp1/9/9/**RNQNP**/***BKB*** w - - 0 1", "white pawn cannot stand on g2"},
		{gochessV, strings.Replace(goFEN, "kp4****", "kp4***1", 1), "9 blocked cells"},
		{gochessV, strings.Replace(strings.Replace(goFEN, "kp4****", "kq4****", 1), "3p1r4", "3q1r4", 1), "The FEN gives black 2 queens"},
		{gochessV, strings.Replace(goFEN, "10/10/9K", "10/B1B7/9K", 1), "The white bishops stand on cells of one colour"},
		{gochessV, strings.Replace(goFEN, "b - -", "b KQ -", 1), "no castling in Go-Chess"},
		{gochessV, strings.Replace(goFEN, "kp4****", "kp4***P", 1), "9 blocked cells"},
	} {
		_, err := tc.v.ParsePosition(tc.fen)
		if !errors.Is(err, rules.ErrBadPosition) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %q:\n got %v\nwant an ErrBadPosition saying %q", tc.v.Key(), tc.fen, err, tc.want)
		}
	}
}

// TestFENRoundTrip reads FENs back from String, normalising only what does not
// count (a missing clock, an en passant square no pawn can use).
func TestFENRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		v       rules.Variant
		in, out string
	}{
		{gothicV, gothic.StartFEN, gothic.StartFEN},
		{gothicV, "rnbqckabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQCKABNR w KQkq -", gothic.StartFEN},
		{gothicV, "rnbqckabnr/pppppppppp/10/10/4P5/10/PPPP1PPPPP/RNBQCKABNR b KQkq e3 0 1",
			"rnbqckabnr/pppppppppp/10/10/4P5/10/PPPP1PPPPP/RNBQCKABNR b KQkq - 0 1"},
		{gothicV, "4k5/10/10/3pP5/10/10/10/5K4 w - d6 0 1", "4k5/10/10/3pP5/10/10/10/5K4 w - d6 0 1"},
		{gothicV, "r4k3r/10/10/10/10/10/10/R4K3R b Kq - 12 40", "r4k3r/10/10/10/10/10/10/R4K3R b Kq - 12 40"},
		{kelticV, keltic.StartFEN, keltic.StartFEN},
		{gochessV, goFEN, goFEN},
	} {
		p, err := tc.v.ParsePosition(tc.in)
		if err != nil {
			t.Errorf("%q: %v", tc.in, err)
			continue
		}
		if p.String() != tc.out {
			t.Errorf("%q printed as %q, want %q", tc.in, p.String(), tc.out)
		}
		if p.Variant() != tc.v {
			t.Errorf("%q: Variant() is %v", tc.in, p.Variant())
		}
	}
}

func TestBoardView(t *testing.T) {
	p, _ := gochessV.ParsePosition(goFEN)
	b := p.Board()
	d := b.Dims
	for _, tc := range []struct {
		sq    string
		state rules.CellState
		piece rules.Piece
	}{
		{"a10", rules.Playable, rules.Piece{Side: rules.Black, Kind: rules.King}},
		{"j10", rules.Blocked, rules.Piece{}},
		{"e5", rules.Playable, rules.Piece{Side: rules.White, Kind: rules.Pawn}},
		{"e4", rules.Playable, rules.Piece{}},
	} {
		sq, _ := d.ParseSquare(tc.sq)
		if c := b.At(sq); c.State != tc.state || c.Piece != tc.piece {
			t.Errorf("%s: %+v, want %v %v", tc.sq, c, tc.state, tc.piece)
		}
	}
	k, _ := kelticV.ParsePosition(keltic.StartFEN)
	if c := k.Board().At(0); c.State != rules.Missing {
		t.Errorf("keltic a1 is %v", c.State)
	}
}

var _ = chess.MaxMoves
