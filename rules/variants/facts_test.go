package variants_test

import (
	"strings"
	"testing"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/variants"
)

func lookup(t *testing.T, key string) rules.Variant {
	t.Helper()
	v, err := variants.Registry().Lookup(key)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func parse(t *testing.T, key, text string) rules.Position {
	t.Helper()
	p, err := lookup(t, key).ParsePosition(text)
	if err != nil {
		t.Fatalf("%s %q: %v", key, text, err)
	}
	return p
}

// CanWin is the FIDE test for a player out of time, as the material decides it
// (docs/RULES.md, house rule: time-out draw): a side can win unless no series of
// legal moves could mate, which is certain for a bare king, for the automatic
// draws, and in Gothic for a lone knight against king and queens and for bishops
// of one colour when nothing on the board could wall the mated king in.
func TestCanWin(t *testing.T) {
	for _, tc := range []struct {
		variant, fen string
		white, black bool
	}{
		// Gothic.
		{"gothic", "k9/10/10/10/10/10/10/K9 w - - 0 1", false, false},
		{"gothic", "k9/1r8/10/10/10/10/10/KN8 w - - 0 1", true, true},    // K+N v K+R: the rook walls its own king in
		{"gothic", "k9/p9/10/10/10/10/10/KN8 w - - 0 1", true, true},     // K+N v K+P
		{"gothic", "k9/p9/10/10/10/10/10/KNN7 w - - 0 1", true, true},    // K+N+N v K+P
		{"gothic", "k9/10/10/10/10/10/10/KNN7 w - - 0 1", false, false},  // K+N+N v K: an automatic draw
		{"gothic", "kb8/10/10/10/10/10/10/K9 w - - 0 1", false, false},   // K v K+B: an automatic draw
		{"gothic", "k9/1q8/10/10/10/10/10/KN8 w - - 0 1", false, true},   // K+N v K+Q: the queen reaches every check
		{"gothic", "k9/1c8/10/10/10/10/10/KN8 w - - 0 1", false, true},   // K+N v K+C: no mate (the oracle)
		{"gothic", "k9/1a8/10/10/10/10/10/KN8 w - - 0 1", false, true},   // K+N v K+A: no mate
		{"gothic", "k9/1ca7/10/10/10/10/10/KN8 w - - 0 1", true, true},   // K+N v K+C+A: not judged
		{"gothic", "k9/1c8/10/10/10/10/10/KB8 w - - 0 1", false, true},   // K+B v K+C: no mate
		{"gothic", "k9/1a8/10/10/10/10/10/KB8 w - - 0 1", true, true},    // K+B v K+A: Ka1 Aa2, Kc2 Bb2 mates
		{"gothic", "k9/1r8/10/10/10/10/10/KB8 w - - 0 1", false, true},   // K+B v K+R
		{"gothic", "k9/1rn7/10/10/10/10/10/KB8 w - - 0 1", true, true},   // K+B v K+R+N: the knight walls
		{"gothic", "k9/1q8/10/10/10/10/10/KB1B6 w - - 0 1", false, true}, // two bishops, both light
		{"gothic", "k9/1q8/10/10/10/10/10/KBB7 w - - 0 1", true, true},   // bishops of both colours
		{"gothic", "k9/1b8/10/10/10/10/10/KNN7 b - - 0 1", true, true},
		{"gothic", "k9/1n8/10/10/10/10/10/KBN7 b - - 0 1", true, true},
		{"gothic", "k9/1nn7/10/10/10/10/10/KR8 b - - 0 1", true, true}, // K+R v K+N+N: the knights can mate
		{"gothic", "k9/1a8/10/10/10/10/P9/K9 b - - 0 1", true, true},
		{"gothic", "k9/1c8/10/10/10/10/10/KBB7 b - - 0 1", true, true},
		// Keltic: a lone bishop mates (it also leaps); a lone knight mates only with help.
		{"keltic", "***k2***/**5**/9/9/9/**5**/***NK1*** b - - 0 1", false, false}, // an automatic draw
		{"keltic", "***k2***/**n4**/9/9/9/**5**/***BK1*** b - - 0 1", true, false}, // K+N v K+B: no mate (the oracle)
		{"keltic", "***k1r***/**5**/9/9/9/**5**/***NK1*** b - - 0 1", true, true},
		{"keltic", "***k1q***/**5**/9/9/9/**5**/***NK1*** b - - 0 1", false, true},  // K+N v K+Q: no mate
		{"keltic", "***k1q***/**5**/2p6/9/9/**5**/***NK1*** b - - 0 1", true, true}, // K+N v K+Q+P: not judged
		{"keltic", "***k2***/**5**/9/9/9/**5**/***QK1*** b - - 0 1", true, false},
		// Go-Chess: blocked cells make corners anywhere, so only a bare king cannot win.
		{"gochess", "k9/r9/10/10/10/**********/10/10/10/KB8 b - - 0 1", false, true}, // no mate on this board (the search)
		{"gochess", "k9/n9/10/10/10/**********/10/10/10/KBB7 b - - 0 1", true, true},
		{"gochess", "k9/10/10/10/10/**********/10/10/10/KB8 b - - 0 1", false, false}, // an automatic draw
		{"gochess", "k9/q9/10/10/10/**********/10/10/10/K9 b - - 0 1", false, true},
	} {
		p := parse(t, tc.variant, tc.fen)
		if got := rules.CanWin(p, rules.White); got != tc.white {
			t.Errorf("%s %s: White can win = %v, want %v", tc.variant, tc.fen, got, tc.white)
		}
		if got := rules.CanWin(p, rules.Black); got != tc.black {
			t.Errorf("%s %s: Black can win = %v, want %v", tc.variant, tc.fen, got, tc.black)
		}
	}
	// Go-Chess's placement: material is still coming.
	place := lookup(t, "gochess").Start(1)
	for _, s := range rules.Sides {
		if !rules.CanWin(place, s) {
			t.Errorf("Go-Chess placement: %v cannot win", s)
		}
	}
	// Gess: a side with stones can always still win; one without cannot.
	g := lookup(t, "gess")
	for _, s := range rules.Sides {
		if !rules.CanWin(g.Start(0), s) {
			t.Errorf("Gess start: %v cannot win", s)
		}
	}
	rows := make([]string, 20)
	for i := range rows {
		rows[i] = strings.Repeat(".", 20)
	}
	rows[16], rows[17], rows[18] = "..xxx...............", "..x.x...............", "..xxx..............."
	lone := parse(t, "gess", strings.Join(rows, "/")+" w")
	if rules.CanWin(lone, rules.White) || !rules.CanWin(lone, rules.Black) {
		t.Errorf("Gess without white stones: White %v, Black %v; want false, true",
			rules.CanWin(lone, rules.White), rules.CanWin(lone, rules.Black))
	}
}

// Every variant values every kind that stands on its start board, the king at nothing.
func TestPieceValues(t *testing.T) {
	starts := map[string]rules.Position{
		"gothic": lookup(t, "gothic").Start(0), "keltic": lookup(t, "keltic").Start(0), "gess": lookup(t, "gess").Start(0),
		"gochess": parse(t, "gochess", "rnbqkbnr2/pppppppp2/10/1*1*1*1*1*/10/10/*1*1*1*1*1/10/PPPPPPPP2/RNBQKBNR2 w - - 0 1"),
	}
	for key, p := range starts {
		vals := rules.PieceValues(p.Variant())
		if vals == nil {
			t.Fatalf("%s gives no piece values", key)
		}
		for _, c := range p.Board().Cells {
			k := c.Piece.Kind
			if k == rules.NoPiece {
				continue
			}
			if v, ok := vals[k]; (k == rules.King) == ok || (ok && v <= 0) {
				t.Errorf("%s: %s valued %d (listed %v)", key, k, v, ok)
			}
		}
		vals[rules.Pawn] = -1 // a copy: the variant's own values stay
		if rules.PieceValues(p.Variant())[rules.Pawn] == -1 {
			t.Errorf("%s: PieceValues hands out the variant's own map", key)
		}
	}
	if got := rules.PieceValues(lookup(t, "keltic"))[rules.Bishop]; got != 700 {
		t.Errorf("Keltic bishop = %d, want the inventor's 7 pawns (700)", got)
	}
}

// The side a variant shows at the bottom of an unturned board (rank 1 down) is the
// side whose pieces start there: White in the chess family, Black in Gess.
func TestLookHome(t *testing.T) {
	for key, want := range map[string]rules.Side{"gothic": rules.White, "keltic": rules.White, "gochess": rules.White, "gess": rules.Black} {
		v := lookup(t, key)
		look := rules.LookOf(v)
		if look.Home != want {
			t.Errorf("%s: home at the bottom %v, want %v", key, look.Home, want)
		}
		if look.Flipped(want) || !look.Flipped(want.Other()) {
			t.Errorf("%s: %v's view is turned, or %v's is not", key, want, want.Other())
		}
		if key == "gochess" {
			continue // the start is an empty board; placement decides
		}
		var sum, n [2]int
		b := v.Start(0).Board()
		for sq, c := range b.Cells {
			if !c.Piece.IsNone() {
				sum[c.Piece.Side] += b.Rank(rules.Square(sq))
				n[c.Piece.Side]++
			}
		}
		if home, away := sum[want]*n[want.Other()], sum[want.Other()]*n[want]; home >= away {
			t.Errorf("%s: %v's pieces do not start nearer rank 1 than %v's", key, want, want.Other())
		}
	}
	if l := rules.LookOf(lookup(t, "gess")); !l.Stones || l.Frame != 1 {
		t.Errorf("Gess look %+v: want a Go board with a one-cell frame", l)
	}
	if l := rules.LookOf(lookup(t, "keltic")); l != (rules.Look{}) {
		t.Errorf("Keltic look %+v: want a chessboard", l)
	}
}
