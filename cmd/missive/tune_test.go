package main

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/missivechess/missive/engine"
	"github.com/missivechess/missive/engine/tune"
	"github.com/missivechess/missive/rules/variants"
)

// TestTuneCommand fits the Gothic weights on the tuner's test games: it reports
// the losses and writes a weights file the engine reads back.
func TestTuneCommand(t *testing.T) {
	got, out := tuneGothicGames(t, "--from", "prior", "--epochs", "100")
	for _, want := range []string{"gothic: 40 games", "loss before: training", "loss after: training", "wrote " + out} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	readWeightsFile(t, out)
}

// tuneGothicGames runs the tune command with args on the tuner's Gothic test
// games and returns its output and the path of the weights it wrote.
func tuneGothicGames(t *testing.T, args ...string) (output, weights string) {
	t.Helper()
	weights = filepath.Join(t.TempDir(), "gothic.txt")
	args = append(append([]string{"tune", "--variant", "gothic"}, args...), "--out", weights,
		filepath.Join("..", "..", "engine", "tune", "testdata", "gothic-40.pgn"))
	output, err := runCmd(t, args...)
	if err != nil {
		t.Fatal(err)
	}
	return output, weights
}

// readWeightsFile reads a weights file the tune command wrote, failing the test
// when the engine cannot read it back.
func readWeightsFile(t *testing.T, path string) engine.EvalWeights {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w, err := engine.ReadEvalWeights(f)
	if err != nil {
		t.Fatalf("the written weights do not read back: %v", err)
	}
	return w
}

// TestTuneRefuses checks the tune command's answers to bad input.
func TestTuneRefuses(t *testing.T) {
	if _, err := runCmd(t, "tune", "--variant", "gothic"); !errors.Is(err, errUsage) {
		t.Errorf("no PGN file: %v", err)
	}
	if _, err := runCmd(t, "tune", "--from", "nowhere", "x.pgn"); !errors.Is(err, errUsage) {
		t.Errorf("bad --from: %v", err)
	}
	if _, err := runCmd(t, "tune", "--lambda", "1.5", "x.pgn"); !errors.Is(err, errUsage) {
		t.Errorf("--lambda out of range: %v", err)
	}
	if _, err := runCmd(t, "tune", "--variant", "keltic", "--teacher", "/usr/games/fairy-stockfish", "x.pgn"); !errors.Is(err, errUsage) {
		t.Errorf("a teacher for Keltic: %v", err)
	}
	if _, err := runCmd(t, "tune", "--teacher", "/no/such/engine", "x.pgn"); !errors.Is(err, tune.ErrTeacher) {
		t.Errorf("a missing teacher: %v", err)
	}
	_, err := runCmd(t, "tune", "--variant", "keltic", filepath.Join("..", "..", "engine", "tune", "testdata", "gothic-40.pgn"))
	if !errors.Is(err, tune.ErrNoData) {
		t.Errorf("keltic from Gothic games: %v", err)
	}
}

// TestTuneFitOnly fits two groups of terms alone: every other weight is written
// back as it started, and a prefix that names no term is refused.
func TestTuneFitOnly(t *testing.T) {
	got, out := tuneGothicGames(t, "--from", "prior", "--epochs", "100", "--fit", "tempo, mobility.")
	if !strings.Contains(got, "loss after") {
		t.Errorf("output lacks the fit:\n%s", got)
	}
	tuned := readWeightsFile(t, out)
	if header, _ := os.ReadFile(out); !strings.Contains(string(header), "only the terms starting with tempo, mobility. fitted") {
		t.Errorf("the weights' header does not say what was fitted:\n%.600s", header)
	}
	v, err := variants.Registry().Lookup("gothic")
	if err != nil {
		t.Fatal(err)
	}
	_, prior, err := engine.WeightsFor(v.Start(0))
	if err != nil {
		t.Fatal(err)
	}
	moved := 0
	for i, name := range engine.EvalTerms() {
		changed := tuned.MG[i] != prior.MG[i] || tuned.EG[i] != prior.EG[i]
		fitted := name == "tempo" || strings.HasPrefix(name, "mobility.")
		if changed && !fitted {
			t.Errorf("%s moved from %d/%d to %d/%d, but only tempo and mobility were fitted", name, prior.MG[i], prior.EG[i], tuned.MG[i], tuned.EG[i])
		}
		if changed {
			moved++
		}
	}
	if moved == 0 {
		t.Error("no fitted term moved")
	}
	_, err = runCmd(t, "tune", "--fit", "tempo,nosuchterm", "x.pgn")
	if !errors.Is(err, errUsage) || !strings.Contains(err.Error(), `"nosuchterm"`) {
		t.Errorf("--fit with an unknown prefix: %v", err)
	}
	if _, err := runCmd(t, "tune", "--fit", " , ", "x.pgn"); !errors.Is(err, errUsage) || !strings.Contains(err.Error(), "names no term") {
		t.Errorf("--fit without a prefix: %v", err)
	}
	if frozen, err := frozenTerms("tempo,"); err != nil || frozen["tempo"] || !frozen["kingdanger"] {
		t.Errorf(`--fit "tempo,": frozen tempo %v, kingdanger %v, %v; want tempo fitted alone`, frozen["tempo"], frozen["kingdanger"], err)
	}
}

// TestTuneSearchTeacher fits to the scores of the built-in engine's own search:
// the fit reports its correlation with them, and the weights' header says how
// they were taught.
func TestTuneSearchTeacher(t *testing.T) {
	got, out := tuneGothicGames(t, "--teacher", "builtin:depth=1", "--lambda", "0", "--epochs", "50")
	for _, want := range []string{"gothic: 40 games", "targets: 0.00 of the result, 1.00 of the teacher's win chance", "held-out correlation with the teacher's evaluation"} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	header, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if want := "1.00 the score of this engine's search at builtin:depth=1"; !strings.Contains(string(header), want) {
		t.Errorf("the weights' header lacks %q:\n%.600s", want, header)
	}
}

// TestTuneRefusesSearchTeacher checks the answers to a bad builtin teacher: each
// says what was wrong. The builtin teacher serves every chess-family variant.
func TestTuneRefusesSearchTeacher(t *testing.T) {
	for spec, want := range map[string]string{
		"builtin":          "--teacher builtin needs a limit for each search, as builtin:depth=6 or builtin:nodes=3000",
		"builtin:depth=x":  `"builtin:depth=x": depth takes a number`,
		"builtin:depth=0":  `"builtin:depth=0": depth must be at least 1, not 0`,
		"builtin:speed=3":  `unknown builtin limit "speed" (depth, time, nodes or level)`,
		"builtin:level=12": `The engine's level must be a number from 1 to 8, not "12".`,
	} {
		_, err := runCmd(t, "tune", "--teacher", spec, "x.pgn")
		if !errors.Is(err, errUsage) || !strings.Contains(err.Error(), want) {
			t.Errorf("--teacher %s: %v; want %q", spec, err, want)
		}
	}
	_, err := runCmd(t, "tune", "--variant", "keltic", "--teacher", "builtin:depth=1", filepath.Join("..", "..", "engine", "tune", "testdata", "gothic-40.pgn"))
	if !errors.Is(err, tune.ErrNoData) {
		t.Errorf("keltic with the builtin teacher, from Gothic games: %v; want no data, not a refusal", err)
	}
}

// TestTuneRefusesTeacherDepth: a Fairy-Stockfish teacher's depth must be a
// number of 1 or more, and --teachers a count of 1 or more.
func TestTuneRefusesTeacherDepth(t *testing.T) {
	for _, args := range [][]string{
		{"--teacher", "/usr/games/fairy-stockfish:depth=0", "x.pgn"},
		{"--teacher", "/usr/games/fairy-stockfish:depth=deep", "x.pgn"},
		{"--teacher", "builtin:depth=1", "--teachers", "0", "x.pgn"},
	} {
		if _, err := runCmd(t, append([]string{"tune"}, args...)...); !errors.Is(err, errUsage) {
			t.Errorf("%v: %v, want a usage error", args, err)
		}
	}
}

// TestTuneSearchingTeachers fits to a stand-in Fairy-Stockfish's search scores,
// labelled by two teacher processes, and the weights' header names the depth.
func TestTuneSearchingTeachers(t *testing.T) {
	teacher := filepath.Join("..", "..", "engine", "tune", "testdata", "teacher.sh") + ":depth=7"
	got, out := tuneGothicGames(t, "--teacher", teacher, "--teachers", "2", "--lambda", "0", "--epochs", "20")
	if !strings.Contains(got, "held-out correlation with the teacher's evaluation") {
		t.Errorf("output:\n%s", got)
	}
	header, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if want := "1.00 the score of teacher.sh's search to depth 7"; !strings.Contains(string(header), want) {
		t.Errorf("the weights' header lacks %q:\n%.600s", want, header)
	}
}

func TestBaseNames(t *testing.T) {
	got := baseNames([]string{"/tmp/fsf40/fairy-stockfish.pgn", "/tmp/g500/fairy-stockfish.pgn", "engine/tune/testdata/gothic-40.pgn", "self.pgn"})
	want := []string{"fsf40/fairy-stockfish.pgn", "g500/fairy-stockfish.pgn", "gothic-40.pgn", "self.pgn"}
	if !slices.Equal(got, want) {
		t.Errorf("baseNames = %q, want %q", got, want)
	}
}
