package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/missivechess/missive/engine/match"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/record"
	"github.com/missivechess/missive/rules/variants"
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
		{[]string{"match", "--games", "1", "--nodes", "-1"}, "--nodes must be at least 0, not -1"},
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

// With --nodes the players search that many nodes a move, not --think: two games
// at an hour a move would not end.
func TestMatchNodes(t *testing.T) {
	done := make(chan error, 1)
	go func() {
		_, err := runCmd(t, "match", "--games", "2", "--think", "1h", "--nodes", "300", "-a", "builtin", "-b", "builtin", "--max-plies", "8")
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(2 * time.Minute):
		t.Fatal("a match at 300 nodes a move did not end in two minutes: --nodes was not applied")
	}
}

// A clean sweep has no finite Elo difference: the summary says so instead of
// printing a clamped figure with a zero margin.
func TestMatchCleanSweepIsUnbounded(t *testing.T) {
	out, err := runCmd(t, "match", "--variant", "gothic", "--games", "2", "-a", "builtin:depth=2", "-b", "greedy", "--max-plies", "200")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	last := lines[len(lines)-2] // the summary; the time a move follows it
	if tl := lines[len(lines)-1]; !strings.HasPrefix(tl, "time a move: missive-depth=2 ") || !strings.Contains(tl, ", greedy ") {
		t.Errorf("last line %q: want the time a move of each player", tl)
	}
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

// With --openings each pair of games starts from the next position of the file,
// in order and round again, here Go-Chess endings (no placement phase is played),
// and a file with a line that is no position is refused before a game is played.
func TestMatchFromOpenings(t *testing.T) {
	dir := t.TempDir()
	endings := []string{
		"4k5/1*6*1/4**4/2*4*2/R9/10/2*4*2/10/1*6*1/4K5 w - - 0 1",
		"4k5/1*6*1/4**4/2*4*2/10/Q9/2*4*2/10/1*6*1/4K5 b - - 0 1",
	}
	suite := filepath.Join(dir, "endings.fen")
	if err := os.WriteFile(suite, []byte("# Go-Chess endings\n"+strings.Join(endings, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	pgn := filepath.Join(dir, "games.pgn")
	if _, err := runCmd(t, "match", "--variant", "gochess", "--openings", suite, "--opening-plies", "0", "--games", "6",
		"-a", "builtin:depth=1", "-b", "builtin:depth=1", "--max-plies", "4", "--pgn", pgn); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(pgn)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{endings[0], endings[0], endings[1], endings[1], endings[0], endings[0]} {
		g, err := record.ReadPGN(strings.NewReader(pgnGame(string(b), i+1)), variants.Registry())
		if err != nil {
			t.Fatalf("game %d: %v", i+1, err)
		}
		if g.Start.String() != want {
			t.Errorf("game %d started from %s, want %s", i+1, g.Start, want)
		}
	}
	bad := filepath.Join(dir, "bad.fen")
	if err := os.WriteFile(bad, []byte(endings[0]+"\nk9/10 w\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := runCmd(t, "match", "--variant", "gochess", "--openings", bad, "--games", "2")
	if !errors.Is(err, errUsage) || !strings.Contains(err.Error(), "line 2 of "+bad+" is not a Go-Chess position") || out != "" {
		t.Errorf("a bad line: %v, printed %q; want a usage error naming line 2 and no game", err, out)
	}
}

// pgnGame returns game round of a PGN text in which each game carries its Round tag.
func pgnGame(text string, round int) string {
	for _, g := range strings.Split(text, "[Event ")[1:] {
		if strings.Contains(g, fmt.Sprintf("[Round %q]", strconv.Itoa(round))) {
			return "[Event " + g
		}
	}
	return ""
}

// The bench suites of scripts/testdata (scripts/bench-match -f and --suite) stay
// positions of the variant their name starts with, and a test suite's best
// moves legal moves, so that a bench run does not stop at them.
func TestBenchSuitesRead(t *testing.T) {
	for _, kind := range []struct {
		glob string
		read func(f *os.File, v rules.Variant, name string) error
	}{
		{"*.fen", func(f *os.File, v rules.Variant, name string) error {
			_, err := match.ReadOpenings(f, v, name)
			return err
		}},
		{"*.epd", func(f *os.File, v rules.Variant, name string) error {
			_, err := match.ReadSuite(f, v, name)
			return err
		}},
	} {
		files, err := filepath.Glob("../../scripts/testdata/" + kind.glob)
		if err != nil || len(files) == 0 {
			t.Fatalf("no %s suites: %v", kind.glob, err)
		}
		for _, name := range files {
			key, _, _ := strings.Cut(filepath.Base(name), "-")
			v, err := variants.Registry().Lookup(key)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			f, err := os.Open(name)
			if err != nil {
				t.Fatal(err)
			}
			if err := kind.read(f, v, name); err != nil {
				t.Error(err)
			}
			f.Close()
		}
	}
}
