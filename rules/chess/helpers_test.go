package chess_test

import (
	"math/rand/v2"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/chess"
)

// randomWalk plays random games from fen and returns up to n positions met.
func randomWalk(v *chess.Variant, fen string, n int, seed uint64) []rules.Position {
	r := rand.New(rand.NewPCG(seed, 3))
	var out []rules.Position
	for tries := 0; len(out) < n && tries < 50; tries++ {
		p, err := v.ParsePosition(fen)
		if err != nil {
			panic(err)
		}
		for i := 0; i < 200 && len(out) < n; i++ {
			moves := p.LegalMoves()
			if len(moves) == 0 {
				break
			}
			if p, err = p.Play(moves[r.IntN(len(moves))]); err != nil {
				panic(err)
			}
			if r.IntN(3) == 0 {
				out = append(out, p)
			}
		}
	}
	return out
}
