package tournament

// BergerSchedule returns the games of a round robin among players (in seed order):
// every pair meets once per cycle, cycles times (1 single, 2 double), colours
// swapped in each new cycle. All games are pending.
//
// The schedule is the Berger table FIDE publishes (the circle method): with an
// even number n of players, in round r (from 0) the player of seed n meets seed
// p+1, where p = r·n/2 mod (n-1), with White in even rounds and Black in odd
// ones; the other players pair as seeds (p+k mod n-1)+1 with White against
// (p-k mod n-1)+1, k = 1 .. n/2-1. With an odd number of players a phantom
// takes seed n+1 and whoever meets it sits the round out: no game, no point.
// Each player's colours differ by at most one in a single cycle and are equal
// in a double one. Round r of cycle c is round c·R + r + 1, R rounds a cycle.
func BergerSchedule(players []PlayerID, cycles int) []Game {
	n := len(players)
	if n < 2 || cycles < 1 {
		return nil
	}
	seats := n + n%2 // seat n-1 (0-based) is the phantom when n is odd
	m := seats - 1   // rounds per cycle
	name := func(seat int) PlayerID {
		if seat >= n {
			return ""
		}
		return players[seat]
	}
	var games []Game
	for c := range cycles {
		for r := range m {
			round := c*m + r + 1
			add := func(white, black int) {
				if c%2 == 1 {
					white, black = black, white
				}
				if name(white) == "" || name(black) == "" {
					return // the phantom: a rest, not a game
				}
				games = append(games, Game{Round: round, White: name(white), Black: name(black)})
			}
			p := r * (seats / 2) % m
			if r%2 == 0 {
				add(p, m)
			} else {
				add(m, p)
			}
			for k := 1; k < seats/2; k++ {
				add((p+k)%m, (p-k+m)%m)
			}
		}
	}
	return games
}

// RoundsPerCycle returns the number of rounds of one round-robin cycle among n
// players: n-1 for even n, n for odd n (each player rests once).
func RoundsPerCycle(n int) int {
	if n < 2 {
		return 0
	}
	return n + n%2 - 1
}
