package engine

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkGothicSearch searches nine middlegame positions of the Gothic test
// suite (scripts/testdata/gothic-suite.epd, every 150th line) to depth 11 with a fresh
// table each time and reports the node rate: the measure of a change that should
// only make the search faster (the nodes per op stay the same).
func BenchmarkGothicSearch(b *testing.B) {
	data, err := os.ReadFile(filepath.Join("..", "scripts", "testdata", "gothic-suite.epd"))
	if err != nil {
		b.Fatal(err)
	}
	var fens []string
	for i, line := range strings.Split(string(data), "\n") {
		if fen, _, ok := strings.Cut(line, " bm "); ok && !strings.HasPrefix(line, "#") && i%150 == 0 {
			fens = append(fens, fen)
		}
	}
	var nodes int64
	for b.Loop() {
		for _, fen := range fens {
			r, err := New(Options{}).Search(context.Background(), mustPos(b, "gothic", fen), Limits{Depth: 11})
			if err != nil {
				b.Fatal(err)
			}
			nodes += r.Nodes
		}
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
	b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
}
