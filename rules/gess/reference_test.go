package gess

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/missivechess/missive/rules"
)

// refBoard is the deliberately simple reference: a grid of cells, every rule applied
// by looking at squares one by one, nothing shared with the fast generator but the
// square numbering of package rules.
type refBoard struct {
	cell [Size][Size]int8 // [file][rank]: 0 empty, 1 black, 2 white
	turn rules.Side
}

func refMark(s rules.Side) int8 {
	if s == rules.Black {
		return 1
	}
	return 2
}

// refFrom reads the stones of p through its public Board view.
func refFrom(p rules.Position) refBoard {
	var rb refBoard
	view := p.Board()
	for f := 0; f < Size; f++ {
		for r := 0; r < Size; r++ {
			if c := view.At(view.Square(f, r)); !c.Piece.IsNone() {
				rb.cell[f][r] = refMark(c.Piece.Side)
			}
		}
	}
	rb.turn = p.Turn()
	return rb
}

func refInside(f, r int) bool { return f >= 0 && f < Size && r >= 0 && r < Size }

// stone returns the cell at (f, r), empty outside the frame.
func (rb *refBoard) stone(f, r int) int8 {
	if !refInside(f, r) {
		return 0
	}
	return rb.cell[f][r]
}

// overlaps reports whether the block centred on (nf, nr) holds a stone that is not in
// the block centred on (cf, cr).
func (rb *refBoard) overlaps(cf, cr, nf, nr int) bool {
	for a := -1; a <= 1; a++ {
		for b := -1; b <= 1; b++ {
			x, y := nf+a, nr+b
			inPiece := x >= cf-1 && x <= cf+1 && y >= cr-1 && y <= cr+1
			if rb.stone(x, y) != 0 && !inPiece {
				return true
			}
		}
	}
	return false
}

// moves lists every legal move by brute force over all centres, directions and distances.
func (rb *refBoard) moves() []rules.Move {
	me, them := refMark(rb.turn), refMark(rb.turn.Other())
	var out []rules.Move
	for cf := 0; cf < Size; cf++ {
		for cr := 0; cr < Size; cr++ {
			mine, theirs := 0, 0
			for a := -1; a <= 1; a++ {
				for b := -1; b <= 1; b++ {
					switch rb.stone(cf+a, cr+b) {
					case me:
						mine++
					case them:
						theirs++
					}
				}
			}
			if mine == 0 || theirs > 0 {
				continue
			}
			centre := rb.stone(cf, cr) == me
			for dx := -1; dx <= 1; dx++ {
				for dy := -1; dy <= 1; dy++ {
					if (dx == 0 && dy == 0) || rb.stone(cf+dx, cr+dy) != me {
						continue
					}
					// The first distance at which the footprint overlaps a foreign stone.
					first := Size
					for j := 1; j < Size; j++ {
						if rb.overlaps(cf, cr, cf+j*dx, cr+j*dy) {
							first = j
							break
						}
					}
					for k := 1; k < Size; k++ {
						tf, tr := cf+k*dx, cr+k*dy
						if refInside(tf, tr) && (centre || k <= 3) && k <= first {
							out = append(out, rules.Move{From: rules.Square(cr*Size + cf), To: rules.Square(tr*Size + tf)})
						}
					}
				}
			}
		}
	}
	sortMoves(out)
	return out
}

func sortMoves(ms []rules.Move) {
	slices.SortFunc(ms, func(a, b rules.Move) int {
		return cmp.Or(cmp.Compare(a.From, b.From), cmp.Compare(a.To, b.To))
	})
}

// play returns the board after legal move m.
func (rb *refBoard) play(m rules.Move) refBoard {
	n := *rb
	cf, cr := int(m.From)%Size, int(m.From)/Size
	tf, tr := int(m.To)%Size, int(m.To)/Size
	var piece [3][3]int8
	for a := -1; a <= 1; a++ {
		for b := -1; b <= 1; b++ {
			piece[a+1][b+1] = rb.stone(cf+a, cr+b)
			if refInside(cf+a, cr+b) {
				n.cell[cf+a][cr+b] = 0
			}
		}
	}
	for a := -1; a <= 1; a++ {
		for b := -1; b <= 1; b++ {
			if refInside(tf+a, tr+b) {
				n.cell[tf+a][tr+b] = piece[a+1][b+1]
			}
		}
	}
	for i := 0; i < Size; i++ {
		n.cell[i][0], n.cell[i][Size-1], n.cell[0][i], n.cell[Size-1][i] = 0, 0, 0, 0
	}
	n.turn = rb.turn.Other()
	return n
}

// rings lists the centres of side's rings in rank-then-file order.
func (rb *refBoard) rings(side rules.Side) []rules.Square {
	me := refMark(side)
	var out []rules.Square
	for r := 0; r < Size; r++ {
		for f := 0; f < Size; f++ {
			ok := rb.stone(f, r) == 0
			for a := -1; a <= 1 && ok; a++ {
				for b := -1; b <= 1 && ok; b++ {
					if (a != 0 || b != 0) && rb.stone(f+a, r+b) != me {
						ok = false
					}
				}
			}
			if ok {
				out = append(out, rules.Square(r*Size+f))
			}
		}
	}
	return out
}

// outcome applies the ring rule with the side not to move as the one that just moved.
func (rb *refBoard) outcome() rules.Outcome {
	mover := rb.turn.Other()
	if len(rb.rings(mover)) == 0 {
		return rules.Win(rb.turn, rules.RingLoss)
	}
	if len(rb.rings(rb.turn)) == 0 {
		return rules.Win(mover, rules.RingLoss)
	}
	return rules.OngoingOutcome
}

// text writes the position text of the reference board.
func (rb *refBoard) text() string {
	var sb strings.Builder
	for r := Size - 1; r >= 0; r-- {
		for f := 0; f < Size; f++ {
			sb.WriteByte(".xo"[rb.cell[f][r]])
		}
		if r > 0 {
			sb.WriteByte('/')
		}
	}
	return sb.String() + " " + map[rules.Side]string{rules.Black: "b", rules.White: "w"}[rb.turn]
}

func (rb *refBoard) perft(depth int) uint64 {
	if depth == 0 {
		return 1
	}
	if rb.outcome().IsOver() {
		return 0
	}
	moves := rb.moves()
	if depth == 1 {
		return uint64(len(moves))
	}
	var n uint64
	for _, m := range moves {
		next := rb.play(m)
		n += next.perft(depth - 1)
	}
	return n
}

// TestAgainstReference compares the fast generator, Make/Unmake, the hash, the rings
// and the outcome with the reference on thousands of positions from random play.
func TestAgainstReference(t *testing.T) {
	games, plies := 24, 120
	if testing.Short() {
		games = 10
	}
	rng := rand.New(rand.NewPCG(7, 7))
	positions, moves := 0, 0
	randomGames(1, games, plies, func(p *Position) {
		positions++
		rb := refFrom(p)
		if got, want := p.String(), rb.text(); got != want {
			t.Fatalf("text differs from the reference:\n got %s\nwant %s", got, want)
		}
		for _, s := range rules.Sides {
			if got, want := p.Rings(s), rb.rings(s); !slices.Equal(got, want) {
				t.Fatalf("%s rings %v, reference %v in %s", s, got, want, p)
			}
		}
		if p.Repetitions() < 3 {
			if got, want := p.Outcome(), rb.outcome(); got != want {
				t.Fatalf("outcome %v, reference %v in %s", got, want, p)
			}
		}
		b := p.Mutable()
		fast := b.AppendMoves(nil)
		sortMoves(fast)
		ref := rb.moves()
		if !slices.Equal(fast, ref) {
			t.Fatalf("%d moves, reference %d in %s\nonly fast: %v\nonly reference: %v",
				len(fast), len(ref), p, names(p, diff(fast, ref)), names(p, diff(ref, fast)))
		}
		if !p.Outcome().IsOver() && !slices.Equal(p.LegalMoves(), ref) {
			t.Fatalf("LegalMoves is not the sorted generator output in %s", p)
		}
		// Play a sample of the moves both ways, and undo them.
		for i := 0; i < 8 && len(fast) > 0; i++ {
			m := fast[rng.IntN(len(fast))]
			moves++
			before := b
			u := b.Make(m)
			want := rb.play(m)
			if got := b.String(); got != want.text() {
				t.Fatalf("after %s in %s:\n got %s\nwant %s", p.UCI(m), p, got, want.text())
			}
			fresh := b
			fresh.rehash()
			if fresh.Hash() != b.Hash() {
				t.Fatalf("incremental hash after %s differs from a fresh one in %s", p.UCI(m), p)
			}
			if got, want := u.Removed(), countStones(rb)-countStones(want); got != want {
				t.Fatalf("Removed() = %d after %s, reference %d in %s", got, p.UCI(m), want, p)
			}
			b.Unmake(u)
			if b != before {
				t.Fatalf("Unmake after %s did not restore %s", p.UCI(m), p)
			}
		}
	})
	t.Logf("%d positions, %d moves played both ways", positions, moves)
	if !testing.Short() && positions < 2000 {
		t.Errorf("only %d positions compared; want thousands", positions)
	}
}

func countStones(rb refBoard) int {
	n := 0
	for f := range rb.cell {
		for r := range rb.cell[f] {
			if rb.cell[f][r] != 0 {
				n++
			}
		}
	}
	return n
}

// diff returns the moves of a not in b.
func diff(a, b []rules.Move) []rules.Move {
	var out []rules.Move
	for _, m := range a {
		if !slices.Contains(b, m) {
			out = append(out, m)
		}
	}
	return out
}

func names(p *Position, ms []rules.Move) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = p.UCI(m)
	}
	return out
}

// TestLegalityAgainstMoveList checks, on a few random positions, every pair of centres
// of the frame: IsLegal and Play accept a move exactly when the generator lists it,
// and Play's error always says why.
func TestLegalityAgainstMoveList(t *testing.T) {
	count := 12
	if testing.Short() {
		count = 3
	}
	var ps []*Position
	randomGames(3, count, 40, func(p *Position) {
		if len(ps) < count*4 && !p.Outcome().IsOver() {
			ps = append(ps, p)
		}
	})
	for i := 0; i < len(ps); i += 4 {
		p := ps[i]
		b := p.Mutable()
		legal := make(map[rules.Move]bool)
		for _, m := range p.LegalMoves() {
			legal[m] = true
		}
		for from := rules.Square(0); from < Size*Size; from++ {
			for to := rules.Square(0); to < Size*Size; to++ {
				m := rules.Move{From: from, To: to}
				if b.IsLegal(m) != legal[m] {
					t.Fatalf("IsLegal(%s) = %v, generator %v in %s", p.UCI(m), !legal[m], legal[m], p)
				}
				if i > 0 {
					continue // the errors are formatted on one position only: it is slower
				}
				if err := b.explain(m); (err == nil) != legal[m] {
					t.Fatalf("explain(%s) = %v, generator %v in %s", p.UCI(m), err, legal[m], p)
				}
			}
		}
	}
}
