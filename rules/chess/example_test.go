package chess_test

import (
	"errors"
	"fmt"
	"strings"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/gothic"
)

func Example() {
	v := gothic.New()
	p := v.Start(0)
	var played []string
	for _, text := range []string{"e4", "Nc6", "Af3", "Cd6"} {
		m, err := p.ParseMove(text)
		if err != nil {
			fmt.Println(err)
			return
		}
		played = append(played, p.SAN(m)+" ("+p.UCI(m)+")")
		p, _ = p.Play(m)
	}
	fmt.Println(strings.Join(played, " "))
	fmt.Println(p)
	fmt.Println(p.Outcome(), len(p.LegalMoves()), "moves")
	_, err := p.ParseMove("Nf3")
	var refusal rules.Sentencer
	if errors.As(err, &refusal) {
		fmt.Println(refusal.Sentence())
	}
	// Output:
	// e4 (e2e4) Nc6 (b8c6) Af3 (g1f3) Cd6 (e8d6)
	// r1bq1kabnr/pppppppppp/2nc6/10/4P5/5A4/PPPP1PPPPP/RNBQCK1BNR w KQkq - 3 3
	// ongoing 37 moves
	// You cannot play "Nf3": no knight can reach f3; knight moves here: Na3, Nc3, Nh3, Nj3.
}

func ExampleSearchBoard() {
	p, _ := gothic.New().ParseFEN(gothic.StartFEN)
	b := p.SearchBoard()
	fmt.Println(b.Perft(3))
	moves := b.GenerateMoves(nil)
	b.Make(moves[0])
	fmt.Println(b.Position())
	b.Unmake()
	fmt.Println(b.Hash() == p.Hash())
	// Output:
	// 25283
	// rnbqckabnr/pppppppppp/10/10/10/N9/PPPPPPPPPP/R1BQCKABNR b KQkq - 1 1
	// true
}
