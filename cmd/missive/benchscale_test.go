package main

import (
	"strings"
	"testing"
)

// bench-scale fills a small file, measures it in the same process and prints every
// row of its table (what it measures is for the machine at hand: no figure is
// checked here).
func TestBenchScaleSmall(t *testing.T) {
	out, err := runCmd(t, "bench-scale", "-n", "400", "--moves", "5", "--inline", "--dir", t.TempDir())
	if err != nil {
		t.Fatalf("bench-scale: %v\n%s", err, out)
	}
	for _, want := range []string{"filled ", "| at 400 games (100 running)", "open (with the full check) to serving",
		"outage given back (1h0m0s, 100 running games)", "move reply during the give-back", "/metrics scrape",
		"round-robin game end in the busiest server", "see the other note (78.2)"} {
		if !strings.Contains(out, want) {
			t.Errorf("the output lacks %q:\n%s", want, out)
		}
	}
	if _, err := runCmd(t, "bench-scale", "-n", "10"); err == nil {
		t.Error("bench-scale -n 10 was accepted")
	}
}
