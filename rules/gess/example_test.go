package gess_test

import (
	"errors"
	"fmt"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/gess"
)

// A game is played through the rules.Position contract.
func Example() {
	var p rules.Position = gess.Variant{}.Start(0)
	fmt.Println(p.Turn(), "to move,", len(p.LegalMoves()), "legal moves")

	m, err := p.ParseMove("l3-l6") // Black's ring steps forward and captures its own l7
	if err != nil {
		panic(err)
	}
	fmt.Println(p.SAN(m), p.UCI(m))
	p, _ = p.Play(m)

	_, err = p.ParseMove("l18-l13")
	var refusal rules.Sentencer
	if errors.As(err, &refusal) {
		fmt.Println(refusal.Sentence())
	}

	for _, sq := range p.(*gess.Position).Rings(rules.Black) {
		fmt.Println("black ring on", p.Variant().Dims().Name(sq))
	}
	// Output:
	// black to move, 478 legal moves
	// l3xl6 l3l6
	// You cannot play l18-l13: the piece on l18 has no stone at its centre, so it moves 1 to 3 squares, not 5.
	// black ring on l6
}

// A search works on a Board: moves go into a reused buffer, Make and Unmake play and
// take them back without allocating.
func ExampleBoard() {
	b := gess.StartPosition().Mutable()
	buf := make([]rules.Move, 0, 512)
	captures := 0
	for _, m := range b.AppendMoves(buf) {
		u := b.Make(m)
		if u.Removed() > 0 {
			captures++
		}
		b.Unmake(u)
	}
	fmt.Println(captures, "of Black's first moves remove stones")
	fmt.Println(b.Perft(2), "positions after two moves")
	// Output:
	// 348 of Black's first moves remove stones
	// 172080 positions after two moves
}
