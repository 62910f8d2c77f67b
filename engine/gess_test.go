package engine

import (
	"context"
	"strings"
	"testing"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/gess"
)

// gessText builds a Gess position from stone lists such as "e4 f4" (Black) and "o14" (White).
func gessText(t testing.TB, black, white string, turn string) rules.Position {
	t.Helper()
	var grid [gess.Size][gess.Size]byte
	for r := range grid {
		for f := range grid[r] {
			grid[r][f] = '.'
		}
	}
	d := rules.Dims{Files: gess.Size, Ranks: gess.Size}
	for c, list := range map[byte]string{'x': black, 'o': white} {
		for _, name := range strings.Fields(list) {
			sq, err := d.ParseSquare(name)
			if err != nil {
				t.Fatal(err)
			}
			grid[d.Rank(sq)][d.File(sq)] = c
		}
	}
	rows := make([]string, 0, gess.Size)
	for r := gess.Size - 1; r >= 0; r-- {
		rows = append(rows, string(grid[r][:]))
	}
	p, err := gess.ParsePosition(strings.Join(rows, "/") + " " + turn)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// ring returns the eight perimeter stones of a ring centred on file f, rank r (1-based names).
func ring(centre string) string {
	f, r := centre[0], 0
	for _, c := range centre[1:] {
		r = r*10 + int(c-'0')
	}
	var out []string
	for df := -1; df <= 1; df++ {
		for dr := -1; dr <= 1; dr++ {
			if df == 0 && dr == 0 {
				continue
			}
			out = append(out, string(rune(int(f)+df))+itoa(r+dr))
		}
	}
	return strings.Join(out, " ")
}

func itoa(n int) string {
	if n >= 10 {
		return string(rune('0'+n/10)) + string(rune('0'+n%10))
	}
	return string(rune('0' + n))
}

func TestGessWinningRingCapture(t *testing.T) {
	// White's only ring is on p15; Black's piece p12+p13 can slide north into it. A decoy
	// elsewhere offers more stones (a white clump at j9) without winning.
	black := ring("e5") + " p12 p13 h9 i9 h10"
	white := ring("p15") + " j9 k9 j10 k10 j11 k11"
	p := gessText(t, black, white, "b")
	r, err := New(Options{HashBits: 16}).Search(context.Background(), p, Limits{Depth: 2})
	if err != nil {
		t.Fatal(err)
	}
	q, err := p.Play(r.Move)
	if err != nil {
		t.Fatal(err)
	}
	if o := q.Outcome(); o.Status != rules.Won || o.Winner != rules.Black {
		t.Fatalf("move %s gives %v, want a Black win by ring loss; score %v", p.SAN(r.Move), o, r.Score)
	}
	if r.Score.MateIn() != 1 {
		t.Fatalf("score %v, want a win in 1", r.Score)
	}
}
