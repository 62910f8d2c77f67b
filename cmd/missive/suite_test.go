package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// suiteFile writes a suite of three Gothic positions and returns its path.
func suiteFile(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "s.epd")
	text := "rnbqckabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQCKABNR w KQkq - 0 1 bm e2e4; id \"start\";\n" +
		"r1bqck1b1r/p1p1ppp2p/2p4p1n/8p1/2pPPPPa2/P1N4P2/1P2C3PP/R1BQ1KA1NR b KQkq - 2 11 bm j6i4;\n" +
		"1rb1ckar2/1pn2p3p/p1n1p4p/3p1PA3/3bP1P3/3P1CqNP1/PPP7/RNBQ1K1B1R b KQ - 4 19 bm g3g4;\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// missive suite prints each player's count and each later player against the
// first, and with --out one line of moves a position.
func TestSuiteCommand(t *testing.T) {
	path := suiteFile(t)
	out := filepath.Join(t.TempDir(), "moves.tsv")
	text, err := runCmd(t, "suite", "--nodes", "3000", "-j", "2", "--out", out, path, "builtin", "greedy")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"searched 3 of 3\n", "missive: ", " of 3 best moves found (", "greedy: ", "; against missive "} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q:\n%s", want, text)
		}
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 4 || lines[0] != "id\tbest\tmissive\tmissive found\tgreedy\tgreedy found" || !strings.HasPrefix(lines[1], "start\te2e4\t") {
		t.Errorf("--out file:\n%s", b)
	}
}

// Bad input is refused with a sentence before any search.
func TestSuiteBadInput(t *testing.T) {
	path := suiteFile(t)
	engines := filepath.Join(t.TempDir(), "engines.yaml")
	if err := os.WriteFile(engines, []byte("engines:\n  - {name: fm, command: /bin/true, protocol: xboard, variants: {gothic: gothic}}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(t.TempDir(), "bad.epd")
	if err := os.WriteFile(bad, []byte("rnbqckabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQCKABNR w KQkq - 0 1 bm e2e5;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"suite", path}, "name the suite's file and at least one player"},
		{[]string{"suite", "-j", "0", path, "builtin"}, "--j must be at least 1, not 0"},
		{[]string{"suite", "--nodes", "-1", path, "builtin"}, "--nodes must be at least 0, not -1"},
		{[]string{"suite", bad, "builtin"}, `has a best move "e2e5" that is not a legal move there`},
		{[]string{"suite", path, "builtin:speed=3"}, "unknown builtin limit"},
		{[]string{"suite", "--engines", engines, path, "engine:fm"}, "fm speaks XBoard, which has no search of a number of nodes"},
		{[]string{"suite", path, "engine:nowhere"}, `no engine "nowhere"`},
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
