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
)

// TestTuneCommand fits the Gothic weights on the tuner's test games: it reports
// the losses and writes a weights file the engine reads back.
func TestTuneCommand(t *testing.T) {
	out := filepath.Join(t.TempDir(), "gothic.txt")
	got, err := runCmd(t, "tune", "--variant", "gothic", "--from", "prior", "--epochs", "100", "--out", out,
		filepath.Join("..", "..", "engine", "tune", "testdata", "gothic-40.pgn"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"gothic: 40 games", "loss before: training", "loss after: training", "wrote " + out} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := engine.ReadEvalWeights(f); err != nil {
		t.Errorf("the written weights do not read back: %v", err)
	}
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

// TestTuneSearchTeacher fits to the scores of the built-in engine's own search:
// the fit reports its correlation with them, and the weights' header says how
// they were taught.
func TestTuneSearchTeacher(t *testing.T) {
	out := filepath.Join(t.TempDir(), "gothic.txt")
	got, err := runCmd(t, "tune", "--variant", "gothic", "--teacher", "builtin:depth=1", "--lambda", "0", "--epochs", "50", "--out", out,
		filepath.Join("..", "..", "engine", "tune", "testdata", "gothic-40.pgn"))
	if err != nil {
		t.Fatal(err)
	}
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
	out := filepath.Join(t.TempDir(), "gothic.txt")
	teacher := filepath.Join("..", "..", "engine", "tune", "testdata", "teacher.sh") + ":depth=7"
	got, err := runCmd(t, "tune", "--variant", "gothic", "--teacher", teacher, "--teachers", "2", "--lambda", "0", "--epochs", "20", "--out", out,
		filepath.Join("..", "..", "engine", "tune", "testdata", "gothic-40.pgn"))
	if err != nil {
		t.Fatal(err)
	}
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
