package gess

import (
	"testing"

	"github.com/missivechess/missive/rules"
)

// TestCapturesMatchMake checks Captures against what Make removes, and Rows against
// At, on every move of positions from random play.
func TestCapturesMatchMake(t *testing.T) {
	buf := make([]rules.Move, 0, 1024)
	moves, captures := 0, 0
	randomGames(3, 6, 80, func(p *Position) {
		b := p.Mutable()
		for _, s := range rules.Sides {
			rows := b.Rows(s)
			for sq := rules.Square(0); sq < Size*Size; sq++ {
				f, r := coords(sq)
				got := rows[r+1]>>(f+1)&1 != 0
				if want := b.At(sq) == (rules.Piece{Side: s, Kind: rules.Stone}); got != want {
					t.Fatalf("Rows(%s) says %v on %s, At says %v, in %s", s, got, squareName(sq), want, p)
				}
			}
		}
		them := b.Turn().Other()
		for _, m := range b.AppendMoves(buf[:0]) {
			before := b.Count(them)
			got := b.Captures(m)
			u := b.Make(m)
			want := before - b.Count(them)
			b.Unmake(u)
			if got != want {
				t.Fatalf("Captures(%s) = %d, Make removes %d enemy stones, in %s", p.SAN(m), got, want, p)
			}
			moves++
			if got > 0 {
				captures++
			}
		}
	})
	if captures == 0 || captures == moves {
		t.Fatalf("%d captures among %d moves: the positions do not test both kinds", captures, moves)
	}
}

func TestCapturesDoNotAllocate(t *testing.T) {
	b := middlegame(t, 12, 40).Mutable()
	moves := b.AppendMoves(make([]rules.Move, 0, 1024))
	n := 0
	if a := testing.AllocsPerRun(10, func() {
		for _, m := range moves {
			n += b.Captures(m)
		}
		_ = b.Rows(rules.Black)
	}); a != 0 {
		t.Errorf("Captures and Rows allocate %v times", a)
	}
}
