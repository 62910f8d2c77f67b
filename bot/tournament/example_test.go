package tournament_test

import (
	"fmt"

	"github.com/missivechess/missive/bot/tournament"
)

// A Swiss of five players: the first round, a result, a withdrawal, the
// standings so far. After one round Buchholz says little: a round without a
// game counts the player's own score, so the forfeit winner and the bye rank
// above the winner whose opponent has no points.
func Example() {
	players := []tournament.PlayerID{"ann", "bob", "cat", "dan", "eve"}
	t, err := tournament.New(tournament.Swiss, players, 3)
	if err != nil {
		fmt.Println(err)
		return
	}
	t, games, _ := t.NextRound()
	for _, g := range games {
		fmt.Println(g)
	}
	t, _ = t.Record(1, "ann", "cat", tournament.WhiteWins)
	t, forfeited, _ := t.Withdraw("bob")
	fmt.Println("forfeited:", forfeited)
	for _, s := range t.Standings() {
		fmt.Printf("%d. %s %.1f %v\n", s.Rank, s.Player, s.Points, s.Tiebreaks)
	}
	// Output:
	// 1: ann - cat *
	// 1: dan - bob *
	// 1: eve bye
	// forfeited: [1: dan - bob +-]
	// 1. dan 1.0 [1 1 0]
	// 2. eve 1.0 [1 1 0]
	// 3. ann 1.0 [0 0 1]
	// 4. cat 0.0 [1 1 0]
	// 5. bob 0.0 [0 0 0]
}

func ExampleBergerSchedule() {
	for _, g := range tournament.BergerSchedule([]tournament.PlayerID{"1", "2", "3", "4"}, 1) {
		fmt.Println(g)
	}
	// Output:
	// 1: 1 - 4 *
	// 1: 2 - 3 *
	// 2: 4 - 3 *
	// 2: 1 - 2 *
	// 3: 2 - 4 *
	// 3: 3 - 1 *
}
