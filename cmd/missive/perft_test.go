package main

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/missivechess/missive/rules"
)

func runCmd(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	err := run(context.Background(), args, &out, &errOut)
	return out.String(), err
}

func TestPerftCommand(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"perft", "--variant", "gothic", "--depth", "3"}, "Nodes searched: 25283\n"},
		{[]string{"perft", "--variant", "keltic", "--depth", "2"}, "Nodes searched: 180\n"},
		{[]string{"perft", "--variant", "gochess", "--depth", "2", "--fen",
			"kp4****/7***/8**/9*/3p1r4/4P5/3b1n4/10/10/9K b - - 0 1"}, "Nodes searched: 341\n"},
		{[]string{"perft", "--variant", "gothic", "--depth", "2", "--fen",
			"r4k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/R4K3R w KQkq - 0 1"}, "Nodes searched: 961\n"},
	} {
		out, err := runCmd(t, tc.args...)
		if err != nil || out != tc.want {
			t.Errorf("%v: %q, %v; want %q", tc.args, out, err, tc.want)
		}
	}
}

func TestPerftRefusesPlacement(t *testing.T) {
	out, err := runCmd(t, "perft", "--variant", "gochess", "--depth", "1")
	if err == nil || !strings.Contains(err.Error(), "placement") || out != "" {
		t.Fatalf("perft on Go-Chess's placement phase: %q, %v; want a refusal naming placement", out, err)
	}
}

func TestPerftDivide(t *testing.T) {
	out, err := runCmd(t, "perft", "--variant", "gothic", "--depth", "2", "--divide",
		"--fen", "r4k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/R4K3R w KQkq - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 33 || lines[len(lines)-1] != "Nodes searched: 961" {
		t.Fatalf("divide output:\n%s", out)
	}
	for _, want := range []string{"f1i1: 31", "f1c1: 31", "a2a4: 31"} {
		if !strings.Contains(out, want+"\n") {
			t.Errorf("divide lacks %q:\n%s", want, out)
		}
	}
}

func TestPerftBadInput(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want error
	}{
		{[]string{"perft", "--variant", "gothic", "--fen", "10/10 w - - 0 1"}, rules.ErrBadPosition},
		{[]string{"perft", "--variant", "shogi"}, rules.ErrUnknownVariant},
		{[]string{"perft", "--variant", "gothic", "--depth", "0"}, errUsage},
	} {
		if _, err := runCmd(t, tc.args...); !errors.Is(err, tc.want) {
			t.Errorf("%v: %v, want %v", tc.args, err, tc.want)
		}
	}
}
