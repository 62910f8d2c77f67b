package gochess_test

import (
	"fmt"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/gochess"
)

// Both players choose a cell in secret; the round is revealed when both have chosen.
func ExamplePlacement() {
	v := gochess.New()
	pos, _ := v.ParsePosition("10/10/10/10/10/10/10/10/10/********** placement 1 - -/- -/-")
	game := pos.(rules.Simultaneous)

	m, _ := game.ParseMove("P@e4")
	next, _ := game.PlayAs(rules.White, m)
	game = next.(rules.Simultaneous)
	fmt.Println("stored:", game.String())
	fmt.Println("black sees:", game.ViewFor(rules.Black).String())
	fmt.Println("awaiting:", game.Awaiting())

	m, _ = game.ParseMove("e4") // black picks the same cell: both choose again
	next, _ = game.PlayAs(rules.Black, m)
	fmt.Println("after a collision:", next.String())
	// Output:
	// stored: 10/10/10/10/10/10/10/10/10/********** placement 1 - -/- e4/-
	// black sees: 10/10/10/10/10/10/10/10/10/********** placement 1 - -/- ?/-
	// awaiting: [black]
	// after a collision: 10/10/10/10/10/10/10/10/10/********** placement 1 e4 -/- -/-
}
