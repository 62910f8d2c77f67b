package engine

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/chess"
)

var writePrior = flag.String("write-prior-weights", "", "write weights/<key>.txt with the hand-set prior for this variant key")

// TestWritePriorWeights bootstraps a variant's weights file from the prior (only
// with -write-prior-weights KEY).
func TestWritePriorWeights(t *testing.T) {
	if *writePrior == "" {
		t.Skip("only with -write-prior-weights")
	}
	pos := evalStart(t, *writePrior)
	_, prior, err := WeightsFor(pos)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := prior.Write(&buf, "hand-set prior weights of "+*writePrior+" (not tuned)"); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join("weights", *writePrior+".txt"), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// evalStart returns a play position of variant key (Go-Chess: a placed board).
func evalStart(t testing.TB, key string) rules.Position {
	for _, s := range pinStarts {
		if s.variant == key {
			return mustPos(t, s.variant, s.fen)
		}
	}
	t.Fatalf("no start for %s", key)
	return nil
}

// TestWeightFilesComplete checks that every chess-family variant has a weights file
// with every term, and that a file lacking a term or giving one twice is refused.
func TestWeightFilesComplete(t *testing.T) {
	for _, key := range []string{"gothic", "keltic", "gochess"} {
		data, err := weightFiles.ReadFile("weights/" + key + ".txt")
		if err != nil {
			t.Fatalf("%s: %v", key, err)
		}
		if _, err := parseWeights(bytes.NewReader(data)); err != nil {
			t.Errorf("%s: %v", key, err)
		}
		if tunedWeights[key] == nil {
			t.Errorf("%s: weights not loaded", key)
		}
		lines := strings.Split(string(data), "\n")
		var drop int
		for i, l := range lines {
			if strings.HasPrefix(l, "bishop.pair ") {
				drop = i
			}
		}
		missing := strings.Join(append(append([]string(nil), lines[:drop]...), lines[drop+1:]...), "\n")
		_, err = parseWeights(strings.NewReader(missing))
		if !errors.Is(err, ErrBadWeights) || !strings.Contains(err.Error(), `"bishop.pair" missing`) {
			t.Errorf("%s without bishop.pair: got %v", key, err)
		}
		twice := string(data) + lines[drop] + "\n"
		if _, err := parseWeights(strings.NewReader(twice)); !errors.Is(err, ErrBadWeights) {
			t.Errorf("%s with bishop.pair twice: got %v", key, err)
		}
	}
}

// TestFeaturesDotWeightsIsEvaluate checks along random games of each variant that
// the features the tuner reads, dotted with the engine's weights, give exactly the
// engine's static evaluation, so that the tuner fits the function the engine uses.
func TestFeaturesDotWeightsIsEvaluate(t *testing.T) {
	for i, s := range pinStarts {
		pos := mustPos(t, s.variant, s.fen)
		rng := rand.New(rand.NewPCG(uint64(i), 7))
		w, _, err := WeightsFor(pos)
		if err != nil {
			t.Fatal(err)
		}
		nonzero := 0
		// A cache of two slots, shared along the game: structures meet again, and
		// others take their slots.
		pc := make(pawnCache, 2)
		for ply := 0; ply < 80 && !pos.Outcome().IsOver(); ply++ {
			f, eval, _, err := PositionFeatures(pos)
			if err != nil {
				t.Fatal(err)
			}
			g, _ := newChessGame(pos)
			uncached := g.evaluate()
			want := int(uncached)
			if pos.Turn() == rules.Black {
				want = -want
			}
			if eval != want || w.Score(f) != want {
				t.Fatalf("%s %s: features dot weights %d, PositionFeatures %d, evaluate %d", s.variant, pos, w.Score(f), eval, want)
			}
			g.usePawnCache(pc)
			for range 2 {
				if cached := g.evaluate(); cached != uncached {
					t.Fatalf("%s %s: evaluate with the pawn cache %d, without %d", s.variant, pos, cached, uncached)
				}
			}
			for _, v := range f.Values {
				if v != 0 {
					nonzero++
				}
			}
			moves := pos.LegalMoves()
			if pos, err = pos.Play(moves[rng.IntN(len(moves))]); err != nil {
				t.Fatal(err)
			}
		}
		if nonzero == 0 {
			t.Errorf("%s: every feature was zero", s.variant)
		}
	}
}

// TestEvalSymmetric checks that the evaluation of a position and of its colour
// mirror agree (the start positions are symmetric: only the tempo counts).
func TestEvalSymmetric(t *testing.T) {
	for _, key := range []string{"gothic", "keltic"} {
		pos := mustPos(t, key, "")
		f, _, quiet, err := PositionFeatures(pos)
		if err != nil {
			t.Fatal(err)
		}
		if !quiet {
			t.Errorf("%s start: not quiet", key)
		}
		if len(f.Squares) != 0 {
			t.Errorf("%s start: piece-square terms %v do not cancel out", key, f.Squares)
		}
		for i, v := range f.Values {
			if want := int32(0); evalTerm(i) == termTempo {
				if v != 1 {
					t.Errorf("%s start: tempo %d, want 1", key, v)
				}
			} else if v != want {
				t.Errorf("%s start: %s = %d, want 0", key, evalTermNames[i], v)
			}
		}
	}
}

// TestMobilityOnRealBoard checks that mobility counts only cells of the board: a
// Keltic rook on the cross's edge reaches no missing cell.
func TestMobilityOnRealBoard(t *testing.T) {
	pos := mustPos(t, "keltic", "***1k1***/**5**/9/9/R8/**5**/***1K1*** w - - 0 1")
	f, _, _, err := PositionFeatures(pos)
	if err != nil {
		t.Fatal(err)
	}
	// a3: the rank (b3-i3) and a4, a5; a2 and a1 do not exist.
	if got := f.Values[termMobility+evalTerm(slotOf(rules.Rook))-1]; got != 10 {
		t.Errorf("rook mobility %d, want 10", got)
	}
	_ = chess.MaxMoves
}

func slotOf(k rules.PieceKind) int {
	for i, x := range evalKinds {
		if x == k {
			return i
		}
	}
	return -1
}

// BenchmarkChessEvaluate measures the static evaluation along a random Gothic game.
func BenchmarkChessEvaluate(b *testing.B) {
	pos := mustPos(b, "gothic", "")
	rng := rand.New(rand.NewPCG(3, 4))
	var games []*chessGame
	for ply := 0; ply < 60 && !pos.Outcome().IsOver(); ply++ {
		g, _ := newChessGame(pos)
		games = append(games, g)
		moves := pos.LegalMoves()
		pos, _ = pos.Play(moves[rng.IntN(len(moves))])
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		g := games[i%len(games)]
		g.evaluate()
	}
}

// TestKelticPassedPawns checks that a Keltic pawn on a file without a promotion
// cell is not counted as passed, while one on the d-f files is.
func TestKelticPassedPawns(t *testing.T) {
	for _, tc := range []struct {
		fen    string
		passed int32
	}{
		{"***1k1***/**5**/9/P8/9/**5**/***1K1*** w - - 0 1", 0},    // a4: the a-file ends at a5
		{"***1k1***/**5**/9/4P4/9/**5**/***1K1*** w - - 0 1", 1},   // e4
		{"***1k1***/**5**/4p4/4P4/9/**5**/***1K1*** w - - 0 1", 0}, // e4 blocked by e5 (and e5 by e4)
	} {
		f, _, _, err := PositionFeatures(mustPos(t, "keltic", tc.fen))
		if err != nil {
			t.Fatal(err)
		}
		if got := f.Values[termPassed]; got != tc.passed {
			t.Errorf("%s: passed %d, want %d", tc.fen, got, tc.passed)
		}
	}
}

// TestKingSafetyAndOutpostFeatures checks the newer terms on small positions
// against counts worked out by hand.
func TestKingSafetyAndOutpostFeatures(t *testing.T) {
	check := termCheck + evalTerm(slotOf(rules.Knight)) - 1
	for _, tc := range []struct {
		name, fen string
		term      evalTerm
		want      int32
	}{
		// The knight on f4 reaches e6 and g6, both checks on the king on f8 that
		// nothing of Black's defends.
		{"safe checks", "5k4/10/10/10/5N4/10/10/K9 w - - 0 1", check, 2},
		// A pawn on f7 defends both.
		{"defended checks", "5k4/5p4/10/10/5N4/10/10/K9 w - - 0 1", check, 0},
		// A Black knight's safe checks (e3, g3 on the king on f1) count for Black.
		{"black's checks", "k9/10/10/5n4/10/10/10/5K4 w - - 0 1", check, -2},
		// d5, defended by e4, in Black's half, and no Black pawn on the c or e
		// files ahead of it can ever attack it.
		{"outpost", "k9/10/10/3N6/4P5/10/10/K9 w - - 0 1", termOutpostKnight, 1},
		{"no outpost: c7 can attack it", "k9/2p7/10/3N6/4P5/10/10/K9 w - - 0 1", termOutpostKnight, 0},
		{"no outpost: undefended", "k9/10/10/3N6/10/10/10/K9 w - - 0 1", termOutpostKnight, 0},
		// The White king on e1 with no pawn on its file; Black's on f8 has f7.
		{"king on a pawnless file", "5k4/5p4/10/10/10/10/3P6/4K5 w - - 0 1", termKingFile, 1},
		// Black pawns on e3 and f4 are at most three ranks ahead of the king on e1,
		// d5 is four: the term counts them for the side whose king they storm.
		{"pawn storm", "5k4/10/10/3p6/5p4/4p5/10/4K5 w - - 0 1", termKingStorm, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, _, _, err := PositionFeatures(mustPos(t, "gothic", tc.fen))
			if err != nil {
				t.Fatal(err)
			}
			if got := f.Values[tc.term]; got != tc.want {
				t.Errorf("%s = %d, want %d", evalTermNames[tc.term], got, tc.want)
			}
		})
	}
}

// TestPieceSquareTermsFold checks that a piece and its mirror images (the other
// side's, the other wing's) share one piece-square term.
func TestPieceSquareTermsFold(t *testing.T) {
	terms := func(fen string) []TermCount {
		f, _, _, err := PositionFeatures(mustPos(t, "gothic", fen))
		if err != nil {
			t.Fatal(err)
		}
		return f.Squares
	}
	// White knight b3 and Black knight i6 (b3 mirrored in both ways) cancel out.
	if got := terms("k9/10/8n1/10/10/1N8/10/K9 w - - 0 1"); len(got) != 0 {
		t.Errorf("mirrored knights: %v, want none", got)
	}
	// The kings on a8 and j1 mirror each other and cancel out too.
	var names []string
	for _, tc := range terms("k9/10/10/10/10/1N8/10/9K w - - 0 1") {
		names = append(names, fmt.Sprintf("%s %d", evalTermNames[tc.Term], tc.Count))
	}
	if want := []string{"psq.knight.b3 1"}; !slices.Equal(names, want) {
		t.Errorf("piece-square terms %v, want %v", names, want)
	}
}
