package board_test

import (
	"fmt"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/board"
)

func ExampleGeometry_RookAttacks() {
	d := rules.Dims{Files: 10, Ranks: 10}
	states := make([]rules.CellState, d.Cells())
	e7, _ := d.ParseSquare("e7")
	states[e7] = rules.Blocked
	g := board.MustNew(d, states)
	e5, _ := d.ParseSquare("e5")
	c5, _ := d.ParseSquare("c5")
	var names []string
	for _, sq := range g.RookAttacks(e5, board.Bit(c5)).And(g.Ray(e5, board.North).Or(g.Ray(e5, board.West))).Squares(nil) {
		names = append(names, d.Name(sq))
	}
	fmt.Println(names)
	fmt.Println(g.Between(e5, e7).IsEmpty(), g.Leap(e5, board.Offset{File: 0, Rank: 2}) == rules.NoSquare)
	// Output:
	// [c5 d5 e6]
	// true true
}
