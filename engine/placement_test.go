package engine

import (
	"context"
	"testing"

	"github.com/missivechess/missive/rules"
)

// fakePlacement is a stand-in rules.Simultaneous (the Go-Chess placement phase is
// written elsewhere): a board and the drops offered to the side.
type fakePlacement struct {
	rules.Position // nil: only the methods below are used
	board          rules.Board
	kind           rules.PieceKind
}

func (f *fakePlacement) Awaiting() []rules.Side { return []rules.Side{rules.White, rules.Black} }
func (f *fakePlacement) PlayAs(rules.Side, rules.Move) (rules.Position, error) {
	return nil, rules.ErrIllegalMove
}
func (f *fakePlacement) ViewFor(rules.Side) rules.Position { return f }
func (f *fakePlacement) Board() rules.Board                { return f.board }
func (f *fakePlacement) LegalMovesFor(rules.Side) []rules.Move {
	var out []rules.Move
	for sq, c := range f.board.Cells {
		if c.State == rules.Playable && c.Piece.Kind == rules.NoPiece {
			out = append(out, rules.Move{From: rules.NoSquare, To: rules.Square(sq), Drop: f.kind})
		}
	}
	return out
}

func TestPlaceKingInPocketNearQueen(t *testing.T) {
	d := rules.Dims{Files: 10, Ranks: 10}
	b := rules.Board{Dims: d, Cells: make([]rules.Cell, d.Cells())}
	put := func(name string, s rules.Side, k rules.PieceKind) {
		sq, _ := d.ParseSquare(name)
		b.Cells[sq].Piece = rules.Piece{Side: s, Kind: k}
	}
	// White pawns form a pocket around b1; the queen stands on d1; a black rook on j9.
	for _, n := range []string{"a2", "b2", "c2", "a1", "c1"} {
		put(n, rules.White, rules.Pawn)
	}
	put("d1", rules.White, rules.Queen)
	put("j9", rules.Black, rules.Rook)
	sq, _ := d.ParseSquare("e5")
	b.Cells[sq].State = rules.Blocked
	f := &fakePlacement{board: b, kind: rules.King}
	m, err := New(Options{}).Place(context.Background(), f, rules.White)
	if err != nil {
		t.Fatal(err)
	}
	if got := d.Name(m.To); got != "b1" {
		t.Fatalf("king placed on %s, want the pocket b1", got)
	}
	// A pawn goes next to its fellows on the home ranks, never on the blocked cell.
	f.kind = rules.Pawn
	m, _ = New(Options{}).Place(context.Background(), f, rules.White)
	if r := d.Rank(m.To); r > 2 || m.To == sq {
		t.Fatalf("pawn placed on %s", d.Name(m.To))
	}
}
