package tune

import (
	"context"
	"errors"
	"math"
	"os/exec"
	"testing"
	"time"

	"github.com/missivechess/missive/engine"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/variants"
)

func gothicPos(t *testing.T, fen string) rules.Position {
	t.Helper()
	v, err := variants.Registry().Lookup("gothic")
	if err != nil {
		t.Fatal(err)
	}
	if fen == "" {
		return v.Start(0)
	}
	p, err := v.ParsePosition(fen)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestTeacherReadsEvaluations(t *testing.T) {
	tc, err := StartTeacher(context.Background(), "testdata/teacher.sh", "gothic", 0)
	if err != nil {
		t.Fatal(err)
	}
	defer tc.Close()
	cp, ok, err := tc.Eval(gothicPos(t, ""))
	if err != nil || !ok || cp != 50 {
		t.Fatalf("Eval = %v, %v, %v; want 50 centipawns", cp, ok, err)
	}
	// A position the teacher gives no number for is skipped, not an error.
	if _, ok, err := tc.Eval(gothicPos(t, "4k5/10/10/10/10/10/10/4K5 w - - 0 1")); ok || err != nil {
		t.Fatalf("no evaluation: ok %v, err %v", ok, err)
	}
	// The teacher still answers after that.
	if cp, ok, err := tc.Eval(gothicPos(t, "")); err != nil || !ok || cp != 50 {
		t.Fatalf("Eval after a skip = %v, %v, %v", cp, ok, err)
	}
}

// TestTeacherSearches: a teacher with a depth labels by the score of its search,
// the last one before its best move, turned to White's side; a mate leaves the
// position unlabelled.
func TestTeacherSearches(t *testing.T) {
	tc, err := StartTeacher(context.Background(), "testdata/teacher.sh", "gothic", 8)
	if err != nil {
		t.Fatal(err)
	}
	defer tc.Close()
	for _, c := range []struct {
		fen string
		cp  float64
		ok  bool
	}{
		{"", 75, true},
		{"rnbqckabnr/pppppppppp/10/10/4P5/10/PPPP1PPPPP/RNBQCKABNR b KQkq - 0 1", 30, true},
		{"4k5/10/10/10/10/10/10/R3K5 w - - 0 1", 0, false},
		{"", 75, true}, // it still answers after a mate
	} {
		cp, ok, err := tc.Eval(gothicPos(t, c.fen))
		if err != nil || ok != c.ok || ok && cp != c.cp {
			t.Errorf("%q: %v, %v, %v; want %v, %v", c.fen, cp, ok, err, c.cp, c.ok)
		}
	}
}

func TestUCIScore(t *testing.T) {
	for line, want := range map[string][3]float64{ // value, mate, found
		"info depth 9 seldepth 12 multipv 1 score cp -31 nodes 5 pv e2e4": {-31, 0, 1},
		"info depth 9 score mate -3 nodes 5":                              {-3, 1, 1},
		"info depth 9 score cp 12 lowerbound nodes 5":                     {12, 0, 1},
		"info depth 9 currmove e2e4 currmovenumber 1":                     {0, 0, 0},
		"info string score cp x":                                          {0, 0, 0},
	} {
		v, mate, found := uciScore(line)
		if v != want[0] || mate != (want[1] == 1) || found != (want[2] == 1) {
			t.Errorf("%q: %v, %v, %v; want %v", line, v, mate, found, want)
		}
	}
}

func TestTeacherThatHangsFails(t *testing.T) {
	tc, err := StartTeacher(context.Background(), "testdata/teacher.sh", "gothic", 0)
	if err != nil {
		t.Fatal(err)
	}
	defer tc.Close()
	tc.timeout = 200 * time.Millisecond
	start := time.Now()
	_, _, err = tc.Eval(gothicPos(t, "9k/10/10/10/10/10/10/K9 w - - 0 1"))
	if !errors.Is(err, ErrTeacher) {
		t.Fatalf("err = %v, want ErrTeacher", err)
	}
	// The stand-in hangs for 30 s: only a teacher that waited it out takes 20 s,
	// however busy the machine.
	if d := time.Since(start); d > 20*time.Second {
		t.Fatalf("took %v to give up", d)
	}
}

func TestTeacherMissing(t *testing.T) {
	if _, err := StartTeacher(context.Background(), "testdata/no-such-engine", "gothic", 0); !errors.Is(err, ErrTeacher) {
		t.Fatalf("err = %v, want ErrTeacher", err)
	}
}

// TestFairyStockfishAsTeacher: the real teacher sees a queen more as a large
// advantage for the side that has it.
func TestFairyStockfishAsTeacher(t *testing.T) {
	path, err := exec.LookPath("fairy-stockfish")
	if err != nil {
		path = "/usr/games/fairy-stockfish"
		if _, err := exec.LookPath(path); err != nil {
			t.Skip("fairy-stockfish is not installed")
		}
	}
	tc, err := StartTeacher(context.Background(), path, "gothic", 0)
	if err != nil {
		t.Fatal(err)
	}
	defer tc.Close()
	for _, c := range []struct {
		fen  string
		sign float64
	}{
		{"rnbqckabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQCKABNR w KQkq - 0 1", 0},
		{"rnb1ckabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQCKABNR w KQkq - 0 1", 1},
		{"rnbqckabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNB1CKABNR b KQkq - 0 1", -1},
	} {
		cp, ok, err := tc.Eval(gothicPos(t, c.fen))
		if err != nil || !ok {
			t.Fatalf("%s: %v, %v", c.fen, ok, err)
		}
		if c.sign == 0 && (cp < -100 || cp > 100) || c.sign*cp < 500 && c.sign != 0 {
			t.Fatalf("%s: %v centipawns", c.fen, cp)
		}
	}
}

func TestBlend(t *testing.T) {
	var d Data
	for i := range 200 {
		cp := float64(i%21-10) * 50 // -500..500
		out := 0.0
		if cp > 0 || cp == 0 && i%2 == 0 {
			out = 1
		}
		d.Train = append(d.Train, Sample{Result: out, Outcome: out, Teacher: cp, Taught: i%10 != 0})
	}
	d.HeldOut = append(d.HeldOut, Sample{Result: 1, Outcome: 1, Teacher: -300, Taught: true})
	k := Blend(&d, 0.25)
	if k <= 0 {
		t.Fatalf("teacher scale %v", k)
	}
	for _, s := range d.Train {
		switch {
		case !s.Taught && s.Result != s.Outcome:
			t.Fatalf("an untaught sample's target changed: %+v", s)
		case s.Taught:
			want := 0.25*s.Outcome + 0.75*winChance(s.Teacher, k)
			if math.Abs(s.Result-want) > 1e-12 {
				t.Fatalf("target %v, want %v for %+v", s.Result, want, s)
			}
		}
	}
	if h := d.HeldOut[0]; h.Result >= 0.5 || h.Result <= 0.25 {
		t.Fatalf("held-out target %v: a won game the teacher judged lost should land between the result's share and a half", h.Result)
	}
}

// TestTeacherCorrelation checks the correlation on samples whose evaluation is an
// exact linear function of the teacher's, and on an anti-correlated teacher.
func TestTeacherCorrelation(t *testing.T) {
	d := loadTestdata(t)
	w, _, err := engine.WeightsFor(d.Start)
	if err != nil {
		t.Fatal(err)
	}
	var same, opposite []Sample
	for _, s := range d.Train {
		e := float64(w.Score(s.Features))
		same = append(same, Sample{Features: s.Features, Teacher: 3*e + 40, Taught: true})
		opposite = append(opposite, Sample{Features: s.Features, Teacher: -e, Taught: true})
	}
	if c := TeacherCorrelation(same, w); c < 0.999 {
		t.Errorf("linear teacher: correlation %.4f, want 1", c)
	}
	if c := TeacherCorrelation(opposite, w); c > -0.999 {
		t.Errorf("opposite teacher: correlation %.4f, want -1", c)
	}
	if c := TeacherCorrelation(d.Train, w); c != 0 {
		t.Errorf("untaught samples: correlation %.4f, want 0", c)
	}
}

// TestSearchTeacherSearches: the search teacher's label of a position with a
// hanging queen is the search's (the queen taken), not the static evaluation's,
// from White's side whichever side is to move.
func TestSearchTeacherSearches(t *testing.T) {
	tc := NewSearchTeacher(context.Background(), engine.Limits{Depth: 4})
	for _, c := range []struct {
		fen  string
		sign float64 // the side that wins the queen: +1 White, -1 Black
	}{
		{"9k/10/10/4q5/10/10/10/K3R5 w - - 0 1", 1},
		{"4r4k/10/10/10/4Q5/10/10/K9 b - - 0 1", -1},
	} {
		pos := gothicPos(t, c.fen)
		_, static, _, err := engine.PositionFeatures(pos)
		if err != nil {
			t.Fatal(err)
		}
		cp, ok, err := tc.Eval(pos)
		if err != nil || !ok {
			t.Fatalf("%s: Eval = %v, %v, %v", c.fen, cp, ok, err)
		}
		// The static evaluation sees a queen against a rook; the search wins the queen.
		if c.sign*float64(static) > -300 || c.sign*cp < 300 {
			t.Errorf("%s: static %d, search label %v; want the label to see the queen won", c.fen, static, cp)
		}
	}
}

// TestSearchTeacherSkipsDecided: a mate found or a finished game gives no label,
// and a cancelled context is an error, not a label.
func TestSearchTeacherSkipsDecided(t *testing.T) {
	tc := NewSearchTeacher(context.Background(), engine.Limits{Depth: 3})
	for _, fen := range []string{
		"9k/10/9K/10/10/10/10/R9 w - - 0 1",  // Ra8 mates
		"R8k/10/9K/10/10/10/10/10 b - - 0 1", // mated
	} {
		if cp, ok, err := tc.Eval(gothicPos(t, fen)); ok || err != nil {
			t.Errorf("%s: Eval = %v, %v, %v; want no label", fen, cp, ok, err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	stopped := NewSearchTeacher(ctx, engine.Limits{Depth: 3})
	if _, ok, err := stopped.Eval(gothicPos(t, "")); ok || !errors.Is(err, context.Canceled) || !errors.Is(err, ErrTeacher) {
		t.Errorf("cancelled: ok %v, err %v; want ErrTeacher wrapping context.Canceled", ok, err)
	}
}
