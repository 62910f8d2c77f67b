package tournament

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// benchHistory plays the first rounds of a Swiss of n players with random
// results and returns the tournament ready for round `round`.
func benchHistory(b *testing.B, n, round int) Tournament {
	rng := rand.New(rand.NewPCG(uint64(n), uint64(round)))
	tour, err := New(Swiss, ids(n), MaxSwissRounds(n))
	if err != nil {
		b.Fatal(err)
	}
	for tour.Round() < round-1 {
		next, games, err := tour.NextRound()
		if err != nil {
			b.Fatal(err)
		}
		tour = next
		for _, g := range games {
			if !g.IsBye() {
				tour, _ = tour.Record(g.Round, g.White, g.Black, randomResult(rng, tour, g))
			}
		}
	}
	return tour
}

func BenchmarkPairSwiss(b *testing.B) {
	for _, c := range [][2]int{{20, 1}, {20, 6}, {50, 1}, {50, 8}, {100, 1}, {100, 10}, {100, 20}} {
		b.Run(fmt.Sprintf("players=%d/round=%d", c[0], c[1]), func(b *testing.B) {
			tour := benchHistory(b, c[0], c[1])
			b.ResetTimer()
			for b.Loop() {
				if _, err := PairSwiss(tour.Players, tour.Withdrawn, tour.Games, c[1]); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkStandings(b *testing.B) {
	tour := benchHistory(b, 100, 11)
	for b.Loop() {
		tour.Standings()
	}
}
