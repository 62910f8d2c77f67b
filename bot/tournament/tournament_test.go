package tournament

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestBergerTablesMatchFIDE(t *testing.T) {
	f, err := os.Open("testdata/berger.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var tables [][]string
	var cur []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case strings.HasPrefix(line, "#"):
		case line == "":
			if cur != nil {
				tables = append(tables, cur)
			}
			cur = nil
		default:
			cur = append(cur, line)
		}
	}
	tables = append(tables, cur)
	for _, table := range tables {
		n := len(table) + 1
		players := make([]PlayerID, n)
		for i := range players {
			players[i] = PlayerID(fmt.Sprint(i + 1))
		}
		got := map[int][]string{}
		for _, g := range BergerSchedule(players, 1) {
			got[g.Round] = append(got[g.Round], fmt.Sprintf("%s-%s", g.White, g.Black))
		}
		for r, line := range table {
			if want := strings.Join(got[r+1], " "); want != line {
				t.Errorf("%d players, round %d: %q, FIDE has %q", n, r+1, want, line)
			}
		}
	}
}

func TestRoundRobinInvariants(t *testing.T) {
	for n := 2; n <= 20; n++ {
		for _, format := range []Format{RoundRobin, DoubleRoundRobin} {
			tour, err := New(format, ids(n), 0)
			if err != nil {
				t.Fatal(err)
			}
			cycles := 1
			if format == DoubleRoundRobin {
				cycles = 2
			}
			if tour.Rounds != cycles*RoundsPerCycle(n) {
				t.Errorf("%s of %d: %d rounds", format, n, tour.Rounds)
			}
			if err := tour.Validate(); err != nil {
				t.Fatal(err)
			}
			meetings := map[[2]PlayerID]int{}
			whites, blacks := map[PlayerID]int{}, map[PlayerID]int{}
			rests := map[PlayerID]int{}
			for r := 1; r <= tour.Rounds; r++ {
				games := tour.RoundGames(r)
				seen := map[PlayerID]bool{}
				for _, g := range games {
					if seen[g.White] || seen[g.Black] {
						t.Fatalf("%s of %d: a player plays twice in round %d", format, n, r)
					}
					seen[g.White], seen[g.Black] = true, true
					meetings[[2]PlayerID{g.White, g.Black}]++
					whites[g.White]++
					blacks[g.Black]++
				}
				if want := n / 2; len(games) != want {
					t.Fatalf("%s of %d: round %d has %d games, want %d", format, n, r, len(games), want)
				}
				for _, p := range tour.Players {
					if !seen[p] {
						rests[p]++
					}
				}
			}
			for i, a := range tour.Players {
				for _, b := range tour.Players[i+1:] {
					ab, ba := meetings[[2]PlayerID{a, b}], meetings[[2]PlayerID{b, a}]
					if cycles == 1 && ab+ba != 1 || cycles == 2 && (ab != 1 || ba != 1) {
						t.Fatalf("%s of %d: %s and %s meet %d times with %s White, %d with %s White", format, n, a, b, ab, a, ba, b)
					}
				}
				d := whites[a] - blacks[a]
				if cycles == 1 && (d < -1 || d > 1) || cycles == 2 && d != 0 {
					t.Errorf("%s of %d: %s has %d Whites and %d Blacks", format, n, a, whites[a], blacks[a])
				}
				if want := cycles * (n % 2); rests[a] != want {
					t.Errorf("%s of %d: %s rests %d times, want %d", format, n, a, rests[a], want)
				}
			}
		}
	}
}

func TestSwissRoundOne(t *testing.T) {
	// The Dutch system's first round: top half against bottom half, the top
	// seed White on board 1 and colours alternating down the boards.
	tour, _ := New(Swiss, ids(9), 4)
	_, games, err := tour.NextRound()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, g := range games {
		got = append(got, strings.TrimPrefix(g.String(), "1: "))
	}
	want := []string{"p01 - p05 *", "p06 - p02 *", "p03 - p07 *", "p08 - p04 *", "p09 bye"}
	if !slices.Equal(got, want) {
		t.Errorf("round 1 = %q, want %q", got, want)
	}
}

func TestSwissRoundTwoByHand(t *testing.T) {
	// After round 1 of a Swiss of 8 (1-5 1-0, 6-2 0-1, 3-7 ½-½, 8-4 1-0) the
	// groups are {p01, p02, p08} on 1, {p03, p07} on ½, {p04, p05, p06} on 0.
	//
	// Group 1: S1 = {p01}, S2 = {p02, p08}; p01 (White before) meets p02
	// (Black before), p02 White; p08 floats. Group ½: p03 and p07 have met, so
	// one floats on: p08 (White before) meets p07 (Black before) with Black,
	// rather than the top resident p03, with whom one of the two would have a
	// second White (difference +2). p03 floats to group 0 and meets its top,
	// p04, who had Black and gets White; p05 (Black before) - p06 remain.
	tour, _ := New(Swiss, ids(8), 4)
	tour, _, _ = tour.NextRound()
	for _, r := range []struct {
		w, b PlayerID
		res  Result
	}{{"p01", "p05", WhiteWins}, {"p06", "p02", BlackWins}, {"p03", "p07", Draw}, {"p08", "p04", WhiteWins}} {
		var err error
		if tour, err = tour.Record(1, r.w, r.b, r.res); err != nil {
			t.Fatal(err)
		}
	}
	_, games, err := tour.NextRound()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, g := range games {
		got = append(got, fmt.Sprintf("%s-%s", g.White, g.Black))
	}
	want := []string{"p02-p01", "p07-p08", "p04-p03", "p05-p06"}
	if !slices.Equal(got, want) {
		t.Errorf("round 2 = %v, want %v", got, want)
	}
}

// allPairings calls visit with every way to pair vs (no rematches), each pair
// as indices into vs; -1 stands for the bye.
func allPairings(vs []int, canMeet func(a, b int) bool, byeOK func(a int) bool, visit func([][2]int)) {
	var pairs [][2]int
	var rec func(rest []int)
	rec = func(rest []int) {
		if len(rest) == 0 {
			visit(pairs)
			return
		}
		a := rest[0]
		if len(rest)%2 == 1 && byeOK(a) {
			pairs = append(pairs, [2]int{a, -1})
			rec(rest[1:])
			pairs = pairs[:len(pairs)-1]
		}
		for i := 1; i < len(rest); i++ {
			b := rest[i]
			if !canMeet(a, b) {
				continue
			}
			next := append(slices.Clone(rest[1:i]), rest[i+1:]...)
			pairs = append(pairs, [2]int{a, b})
			rec(next)
			pairs = pairs[:len(pairs)-1]
		}
	}
	rec(vs)
}

// score evaluates a pairing by the documented criteria, as a vector to
// compare lexicographically, with the colours each pair would get.
func score(w weights, rs []*record, pairs [][2]int) []int64 {
	var v [criteria]int64
	for _, p := range pairs {
		a := rs[p[0]]
		if p[1] == -1 {
			ga := w.groupOf[a.halves]
			v[critBye] += int64(w.groups - 1 - ga)
			v[critFloat] += w.float(ga, w.groups)
			continue
		}
		b := rs[p[1]]
		if b.halves > a.halves || b.halves == a.halves && b.seed < a.seed {
			a, b = b, a
		}
		al := allocate(a, b)
		d := int64(a.halves - b.halves)
		v[critAbsolute] += int64(al.absolute)
		v[critFloat] += w.float(w.groupOf[a.halves], w.groupOf[b.halves])
		v[critDiff] += d * d
		v[critPref] += int64(al.unmet)
		v[critStrong] += int64(al.strong)
	}
	return v[:]
}

// checkBest checks, by trying every legal pairing, that the round paired
// after tour is the best by the documented criteria taken in order (bye
// group, absolute colour rule, score groups, score differences, colour
// preferences, strong colour preferences), the bye going to a player with the fewest byes unless
// no legal pairing allows it.
func checkBest(t *testing.T, tour Tournament, games []Game) {
	t.Helper()
	gone := map[PlayerID]bool{}
	for _, p := range tour.Withdrawn {
		gone[p] = true
	}
	rs := records(tour.Players, gone, tour.Games)
	rankOrder(rs)
	w, _ := newWeights(rs, (len(rs)+1)/2)
	index := map[PlayerID]int{}
	for i, r := range rs {
		index[r.id] = i
	}
	var ours [][2]int
	for _, g := range games {
		if g.IsBye() {
			ours = append(ours, [2]int{index[g.White], -1})
		} else {
			ours = append(ours, [2]int{index[g.White], index[g.Black]})
		}
	}
	counts := []int{}
	for _, r := range rs {
		counts = append(counts, r.byes)
	}
	slices.Sort(counts)
	var best []int64
	for _, limit := range slices.Compact(counts) {
		allPairings(allVertices(len(rs)),
			func(a, b int) bool { return !rs[a].met[rs[b].id] },
			func(a int) bool { return rs[a].byes <= limit },
			func(p [][2]int) {
				if s := score(w, rs, p); best == nil || slices.Compare(s, best) < 0 {
					best = s
				}
			})
		if best != nil || len(rs)%2 == 0 {
			break
		}
	}
	if got := score(w, rs, ours); !slices.Equal(got, best) {
		t.Fatalf("round %d: pairing %v scores %v, the best is %v\n%s", tour.Round()+1, games, got, best, describe(tour))
	}
}

// TestSwissPairingIsBest checks every round of many small Swiss events with
// checkBest.
func TestSwissPairingIsBest(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	events := 60
	if testing.Short() {
		events = 15
	}
	for e := range events {
		n := 4 + e%7
		tour, err := New(Swiss, ids(n), MaxSwissRounds(n))
		if err != nil {
			t.Fatal(err)
		}
		for !tour.Finished() {
			next, games, err := tour.NextRound()
			if err != nil {
				t.Fatal(err)
			}
			checkBest(t, tour, games)
			tour = next
			for _, g := range games {
				if !g.IsBye() {
					tour, _ = tour.Record(g.Round, g.White, g.Black, randomResult(rng, tour, g))
				}
			}
		}
	}
}

// TestMaxSwissRoundsSmall tries every sequence of results of Swiss events of
// 3, 4 and 5 players over MaxSwissRounds rounds: every round pairs without a
// rematch and with the bye rotated.
func TestMaxSwissRoundsSmall(t *testing.T) {
	for n := 3; n <= 5; n++ {
		tour, err := New(Swiss, ids(n), MaxSwissRounds(n))
		if err != nil {
			t.Fatal(err)
		}
		leaves := 0
		var explore func(tour Tournament)
		explore = func(tour Tournament) {
			if tour.Finished() {
				leaves++
				return
			}
			next, games, err := tour.NextRound()
			if err != nil {
				t.Fatalf("%d players after %v: %v", n, tour.Games, err)
			}
			var st swissStats
			checkSwissRound(t, tour, games, &st)
			var rec func(i int, cur Tournament)
			rec = func(i int, cur Tournament) {
				if i == len(games) {
					explore(cur)
					return
				}
				g := games[i]
				if g.IsBye() {
					rec(i+1, cur)
					return
				}
				for _, r := range []Result{WhiteWins, Draw, BlackWins} {
					c, err := cur.Record(g.Round, g.White, g.Black, r)
					if err != nil {
						t.Fatal(err)
					}
					rec(i+1, c)
				}
			}
			rec(0, next)
		}
		explore(tour)
		if want := map[int]int{3: 27, 4: 729, 5: 729}[n]; leaves != want {
			t.Errorf("%d players: %d complete events, want %d", n, leaves, want)
		}
	}
}

func TestSwissWithWithdrawals(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	for n := 3; n <= 20; n++ {
		for range 5 {
			tour, err := New(Swiss, ids(n), MaxSwissRounds(n))
			if err != nil {
				t.Fatal(err)
			}
			for !tour.Finished() {
				next, games, err := tour.NextRound()
				if errors.Is(err, ErrNoPairing) {
					break // too few players left to pair without rematches
				}
				if err != nil {
					t.Fatal(err)
				}
				var st swissStats
				checkSwissRound(t, tour, games, &st)
				tour = next
				for _, g := range games {
					if g.IsBye() || tour.Games[slices.IndexFunc(tour.Games, func(x Game) bool { return x == g })].Result.Decided() {
						continue
					}
					if rng.IntN(15) == 0 {
						var forfeited []Game
						if tour, forfeited, err = tour.Withdraw(g.Black); err != nil {
							t.Fatal(err)
						}
						if len(forfeited) != 1 || forfeited[0].Result != WhiteWinsByForfeit {
							t.Fatalf("withdrawing %s forfeited %v", g.Black, forfeited)
						}
						continue
					}
					if tour, err = tour.Record(g.Round, g.White, g.Black, randomResult(rng, tour, g)); err != nil {
						t.Fatal(err)
					}
				}
			}
			if err := tour.Validate(); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func TestRoundRobinWithdrawal(t *testing.T) {
	tour, _ := New(RoundRobin, ids(6), 0)
	tour, _ = tour.Record(1, "p01", "p06", WhiteWins)
	before := tour
	after, forfeited, err := tour.Withdraw("p01")
	if err != nil {
		t.Fatal(err)
	}
	if len(forfeited) != 4 {
		t.Fatalf("p01 forfeited %d games, want the 4 unplayed ones", len(forfeited))
	}
	for _, g := range after.Games {
		if g.Has("p01") && g.Round != 1 {
			want := BlackWinsByForfeit
			if g.Black == "p01" {
				want = WhiteWinsByForfeit
			}
			if g.Result != want {
				t.Errorf("%v: want %s", g, want)
			}
		}
	}
	if g := after.RoundGames(1)[0]; g.Result != WhiteWins {
		t.Errorf("the game already played changed: %v", g)
	}
	if !reflect.DeepEqual(before, tour) || len(before.Withdrawn) != 0 {
		t.Errorf("Withdraw modified the tournament it was called on")
	}
	if _, _, err := after.Withdraw("p01"); !errors.Is(err, ErrWithdrawn) {
		t.Errorf("second withdrawal: %v", err)
	}
	if _, _, err := after.Withdraw("nobody"); !errors.Is(err, ErrUnknownPlayer) {
		t.Errorf("withdrawing a stranger: %v", err)
	}
}

type preparedStanding struct {
	Player                                PlayerID
	Points                                float64
	Tiebreaks                             []float64
	Played, Wins, Draws, Losses, Unplayed int
	Withdrawn                             bool
}

func TestTiebreaksPrepared(t *testing.T) {
	data, err := os.ReadFile("testdata/tiebreaks.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Name       string
		Tournament Tournament
		Standings  []preparedStanding
	}
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		if err := c.Tournament.Validate(); err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		if !c.Tournament.Finished() {
			t.Errorf("%s: not finished", c.Name)
		}
		got := c.Tournament.Standings()
		if len(got) != len(c.Standings) {
			t.Fatalf("%s: %d lines", c.Name, len(got))
		}
		for i, want := range c.Standings {
			g := got[i]
			have := preparedStanding{g.Player, g.Points, g.Tiebreaks, g.Played, g.Wins, g.Draws, g.Losses, g.Unplayed, g.Withdrawn}
			if !reflect.DeepEqual(have, want) || g.Rank != i+1 {
				t.Errorf("%s: place %d is %+v (rank %d), want %+v", c.Name, i+1, have, g.Rank, want)
			}
		}
	}
}

// TestRestartSafety: pairing round N from the stored record of rounds 1..N-1
// gives the same pairing, whether from the value in memory, from its JSON
// form, or later from the full record cut back to those rounds.
func TestRestartSafety(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{5, 8, 13} {
		tour, _ := New(Swiss, ids(n), MaxSwissRounds(n))
		var stored [][]Game
		for !tour.Finished() {
			data, err := json.Marshal(tour)
			if err != nil {
				t.Fatal(err)
			}
			var loaded Tournament
			if err := json.Unmarshal(data, &loaded); err != nil {
				t.Fatal(err)
			}
			next, games, err := tour.NextRound()
			if err != nil {
				t.Fatal(err)
			}
			_, again, err := loaded.NextRound()
			if err != nil || !slices.Equal(games, again) {
				t.Fatalf("round %d after a reload: %v, %v; before: %v", tour.Round()+1, again, err, games)
			}
			// Once paired, the round is in the record: a restarted service sees
			// it as in progress and pairs nobody again.
			if _, _, err := next.NextRound(); !errors.Is(err, ErrRoundInProgress) {
				t.Fatalf("pairing a round twice: %v", err)
			}
			stored = append(stored, games)
			tour = next
			for _, g := range games {
				if !g.IsBye() {
					tour, _ = tour.Record(g.Round, g.White, g.Black, randomResult(rng, tour, g))
				}
			}
		}
		for r, want := range stored {
			got, err := PairSwiss(tour.Players, tour.Withdrawn, tour.Games, r+1)
			if err != nil || !slices.Equal(got, want) {
				t.Fatalf("%d players: round %d recomputed from the final record is %v, %v; was %v", n, r+1, got, err, want)
			}
		}
	}
}

func TestRecordErrors(t *testing.T) {
	tour, _ := New(Swiss, ids(5), 2)
	tour, games, _ := tour.NextRound()
	g := games[0]
	if _, err := tour.Record(1, g.White, g.Black, Bye); !errors.Is(err, ErrBadResult) {
		t.Errorf("recording a bye: %v", err)
	}
	if _, err := tour.Record(1, g.White, g.Black, "2-0"); !errors.Is(err, ErrBadResult) {
		t.Errorf("recording 2-0: %v", err)
	}
	if _, err := tour.Record(1, g.Black, g.White, WhiteWins); !errors.Is(err, ErrUnknownGame) {
		t.Errorf("recording with colours swapped: %v", err)
	}
	if _, _, err := tour.NextRound(); !errors.Is(err, ErrRoundInProgress) {
		t.Errorf("pairing during a round: %v", err)
	}
	done, err := tour.Record(1, g.White, g.Black, Draw)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := done.Record(1, g.White, g.Black, WhiteWins); !errors.Is(err, ErrAlreadyDecided) {
		t.Errorf("recording twice: %v", err)
	}
	if tour.Games[0].Result != Pending {
		t.Errorf("Record modified the tournament it was called on")
	}
	rr, _ := New(RoundRobin, ids(4), 0)
	if _, _, err := rr.NextRound(); !errors.Is(err, ErrNotSwiss) {
		t.Errorf("NextRound of a round robin: %v", err)
	}
}

func TestNewErrors(t *testing.T) {
	cases := []struct {
		format  Format
		players []PlayerID
		rounds  int
	}{
		{"knockout", ids(4), 0},
		{Swiss, ids(1), 1},
		{Swiss, ids(MaxPlayers + 1), 5},
		{Swiss, []PlayerID{"a", "b", "a"}, 1},
		{Swiss, []PlayerID{"a", "", "c"}, 1},
		{Swiss, ids(10), 0},
		{Swiss, ids(10), 6},
	}
	for _, c := range cases {
		if _, err := New(c.format, c.players, c.rounds); !errors.Is(err, ErrBadTournament) {
			t.Errorf("New(%q, %d players, %d rounds): %v", c.format, len(c.players), c.rounds, err)
		}
	}
	if _, err := New(Swiss, ids(MaxPlayers), MaxSwissRounds(MaxPlayers)); err != nil {
		t.Errorf("the largest Swiss: %v", err)
	}
}

func TestValidateRejectsDamage(t *testing.T) {
	good, _ := New(Swiss, ids(6), 3)
	good, _, _ = good.NextRound()
	damage := map[string]func(*Tournament){
		"unknown player":     func(t *Tournament) { t.Games[0].White = "zz" },
		"bad result":         func(t *Tournament) { t.Games[0].Result = "1-1" },
		"player twice":       func(t *Tournament) { t.Games[1].White = t.Games[0].White },
		"round out of range": func(t *Tournament) { t.Games[0].Round = 9 },
		"bye with opponent":  func(t *Tournament) { t.Games[0].Result = Bye },
		"unknown withdrawal": func(t *Tournament) { t.Withdrawn = []PlayerID{"zz"} },
		"too many rounds":    func(t *Tournament) { t.Rounds = 10 },
		"missing round": func(t *Tournament) {
			for i := range t.Games {
				t.Games[i].Round = 2
			}
		},
		"rematch": func(t *Tournament) {
			g := t.Games[0]
			g.Round, g.Result = 2, Pending
			for i := range t.Games {
				t.Games[i].Result = Draw
			}
			t.Games = append(t.Games, g)
		},
	}
	for name, f := range damage {
		bad := good.clone()
		f(&bad)
		if err := bad.Validate(); err == nil {
			t.Errorf("%s: accepted", name)
		}
		if _, _, err := bad.NextRound(); err == nil {
			t.Errorf("%s: NextRound paired from a damaged record", name)
		}
	}
	rr, _ := New(RoundRobin, ids(5), 0)
	rr.Games[0].White, rr.Games[0].Black = rr.Games[0].Black, rr.Games[0].White
	if err := rr.Validate(); !errors.Is(err, ErrBadTournament) {
		t.Errorf("a round robin with a game off the schedule: %v", err)
	}
}

func TestParse(t *testing.T) {
	for in, want := range map[string]Result{"1-0": WhiteWins, " 0-1 ": BlackWins, "½-½": Draw, "1/2-1/2": Draw,
		"+-": WhiteWinsByForfeit, "-+": BlackWinsByForfeit, "--": DoubleForfeit, "BYE": Bye, "*": Pending} {
		if got, err := ParseResult(in); err != nil || got != want {
			t.Errorf("ParseResult(%q) = %q, %v", in, got, err)
		}
	}
	if _, err := ParseResult("1-1"); !errors.Is(err, ErrBadResult) {
		t.Errorf("ParseResult(1-1): %v", err)
	}
	for in, want := range map[string]Format{"swiss": Swiss, "RR": RoundRobin, "double": DoubleRoundRobin} {
		if got, err := ParseFormat(in); err != nil || got != want {
			t.Errorf("ParseFormat(%q) = %q, %v", in, got, err)
		}
	}
	if _, err := ParseFormat("arena"); !errors.Is(err, ErrBadTournament) {
		t.Errorf("ParseFormat(arena): %v", err)
	}
}

// Top names the players level on points with the leader, the tie-break that
// separated the first two, or how many share first place.
func TestTop(t *testing.T) {
	players := []PlayerID{"a", "b", "c", "d"}
	cases := []struct {
		name    string
		format  Format
		games   []Game
		level   int
		shared  int
		decider Tiebreak
	}{
		{"clear winner", RoundRobin, []Game{{1, "a", "b", WhiteWins}, {1, "c", "d", Draw}}, 1, 1, ""},
		{"all drawn", RoundRobin, []Game{{1, "a", "b", Draw}, {1, "c", "d", Draw}}, 4, 4, ""},
		// a, b and c score 1; a beat b, who then beat d: a's opponent scored most.
		{"Buchholz", Swiss, []Game{{1, "a", "b", WhiteWins}, {1, "c", "d", WhiteWins}, {2, "b", "d", WhiteWins}}, 3, 1, Buchholz},
		// a and b score 2; b beat a, so b's Sonneborn-Berger is higher.
		{"Sonneborn-Berger", RoundRobin, []Game{{1, "a", "b", BlackWins}, {2, "a", "c", WhiteWins}, {3, "a", "d", WhiteWins},
			{1, "b", "c", Draw}, {2, "b", "d", Draw}, {3, "c", "d", WhiteWins}}, 2, 1, SonnebornBerger},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fp := c.format.Top(Standings(c.format, players, nil, c.games))
			if len(fp.Level) != c.level || fp.Shared != c.shared || fp.Decider != c.decider {
				t.Fatalf("level %d, shared %d, decider %q; want %d, %d, %q", len(fp.Level), fp.Shared, fp.Decider, c.level, c.shared, c.decider)
			}
		})
	}
	if fp := RoundRobin.Top(nil); len(fp.Level) != 0 || fp.Shared != 0 {
		t.Fatalf("empty standings: %+v", fp)
	}
}
