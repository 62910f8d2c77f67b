package engine

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/variants"
)

// fakePlacement is a minimal rules.Simultaneous that offers one kind on every empty
// cell, so that a single choice of the heuristic can be checked on a prepared board.
type fakePlacement struct {
	rules.Position // nil: only the methods below are used
	board          rules.Board
	kind           rules.PieceKind
}

func (f *fakePlacement) Awaiting() []rules.Side { return []rules.Side{rules.White, rules.Black} }
func (f *fakePlacement) PlayAs(rules.Side, rules.Move) (rules.Position, error) {
	return nil, rules.ErrIllegalMove
}
func (f *fakePlacement) ViewFor(rules.Side) rules.Position { return f }
func (f *fakePlacement) Board() rules.Board                { return f.board }
func (f *fakePlacement) LegalMovesFor(rules.Side) []rules.Move {
	var out []rules.Move
	for sq, c := range f.board.Cells {
		if c.State == rules.Playable && c.Piece.Kind == rules.NoPiece {
			out = append(out, rules.Move{From: rules.NoSquare, To: rules.Square(sq), Drop: f.kind})
		}
	}
	return out
}

func TestPlaceKingInPocketNearQueen(t *testing.T) {
	d := rules.Dims{Files: 10, Ranks: 10}
	b := rules.Board{Dims: d, Cells: make([]rules.Cell, d.Cells())}
	put := func(name string, s rules.Side, k rules.PieceKind) {
		sq, _ := d.ParseSquare(name)
		b.Cells[sq].Piece = rules.Piece{Side: s, Kind: k}
	}
	// White pawns form a pocket around b1; the queen stands on d1; a black rook on j9.
	for _, n := range []string{"a2", "b2", "c2", "a1", "c1"} {
		put(n, rules.White, rules.Pawn)
	}
	put("d1", rules.White, rules.Queen)
	put("j9", rules.Black, rules.Rook)
	sq, _ := d.ParseSquare("e5")
	b.Cells[sq].State = rules.Blocked
	f := &fakePlacement{board: b, kind: rules.King}
	m, err := New(Options{}).Place(context.Background(), f, rules.White)
	if err != nil {
		t.Fatal(err)
	}
	if got := d.Name(m.To); got != "b1" {
		t.Fatalf("king placed on %s, want the pocket b1", got)
	}
	// A pawn goes next to its fellows on the home ranks, never on the blocked cell.
	f.kind = rules.Pawn
	m, _ = New(Options{}).Place(context.Background(), f, rules.White)
	if r := d.Rank(m.To); r > 2 || m.To == sq {
		t.Fatalf("pawn placed on %s", d.Name(m.To))
	}
}

// playRealPlacement plays the real Go-Chess placement phase of seed to its end.
func playRealPlacement(t *testing.T, seed uint64, white, black Placer) rules.Position {
	t.Helper()
	v, err := variants.Registry().Lookup("gochess")
	if err != nil {
		t.Fatal(err)
	}
	sp, ok := v.Start(seed).(rules.Simultaneous)
	if !ok {
		t.Fatalf("Go-Chess start %T is not a placement phase", v.Start(seed))
	}
	pos, err := PlayPlacement(context.Background(), sp, white, black)
	if err != nil {
		t.Fatalf("seed %d: %v", seed, err)
	}
	if _, still := pos.(rules.Simultaneous); still {
		t.Fatalf("seed %d: PlayPlacement returned a placement position", seed)
	}
	return pos
}

// kingInCheck reports whether side's king is attacked in pos, whichever side is to move.
func kingInCheck(t *testing.T, pos rules.Position, side rules.Side) bool {
	t.Helper()
	if pos.Turn() == side {
		return pos.InCheck()
	}
	f := strings.Fields(pos.String())
	f[1] = map[rules.Side]string{rules.White: "w", rules.Black: "b"}[side]
	q, err := pos.Variant().ParsePosition(strings.Join(f, " "))
	if err != nil {
		// The rules refuse a position whose side not to move is in check.
		return true
	}
	return q.InCheck()
}

// guards counts side's own pieces on the cells around side's king.
func guards(b rules.Board, side rules.Side) int {
	d := b.Dims
	k := rules.NoSquare
	for sq, c := range b.Cells {
		if c.Piece == (rules.Piece{Side: side, Kind: rules.King}) {
			k = rules.Square(sq)
		}
	}
	n := 0
	for sq, c := range b.Cells {
		s := rules.Square(sq)
		if s != k && c.Piece.Side == side && c.Piece.Kind != rules.NoPiece &&
			abs(d.File(s)-d.File(k)) <= 1 && abs(d.Rank(s)-d.Rank(k)) <= 1 {
			n++
		}
	}
	return n
}

func TestPlaceRealPhase(t *testing.T) {
	e := New(Options{HashBits: 10})
	const seeds = 12
	pocketed, games, first, mixed := 0, 0, 0, 0
	for seed := uint64(1); seed <= seeds; seed++ {
		rnd := RandomPlacer{Rand: rand.New(rand.NewPCG(seed, 3))}
		for _, pair := range []struct {
			name         string
			white, black Placer
			engine       []rules.Side
		}{
			{"engine-engine", e, e, rules.Sides[:]},
			{"engine-random", e, rnd, []rules.Side{rules.White}},
			{"random-engine", rnd, e, []rules.Side{rules.Black}},
		} {
			pos := playRealPlacement(t, seed, pair.white, pair.black)
			if o := pos.Outcome(); o.IsOver() || len(pos.LegalMoves()) == 0 {
				t.Errorf("seed %d %s: the play position is already over: %v", seed, pair.name, o)
			}
			for _, side := range pair.engine {
				if kingInCheck(t, pos, side) {
					t.Errorf("seed %d %s: the engine's %s king is in check in %s", seed, pair.name, side, pos)
				}
				games++
				if len(pair.engine) == 1 {
					mixed++
					if pos.Turn() == side {
						first++
					}
				}
				if guards(pos.Board(), side) >= 2 {
					pocketed++
				}
			}
		}
	}
	// The pocket heuristic: the king stands among at least two of its own men in
	// nearly every placement.
	if pocketed < games*9/10 {
		t.Errorf("king with >= 2 own men around it in %d of %d placements, want >= 90%%", pocketed, games)
	}
	// The distance rule: against random placements, the engine keeps king and queen
	// together and so moves first in most games.
	if first < mixed*3/4 {
		t.Errorf("the engine moved first in %d of %d games against random placement, want >= 75%%", first, mixed)
	}
	t.Logf("pocketed kings: %d of %d; engine first against random: %d of %d", pocketed, games, first, mixed)
}
