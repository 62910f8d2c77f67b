package chesstest

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/chess"
	"github.com/missivechess/missive/rules/internal/naive"
)

// Heavy reports whether slow checks should be cut down: -short or the race
// detector (which makes the generator about ten times slower).
func Heavy() bool { return !testing.Short() && !raceEnabled }

// PerftCase is one line of a perft suite: a FEN and the expected leaf counts by depth.
type PerftCase struct {
	Line  int
	FEN   string
	Count map[int]uint64
}

// ReadPerftFile reads a suite: one position per line, "FEN ;D1 n ;D2 n ...", with
// blank lines and lines starting with # ignored.
func ReadPerftFile(t testing.TB, path string) []PerftCase {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []PerftCase
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.Split(line, ";")
		c := PerftCase{Line: n, FEN: strings.TrimSpace(parts[0]), Count: map[int]uint64{}}
		for _, p := range parts[1:] {
			var d int
			var cnt uint64
			if _, err := fmt.Sscanf(strings.TrimSpace(p), "D%d %d", &d, &cnt); err != nil {
				t.Fatalf("%s:%d: bad depth field %q", path, n, p)
			}
			c.Count[d] = cnt
		}
		out = append(out, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// maxLightLeaves bounds the counts checked under -short or -race.
const maxLightLeaves = 2_000_000

// RunPerftFile checks every count of the suite at path against v; under -short or
// -race the counts above two million leaves are left to the full run.
func RunPerftFile(t *testing.T, v *chess.Variant, path string) {
	for _, c := range ReadPerftFile(t, path) {
		p, err := v.ParseFEN(c.FEN)
		if err != nil {
			t.Errorf("%s:%d: %v", path, c.Line, err)
			continue
		}
		depths := make([]int, 0, len(c.Count))
		for d := range c.Count {
			depths = append(depths, d)
		}
		sort.Ints(depths)
		for _, d := range depths {
			if !Heavy() && c.Count[d] > maxLightLeaves {
				continue
			}
			if got := p.Perft(d); got != c.Count[d] {
				t.Errorf("%s:%d: perft(%d) of %s = %d, want %d", path, c.Line, d, c.FEN, got, c.Count[d])
			}
		}
	}
}

// Divide counts the leaves below each legal move of p, keyed by coordinates.
func Divide(p *chess.Position, depth int) map[string]uint64 {
	b := p.SearchBoard()
	res := map[string]uint64{}
	for _, m := range b.GenerateMoves(nil) {
		b.Make(m)
		res[p.UCI(m.ToRules())] = b.Perft(depth - 1)
		b.Unmake()
	}
	return res
}

// DiffDivide returns the differences between two divides, one line each.
func DiffDivide(ours, theirs map[string]uint64, name string) []string {
	var diffs []string
	for m, n := range theirs {
		if got, ok := ours[m]; !ok {
			diffs = append(diffs, fmt.Sprintf("%s: missing here (%s %d)", m, name, n))
		} else if got != n {
			diffs = append(diffs, fmt.Sprintf("%s: %d here, %s %d", m, got, name, n))
		}
	}
	for m, n := range ours {
		if _, ok := theirs[m]; !ok {
			diffs = append(diffs, fmt.Sprintf("%s: %d here, not a move for %s", m, n, name))
		}
	}
	sort.Strings(diffs)
	return diffs
}

// CompareNaive checks the divide of p at depth against the naive reference.
func CompareNaive(t *testing.T, game naive.Game, p *chess.Position, depth int) {
	t.Helper()
	fen := p.String()
	ref, err := naive.Parse(game, fen)
	if err != nil {
		t.Fatal(err)
	}
	if d := DiffDivide(Divide(p, depth), ref.Divide(depth), "the naive reference"); len(d) > 0 {
		t.Errorf("divide(%d) differs for %s:\n  %s", depth, fen, strings.Join(d, "\n  "))
	}
}

// pick makes the random choice of a move, favouring rare moves (promotion, castling,
// en passant, a Keltic sideways step) first, then double steps, then captures.
func pick(r *rand.Rand, b *chess.SearchBoard, moves []chess.Move) chess.Move {
	var rare, doubles, captures []chess.Move
	g := b.Geometry().Dims()
	for _, m := range moves {
		pawn := b.PieceAt(m.From()).Kind == rules.Pawn
		switch {
		case m.Promotion() != 0 || m.IsCastling() || m.IsEnPassant() || (pawn && !b.IsCapture(m) && g.File(m.From()) != g.File(m.To())):
			rare = append(rare, m)
		case m.IsDoubleStep():
			doubles = append(doubles, m)
		case b.IsCapture(m):
			captures = append(captures, m)
		}
	}
	switch {
	case len(rare) > 0 && r.IntN(2) == 0:
		return rare[r.IntN(len(rare))]
	case len(doubles) > 0 && r.IntN(2) == 0:
		return doubles[r.IntN(len(doubles))]
	case len(captures) > 0 && r.IntN(3) == 0:
		return captures[r.IntN(len(captures))]
	}
	return moves[r.IntN(len(moves))]
}

// RandomPositions plays seeded random games from the starts (chosen at random)
// and returns n positions met along the way, favouring the rare rules.
func RandomPositions(v *chess.Variant, starts []string, n int, seed uint64) []*chess.Position {
	r := rand.New(rand.NewPCG(seed, 7))
	var out []*chess.Position
	for tries := 0; len(out) < n && tries < 100*n; tries++ {
		p, err := v.ParseFEN(starts[r.IntN(len(starts))])
		if err != nil {
			panic(err)
		}
		plies := 10 + r.IntN(120)
		for i := 0; i < plies && len(out) < n; i++ {
			b := p.SearchBoard()
			moves := b.GenerateMoves(nil)
			if len(moves) == 0 {
				break
			}
			next, err := p.PlayMove(pick(r, b, moves).ToRules())
			if err != nil {
				break
			}
			p = next
			if r.IntN(4) == 0 || p.EnPassant() >= 0 {
				out = append(out, p)
			}
			if p.Outcome().IsOver() {
				break
			}
		}
	}
	return out
}

// positionKey is the FEN of p without its two clocks: the pieces, the side to move,
// the castling rights and the en passant square, which make a position repeat.
func positionKey(p *chess.Position) string {
	f := strings.Fields(p.String())
	return strings.Join(f[:4], " ")
}

// CheckRepetitions plays seeded random games from the starts (chosen at random),
// often undoing the mover's previous move so that positions recur across every
// kind of reversible move, and checks at every ply that the position's repetition
// count, the search board's count and the outcome agree with a naive count of the
// clock-less FEN over the whole game: 400 games, 60 under -short or -race. It
// fails when fewer than a tenth of the games end in a threefold repetition (the
// check would no longer exercise it).
func CheckRepetitions(t *testing.T, v *chess.Variant, starts []string, seed uint64) {
	t.Helper()
	games := 400
	if !Heavy() {
		games = 60
	}
	plies, threefolds := 0, 0
	defer func() {
		if threefolds < games/10 {
			t.Errorf("only %d of %d games ended in a threefold repetition; the check no longer exercises it", threefolds, games)
		}
		t.Logf("%d games, %d plies, %d threefold repetitions", games, plies, threefolds)
	}()
	r := rand.New(rand.NewPCG(seed, 11))
	for g := 0; g < games; g++ {
		start := starts[r.IntN(len(starts))]
		p, err := v.ParseFEN(start)
		if err != nil {
			t.Fatal(err)
		}
		b := p.SearchBoard()
		seen := map[string]int{positionKey(p): 1}
		var last [2]chess.Move // each side's previous move
		var line []string
		undo := 1 + r.IntN(3) // this game undoes a move 1, 2 or 3 times in 4
		for ply := 0; ply < 300; ply++ {
			moves := b.GenerateMoves(nil)
			if len(moves) == 0 {
				break
			}
			m := moves[r.IntN(len(moves))]
			if prev := last[b.Turn()]; prev != 0 && r.IntN(4) < undo {
				for _, x := range moves {
					if x.From() == prev.To() && x.To() == prev.From() {
						m = x
						break
					}
				}
			}
			last[b.Turn()] = m
			line = append(line, p.UCI(m.ToRules()))
			next, err := p.PlayMove(m.ToRules())
			if err != nil {
				t.Fatalf("%s after %v: %v", start, line, err)
			}
			p = next
			b.Make(m)
			plies++
			k := positionKey(p)
			seen[k]++
			n := seen[k]
			if got := p.Repetitions(); got != n {
				t.Fatalf("%s after %v: the position counts %d occurrences, the naive count %d", start, line, got, n)
			}
			if got := b.Repetitions(); got != n {
				t.Fatalf("%s after %v: the search board counts %d occurrences, the naive count %d", start, line, got, n)
			}
			o := p.Outcome()
			switch o.Reason {
			case rules.Checkmate, rules.Stalemate, rules.InsufficientMaterial:
			default:
				if want := n >= 3; (o == rules.Draw(rules.Threefold)) != want {
					t.Fatalf("%s after %v: outcome %v with the position seen %d times", start, line, o, n)
				}
			}
			if o == rules.Draw(rules.Threefold) {
				threefolds++
			}
			if o.IsOver() {
				break
			}
		}
	}
}
