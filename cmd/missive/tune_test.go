package main

import (
	"errors"
	"os"
	"path/filepath"
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
