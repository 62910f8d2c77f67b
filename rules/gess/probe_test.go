package gess

import (
	"math/rand/v2"
	"slices"
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

func TestPass(t *testing.T) {
	p := middlegame(t, 12, 40)
	b := p.Mutable()
	b.Pass()
	text := p.String()
	other, err := ParsePosition(text[:len(text)-1] + map[rules.Side]string{rules.White: "b", rules.Black: "w"}[p.Turn()])
	if err != nil {
		t.Fatal(err)
	}
	if want := other.Mutable(); b != want || b.Hash() != want.Hash() || b.Turn() == p.Turn() {
		t.Errorf("after Pass the board is %s, want %s", b.String(), want.String())
	}
	b.Pass()
	if b != p.Mutable() {
		t.Error("a second Pass did not restore the board")
	}
}

// TestReachesMatchesMoves checks Reaches against the destinations of AppendMoves for
// random rectangles in positions from random play.
func TestReachesMatchesMoves(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	buf := make([]rules.Move, 0, 1024)
	yes, no := 0, 0
	randomGames(4, 6, 80, func(p *Position) {
		b := p.Mutable()
		moves := b.AppendMoves(buf[:0])
		for i := 0; i < 20; i++ {
			lf, lr := rng.IntN(Size), rng.IntN(Size)
			hf, hr := min(lf+rng.IntN(5), Size-1), min(lr+rng.IntN(5), Size-1)
			want := false
			for _, m := range moves {
				if f, r := coords(m.To); f >= lf && f <= hf && r >= lr && r <= hr {
					want = true
					break
				}
			}
			before := b
			if got := b.Reaches(square(lf, lr), square(hf, hr)); got != want {
				t.Fatalf("Reaches(%s, %s) = %v, want %v, in %s", squareName(square(lf, lr)), squareName(square(hf, hr)), got, want, p)
			}
			if b != before {
				t.Fatal("Reaches changed the board")
			}
			if want {
				yes++
			} else {
				no++
			}
		}
	})
	if yes == 0 || no == 0 {
		t.Fatalf("%d rectangles reached, %d not: the test covers only one answer", yes, no)
	}
}

// TestAppendCapturesMatchesMoves checks AppendCaptures against the moves of
// AppendMoves that Captures counts as removing an enemy stone, order included.
func TestAppendCapturesMatchesMoves(t *testing.T) {
	buf := make([]rules.Move, 0, 1024)
	total := 0
	randomGames(6, 6, 80, func(p *Position) {
		b := p.Mutable()
		var want []rules.Move
		for _, m := range b.AppendMoves(buf[:0]) {
			if b.Captures(m) > 0 {
				want = append(want, m)
			}
		}
		got := b.AppendCaptures(nil)
		if !slices.Equal(got, want) {
			t.Fatalf("AppendCaptures = %v, want %v in %s", got, want, p)
		}
		if b != p.Mutable() {
			t.Fatal("AppendCaptures changed the board")
		}
		total += len(got)
	})
	if total == 0 {
		t.Fatal("no captures in any position")
	}
}
