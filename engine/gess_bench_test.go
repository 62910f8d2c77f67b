package engine

import (
	"strings"
	"testing"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/gess"
)

// gessBenchLine is the opening of an engine game, 12 plies into a middlegame.
const gessBenchLine = "c2-d3 d17-e17 d3-d5 d19-e19 e6-l13 h15-j13 m13-m16 p13-m16 h7-j7 l12-j12 c6-c13 g14-d14"

// BenchmarkGessSearch searches the Gess start position and a middlegame to depth 5
// with a fresh table each time and reports the node rate.
func BenchmarkGessSearch(b *testing.B) {
	var mid rules.Position = gess.StartPosition()
	for _, text := range strings.Fields(gessBenchLine) {
		m, err := mid.ParseMove(text)
		if err != nil {
			b.Fatal(err)
		}
		if mid, err = mid.Play(m); err != nil {
			b.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name string
		pos  rules.Position
	}{{"start", gess.StartPosition()}, {"middlegame", mid}} {
		b.Run(tc.name, func(b *testing.B) { benchSearch(b, Options{HashBits: 18}, 5, tc.pos) })
	}
}
