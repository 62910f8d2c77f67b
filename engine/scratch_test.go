package engine

import (
	"context"
	"os"
	"strings"
	"testing"
)

func TestScratch(t *testing.T) {
	spec := os.Getenv("SCRATCH")
	if spec == "" {
		t.Skip()
	}
	for _, line := range strings.Split(spec, ";") {
		f := strings.SplitN(line, "|", 2)
		p := mustPos(t, f[0], f[1])
		r, err := New(Options{}).Search(context.Background(), p, Limits{Depth: 7})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %v depth %d nodes %d pv %d mate2=%v", line, r.Score, r.Depth, r.Nodes, len(r.PV), mateIn(p, 2))
	}
}
