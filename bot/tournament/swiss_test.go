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
	// beyondOne counts the players a round left with a colour difference
	// beyond ±1, forced the rounds where no pairing could avoid it.
	beyondOne, forced int
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

	// Colours within one of balance: a round may leave a player at ±2 only
	// when no pairing without rematches (the bye going to a player of the same
	// score with the fewest byes) keeps everyone within ±1.
	beyond := 0
	var byeScore = -1
	for _, g := range games {
		if g.IsBye() {
			byeScore = score[g.White]
			continue
		}
		if balance(colours[g.White])+1 > 1 {
			beyond++
		}
		if balance(colours[g.Black])-1 < -1 {
			beyond++
		}
	}
	if beyond == 0 {
		return
	}
	st.beyondOne += beyond
	st.forced++
	if p := balancedPairing(active, colours, met, func(p PlayerID) bool {
		return byes[p] == minByes && score[p] == byeScore
	}); p != nil {
		t.Fatalf("round %d leaves %d player(s) beyond ±1, but %v keeps everyone within one\n%s", games[0].Round, beyond, p, describe(before))
	}
}

// balance returns whites minus blacks.
func balance(cs []colour) int {
	d := 0
	for _, c := range cs {
		d += int(c)
	}
	return d
}

// fits reports whether colour c keeps a player with colours cs within one of
// balance and off a third game of one colour in a row.
func fits(cs []colour, c colour) bool {
	d := balance(cs) + int(c)
	n := len(cs)
	return d >= -1 && d <= 1 && !(n >= 2 && cs[n-1] == c && cs[n-2] == c)
}

// balancedPairing searches, independently of the pairing code, for a pairing of
// the players without rematches that keeps every colour difference within ±1
// (the bye, if the count is odd, to a player byeOK allows); it returns the
// pairs as "white-black" (or "bye:p"), or nil if there is none.
func balancedPairing(players []PlayerID, colours map[PlayerID][]colour, met map[[2]PlayerID]bool, byeOK func(PlayerID) bool) []string {
	var pairs []string
	var rec func(rest []PlayerID) bool
	rec = func(rest []PlayerID) bool {
		if len(rest) == 0 {
			return true
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
		return false
	}
	if rec(players) {
		return pairs
	}
	return nil
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
			total.beyondOne += st.beyondOne
			total.forced += st.forced
		}
	}
	t.Logf("%+v", total)
	// The forced exceptions are rare: a round where every pairing breaks the
	// balance needs most of the field at ±1 with few opponents left.
	if total.forced*200 > total.rounds {
		t.Errorf("%d of %d rounds left someone beyond ±1", total.forced, total.rounds)
	}
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
