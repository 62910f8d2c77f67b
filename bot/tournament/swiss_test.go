package tournament

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func ids(n int) []PlayerID {
	ps := make([]PlayerID, n)
	for i := range ps {
		ps[i] = PlayerID(fmt.Sprintf("p%02d", i+1))
	}
	return ps
}

// randomResult draws a result, the stronger seed (lower index) winning more
// often, as in a real event.
func randomResult(rng *rand.Rand, t Tournament, g Game) Result {
	si, sj := slices.Index(t.Players, g.White), slices.Index(t.Players, g.Black)
	pWhite := 0.4 + 0.3*float64(sj-si)/float64(len(t.Players))
	x := rng.Float64()
	switch {
	case x < 0.2:
		return Draw
	case x < 0.2+0.8*pWhite:
		return WhiteWins
	}
	return BlackWins
}

// swissStats gathers what the invariants check and the quality measures.
type swissStats struct {
	rounds, pairs, unbalanced, floats, diffSum, bigFloats int
	// crossed counts the rounds that pair some game across score groups.
	crossed int
}

// checkSwissRound checks the invariants of a newly paired round against the
// tournament before it.
func checkSwissRound(t *testing.T, before Tournament, games []Game, st *swissStats) {
	t.Helper()
	active := before.Active()
	seen := map[PlayerID]bool{}
	met := map[[2]PlayerID]bool{}
	byes := map[PlayerID]int{}
	colours := map[PlayerID][]colour{}
	for _, g := range before.Games {
		if g.IsBye() {
			byes[g.White]++
			continue
		}
		met[[2]PlayerID{g.White, g.Black}], met[[2]PlayerID{g.Black, g.White}] = true, true
		if g.Result.Played() {
			colours[g.White] = append(colours[g.White], white)
			colours[g.Black] = append(colours[g.Black], black)
		}
	}
	score := map[PlayerID]int{}
	for _, g := range before.Games {
		score[g.White] += g.halvesOf(g.White)
		if !g.IsBye() {
			score[g.Black] += g.halvesOf(g.Black)
		}
	}
	minByes := 1 << 30
	for _, p := range active {
		minByes = min(minByes, byes[p])
	}
	nbyes := 0
	for _, g := range games {
		for _, p := range []PlayerID{g.White, g.Black} {
			if p == "" {
				continue
			}
			if seen[p] {
				t.Fatalf("%s paired twice in round %d", p, g.Round)
			}
			if slices.Contains(before.Withdrawn, p) {
				t.Fatalf("withdrawn %s paired in round %d", p, g.Round)
			}
			seen[p] = true
		}
		if g.IsBye() {
			nbyes++
			if byes[g.White] != minByes {
				t.Fatalf("round %d: bye to %s who has %d byes while someone has %d", g.Round, g.White, byes[g.White], minByes)
			}
			continue
		}
		if met[[2]PlayerID{g.White, g.Black}] {
			t.Fatalf("round %d: %s and %s meet again", g.Round, g.White, g.Black)
		}
		st.pairs++
		if d := score[g.White] - score[g.Black]; d != 0 {
			st.floats++
			st.diffSum += max(d, -d)
			if d > 2 || d < -2 {
				st.bigFloats++
			}
		}
	}
	if len(seen) != len(active) {
		t.Fatalf("round %d pairs %d of %d active players", games[0].Round, len(seen), len(active))
	}
	if nbyes != len(active)%2 {
		t.Fatalf("round %d has %d byes for %d players", games[0].Round, nbyes, len(active))
	}
	st.rounds++

	// Score groups first: when a legal pairing (no rematch, the absolute
	// colour rule kept, the bye where this round put it) pairs every player
	// within their score group, the round does so too, and keeps the rule.
	floats := 0
	byeScore := -1
	for _, g := range games {
		if g.IsBye() {
			byeScore = score[g.White]
		} else if score[g.White] != score[g.Black] {
			floats++
		}
	}
	if floats > 0 {
		st.crossed++
	}
	p := groupedPairing(active, colours, met, score, func(p PlayerID) bool {
		return byes[p] == minByes && score[p] == byeScore
	})
	if p == nil {
		return
	}
	if floats > 0 {
		t.Fatalf("round %d pairs %d game(s) across score groups, but %v pairs everyone within their group\n%s", games[0].Round, floats, p, describe(before))
	}
	for _, g := range games {
		if !g.IsBye() && (!fits(colours[g.White], white) || !fits(colours[g.Black], black)) {
			t.Fatalf("round %d: %v breaks the absolute colour rule, but %v keeps it within the score groups\n%s", g.Round, g, p, describe(before))
		}
	}
}

// fits reports whether colour c keeps a player with colours cs within FIDE's
// absolute colour rule: a difference of at most ±2, never a third game of one
// colour in a row.
func fits(cs []colour, c colour) bool {
	d := 0
	for _, x := range cs {
		d += int(x)
	}
	d += int(c)
	n := len(cs)
	return d >= -2 && d <= 2 && !(n >= 2 && cs[n-1] == c && cs[n-2] == c)
}

// groupedPairing searches, independently of the pairing code, for a pairing of
// the players without rematches that keeps the absolute colour rule and pairs
// only players of equal score (the bye, if the count is odd, to a player byeOK
// allows); it returns the pairs as "white-black" (or "bye:p"), or nil if there
// is none. Such a pairing pairs each score group on its own, so each group is
// searched apart, remembering the sets of players found unpairable.
func groupedPairing(players []PlayerID, colours map[PlayerID][]colour, met map[[2]PlayerID]bool, score map[PlayerID]int, byeOK func(PlayerID) bool) []string {
	var scores []int
	groups := map[int][]PlayerID{}
	for _, p := range players {
		if _, ok := groups[score[p]]; !ok {
			scores = append(scores, score[p])
		}
		groups[score[p]] = append(groups[score[p]], p)
	}
	var pairs []string
	for _, sc := range scores {
		group := groups[sc]
		failed := map[string]bool{}
		var rec func(rest []PlayerID) bool
		rec = func(rest []PlayerID) bool {
			if len(rest) == 0 {
				return true
			}
			key := fmt.Sprint(rest)
			if failed[key] {
				return false
			}
			a := rest[0]
			if len(rest)%2 == 1 && byeOK(a) {
				pairs = append(pairs, "bye:"+string(a))
				if rec(rest[1:]) {
					return true
				}
				pairs = pairs[:len(pairs)-1]
			}
			for i := 1; i < len(rest); i++ {
				b := rest[i]
				if met[[2]PlayerID{a, b}] {
					continue
				}
				var w, bl PlayerID
				switch {
				case fits(colours[a], white) && fits(colours[b], black):
					w, bl = a, b
				case fits(colours[b], white) && fits(colours[a], black):
					w, bl = b, a
				default:
					continue
				}
				pairs = append(pairs, string(w)+"-"+string(bl))
				if rec(append(slices.Clone(rest[1:i]), rest[i+1:]...)) {
					return true
				}
				pairs = pairs[:len(pairs)-1]
			}
			failed[key] = true
			return false
		}
		if !rec(group) {
			return nil
		}
	}
	return pairs
}

// checkColours checks the colour rules over a whole tournament: never three
// games of one colour in a row, the difference never beyond ±2; it counts the
// players who end beyond ±1.
func checkColours(t *testing.T, tour Tournament, st *swissStats) {
	t.Helper()
	seq := map[PlayerID][]colour{}
	for _, g := range tour.Games {
		if g.Result.Played() {
			seq[g.White] = append(seq[g.White], white)
			seq[g.Black] = append(seq[g.Black], black)
		}
	}
	for p, cs := range seq {
		d := 0
		for i, c := range cs {
			d += int(c)
			if d > 2 || d < -2 {
				t.Fatalf("%s reaches a colour difference of %d: %v\n%s", p, d, cs, describe(tour))
			}
			if i >= 2 && cs[i] == cs[i-1] && cs[i] == cs[i-2] {
				t.Fatalf("%s has the same colour three times in a row: %v\n%s", p, cs, describe(tour))
			}
		}
		if d > 1 || d < -1 {
			st.unbalanced++
		}
	}
}

func playSwiss(t *testing.T, rng *rand.Rand, n, rounds int, withdraw bool) (Tournament, swissStats) {
	t.Helper()
	tour, err := New(Swiss, ids(n), rounds)
	if err != nil {
		t.Fatal(err)
	}
	var st swissStats
	for !tour.Finished() {
		next, games, err := tour.NextRound()
		if err != nil {
			t.Fatalf("n=%d round %d: %v", n, tour.Round()+1, err)
		}
		checkSwissRound(t, tour, games, &st)
		tour = next
		for _, g := range games {
			if g.IsBye() {
				continue
			}
			if withdraw && rng.IntN(40) == 0 {
				if tour, _, err = tour.Withdraw(g.White); err != nil {
					t.Fatal(err)
				}
				continue
			}
			if tour, err = tour.Record(g.Round, g.White, g.Black, randomResult(rng, tour, g)); err != nil {
				t.Fatal(err)
			}
		}
	}
	checkColours(t, tour, &st)
	return tour, st
}

func TestSwissInvariants(t *testing.T) {
	rng := rand.New(rand.NewPCG(2025, 10))
	var total swissStats
	for n := 2; n <= 20; n++ {
		for range 20 {
			_, st := playSwiss(t, rng, n, MaxSwissRounds(n), false)
			total.rounds += st.rounds
			total.pairs += st.pairs
			total.unbalanced += st.unbalanced
			total.floats += st.floats
			total.diffSum += st.diffSum
			total.bigFloats += st.bigFloats
			total.crossed += st.crossed
		}
	}
	t.Logf("%+v", total)
}

// describe lists a tournament's games and withdrawals for a failure message.
func describe(tour Tournament) string {
	var b strings.Builder
	for _, g := range tour.Games {
		fmt.Fprintln(&b, g)
	}
	fmt.Fprintln(&b, "withdrawn:", tour.Withdrawn)
	return b.String()
}

// TestWeightsFitTheLargestSwiss checks that the pairing weights of the worst
// case the limits allow (MaxPlayers players on every score the last round of
// the longest Swiss can hold) fit in the integer range.
func TestWeightsFitTheLargestSwiss(t *testing.T) {
	rounds := MaxSwissRounds(MaxPlayers)
	var rs []*record
	for i := range MaxPlayers {
		rs = append(rs, &record{id: PlayerID(fmt.Sprint(i)), seed: i, halves: i % (2*(rounds-1) + 1)})
	}
	w, err := newWeights(rs, MaxPlayers/2)
	if err != nil {
		t.Fatal(err)
	}
	if w.groups != 2*(rounds-1)+1 {
		t.Errorf("%d score groups", w.groups)
	}
	// Beyond the limits the pairing refuses with an error rather than
	// overflowing.
	for i := range 3 * MaxPlayers {
		rs = append(rs, &record{id: PlayerID(fmt.Sprint("x", i)), halves: 1000 + i})
	}
	if _, err := newWeights(rs, len(rs)/2); !errors.Is(err, ErrBadTournament) {
		t.Errorf("an oversized field gave %v", err)
	}
}

// TestSwissScoreBeforeBalance is issue 74's four-player event: after round 1
// (p01-p03 1-0, p04-p02 1-0) the winners p01 and p04 both had White. FIDE's
// Dutch system pairs by score within its absolute colour rules, so the two
// 1-pointers meet (one of them gets a second White, a difference of +2, which
// the rules allow) rather than each meeting a 0-pointer.
func TestSwissScoreBeforeBalance(t *testing.T) {
	tour, _ := New(Swiss, ids(4), 3)
	tour, games, err := tour.NextRound()
	if err != nil {
		t.Fatal(err)
	}
	var r1 []string
	for _, g := range games {
		r1 = append(r1, string(g.White)+"-"+string(g.Black))
	}
	if want := []string{"p01-p03", "p04-p02"}; !slices.Equal(r1, want) {
		t.Fatalf("round 1 = %v, want %v", r1, want)
	}
	for _, g := range games {
		if tour, err = tour.Record(1, g.White, g.Black, WhiteWins); err != nil {
			t.Fatal(err)
		}
	}
	_, games, err = tour.NextRound()
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range games {
		winners := map[PlayerID]bool{"p01": true, "p04": true}
		if winners[g.White] != winners[g.Black] {
			t.Errorf("round 2 pairs %s with %s: a 1-pointer with a 0-pointer though the 1-pointers can meet", g.White, g.Black)
		}
	}
}
