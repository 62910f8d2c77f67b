package engine

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
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
	letter := map[rules.PieceKind]byte{rules.Rook: 'R', rules.Queen: 'Q', rules.Bishop: 'B', rules.Knight: 'N', rules.Pawn: 'P'}[kind]
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
// and rook, queen or pawn against king, on Go-Chess boards, follows from its values
// of the positions after each legal move the rules give (a win in d plies has a
// move to a loss in d-1 and none shorter; a loss in d has every move to a win in
// at most d-1, one in exactly d-1; a mate is the rules' checkmate; a draw has no
// winning move, or an escape to a draw).
func TestLoneKingTableAgreesWithRules(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 13))
	for _, c := range []struct {
		seed uint64
		kind rules.PieceKind
	}{{1, rules.Rook}, {8, rules.Queen}, {1, rules.Pawn}, {5, rules.Pawn}} {
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
				tb = newLoneKing(g.ev, g.b.Geometry(), kind, strong)
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
		// A pawn nearly always draws (TestLoneKingPawnWinsOnlyWalledIn counts its wins).
		if kind != rules.Pawn && (checked["win"] < 200 || checked["loss"] < 200) {
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
	tb := newLoneKing(g.ev, g.b.Geometry(), rules.Rook, rules.White)
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
	tb := newLoneKing(g.ev, g.b.Geometry(), rules.Rook, rules.White)
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

// TestLoneKingPawnWinsOnlyWalledIn: king and a Go-Chess pawn against a lone king
// win only where the lone king already stands walled in by the edge, the blocked
// cells and the pawn: on six boards every win the table holds, for either side
// holding the pawn, is a mate in one that the rules confirm, and no loss of the lone
// king to move is anything but a checkmate on the board.
func TestLoneKingPawnWinsOnlyWalledIn(t *testing.T) {
	total := 0
	for seed := uint64(1); seed <= 6; seed++ {
		blocked := gochess.BlockedFromSeed(seed)
		for _, strong := range rules.Sides {
			var tb *loneKing
			for sq := rules.Square(0); tb == nil && sq < 100; sq++ {
				if pos, ok := lonePosition(blocked, rules.Pawn, strong, strong, sq, (sq+22)%100, (sq+44)%100); ok {
					g, err := newChessGame(pos)
					if err != nil {
						t.Fatal(err)
					}
					tb = newLoneKing(g.ev, g.b.Geometry(), rules.Pawn, strong)
				}
			}
			wins := 0
			for _, strongToMove := range []bool{true, false} {
				toMove := strong
				if !strongToMove {
					toMove = strong.Other()
				}
				for sk := rules.Square(0); int(sk) < tb.n; sk++ {
					for p := rules.Square(0); int(p) < tb.n; p++ {
						for wk := rules.Square(0); int(wk) < tb.n; wk++ {
							d, won := tb.mate(strongToMove, sk, p, wk)
							if !won {
								continue
							}
							pos, ok := lonePosition(blocked, rules.Pawn, strong, toMove, sk, p, wk)
							if !ok {
								t.Fatalf("board %d: the table holds a win in %d for a position the rules refuse (king %d, pawn %d, lone king %d)", seed, d, sk, p, wk)
							}
							if !strongToMove {
								if o := pos.Outcome(); d != 0 || o.Reason != rules.Checkmate {
									t.Fatalf("board %d: %s: the table holds a loss in %d plies, the rules %v", seed, pos, d, o)
								}
								continue
							}
							mates := 0
							for _, m := range pos.LegalMoves() {
								if next, err := pos.Play(m); err == nil && next.Outcome().Reason == rules.Checkmate {
									mates++
								}
							}
							if d != 1 || mates == 0 {
								t.Fatalf("board %d: %s: the table holds a win in %d plies; the rules give %d mates in one", seed, pos, d, mates)
							}
							wins++
						}
					}
				}
			}
			t.Logf("board %d, the pawn %v's: %d wins, each a mate in one", seed, strong, wins)
			total += wins
		}
	}
	if total == 0 {
		t.Error("no board holds a win: the walled-in mates went missing")
	}
}

// TestLonePawnIsADraw: king and pawn against a lone king is the draw the table
// says, wherever the men stand: the engine holding the pawn scores it a draw,
// agrees to a draw offered there and offers one itself (a pawn ahead scored as a
// pawn would have it decline every offer and play on for hundreds of moves), and
// the engine with the lone king agrees too. Every search goes to a fixed depth: one
// bounded by time may end, on a busy machine, before the table is built.
func TestLonePawnIsADraw(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for tried := 0; tried < 4; {
		seed := uint64(rng.IntN(1000))
		sk, p, wk := rules.Square(rng.IntN(100)), rules.Square(rng.IntN(100)), rules.Square(rng.IntN(100))
		strong := rules.Side(rng.IntN(2))
		pos, ok := lonePosition(gochess.BlockedFromSeed(seed), rules.Pawn, strong, strong, sk, p, wk)
		if !ok || pos.Outcome().IsOver() {
			continue
		}
		if r, err := New(Options{HashBits: 16}).Search(context.Background(), pos, Limits{Depth: 2}); err != nil || r.Score.IsMate() {
			continue // a lone king walled in: mated next move
		}
		tried++
		e := New(Options{HashBits: 16})
		r, err := e.Search(context.Background(), pos, Limits{Depth: 8})
		if err != nil {
			t.Fatal(err)
		}
		if r.Score < -DefaultContempt || r.Score > DefaultContempt {
			t.Errorf("%s: scored %v to depth 8, want a draw", pos, r.Score)
		}
		judge := func(f func(*Engine, context.Context, rules.Position, rules.Side, int, Limits) (bool, error), pos rules.Position, side rules.Side, plies int) bool {
			ok, err := f(New(Options{HashBits: 16}), context.Background(), pos, side, plies, Limits{Depth: 8})
			if err != nil {
				t.Fatal(err)
			}
			return ok
		}
		late := 2*DrawAfterMove + 20
		if !judge((*Engine).acceptsDraw, pos, strong, late) || !judge((*Engine).acceptsDraw, pos, strong.Other(), late) {
			t.Errorf("%s: a draw offered at move %d is declined", pos, late/2)
		}
		// The pawn's side has just moved: it offers at move DrawAfterMove.
		after, ok := lonePosition(gochess.BlockedFromSeed(seed), rules.Pawn, strong, strong.Other(), sk, p, wk)
		if ok && !after.Outcome().IsOver() {
			plies := 2 * DrawAfterMove
			if strong == rules.White {
				plies--
			}
			if !judge((*Engine).offersDraw, after, strong, plies) {
				t.Errorf("%s: no draw offered at move %d", after, DrawAfterMove)
			}
		}
	}
}

// TestPawnTablesBuiltBeforeTheExchange: with five men or fewer on the board, a
// search builds the pawn table of each side with a pawn, so that an exchange into
// king and pawn against king is seen as the draw it is; with more men it builds
// none.
func TestPawnTablesBuiltBeforeTheExchange(t *testing.T) {
	for _, c := range []struct {
		fen   string
		sides []rules.Side
	}{
		{"10/1*6*1/4**4/2*4*2/3nk5/10/2*1NP1*2/4K5/1*6*1/10 w - - 0 1", []rules.Side{rules.White}},
		{"10/1*6*1/4**4/2*4*2/3nk5/4p5/2*2P1*2/4K5/1*6*1/10 w - - 0 1", []rules.Side{rules.White, rules.Black}},
		{"10/1*6*1/4**4/2*4*2/3nk5/4p5/2*1NP1*2/4K5/1*6*1/10 w - - 0 1", nil},
	} {
		pos := mustPos(t, "gochess", c.fen)
		e := New(Options{HashBits: 16})
		if _, err := e.Search(context.Background(), pos, Limits{Depth: 2}); err != nil {
			t.Fatal(err)
		}
		g, err := newChessGame(pos)
		if err != nil {
			t.Fatal(err)
		}
		tables := e.kept.mem.loneKings
		for _, side := range rules.Sides {
			b := tables[keyOf(g.salt, rules.Pawn, side)]
			want := slices.Contains(c.sides, side)
			if (b != nil && b.done) != want {
				t.Errorf("%s: the pawn table of %v built: %v, want %v", c.fen, side, b != nil && b.done, want)
			}
		}
	}
}
