package main

import (
	"errors"
	"strings"
	"testing"
)

// A match needs at least one game and built-in levels from 1 to 8: anything else is
// refused with a sentence, before a game is played.
func TestMatchBadInput(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"match", "--games", "0"}, "--games must be at least 1, not 0"},
		{[]string{"match", "--games", "-3"}, "--games must be at least 1, not -3"},
		{[]string{"match", "--games", "1", "-a", "builtin:level=9"}, `The engine's level must be a number from 1 to 8, not "9".`},
		{[]string{"match", "--games", "1", "-b", "builtin:level=0"}, `The engine's level must be a number from 1 to 8, not "0".`},
		{[]string{"match", "--games", "1", "--opening-plies", "-1"}, "--opening-plies must be at least 0, not -1"},
		{[]string{"match", "--games", "1", "--max-plies", "-1"}, "--max-plies must be at least 0, not -1"},
		{[]string{"match", "--games", "1", "-j", "0"}, "--j must be at least 1, not 0"},
		{[]string{"match", "--games", "1", "--sprt", "5"}, "give elo0,elo1 or elo0,elo1,alpha,beta"},
		{[]string{"match", "--games", "1", "--sprt", "5,x"}, `"x" is not a number`},
		{[]string{"match", "--games", "1", "--sprt", "5,0"}, "elo1 (0) must be above elo0 (5)"},
		{[]string{"match", "--games", "1", "--sprt", "0,5,0.6,0.05"}, "alpha (0.6) and beta (0.05) must lie between 0 and 0.5"},
	} {
		out, err := runCmd(t, tc.args...)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !errors.Is(err, errUsage) {
			t.Errorf("%v: %v; want a usage error saying %q", tc.args, err, tc.want)
		}
		if out != "" {
			t.Errorf("%v: printed %q before refusing", tc.args, out)
		}
	}
}

// A clean sweep has no finite Elo difference: the summary says so instead of
// printing a clamped figure with a zero margin.
func TestMatchCleanSweepIsUnbounded(t *testing.T) {
	out, err := runCmd(t, "match", "--variant", "gothic", "--games", "2", "-a", "builtin:depth=2", "-b", "greedy", "--max-plies", "200")
	if err != nil {
		t.Fatal(err)
	}
	last := out[strings.LastIndex(strings.TrimSpace(out), "\n")+1:]
	if !strings.Contains(last, "+2 =0 -0 of 2 games, score 100.0%") {
		t.Fatalf("want a 2-0 win for the engine, got:\n%s", out)
	}
	if !strings.Contains(last, "Elo unbounded, as missive-depth=2 won every game") ||
		strings.Contains(last, "±") || strings.Contains(last, "1200") || strings.Contains(last, "Inf") || strings.Contains(last, "∞") {
		t.Errorf("summary %q: want the Elo difference called unbounded, with no figure or margin", last)
	}
}

// The bench's smoke: a 2-game match played by two workers under an SPRT, at tiny
// limits, through the code path scripts/bench-match uses; it checks the
// plumbing (both games counted, the pair and the LLR reported), not strength.
func TestMatchParallelSPRTSmoke(t *testing.T) {
	out, err := runCmd(t, "match", "--variant", "gothic", "--games", "2", "-j", "2", "--sprt", "0,10",
		"-a", "builtin:depth=1", "-b", "builtin:nodes=50", "--max-plies", "20")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(out, "\ngame ")+strings.Count(out[:min(len(out), 5)], "game ") != 2 {
		t.Errorf("want 2 games logged:\n%s", out)
	}
	if !strings.Contains(out, "of 2 games") || !strings.Contains(out, "sprt: 1 pairs") || !strings.Contains(out, "sprt [0, 10] alpha 0.05 beta 0.05: pairs [") {
		t.Errorf("want the score of 2 games and the SPRT state of 1 pair:\n%s", out)
	}
}
