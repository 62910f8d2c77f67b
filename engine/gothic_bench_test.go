package engine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/missivechess/missive/rules"
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
	var positions []rules.Position
	for i, line := range strings.Split(string(data), "\n") {
		if fen, _, ok := strings.Cut(line, " bm "); ok && !strings.HasPrefix(line, "#") && i%150 == 0 {
			positions = append(positions, mustPos(b, "gothic", fen))
		}
	}
	benchSearch(b, Options{}, 11, positions...)
}
