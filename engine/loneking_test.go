package engine

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/chess"
	"github.com/missivechess/missive/rules/gochess"
)

// lonePosition returns the Go-Chess position with the blocked cells, the stronger
// side's king on sk and its piece kind on p, the lone king on wk, and toMove to
// move; ok is false when the rules refuse it.
func lonePosition(blocked []rules.Square, kind rules.PieceKind, strong, toMove rules.Side, sk, p, wk rules.Square) (rules.Position, bool) {
	grid := []byte(strings.Repeat(".", 100))
	for _, sq := range blocked {
		grid[sq] = '*'
	}
	if grid[sk] != '.' || grid[p] != '.' || grid[wk] != '.' || sk == p || p == wk || sk == wk {
		return nil, false
	}
	letter := map[rules.PieceKind]byte{rules.Rook: 'R', rules.Queen: 'Q', rules.Bishop: 'B', rules.Knight: 'N'}[kind]
	grid[sk], grid[p], grid[wk] = 'K', letter, 'k'
	if strong == rules.Black {
		grid[sk], grid[p], grid[wk] = 'k', letter+'a'-'A', 'K'
	}
	var sb strings.Builder
	for rank := 9; rank >= 0; rank-- {
		empty := 0
		for _, c := range grid[rank*10 : rank*10+10] {
			if c == '.' {
				empty++
				continue
			}
			if empty > 0 {
				sb.WriteString(strconv.Itoa(empty))
				empty = 0
			}
			sb.WriteByte(c)
		}
		if empty > 0 {
			sb.WriteString(strconv.Itoa(empty))
		}
		if rank > 0 {
			sb.WriteByte('/')
		}
	}
	sb.WriteString(map[rules.Side]string{rules.White: " w", rules.Black: " b"}[toMove] + " - - 0 1")
	pos, err := gochess.New().ParsePosition(sb.String())
	if err != nil {
		return nil, false
	}
	return pos, true
}

// tableValue reads tb at pos: the plies to mate, or -1 for a draw.
func tableValue(t *testing.T, tb *loneKing, pos rules.Position) int {
	t.Helper()
	b, err := chess.NewSearchBoard(pos)
	if err != nil {
		t.Fatal(err)
	}
	_, strong, sk, p, wk, ok := ending(b)
	if !ok {
		if o := pos.Outcome(); o.Reason == rules.InsufficientMaterial {
			return -1
		}
		t.Fatalf("%s is not a lone-king ending", pos)
	}
	d, won := tb.mate(b.Turn() == strong, sk, p, wk)
	if !won {
		return -1
	}
	return d
}

// TestLoneKingTableAgreesWithRules: the table's value of random positions of king
// and rook (or queen) against king, on two Go-Chess boards, follows from its values
// of the positions after each legal move the rules give (a win in d plies has a
// move to a loss in d-1 and none shorter; a loss in d has every move to a win in
// at most d-1, one in exactly d-1; a mate is the rules' checkmate; a draw has no
// winning move, or an escape to a draw).
func TestLoneKingTableAgreesWithRules(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 13))
	for _, c := range []struct {
		seed uint64
		kind rules.PieceKind
	}{{1, rules.Rook}, {8, rules.Queen}} {
		seed, kind := c.seed, c.kind
		var tb *loneKing
		checked := map[string]int{}
		for checked["win"]+checked["loss"]+checked["draw"] < 800 {
			strong, toMove := rules.Side(rng.IntN(2)), rules.Side(rng.IntN(2))
			sk, p, wk := rules.Square(rng.IntN(100)), rules.Square(rng.IntN(100)), rules.Square(rng.IntN(100))
			pos, ok := lonePosition(gochess.BlockedFromSeed(seed), kind, strong, toMove, sk, p, wk)
			if !ok {
				continue
			}
			if tb == nil {
				g, err := newChessGame(pos)
				if err != nil {
					t.Fatal(err)
				}
				tb = newLoneKing(g.ev, g.b.Geometry(), kind)
			}
			v := tableValue(t, tb, pos)
			o := pos.Outcome()
			if o.IsOver() {
				if mated := o.Reason == rules.Checkmate; mated != (v == 0) {
					t.Fatalf("%s: table %d, rules %v", pos, v, o)
				}
				continue
			}
			best, worst, drawn := -1, -1, false
			for _, m := range pos.LegalMoves() {
				next, err := pos.Play(m)
				if err != nil {
					t.Fatal(err)
				}
				c := tableValue(t, tb, next)
				if c < 0 {
					drawn = true
					continue
				}
				if best < 0 || c < best {
					best = c
				}
				worst = max(worst, c)
			}
			weak := toMove != strong
			switch {
			case v < 0 && !weak:
				if best >= 0 && (best%2 == 0) {
					t.Fatalf("%s: table draw, but a move leads to a loss in %d", pos, best)
				}
				checked["draw"]++
			case v < 0:
				if !drawn {
					t.Fatalf("%s: table draw, but every move loses (at most %d)", pos, worst)
				}
				checked["draw"]++
			case !weak:
				if v%2 != 1 || best != v-1 {
					t.Fatalf("%s: table win in %d, the best move loses in %d", pos, v, best)
				}
				checked["win"]++
			default:
				if v%2 != 0 || drawn || worst != v-1 {
					t.Fatalf("%s: table loss in %d, moves lead to wins in at most %d (a draw: %v)", pos, v, worst, drawn)
				}
				checked["loss"]++
			}
		}
		t.Logf("board %d, %v: %v", seed, kind, checked)
		if checked["win"] < 200 || checked["loss"] < 200 {
			t.Errorf("board %d, %v: too few decided positions checked: %v", seed, kind, checked)
		}
	}
}

// TestLoneKingShutInRookDraws: a rook on j1 beside the blocked i1 and j2 never
// moves nor gives check, so the table holds no win with it there; with the rook
// elsewhere on the same board the ending wins.
func TestLoneKingShutInRookDraws(t *testing.T) {
	dims := rules.Dims{Files: 10, Ranks: 10}
	j1 := dims.Square(9, 0)
	// i1 and j2, then eight more, as the rules want ten.
	blocked := []rules.Square{dims.Square(8, 0), dims.Square(9, 1)}
	for f := 1; f <= 8; f++ {
		blocked = append(blocked, dims.Square(f, 9-f%3*2))
	}
	pos, ok := lonePosition(blocked, rules.Rook, rules.White, rules.White, dims.Square(0, 0), j1, dims.Square(3, 3))
	if !ok {
		t.Fatal("the rules refuse the position")
	}
	g, err := newChessGame(pos)
	if err != nil {
		t.Fatal(err)
	}
	tb := newLoneKing(g.ev, g.b.Geometry(), rules.Rook)
	n, wins := tb.n, 0
	for _, strongToMove := range []bool{true, false} {
		for sk := rules.Square(0); int(sk) < n; sk++ {
			for p := rules.Square(0); int(p) < n; p++ {
				for wk := rules.Square(0); int(wk) < n; wk++ {
					if _, won := tb.mate(strongToMove, sk, p, wk); won {
						if p == j1 {
							t.Fatalf("a win with the rook shut in on j1: king %s, lone king %s", dims.Name(sk), dims.Name(wk))
						}
						wins++
					}
				}
			}
		}
	}
	if wins < n*n*n/4 {
		t.Errorf("only %d wins with the rook free", wins)
	}
}

// TestLoneKingFiftyMoveRule: the search takes the table's mate only when it comes
// before the fifty-move rule ends the game.
func TestLoneKingFiftyMoveRule(t *testing.T) {
	const fen = "10/1*6*1/4**4/2*4*2/5k4/10/2*4*2/10/1*6*1/R3K5 w - - %d 60"
	pos := mustPos(t, "gochess", fmt.Sprintf(fen, 0))
	g, err := newChessGame(pos)
	if err != nil {
		t.Fatal(err)
	}
	tb := newLoneKing(g.ev, g.b.Geometry(), rules.Rook)
	d := tableValue(t, tb, pos)
	if d <= 0 {
		t.Fatalf("the table holds %d for %s, want a win", d, pos)
	}
	for _, clock := range []int{0, 100 - d, 101 - d} {
		g, err := newChessGame(mustPos(t, "gochess", fmt.Sprintf(fen, clock)))
		if err != nil {
			t.Fatal(err)
		}
		_, strong, sk, p, wk, _ := ending(g.b)
		sc, ok := tb.probe(g.b, strong, sk, p, wk, 3)
		if want := clock+d <= 100; ok != want {
			t.Errorf("halfmove clock %d, mate in %d plies: probed %v, want %v", clock, d, ok, want)
		} else if ok && sc != MateScore-Score(3+d) {
			t.Errorf("halfmove clock %d: score %v at ply 3, want a mate in %d plies from the root", clock, sc, 3+d)
		}
	}
}

// TestLoneKingBuiltWithinTime: searches with little time build the table a share
// at a time (it takes several times their time), keep to their time, and announce
// the mate once it is done. make test runs it without the race detector.
func TestLoneKingBuiltWithinTime(t *testing.T) {
	if raceDetector {
		t.Skip("measures time: run without -race (make timing)")
	}
	pos := mustPos(t, "gochess", "10/1*6*1/4**4/2*4*2/5k4/10/2*4*2/10/1*6*1/R3K5 w - - 0 1")
	const think = 40 * time.Millisecond
	e := New(Options{HashBits: 16})
	for i := 1; ; i++ {
		r, err := e.Search(context.Background(), pos, Limits{Time: think})
		if err != nil {
			t.Fatal(err)
		}
		if r.Time > think+100*time.Millisecond {
			t.Fatalf("search %d took %v of its %v", i, r.Time, think)
		}
		if r.Score.IsMate() {
			if i < 3 {
				t.Errorf("the table was done after %d searches of %v, want it built in shares", i, think)
			}
			t.Logf("mate %v announced at search %d", r.Score, i)
			return
		}
		if i == 200 {
			t.Fatalf("no mate announced after %d searches", i)
		}
	}
}
