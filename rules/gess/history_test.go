package gess

import (
	"testing"

	"github.com/missivechess/missive/rules"
)

// TestEarlierHashes: the hashes a search needs to see repetitions are those of the
// positions since the last removal, oldest first, ending with the one just before.
func TestEarlierHashes(t *testing.T) {
	var p rules.Position = Variant{}.Start(0)
	var seen []uint64
	for ply := 0; ply < 40; ply++ {
		gp := p.(*Position)
		got := gp.EarlierHashes(nil)
		if len(got) != len(seen) {
			t.Fatalf("ply %d: %d earlier hashes, want %d", ply, len(got), len(seen))
		}
		for i := range got {
			if got[i] != seen[i] {
				t.Fatalf("ply %d: hash %d differs", ply, i)
			}
		}
		var next rules.Position
		for _, m := range p.LegalMoves() {
			q, err := p.Play(m)
			if err != nil {
				t.Fatal(err)
			}
			if !q.Outcome().IsOver() {
				next = q
				break
			}
		}
		if next == nil {
			break
		}
		if next.(*Position).board.Count(rules.White)+next.(*Position).board.Count(rules.Black) <
			gp.board.Count(rules.White)+gp.board.Count(rules.Black) {
			seen = seen[:0] // a removal: nothing before can recur
		} else {
			seen = append(seen, gp.board.Hash())
		}
		p = next
	}
}
