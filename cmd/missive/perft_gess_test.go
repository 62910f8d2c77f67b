package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/gess"
)

// gessNodes runs missive with args and returns the node count it prints.
func gessNodes(t *testing.T, args ...string) (uint64, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	if err := run(context.Background(), args, &out, &errOut); err != nil {
		t.Fatalf("missive %s: %v (stderr %s)", strings.Join(args, " "), err, errOut.String())
	}
	var n uint64
	i := strings.Index(out.String(), "Nodes searched: ")
	if i < 0 {
		t.Fatalf("missive %s printed no node count: %s", strings.Join(args, " "), out.String())
	}
	if _, err := fmt.Sscanf(out.String()[i:], "Nodes searched: %d", &n); err != nil {
		t.Fatal(err)
	}
	return n, out.String()
}

func TestPerftGess(t *testing.T) {
	start := gess.StartPosition()
	if n, _ := gessNodes(t, "perft", "--variant", "gess", "--depth", "2"); n != start.Perft(2) {
		t.Errorf("perft 2 = %d, want %d", n, start.Perft(2))
	}
	n, out := gessNodes(t, "perft", "--variant", "GESS", "--depth", "1", "--divide")
	if n != 478 || !strings.Contains(out, "l3l6: 1\n") || strings.Count(out, ": 1\n") != 478 {
		t.Errorf("perft 1 --divide = %d:\n%s", n, out)
	}
	// A position text given with --fen: the start after Black's l3-l6.
	next, err := start.Play(rules.Move{From: 2*gess.Size + 11, To: 5*gess.Size + 11})
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := gessNodes(t, "perft", "--variant", "gess", "--fen", next.String(), "--depth", "1"); n != uint64(len(next.LegalMoves())) {
		t.Errorf("perft 1 from %s = %d, want %d", next, n, len(next.LegalMoves()))
	}
	var out2, errOut bytes.Buffer
	err = run(context.Background(), []string{"perft", "--variant", "gess", "--fen", "xx b"}, &out2, &errOut)
	if !errors.Is(err, rules.ErrBadPosition) {
		t.Errorf("a bad position text gave %v", err)
	}
}
