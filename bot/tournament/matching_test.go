package tournament

import (
	"math/rand/v2"
	"testing"
)

// bruteMatching returns the best (cardinality, weight) over all matchings,
// cardinality first when maxCard.
func bruteMatching(n int, edges []edge, maxCard bool) (int, int64) {
	w := make(map[[2]int]int64)
	for _, e := range edges {
		a, b := min(e.i, e.j), max(e.i, e.j)
		if old, ok := w[[2]int{a, b}]; !ok || e.w > old {
			w[[2]int{a, b}] = e.w
		}
	}
	used := make([]bool, n)
	var best func(v int) (int, int64)
	best = func(v int) (int, int64) {
		for v < n && used[v] {
			v++
		}
		if v >= n {
			return 0, 0
		}
		used[v] = true
		bc, bw := best(v + 1) // v stays unmatched
		for u := v + 1; u < n; u++ {
			ew, ok := w[[2]int{v, u}]
			if !ok || used[u] {
				continue
			}
			used[u] = true
			c, s := best(v + 1)
			c, s = c+1, s+ew
			used[u] = false
			if maxCard && (c > bc || c == bc && s > bw) || !maxCard && s > bw {
				bc, bw = c, s
			}
		}
		used[v] = false
		return bc, bw
	}
	return best(0)
}

// checkMatching verifies that mate is a matching over existing edges and
// returns its cardinality and weight.
func checkMatching(t *testing.T, n int, edges []edge, mate []int) (int, int64) {
	t.Helper()
	w := make(map[[2]int]int64)
	for _, e := range edges {
		a, b := min(e.i, e.j), max(e.i, e.j)
		if old, ok := w[[2]int{a, b}]; !ok || e.w > old {
			w[[2]int{a, b}] = e.w
		}
	}
	var card int
	var total int64
	for v, u := range mate {
		if u == -1 {
			continue
		}
		if mate[u] != v {
			t.Fatalf("mate is not symmetric: %v", mate)
		}
		if v < u {
			ew, ok := w[[2]int{v, u}]
			if !ok {
				t.Fatalf("matched %d-%d without an edge", v, u)
			}
			card++
			total += ew
		}
	}
	return card, total
}

func randomGraph(rng *rand.Rand, n int, density float64, maxW int64) []edge {
	var edges []edge
	for i := range n {
		for j := i + 1; j < n; j++ {
			if rng.Float64() < density {
				edges = append(edges, edge{i, j, rng.Int64N(maxW + 1)})
			}
		}
	}
	rng.Shuffle(len(edges), func(a, b int) { edges[a], edges[b] = edges[b], edges[a] })
	return edges
}

func TestMatchingAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	trials := 3000
	if testing.Short() {
		trials = 500
	}
	for trial := range trials {
		n := 1 + rng.IntN(10)
		maxW := []int64{1, 3, 10, 1000, 1 << 40}[rng.IntN(5)]
		edges := randomGraph(rng, n, 0.2+0.8*rng.Float64(), maxW)
		for _, maxCard := range []bool{false, true} {
			mate := maxWeightMatching(n, edges, maxCard)
			c, w := checkMatching(t, n, edges, mate)
			bc, bw := bruteMatching(n, edges, maxCard)
			if w != bw || maxCard && c != bc {
				t.Fatalf("trial %d (n %d, maxCard %v): got %d edges weight %d, best is %d edges weight %d\nedges %v",
					trial, n, maxCard, c, w, bc, bw, edges)
			}
		}
	}
}

func FuzzMatching(f *testing.F) {
	f.Add(uint64(1), uint8(6), uint8(200), false)
	f.Add(uint64(99), uint8(10), uint8(90), true)
	f.Fuzz(func(t *testing.T, seed uint64, size, density uint8, maxCard bool) {
		n := int(size % 11)
		rng := rand.New(rand.NewPCG(seed, 3))
		edges := randomGraph(rng, n, float64(density)/255, 50)
		mate := maxWeightMatching(n, edges, maxCard)
		if n == 0 {
			return
		}
		c, w := checkMatching(t, n, edges, mate)
		bc, bw := bruteMatching(n, edges, maxCard)
		if w != bw || maxCard && c != bc {
			t.Fatalf("got %d edges weight %d, best is %d edges weight %d; edges %v", c, w, bc, bw, edges)
		}
	})
}
