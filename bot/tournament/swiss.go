package tournament

import (
	"fmt"
	"math"
	"slices"
)

// colour of a played game from a player's side.
type colour int8

const (
	white colour = 1
	black colour = -1
)

// record is what Swiss pairing knows of one player before a round.
type record struct {
	id      PlayerID
	seed    int      // index in the seed order
	halves  int      // score in half points
	colours []colour // colours of the games played over the board, in order
	met     map[PlayerID]bool
	byes    int
}

// diff returns whites minus blacks.
func (r *record) diff() int {
	d := 0
	for _, c := range r.colours {
		d += int(c)
	}
	return d
}

// preference is a player's colour wish before a round.
type preference struct {
	want     colour // 0: none
	strength int    // 0 none, 1 mild, 2 strong, 3 absolute
}

// streak returns the colour of the last two games when they are the same.
func (r *record) streak() colour {
	n := len(r.colours)
	if n >= 2 && r.colours[n-1] == r.colours[n-2] {
		return r.colours[n-1]
	}
	return 0
}

// pref returns the colour preference as the Dutch system defines it: absolute
// when the colour difference is ±2 or beyond or the last two games had the same
// colour, strong at ±1, mild (alternate) at 0, none before any game.
func (r *record) pref() preference {
	d := r.diff()
	switch {
	case d <= -2:
		return preference{white, 3}
	case d >= 2:
		return preference{black, 3}
	case r.streak() != 0:
		return preference{-r.streak(), 3}
	case d == -1:
		return preference{white, 2}
	case d == 1:
		return preference{black, 2}
	case len(r.colours) > 0:
		return preference{-r.colours[len(r.colours)-1], 1}
	}
	return preference{}
}

// outcome rates giving colour c to the player: whether it breaks the absolute
// rule (a third game of one colour in a row, or a difference beyond ±2),
// whether it goes against a strong (or absolute) preference, and whether it
// goes against the player's preference at all.
func (r *record) outcome(c colour) (absolute, strong, unmet int) {
	d := r.diff() + int(c)
	if d > 2 || d < -2 || r.streak() == c {
		absolute = 1
	}
	if p := r.pref(); p.want != 0 && p.want != c {
		unmet = 1
		if p.strength >= 2 {
			strong = 1
		}
	}
	return
}

// allocation is the colour choice for a pair and its cost.
type allocation struct {
	whiteFirst       bool // the first player of the pair takes White
	absolute, strong int
	unmet            int
	tie              bool // no rule tells the two options apart
}

// allocate chooses colours for a and b, a ranked above b: fewest breaches of
// the absolute rule, then of strong preferences, then of any preference (the
// Dutch system's E.1 and E.2); then, as in E.3, each gets the colour opposite
// to the one they had in the latest round where their colours differed; then
// the higher-ranked player gets their preference. With nothing to go on the
// choice is a tie, settled by board number (see pairSwiss).
func allocate(a, b *record) allocation {
	opt := func(aWhite bool) allocation {
		ca := white
		if !aWhite {
			ca = black
		}
		x1, y1, z1 := a.outcome(ca)
		x2, y2, z2 := b.outcome(-ca)
		return allocation{whiteFirst: aWhite, absolute: x1 + x2, strong: y1 + y2, unmet: z1 + z2}
	}
	w, bl := opt(true), opt(false)
	key := func(o allocation) []int { return []int{o.absolute, o.strong, o.unmet} }
	switch c := slices.Compare(key(w), key(bl)); {
	case c < 0:
		return w
	case c > 0:
		return bl
	}
	for i, j := len(a.colours)-1, len(b.colours)-1; i >= 0 && j >= 0; i, j = i-1, j-1 {
		if a.colours[i] != b.colours[j] {
			if a.colours[i] == black {
				return w
			}
			return bl
		}
	}
	if p := a.pref(); p.want == white {
		return w
	} else if p.want == black {
		return bl
	}
	if p := b.pref(); p.want == black {
		return w
	} else if p.want == white {
		return bl
	}
	w.tie = true
	return w
}

// records builds the pairing records of the active players, in seed order,
// from the games of the rounds before the one to pair.
func records(players []PlayerID, withdrawn map[PlayerID]bool, games []Game) []*record {
	all := make(map[PlayerID]*record, len(players))
	var out []*record
	for i, p := range players {
		r := &record{id: p, seed: i, met: map[PlayerID]bool{}}
		all[p] = r
		if !withdrawn[p] {
			out = append(out, r)
		}
	}
	sorted := slices.Clone(games)
	slices.SortStableFunc(sorted, func(a, b Game) int { return a.Round - b.Round })
	for _, g := range sorted {
		w, b := all[g.White], all[g.Black]
		hw, hb := g.Result.halves()
		if g.IsBye() {
			w.halves += hw
			w.byes++
			continue
		}
		w.halves += hw
		b.halves += hb
		w.met[g.Black], b.met[g.White] = true, true
		if g.Result.Played() {
			w.colours = append(w.colours, white)
			b.colours = append(b.colours, black)
		}
	}
	return out
}

// rankOrder sorts records by score, then seed: the pairing order.
func rankOrder(rs []*record) {
	slices.SortStableFunc(rs, func(a, b *record) int {
		if a.halves != b.halves {
			return b.halves - a.halves
		}
		return a.seed - b.seed
	})
}

// The pairing criteria, most important first (see weights): score before
// colour, as in the Dutch system, whose absolute colour rule (C.3) ranks above
// the score groups (C.5, C.6) and whose preferences (C.12, C.13) below them.
const (
	critBye      = iota // score groups between the bye and the lowest group
	critAbsolute        // breaches of the absolute colour rule
	critFloat           // group boundaries crossed, the upper ones weighing more
	critDiff            // squared score difference
	critPref            // colour preferences not met
	critStrong          // strong (or absolute) colour preferences not met
	criteria
)

// weights turns the pairing criteria into edge weights. A pair's weight is the
// sum over the criteria of (the criterion's worst value - the pair's value)
// times the criterion's multiplier; each multiplier exceeds the largest total
// that the criteria after it can reach over a whole round, so the maximum-weight
// matching optimises the criteria in order. The product of the ranges grows
// with players and score groups; MaxPlayers and MaxSwissRounds keep it well
// within int64 (the tests check the worst case).
type weights struct {
	groups  int
	groupOf map[int]int // score in halves → group index, from the top
	worst   [criteria]int64
	k       [criteria]int64
}

func newWeights(rs []*record, pairs int) (weights, error) {
	var scores []int
	for _, r := range rs {
		if !slices.Contains(scores, r.halves) {
			scores = append(scores, r.halves)
		}
	}
	slices.Sort(scores)
	slices.Reverse(scores)
	w := weights{groups: len(scores), groupOf: map[int]int{}}
	for i, s := range scores {
		w.groupOf[s] = i
	}
	g := int64(w.groups)
	spread := int64(scores[0] - scores[len(scores)-1])
	w.worst = [criteria]int64{
		critBye:      g - 1,
		critAbsolute: 2,
		critFloat:    g * (g + 1) / 2,
		critDiff:     spread * spread,
		critPref:     2,
		critStrong:   2,
	}
	e := float64(pairs)
	k := 1.0
	for c := criteria - 1; c >= 0; c-- {
		w.k[c] = int64(k)
		count := e // pairs of a round that can add to the criterion
		if c == critBye {
			count = 1
		}
		k *= float64(w.worst[c])*count + 1
	}
	if k > math.MaxInt64/8 {
		return w, fmt.Errorf("%w: too many players and rounds to weigh the pairing", ErrBadTournament)
	}
	return w, nil
}

// float returns the weighted count of boundaries crossed between score groups
// ga ≤ gb: boundary k (below group k) weighs G-k.
func (w weights) float(ga, gb int) int64 {
	var s int64
	for k := ga; k < gb; k++ {
		s += int64(w.groups - k)
	}
	return s
}

func (w weights) combine(v [criteria]int64) int64 {
	var sum int64
	for c := range v {
		sum += w.k[c] * (w.worst[c] - v[c])
	}
	return sum
}

// pair returns the weight of pairing a and b (a ranked above b).
func (w weights) pair(a, b *record) int64 {
	al := allocate(a, b)
	d := int64(a.halves - b.halves)
	return w.combine([criteria]int64{
		critAbsolute: int64(al.absolute),
		critFloat:    w.float(w.groupOf[a.halves], w.groupOf[b.halves]),
		critDiff:     d * d,
		critPref:     int64(al.unmet),
		critStrong:   int64(al.strong),
	})
}

// bye returns the weight of giving a the bye: the bye belongs to the lowest
// score group, and a floats out below it; colours are untouched.
func (w weights) bye(a *record) int64 {
	ga := w.groupOf[a.halves]
	return w.combine([criteria]int64{
		critBye:   int64(w.groups - 1 - ga),
		critFloat: w.float(ga, w.groups),
	})
}

// pairSwiss pairs the next round of a Swiss among the active players, as the
// package documentation describes: the best pairing by the criteria of weights
// (the bye limited to the players with the fewest byes who can take it), then
// among equally good ones the Dutch order (refine), then colours (allocate) and
// boards.
func pairSwiss(players []PlayerID, withdrawn map[PlayerID]bool, history []Game, round int) ([]Game, error) {
	rs := records(players, withdrawn, history)
	if len(rs) < 2 {
		return nil, fmt.Errorf("%w: %d player(s) left, so round %d cannot be paired", ErrNoPairing, len(rs), round)
	}
	rankOrder(rs)
	n := len(rs)
	odd := n%2 == 1
	nv := n
	if odd {
		nv++ // vertex n is the bye
	}
	w, err := newWeights(rs, nv/2)
	if err != nil {
		return nil, err
	}
	weight := make([][]int64, nv) // -1: no edge
	for i := range weight {
		weight[i] = make([]int64, nv)
		for j := range weight[i] {
			weight[i][j] = -1
		}
	}
	for i := range n {
		for j := i + 1; j < n; j++ {
			if !rs[i].met[rs[j].id] {
				weight[i][j] = w.pair(rs[i], rs[j])
				weight[j][i] = weight[i][j]
			}
		}
	}
	var mate []int
	if odd {
		// Byes go to those with the fewest; widen only if nobody of them can
		// have it without making a rematch necessary.
		counts := []int{}
		for _, r := range rs {
			if !slices.Contains(counts, r.byes) {
				counts = append(counts, r.byes)
			}
		}
		slices.Sort(counts)
		for _, limit := range counts {
			for i, r := range rs {
				weight[i][n], weight[n][i] = -1, -1
				if r.byes <= limit {
					weight[i][n] = w.bye(r)
					weight[n][i] = weight[i][n]
				}
			}
			if mate = perfect(weight, allVertices(nv)); mate != nil {
				break
			}
		}
	} else {
		mate = perfect(weight, allVertices(nv))
	}
	if mate == nil {
		return nil, fmt.Errorf("%w: every pairing of round %d would repeat a game", ErrNoPairing, round)
	}
	halves := make([]int, n)
	for i, r := range rs {
		halves[i] = r.halves
	}
	pairs := refine(weight, mate, halves, odd)

	// Boards: by the higher score of the pair, then the lower, then the
	// higher-ranked player's rank; the bye last.
	slices.SortFunc(pairs, func(x, y [2]int) int {
		if x[1] == n || y[1] == n {
			return boolInt(x[1] == n) - boolInt(y[1] == n)
		}
		a, b := rs[x[0]], rs[y[0]]
		if a.halves != b.halves {
			return b.halves - a.halves
		}
		if la, lb := rs[x[1]].halves, rs[y[1]].halves; la != lb {
			return lb - la
		}
		return x[0] - y[0]
	})
	var games []Game
	for board, pr := range pairs {
		a := rs[pr[0]]
		if pr[1] == n {
			games = append(games, Game{Round: round, White: a.id, Result: Bye})
			continue
		}
		b := rs[pr[1]]
		al := allocate(a, b)
		aWhite := al.whiteFirst
		if al.tie {
			aWhite = board%2 == 0 // boards 1, 3, 5...: the higher-ranked has White
		}
		if aWhite {
			games = append(games, Game{Round: round, White: a.id, Black: b.id})
		} else {
			games = append(games, Game{Round: round, White: b.id, Black: a.id})
		}
	}
	return games, nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func allVertices(n int) []int {
	vs := make([]int, n)
	for i := range vs {
		vs[i] = i
	}
	return vs
}

// perfect returns a maximum-weight perfect matching of the vertices vs (mate
// indexed by vertex, -1 outside vs), or nil if none exists.
func perfect(weight [][]int64, vs []int) []int {
	var edges []edge
	for a, i := range vs {
		for b := a + 1; b < len(vs); b++ {
			if x := weight[i][vs[b]]; x >= 0 {
				edges = append(edges, edge{a, b, x})
			}
		}
	}
	local := maxWeightMatching(len(vs), edges, true)
	mate := make([]int, len(weight))
	for i := range mate {
		mate[i] = -1
	}
	for a, b := range local {
		if b == -1 {
			return nil
		}
		mate[vs[a]] = vs[b]
	}
	return mate
}

// total returns the weight of the matching over vs.
func total(weight [][]int64, mate []int, vs []int) int64 {
	var s int64
	for _, v := range vs {
		if mate[v] > v {
			s += weight[v][mate[v]]
		}
	}
	return s
}

// refine picks, among the maximum-weight perfect matchings, the one the Dutch
// order prefers (see pairSwiss). Vertices 0..n-1 are players in rank order;
// vertex n is the bye when odd.
func refine(weight [][]int64, mate []int, halves []int, odd bool) [][2]int {
	n := len(halves)
	free := make([]bool, len(weight))
	for i := range free {
		free[i] = true
	}
	remaining := func() []int {
		var vs []int
		for v, f := range free {
			if f {
				vs = append(vs, v)
			}
		}
		return vs
	}
	best := total(weight, mate, remaining())
	var pairs [][2]int
	// fix pairs a with the first candidate that keeps a best matching.
	fix := func(a int, candidates []int) {
		for _, c := range candidates {
			if weight[a][c] < 0 {
				continue
			}
			if mate[a] != c {
				free[a], free[c] = false, false
				rest := remaining()
				m := perfect(weight, rest)
				if m == nil || total(weight, m, rest)+weight[a][c] != best {
					free[a], free[c] = true, true
					continue
				}
				m[a], m[c] = c, a
				mate = m
			}
			free[a], free[c] = false, false
			best -= weight[a][c]
			pairs = append(pairs, [2]int{min(a, c), max(a, c)})
			return
		}
		panic("tournament: refine found no partner in a best matching")
	}
	if odd {
		var cands []int
		for v := n - 1; v >= 0; v-- {
			cands = append(cands, v)
		}
		fix(n, cands)
	}
	for a := range n {
		if free[a] {
			fix(a, dutchOrder(halves, free[:n], a))
		}
	}
	return pairs
}

// dutchOrder lists the free players a may meet, in the Dutch order: the lower
// half of a's score group in order, then the rest of the group from the bottom
// up, then the lower groups from their top. Players are in rank order and
// halves gives each one's score.
func dutchOrder(halves []int, free []bool, a int) []int {
	var same, lower []int
	for v := a + 1; v < len(halves); v++ {
		switch {
		case !free[v]:
		case halves[v] == halves[a]:
			same = append(same, v)
		default:
			lower = append(lower, v)
		}
	}
	h := max(0, (len(same)+1)/2-1) // the rest of a's half of the group
	order := slices.Clone(same[h:])
	for i := h - 1; i >= 0; i-- {
		order = append(order, same[i])
	}
	return append(order, lower...)
}
