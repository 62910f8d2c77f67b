package gess

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/missivechess/missive/rules"
)

type perftCase struct {
	text   string
	counts map[int]uint64
}

func readPerft(t *testing.T) []perftCase {
	t.Helper()
	f, err := os.Open("testdata/perft.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cases []perftCase
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<16)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Split(line, ";")
		c := perftCase{text: strings.TrimSpace(fields[0]), counts: map[int]uint64{}}
		for _, fl := range fields[1:] {
			var d int
			var n uint64
			parts := strings.Fields(fl)
			if len(parts) != 2 {
				t.Fatalf("bad perft field %q", fl)
			}
			if d, err = strconv.Atoi(parts[0]); err != nil {
				t.Fatal(err)
			}
			if n, err = strconv.ParseUint(parts[1], 10, 64); err != nil {
				t.Fatal(err)
			}
			c.counts[d] = n
		}
		cases = append(cases, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return cases
}

func TestPerft(t *testing.T) {
	cases := readPerft(t)
	if len(cases) == 0 || cases[0].text != "start" {
		t.Fatal("testdata/perft.txt must start with the start position")
	}
	for _, c := range cases {
		p := StartPosition()
		if c.text != "start" {
			var err error
			if p, err = ParsePosition(c.text); err != nil {
				t.Fatal(err)
			}
		}
		for d, want := range c.counts {
			if d >= 3 && (testing.Short() || raceDetector) {
				continue
			}
			if got := p.Perft(d); got != want {
				t.Errorf("perft(%d) = %d, want %d for %s", d, got, want, c.text)
			}
			if d <= 2 {
				rb := refFrom(p)
				if got := rb.perft(d); got != want {
					t.Errorf("reference perft(%d) = %d, want %d for %s", d, got, want, c.text)
				}
			}
		}
	}
}

// TestPerftMatchesGeneric checks the fast perft against the generic one of package
// rules, which goes through LegalMoves and Play.
func TestPerftMatchesGeneric(t *testing.T) {
	p := middlegame(t, 12, 40)
	generic := struct{ rules.Position }{p} // hides the Perfter method
	if got, want := p.Perft(2), rules.Perft(generic, 2); got != want {
		t.Fatalf("fast perft(2) = %d, generic %d", got, want)
	}
}
