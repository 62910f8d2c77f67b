package rating_test

import (
	"fmt"
	"time"

	"github.com/missivechess/missive/bot/rating"
)

// A correspondence game ends: both players are rated at once, each against the
// other's rating before the game.
func Example() {
	cfg := rating.DefaultConfig()
	end := time.Date(2025, 5, 4, 20, 0, 0, 0, time.UTC)
	alice := rating.Rating{Value: 1620, RD: 80, Volatility: 0.06, Games: 30, Last: end.AddDate(0, 0, -10)}
	bob := rating.New()
	alice, bob, err := cfg.Game(alice, bob, 1, end) // Alice won
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("Alice %.0f (RD %.0f), Bob %.0f (RD %.0f, provisional %v)\n",
		alice.Value, alice.RD, bob.Value, bob.RD, cfg.Provisional(bob))
	// Output:
	// Alice 1630 (RD 81), Bob 1375 (RD 257, provisional true)
}
