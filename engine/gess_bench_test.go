package engine

import (
	"context"
	"testing"

	"github.com/missivechess/missive/rules/gess"
)

// BenchmarkGessSearch searches the Gess start position to depth 3 with a fresh table
// each time and reports the node rate.
func BenchmarkGessSearch(b *testing.B) {
	pos := gess.StartPosition()
	var nodes int64
	for b.Loop() {
		r, err := New(Options{HashBits: 18}).Search(context.Background(), pos, Limits{Depth: 3})
		if err != nil {
			b.Fatal(err)
		}
		nodes += r.Nodes
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}
