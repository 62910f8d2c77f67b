package gochess_test

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/gochess"
	"github.com/missivechess/missive/rules/internal/chesstest"
	"github.com/missivechess/missive/rules/internal/naive"
)

var dims = rules.Dims{Files: 10, Ranks: 10}

// fillers are blocked cells far from the action, used to make up ten.
var fillers = []string{"j10", "i10", "h10", "g10", "j9", "i9", "h9", "j8", "i8", "j7"}

// fen builds a play-phase FEN from pieces by square and the blocked cells named,
// made up to ten with fillers.
func fen(pieces map[string]byte, blocked []string, side string) string {
	cells := make([]byte, dims.Cells())
	for i := range cells {
		cells[i] = '.'
	}
	for _, b := range blocked {
		sq, _ := dims.ParseSquare(b)
		cells[sq] = '*'
	}
	for _, f := range fillers {
		if len(blocked) == 10 {
			break
		}
		if sq, _ := dims.ParseSquare(f); cells[sq] == '.' {
			cells[sq] = '*'
			blocked = append(blocked, f)
		}
	}
	for name, p := range pieces {
		sq, _ := dims.ParseSquare(name)
		cells[sq] = p
	}
	return cellsFEN(cells, side)
}

// cellsFEN writes cells ('.', '*' or a piece letter by square) as a FEN with side to move.
func cellsFEN(cells []byte, side string) string {
	var b strings.Builder
	for r := dims.Ranks - 1; r >= 0; r-- {
		empty := 0
		for f := 0; f < dims.Files; f++ {
			c := cells[dims.Square(f, r)]
			if c == '.' {
				empty++
				continue
			}
			if empty > 0 {
				b.WriteString(itoa(empty))
				empty = 0
			}
			b.WriteByte(c)
		}
		if empty > 0 {
			b.WriteString(itoa(empty))
		}
		if r > 0 {
			b.WriteByte('/')
		}
	}
	return b.String() + " " + side + " - - 0 1"
}

func movesFrom(t *testing.T, fen, from string) string {
	t.Helper()
	p, err := gochess.New().ParsePosition(fen)
	if err != nil {
		t.Fatalf("%s: %v", fen, err)
	}
	sq, _ := dims.ParseSquare(from)
	var out []string
	for _, m := range p.LegalMoves() {
		if m.From == sq {
			out = append(out, p.UCI(m))
		}
	}
	slices.Sort(out)
	return strings.Join(out, " ")
}

// TestSpecialRules checks moves worked out by hand for each Go-Chess rule.
func TestSpecialRules(t *testing.T) {
	kings := func(m map[string]byte) map[string]byte {
		if _, ok := m["a1"]; !ok {
			m["j1"] = 'K'
		}
		m["a10"] = 'k'
		m["b10"] = 'p' // so that no test position is a dead draw
		return m
	}
	for _, tc := range []struct {
		name    string
		pieces  map[string]byte
		blocked []string
		from    string
		want    string
	}{
		{"knight leaps over a ring of blocked cells",
			kings(map[string]byte{"c3": 'N'}), []string{"b2", "b3", "b4", "c2", "c4", "d2", "d3", "d4"},
			"c3", "c3a2 c3a4 c3b1 c3b5 c3d1 c3d5 c3e2 c3e4"},
		{"rook stops before blocked cells",
			kings(map[string]byte{"e5": 'R', "c1": 'B'}), []string{"e7", "g5", "e3"},
			"e5", "e5a5 e5b5 e5c5 e5d5 e5e4 e5e6 e5f5"},
		{"bishop stops before a blocked cell",
			kings(map[string]byte{"e5": 'R', "c1": 'B'}), []string{"e7", "g5", "e3"},
			"c1", "c1a3 c1b2 c1d2"},
		{"pawn steps orthogonally four ways and captures diagonally four ways",
			kings(map[string]byte{"e5": 'P', "d6": 'p', "f6": 'r', "d4": 'b', "f4": 'n'}), nil,
			"e5", "e5d4 e5d5 e5d6 e5e4 e5e6 e5f4 e5f5 e5f6"},
		{"pawn never captures orthogonally nor enters a blocked cell",
			kings(map[string]byte{"b2": 'P', "b3": 'p', "c1": 'n'}), []string{"a2"},
			"b2", "b2b1 b2c1 b2c2"},
		{"pawn on the far rank does not promote",
			kings(map[string]byte{"e10": 'P'}), nil,
			"e10", "e10d10 e10e9 e10f10"},
		{"pawn has no double step",
			kings(map[string]byte{"e2": 'P'}), nil,
			"e2", "e2d2 e2e1 e2e3 e2f2"},
		{"pieces pinned along the edge and a diagonal cannot move",
			kings(map[string]byte{"a1": 'K', "a2": 'B', "b2": 'R', "a6": 'r', "d4": 'b'}), nil,
			"a2", ""},
		{"rook pinned on a diagonal cannot move",
			kings(map[string]byte{"a1": 'K', "a2": 'B', "b2": 'R', "a6": 'r', "d4": 'b'}), nil,
			"b2", ""},
		{"rook pinned on a file slides along it",
			kings(map[string]byte{"a1": 'K', "a3": 'R', "a8": 'q'}), nil,
			"a3", "a3a2 a3a4 a3a5 a3a6 a3a7 a3a8"},
		{"a blocked cell between rook and king means no pin",
			kings(map[string]byte{"e1": 'K', "e3": 'N', "e7": 'r'}), []string{"e5"},
			"e3", "e3c2 e3c4 e3d1 e3d5 e3f1 e3f5 e3g2 e3g4"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.pieces["e1"] == 'K' {
				delete(tc.pieces, "j1")
			}
			f := fen(tc.pieces, tc.blocked, "w")
			if got := movesFrom(t, f, tc.from); got != tc.want {
				t.Errorf("moves from %s in %s:\n got %s\nwant %s", tc.from, f, got, tc.want)
			}
		})
	}
}

func TestStartIsThePlacementPhase(t *testing.T) {
	v := gochess.New()
	a, b, c := v.Start(7), v.Start(7), v.Start(8)
	if a.String() != b.String() {
		t.Errorf("same seed, different boards: %s / %s", a, b)
	}
	if a.String() == c.String() {
		t.Errorf("seeds 7 and 8 gave the same board %s", a)
	}
	if n := strings.Count(a.String(), "*"); n != 10 {
		t.Errorf("%d blocked cells in %s", n, a)
	}
	sim, ok := a.(rules.Simultaneous)
	if !ok {
		t.Fatalf("Start(7) is a %T, not a placement state", a)
	}
	if aw := sim.Awaiting(); len(aw) != 2 || a.Outcome().IsOver() {
		t.Errorf("the start awaits %v and is over=%v; want both sides, ongoing", aw, a.Outcome().IsOver())
	}
	for _, side := range rules.Sides {
		if n := len(sim.LegalMovesFor(side)); n != 90 {
			t.Errorf("%v may place its first pawn on %d cells; want the 90 unblocked ones", side, n)
		}
	}
	if _, err := a.Play(rules.Move{From: rules.NoSquare, To: 1, Drop: rules.Pawn}); err == nil {
		t.Errorf("Play on the placement phase was accepted; choices go through PlayAs")
	}
	back, err := v.ParsePosition(a.String())
	if err != nil || back.String() != a.String() {
		t.Errorf("round trip of %s: %v %v", a, back, err)
	}
	if back.Variant().Key() != gochess.Key || a.Variant().Key() != gochess.Key {
		t.Error("wrong variant")
	}
}

// randomFEN places every piece of both sides at random on the board of a seed.
func randomFEN(r *rand.Rand) string {
	blocked := gochess.BlockedFromSeed(r.Uint64())
	cells := make([]byte, dims.Cells())
	for i := range cells {
		cells[i] = '.'
	}
	for _, sq := range blocked {
		cells[sq] = '*'
	}
	free := func(light int) rules.Square {
		for {
			sq := rules.Square(r.IntN(dims.Cells()))
			if cells[sq] == '.' && (light < 0 || (dims.File(sq)+dims.Rank(sq))%2 == light) {
				return sq
			}
		}
	}
	for _, set := range []string{"KQRRNNPPPPPPPP", "kqrrnnpppppppp"} {
		for i := 0; i < len(set); i++ {
			if r.IntN(5) == 0 && set[i] != 'K' && set[i] != 'k' {
				continue // some pieces already captured
			}
			cells[free(-1)] = set[i]
		}
		b := byte('B')
		if set[0] == 'k' {
			b = 'b'
		}
		cells[free(0)] = b
		cells[free(1)] = b
	}
	return cellsFEN(cells, []string{"w", "b"}[r.IntN(2)])
}

func itoa(n int) string {
	if n == 10 {
		return "10"
	}
	return string(rune('0' + n))
}

// playStarts returns n random play-phase FENs that v reads.
func playStarts(v *gochess.Variant, r *rand.Rand, n int) []string {
	var starts []string
	for len(starts) < n {
		f := randomFEN(r)
		if _, err := v.Core().ParseFEN(f); err == nil {
			starts = append(starts, f)
		}
	}
	return starts
}

// TestNaiveReference compares random placements and the games played on from
// them with the slow reference generator.
func TestNaiveReference(t *testing.T) {
	v := gochess.New()
	r := rand.New(rand.NewPCG(11, 12))
	n := 40
	if !chesstest.Heavy() {
		n = 10
	}
	starts := playStarts(v, r, n)
	for i, p := range chesstest.RandomPositions(v.Core(), starts, 2*n, 3) {
		chesstest.CompareNaive(t, naive.GoChess, p, 2)
		if i < n/10 {
			chesstest.CompareNaive(t, naive.GoChess, p, 3)
		}
	}
}

func TestPerftSuite(t *testing.T) {
	chesstest.RunPerftFile(t, gochess.New().Core(), "testdata/perft.epd")
}

// TestPawnShuffleRepeats: every Go-Chess pawn step can be undone, so the position
// repeats across pawn steps and the game ends in a threefold repetition (issue 16).
func TestPawnShuffleRepeats(t *testing.T) {
	v := gochess.New()
	p, err := v.ParsePosition("4k5/10/10/10/10/10/P9/p9/**********/4K5 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	line := []string{"a4b4", "a3b3", "b4a4", "b3a3", "a4b4", "a3b3", "b4a4", "b3a3"}
	for i, s := range line {
		if p.Outcome().IsOver() {
			t.Fatalf("over before %s: %v", s, p.Outcome())
		}
		m, err := p.ParseMove(s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if p, err = p.Play(m); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if i == len(line)-1 {
			break
		}
	}
	if got := p.Outcome(); got != rules.Draw(rules.Threefold) {
		t.Fatalf("outcome %v, want a threefold repetition", got)
	}
	// The engine's search board sees the same repetition, ply by ply.
	start, _ := v.Core().ParseFEN("4k5/10/10/10/10/10/P9/p9/**********/4K5 w - - 0 1")
	b := start.SearchBoard()
	for _, s := range line {
		m, err := b.Position().ParseMove(s)
		if err != nil {
			t.Fatal(err)
		}
		cm, ok := b.FromRules(m)
		if !ok {
			t.Fatalf("%s is not legal on the search board", s)
		}
		b.Make(cm)
	}
	if got := b.Repetitions(); got != 3 {
		t.Errorf("the search board counts %d occurrences, want 3", got)
	}
	if got := b.Outcome(); got != rules.Draw(rules.Threefold) {
		t.Errorf("the search board's outcome is %v, want a threefold repetition", got)
	}
	if got := b.Position().Outcome(); got != rules.Draw(rules.Threefold) {
		t.Errorf("the search board's position's outcome is %v, want a threefold repetition", got)
	}
}

// TestRepetitionsAgainstNaiveCount compares the repetition count and the threefold
// verdict of random games, biased toward undoing moves, with a naive count over the
// whole game.
func TestRepetitionsAgainstNaiveCount(t *testing.T) {
	v := gochess.New()
	r := rand.New(rand.NewPCG(16, 15))
	starts := playStarts(v, r, 40)
	chesstest.CheckRepetitions(t, v.Core(), starts, 16)
}
