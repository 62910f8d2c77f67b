package tournament

import (
	"encoding/json"
	"errors"
	"testing"
)

// resultFrom maps a fuzz byte to what happens to a game: a result, or the
// withdrawal of one of its players.
func resultFrom(b byte) (r Result, withdrawWhite, withdrawBlack bool) {
	switch b % 16 {
	case 0:
		return Pending, true, false
	case 1:
		return Pending, false, true
	case 2, 3, 4, 5:
		return Draw, false, false
	case 6, 7, 8, 9, 10:
		return WhiteWins, false, false
	}
	return BlackWins, false, false
}

// apply records what fuzz byte b says happens to pending game g.
func apply(tour Tournament, g Game, b byte) (Tournament, error) {
	r, ww, wb := resultFrom(b)
	var err error
	switch {
	case ww:
		tour, _, err = tour.Withdraw(g.White)
	case wb:
		tour, _, err = tour.Withdraw(g.Black)
	default:
		tour, err = tour.Record(g.Round, g.White, g.Black, r)
	}
	return tour, err
}

// checkStandings checks what any standings must satisfy.
func checkStandings(t *testing.T, tour Tournament) {
	t.Helper()
	st := tour.Standings()
	var sum, want float64
	for _, g := range tour.Games {
		w, b := g.Result.Points()
		want += w + b
	}
	for i, s := range st {
		sum += s.Points
		if s.Rank != i+1 {
			t.Fatalf("rank %d at place %d", s.Rank, i+1)
		}
		if i > 0 && s.Points > st[i-1].Points {
			t.Fatalf("standings out of order: %+v after %+v", s, st[i-1])
		}
		if s.Played != s.Wins+s.Draws+s.Losses {
			t.Fatalf("played %d ≠ %d+%d+%d", s.Played, s.Wins, s.Draws, s.Losses)
		}
	}
	if sum != want {
		t.Fatalf("standings hold %v points, the games %v", sum, want)
	}
}

// FuzzSwiss plays Swiss events with results and withdrawals drawn from the
// input and checks every round's pairing and the standings.
func FuzzSwiss(f *testing.F) {
	f.Add(uint8(7), []byte{6, 11, 2, 6, 6, 11, 0, 3, 9, 12, 4, 1, 8})
	f.Add(uint8(12), []byte("a Swiss with a few withdrawals and many decisive games"))
	f.Add(uint8(20), make([]byte, 64))
	f.Add(uint8(3), []byte{0, 0, 0})
	f.Fuzz(func(t *testing.T, size uint8, data []byte) {
		n := 3 + int(size)%18
		tour, err := New(Swiss, ids(n), MaxSwissRounds(n))
		if err != nil {
			t.Fatal(err)
		}
		pos := 0
		next := func() byte {
			if len(data) == 0 {
				return 6
			}
			b := data[pos%len(data)]
			pos++
			return b
		}
		for !tour.Finished() {
			paired, games, err := tour.NextRound()
			if errors.Is(err, ErrNoPairing) && len(tour.Withdrawn) > 0 {
				break
			}
			if err != nil {
				t.Fatalf("%d players, round %d: %v", n, tour.Round()+1, err)
			}
			var st swissStats
			if len(tour.Withdrawn) == 0 {
				checkSwissRound(t, tour, games, &st)
			} else {
				checkSwissRoundLoose(t, tour, games)
			}
			switch {
			case len(tour.Active()) <= 12:
				checkBest(t, tour, games)
			case len(tour.Withdrawn) == 0:
				checkAbsolute(t, tour, games)
			}
			tour = paired
			for _, g := range games {
				cur := tour.Games[len(tour.Games)-len(games):]
				if g.IsBye() || cur[indexOfGame(cur, g)].Result.Decided() {
					continue
				}
				if tour, err = apply(tour, g, next()); err != nil {
					t.Fatal(err)
				}
			}
			checkStandings(t, tour)
		}
		if err := tour.Validate(); err != nil {
			t.Fatal(err)
		}
		// The record survives a round trip through JSON unchanged.
		data2, _ := json.Marshal(tour)
		var back Tournament
		if err := json.Unmarshal(data2, &back); err != nil || back.Validate() != nil {
			t.Fatalf("reloading: %v", err)
		}
	})
}

func indexOfGame(games []Game, g Game) int {
	for i, x := range games {
		if x.Round == g.Round && x.White == g.White && x.Black == g.Black {
			return i
		}
	}
	return -1
}

// checkSwissRoundLoose checks a round paired after withdrawals: every active
// player once, nobody withdrawn, no rematch; the bye may have to repeat.
func checkSwissRoundLoose(t *testing.T, before Tournament, games []Game) {
	t.Helper()
	met := map[[2]PlayerID]bool{}
	for _, g := range before.Games {
		met[[2]PlayerID{g.White, g.Black}], met[[2]PlayerID{g.Black, g.White}] = true, true
	}
	seen := map[PlayerID]bool{}
	for _, g := range games {
		if !g.IsBye() && met[[2]PlayerID{g.White, g.Black}] {
			t.Fatalf("rematch %v", g)
		}
		for _, p := range []PlayerID{g.White, g.Black} {
			if p == "" {
				continue
			}
			if seen[p] {
				t.Fatalf("%s twice in round %d", p, g.Round)
			}
			seen[p] = true
		}
	}
	if len(seen) != len(before.Active()) {
		t.Fatalf("round pairs %d of %d active players", len(seen), len(before.Active()))
	}
}

// FuzzRoundRobin plays round robins with results and withdrawals from the
// input and checks the standings.
func FuzzRoundRobin(f *testing.F) {
	f.Add(uint8(5), false, []byte{6, 11, 2, 0, 9})
	f.Add(uint8(10), true, []byte("double round robin"))
	f.Fuzz(func(t *testing.T, size uint8, double bool, data []byte) {
		n := 2 + int(size)%19
		format := RoundRobin
		if double {
			format = DoubleRoundRobin
		}
		tour, err := New(format, ids(n), 0)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; len(tour.Pending()) > 0; i++ {
			g := tour.Pending()[0]
			b := byte(6)
			if len(data) > 0 {
				b = data[i%len(data)]
			}
			if tour, err = apply(tour, g, b); err != nil {
				t.Fatal(err)
			}
		}
		if !tour.Finished() || tour.Validate() != nil {
			t.Fatalf("not finished or invalid: %v", tour.Validate())
		}
		checkStandings(t, tour)
	})
}

// checkAbsolute checks that a round breaks the absolute colour rule for
// nobody (in a large field without withdrawals it can be kept).
func checkAbsolute(t *testing.T, before Tournament, games []Game) {
	t.Helper()
	rs := records(before.Players, map[PlayerID]bool{}, before.Games)
	by := map[PlayerID]*record{}
	for _, r := range rs {
		by[r.id] = r
	}
	for _, g := range games {
		if g.IsBye() {
			continue
		}
		if x, _, _ := by[g.White].outcome(white); x > 0 {
			t.Fatalf("round %d: %s gets White against the absolute rule\n%s", g.Round, g.White, describe(before))
		}
		if x, _, _ := by[g.Black].outcome(black); x > 0 {
			t.Fatalf("round %d: %s gets Black against the absolute rule\n%s", g.Round, g.Black, describe(before))
		}
	}
}
