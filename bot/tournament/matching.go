package tournament

// This file finds a maximum-weight matching in a general graph: Edmonds'
// blossom algorithm in its primal-dual form (Galil, "Efficient algorithms for
// finding maximum matching in graphs", 1986), O(n³). Swiss pairing states its
// preferences as edge weights and lets the matching choose the best pairing of
// the whole round at once, which is how serious pairing programs do it.
//
// Vertices are 0..n-1. Edge k joins edges[k].i and edges[k].j; its two
// endpoints are numbered 2k (the i end) and 2k+1 (the j end), so that p^1 is
// the other end of endpoint p. Blossoms are numbered n..2n-1. Weights are
// integers and all arithmetic is exact.

// edge is an undirected weighted edge of the matching graph.
type edge struct {
	i, j int
	w    int64
}

// matcher holds the state of one run of the blossom algorithm.
type matcher struct {
	n     int
	edges []edge
	// endpoint[p] is the vertex at endpoint p; neighbours[v] lists the remote
	// endpoints of the edges at v.
	endpoint   []int
	neighbours [][]int
	// mate[v] is the remote endpoint of v's matched edge, or -1.
	mate []int
	// label of a top-level blossom or vertex: 0 free, 1 S (outer), 2 T (inner);
	// labelEnd is the endpoint through which it got its label.
	label, labelEnd []int
	inBlossom       []int // top-level blossom of each vertex
	parent          []int // enclosing blossom, or -1
	children        [][]int
	base            []int
	endps           [][]int // endpoints of the edges joining the children
	bestEdge        []int   // least-slack edge to an S blossom, or -1
	blossomBest     [][]int // a blossom's least-slack edges to other S blossoms
	unused          []int
	dual            []int64
	allowed         []bool
	queue           []int
}

// maxWeightMatching returns, for each vertex, its mate in a matching of
// maximum total weight, or -1 if unmatched. With maxCardinality the matching is
// of maximum weight among those with the most edges.
func maxWeightMatching(n int, edges []edge, maxCardinality bool) []int {
	if n == 0 {
		return nil
	}
	m := newMatcher(n, edges)
	m.run(maxCardinality)
	out := make([]int, n)
	for v := range out {
		out[v] = -1
		if m.mate[v] >= 0 {
			out[v] = m.endpoint[m.mate[v]]
		}
	}
	return out
}

func newMatcher(n int, edges []edge) *matcher {
	m := &matcher{n: n, edges: make([]edge, len(edges))}
	var maxW int64
	for k, e := range edges {
		// Doubled weights keep every dual variable and every δ an integer.
		m.edges[k] = edge{e.i, e.j, 2 * e.w}
		maxW = max(maxW, 2*e.w)
	}
	m.endpoint = make([]int, 2*len(edges))
	m.neighbours = make([][]int, n)
	for k, e := range m.edges {
		m.endpoint[2*k], m.endpoint[2*k+1] = e.i, e.j
		m.neighbours[e.i] = append(m.neighbours[e.i], 2*k+1)
		m.neighbours[e.j] = append(m.neighbours[e.j], 2*k)
	}
	m.mate = filled(n, -1)
	m.label = make([]int, 2*n)
	m.labelEnd = filled(2*n, -1)
	m.inBlossom = make([]int, n)
	m.base = filled(2*n, -1)
	for v := range n {
		m.inBlossom[v] = v
		m.base[v] = v
	}
	m.parent = filled(2*n, -1)
	m.children = make([][]int, 2*n)
	m.endps = make([][]int, 2*n)
	m.bestEdge = filled(2*n, -1)
	m.blossomBest = make([][]int, 2*n)
	for b := 2*n - 1; b >= n; b-- {
		m.unused = append(m.unused, b)
	}
	m.dual = make([]int64, 2*n)
	for v := range n {
		m.dual[v] = maxW
	}
	m.allowed = make([]bool, len(edges))
	return m
}

func filled(n, x int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = x
	}
	return s
}

func (m *matcher) slack(k int) int64 {
	e := m.edges[k]
	return m.dual[e.i] + m.dual[e.j] - 2*e.w
}

// leaves appends the vertices inside blossom b to out.
func (m *matcher) leaves(b int, out []int) []int {
	if b < m.n {
		return append(out, b)
	}
	for _, c := range m.children[b] {
		out = m.leaves(c, out)
	}
	return out
}

// assignLabel labels the top-level blossom of w with t, reached through
// endpoint p; a T blossom's mate becomes S in turn.
func (m *matcher) assignLabel(w, t, p int) {
	b := m.inBlossom[w]
	m.label[w], m.label[b] = t, t
	m.labelEnd[w], m.labelEnd[b] = p, p
	m.bestEdge[w], m.bestEdge[b] = -1, -1
	if t == 1 {
		m.queue = m.leaves(b, m.queue)
		return
	}
	mb := m.mate[m.base[b]]
	m.assignLabel(m.endpoint[mb], 1, mb^1)
}

// scanBlossom traces back from v and w, two S vertices joined by an edge, to
// find the base of a new blossom, or -1 when the paths reach two different
// roots (an augmenting path).
func (m *matcher) scanBlossom(v, w int) int {
	var path []int
	base := -1
	for v != -1 || w != -1 {
		b := m.inBlossom[v]
		if m.label[b]&4 != 0 {
			base = m.base[b]
			break
		}
		path = append(path, b)
		m.label[b] = 5
		if m.labelEnd[b] == -1 {
			v = -1
		} else {
			v = m.endpoint[m.labelEnd[b]]
			b = m.inBlossom[v]
			v = m.endpoint[m.labelEnd[b]]
		}
		if w != -1 {
			v, w = w, v
		}
	}
	for _, b := range path {
		m.label[b] = 1
	}
	return base
}

// addBlossom makes a new blossom with the given base from the odd cycle closed
// by edge k.
func (m *matcher) addBlossom(base, k int) {
	v, w := m.edges[k].i, m.edges[k].j
	bb, bv, bw := m.inBlossom[base], m.inBlossom[v], m.inBlossom[w]
	b := m.unused[len(m.unused)-1]
	m.unused = m.unused[:len(m.unused)-1]
	m.base[b] = base
	m.parent[b] = -1
	m.parent[bb] = b
	var path, endps []int
	for bv != bb {
		m.parent[bv] = b
		path = append(path, bv)
		endps = append(endps, m.labelEnd[bv])
		v = m.endpoint[m.labelEnd[bv]]
		bv = m.inBlossom[v]
	}
	path = append(path, bb)
	reverse(path)
	reverse(endps)
	endps = append(endps, 2*k)
	for bw != bb {
		m.parent[bw] = b
		path = append(path, bw)
		endps = append(endps, m.labelEnd[bw]^1)
		w = m.endpoint[m.labelEnd[bw]]
		bw = m.inBlossom[w]
	}
	m.children[b], m.endps[b] = path, endps
	m.label[b] = 1
	m.labelEnd[b] = m.labelEnd[bb]
	m.dual[b] = 0
	for _, x := range m.leaves(b, nil) {
		if m.label[m.inBlossom[x]] == 2 {
			m.queue = append(m.queue, x)
		}
		m.inBlossom[x] = b
	}
	// Least-slack edges from the new blossom to each other S blossom.
	bestTo := filled(2*m.n, -1)
	for _, c := range path {
		var lists [][]int
		if m.blossomBest[c] == nil {
			for _, x := range m.leaves(c, nil) {
				ks := make([]int, len(m.neighbours[x]))
				for i, p := range m.neighbours[x] {
					ks[i] = p / 2
				}
				lists = append(lists, ks)
			}
		} else {
			lists = [][]int{m.blossomBest[c]}
		}
		for _, ks := range lists {
			for _, k := range ks {
				j := m.edges[k].j
				if m.inBlossom[j] == b {
					j = m.edges[k].i
				}
				bj := m.inBlossom[j]
				if bj != b && m.label[bj] == 1 && (bestTo[bj] == -1 || m.slack(k) < m.slack(bestTo[bj])) {
					bestTo[bj] = k
				}
			}
		}
		m.blossomBest[c] = nil
		m.bestEdge[c] = -1
	}
	best := []int{}
	for _, k := range bestTo {
		if k != -1 {
			best = append(best, k)
		}
	}
	m.blossomBest[b] = best
	m.bestEdge[b] = -1
	for _, k := range best {
		if m.bestEdge[b] == -1 || m.slack(k) < m.slack(m.bestEdge[b]) {
			m.bestEdge[b] = k
		}
	}
}

func reverse(s []int) {
	for i, j := 0, len(s)-1; i < j; i, j = i+1, j-1 {
		s[i], s[j] = s[j], s[i]
	}
}

// indexOf returns the position of x in s.
func indexOf(s []int, x int) int {
	for i, y := range s {
		if y == x {
			return i
		}
	}
	panic("tournament: matching: blossom child not found")
}

// evenWalk sets up the walk from child i of a blossom to its base (child 0)
// along the even-length side of the cycle: the starting position (negative when
// walking forward), the step, and the endpoint adjustment that goes with the
// direction.
func evenWalk(kids []int, i int) (j, step, trick int) {
	if i&1 != 0 {
		return i - len(kids), 1, 0
	}
	return i, -1, 1
}

// at indexes s cyclically, so that negative positions count from the end.
func at(s []int, j int) int {
	if j < 0 {
		j += len(s)
	}
	return s[j]
}

// expandBlossom dissolves top-level blossom b into its children; during a
// stage (endStage false) a T blossom's children are relabelled along the even
// path from the entry child to the base.
func (m *matcher) expandBlossom(b int, endStage bool) {
	for _, s := range m.children[b] {
		m.parent[s] = -1
		switch {
		case s < m.n:
			m.inBlossom[s] = s
		case endStage && m.dual[s] == 0:
			m.expandBlossom(s, endStage)
		default:
			for _, x := range m.leaves(s, nil) {
				m.inBlossom[x] = s
			}
		}
	}
	if !endStage && m.label[b] == 2 {
		kids, endps := m.children[b], m.endps[b]
		entry := m.inBlossom[m.endpoint[m.labelEnd[b]^1]]
		j, step, trick := evenWalk(kids, indexOf(kids, entry))
		p := m.labelEnd[b]
		for j != 0 {
			m.label[m.endpoint[p^1]] = 0
			q := at(endps, j-trick) ^ trick ^ 1
			m.label[m.endpoint[q]] = 0
			m.assignLabel(m.endpoint[p^1], 2, p)
			m.allowed[at(endps, j-trick)/2] = true
			j += step
			p = at(endps, j-trick) ^ trick
			m.allowed[p/2] = true
			j += step
		}
		bv := at(kids, j)
		m.label[m.endpoint[p^1]], m.label[bv] = 2, 2
		m.labelEnd[m.endpoint[p^1]], m.labelEnd[bv] = p, p
		m.bestEdge[bv] = -1
		j += step
		for at(kids, j) != entry {
			bv = at(kids, j)
			if m.label[bv] == 1 {
				j += step
				continue
			}
			for _, x := range m.leaves(bv, nil) {
				if m.label[x] != 0 {
					m.label[x] = 0
					m.label[m.endpoint[m.mate[m.base[bv]]]] = 0
					m.assignLabel(x, 2, m.labelEnd[x])
					break
				}
			}
			j += step
		}
	}
	m.label[b], m.labelEnd[b] = -1, -1
	m.children[b], m.endps[b] = nil, nil
	m.base[b] = -1
	m.blossomBest[b] = nil
	m.bestEdge[b] = -1
	m.unused = append(m.unused, b)
}

// augmentBlossom swaps matched and unmatched edges inside blossom b along the
// even path from vertex v to the base, making v the new base.
func (m *matcher) augmentBlossom(b, v int) {
	t := v
	for m.parent[t] != b {
		t = m.parent[t]
	}
	if t >= m.n {
		m.augmentBlossom(t, v)
	}
	kids, endps := m.children[b], m.endps[b]
	i := indexOf(kids, t)
	j, step, trick := evenWalk(kids, i)
	for j != 0 {
		j += step
		t = at(kids, j)
		p := at(endps, j-trick) ^ trick
		if t >= m.n {
			m.augmentBlossom(t, m.endpoint[p])
		}
		j += step
		t = at(kids, j)
		if t >= m.n {
			m.augmentBlossom(t, m.endpoint[p^1])
		}
		m.mate[m.endpoint[p]] = p ^ 1
		m.mate[m.endpoint[p^1]] = p
	}
	m.children[b] = append(append([]int{}, kids[i:]...), kids[:i]...)
	m.endps[b] = append(append([]int{}, endps[i:]...), endps[:i]...)
	m.base[b] = m.base[m.children[b][0]]
}

// augmentMatching flips the augmenting path through edge k, whose two ends lie
// in S blossoms of different trees.
func (m *matcher) augmentMatching(k int) {
	e := m.edges[k]
	for _, sp := range [2][2]int{{e.i, 2*k + 1}, {e.j, 2 * k}} {
		s, p := sp[0], sp[1]
		for {
			bs := m.inBlossom[s]
			if bs >= m.n {
				m.augmentBlossom(bs, s)
			}
			m.mate[s] = p
			if m.labelEnd[bs] == -1 {
				break
			}
			t := m.endpoint[m.labelEnd[bs]]
			bt := m.inBlossom[t]
			s = m.endpoint[m.labelEnd[bt]]
			j := m.endpoint[m.labelEnd[bt]^1]
			if bt >= m.n {
				m.augmentBlossom(bt, j)
			}
			m.mate[j] = m.labelEnd[bt]
			p = m.labelEnd[bt] ^ 1
		}
	}
}

// run performs the stages of the algorithm, one augmentation per stage.
func (m *matcher) run(maxCardinality bool) {
	n := m.n
	for range n {
		for i := range m.label {
			m.label[i] = 0
			m.bestEdge[i] = -1
		}
		for b := n; b < 2*n; b++ {
			m.blossomBest[b] = nil
		}
		for k := range m.allowed {
			m.allowed[k] = false
		}
		m.queue = m.queue[:0]
		for v := range n {
			if m.mate[v] == -1 && m.label[m.inBlossom[v]] == 0 {
				m.assignLabel(v, 1, -1)
			}
		}
		augmented := false
		for {
			for len(m.queue) > 0 && !augmented {
				v := m.queue[len(m.queue)-1]
				m.queue = m.queue[:len(m.queue)-1]
				for _, p := range m.neighbours[v] {
					k := p / 2
					w := m.endpoint[p]
					if m.inBlossom[v] == m.inBlossom[w] {
						continue
					}
					var kslack int64
					if !m.allowed[k] {
						kslack = m.slack(k)
						if kslack <= 0 {
							m.allowed[k] = true
						}
					}
					switch {
					case m.allowed[k]:
						switch {
						case m.label[m.inBlossom[w]] == 0:
							m.assignLabel(w, 2, p^1)
						case m.label[m.inBlossom[w]] == 1:
							if base := m.scanBlossom(v, w); base >= 0 {
								m.addBlossom(base, k)
							} else {
								m.augmentMatching(k)
								augmented = true
							}
						case m.label[w] == 0:
							m.label[w] = 2
							m.labelEnd[w] = p ^ 1
						}
					case m.label[m.inBlossom[w]] == 1:
						b := m.inBlossom[v]
						if m.bestEdge[b] == -1 || kslack < m.slack(m.bestEdge[b]) {
							m.bestEdge[b] = k
						}
					case m.label[w] == 0:
						if m.bestEdge[w] == -1 || kslack < m.slack(m.bestEdge[w]) {
							m.bestEdge[w] = k
						}
					}
					if augmented {
						break
					}
				}
			}
			if augmented {
				break
			}
			// No progress with tight edges: change the duals by δ.
			deltaType := -1
			var delta int64
			deltaEdge, deltaBlossom := -1, -1
			if !maxCardinality {
				deltaType = 1
				delta = minDual(m.dual[:n])
			}
			for v := range n {
				if m.label[m.inBlossom[v]] == 0 && m.bestEdge[v] != -1 {
					if d := m.slack(m.bestEdge[v]); deltaType == -1 || d < delta {
						delta, deltaType, deltaEdge = d, 2, m.bestEdge[v]
					}
				}
			}
			for b := range 2 * n {
				if m.parent[b] == -1 && m.label[b] == 1 && m.bestEdge[b] != -1 {
					if d := m.slack(m.bestEdge[b]) / 2; deltaType == -1 || d < delta {
						delta, deltaType, deltaEdge = d, 3, m.bestEdge[b]
					}
				}
			}
			for b := n; b < 2*n; b++ {
				if m.base[b] >= 0 && m.parent[b] == -1 && m.label[b] == 2 && (deltaType == -1 || m.dual[b] < delta) {
					delta, deltaType, deltaBlossom = m.dual[b], 4, b
				}
			}
			if deltaType == -1 {
				// Maximum cardinality reached: a final δ makes the duals optimal.
				deltaType = 1
				delta = max(0, minDual(m.dual[:n]))
			}
			for v := range n {
				switch m.label[m.inBlossom[v]] {
				case 1:
					m.dual[v] -= delta
				case 2:
					m.dual[v] += delta
				}
			}
			for b := n; b < 2*n; b++ {
				if m.base[b] >= 0 && m.parent[b] == -1 {
					switch m.label[b] {
					case 1:
						m.dual[b] += delta
					case 2:
						m.dual[b] -= delta
					}
				}
			}
			if deltaType == 1 {
				break
			}
			switch deltaType {
			case 2:
				m.allowed[deltaEdge] = true
				i := m.edges[deltaEdge].i
				if m.label[m.inBlossom[i]] == 0 {
					i = m.edges[deltaEdge].j
				}
				m.queue = append(m.queue, i)
			case 3:
				m.allowed[deltaEdge] = true
				m.queue = append(m.queue, m.edges[deltaEdge].i)
			case 4:
				m.expandBlossom(deltaBlossom, false)
			}
		}
		if !augmented {
			break
		}
		// End of stage: expand S blossoms whose dual has reached zero.
		for b := n; b < 2*n; b++ {
			if m.parent[b] == -1 && m.base[b] >= 0 && m.label[b] == 1 && m.dual[b] == 0 {
				m.expandBlossom(b, true)
			}
		}
	}
}

func minDual(d []int64) int64 {
	lo := d[0]
	for _, x := range d[1:] {
		lo = min(lo, x)
	}
	return lo
}
