package storage_test

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/missivechess/missive/rules"
)

// The toy games used to test storage without the real variants.
//
// "walk": each side has one king on an 8x8 board, White on e1 and Black on e8. A move
// is a king step to an adjacent square that is not blocked and not the other king's.
// White wins on reaching rank 8, Black on reaching rank 1; ply 1000 is a draw. A
// non-zero seed blocks square seed%64 (unless a king starts there).
//
// "walkplace": the same, but the game starts with one simultaneous secret round in
// which White drops its king on rank 1 and Black on rank 8 ("K@c1" or "c1").
//
// Position text: "<white sq|-> <black sq|-> <w|b> <ply> [blocked sq]".

var toyDims = rules.Dims{Files: 8, Ranks: 8}

type toyVariant struct{ place bool }

func (v toyVariant) Key() string {
	if v.place {
		return "walkplace"
	}
	return "walk"
}
func (v toyVariant) Name() string     { return "Toy " + v.Key() }
func (v toyVariant) Dims() rules.Dims { return toyDims }

func (v toyVariant) Start(seed uint64) rules.Position {
	p := &toyPos{v: v, king: [2]rules.Square{4, 60}, blocked: rules.NoSquare}
	if seed != 0 {
		if b := rules.Square(seed % 64); b != 4 && b != 60 {
			p.blocked = b
		}
	}
	if v.place {
		p.king = [2]rules.Square{rules.NoSquare, rules.NoSquare}
		p.pending = [2]rules.Square{rules.NoSquare, rules.NoSquare}
	}
	return p
}

func (v toyVariant) ParsePosition(text string) (rules.Position, error) {
	bad := func(why string) (rules.Position, error) {
		return nil, fmt.Errorf("toy: position %q: %s: %w", text, why, rules.ErrBadPosition)
	}
	f := strings.Fields(text)
	if len(f) != 4 && len(f) != 5 {
		return bad("want 4 or 5 fields")
	}
	p := &toyPos{v: v, blocked: rules.NoSquare, pending: [2]rules.Square{rules.NoSquare, rules.NoSquare}}
	for i := range 2 {
		if f[i] == "-" && v.place {
			p.king[i] = rules.NoSquare
			continue
		}
		sq, err := toyDims.ParseSquare(f[i])
		if err != nil {
			return bad(err.Error())
		}
		p.king[i] = sq
	}
	if (p.king[0] == rules.NoSquare) != (p.king[1] == rules.NoSquare) || (p.king[0] != rules.NoSquare && p.king[0] == p.king[1]) {
		return bad("kings must both be placed on different squares, or both unplaced")
	}
	turn, err := rules.ParseSide(f[2])
	if err != nil {
		return bad(err.Error())
	}
	p.turn = turn
	if p.ply, err = strconv.Atoi(f[3]); err != nil || p.ply < 0 {
		return bad("bad ply")
	}
	if len(f) == 5 {
		if p.blocked, err = toyDims.ParseSquare(f[4]); err != nil || p.blocked == p.king[0] || p.blocked == p.king[1] {
			return bad("bad blocked square")
		}
	}
	return p, nil
}

type toyPos struct {
	v       toyVariant
	king    [2]rules.Square // NoSquare while unplaced
	pending [2]rules.Square // secret choices of the placement round
	blocked rules.Square
	turn    rules.Side
	ply     int
}

func (p *toyPos) Variant() rules.Variant { return p.v }
func (p *toyPos) Turn() rules.Side       { return p.turn }
func (p *toyPos) InCheck() bool          { return false }
func (p *toyPos) placing() bool          { return p.king[0] == rules.NoSquare }

func (p *toyPos) Board() rules.Board {
	b := rules.Board{Dims: toyDims, Cells: make([]rules.Cell, toyDims.Cells())}
	if p.blocked != rules.NoSquare {
		b.Cells[p.blocked].State = rules.Blocked
	}
	for _, s := range rules.Sides {
		if p.king[s] != rules.NoSquare {
			b.Cells[p.king[s]].Piece = rules.Piece{Side: s, Kind: rules.King}
		}
	}
	return b
}

func (p *toyPos) Outcome() rules.Outcome {
	switch {
	case p.placing():
		return rules.OngoingOutcome
	case toyDims.Rank(p.king[rules.White]) == 7:
		return rules.Win(rules.White, rules.Checkmate)
	case toyDims.Rank(p.king[rules.Black]) == 0:
		return rules.Win(rules.Black, rules.Checkmate)
	case p.ply >= 1000:
		return rules.Draw(rules.FiftyMove)
	}
	return rules.OngoingOutcome
}

func (p *toyPos) LegalMoves() []rules.Move {
	if p.placing() || p.Outcome().IsOver() {
		return nil
	}
	from := p.king[p.turn]
	var out []rules.Move
	for df := -1; df <= 1; df++ {
		for dr := -1; dr <= 1; dr++ {
			to := toyDims.Square(toyDims.File(from)+df, toyDims.Rank(from)+dr)
			if (df != 0 || dr != 0) && to != rules.NoSquare && to != p.blocked && to != p.king[p.turn.Other()] {
				out = append(out, rules.Move{From: from, To: to})
			}
		}
	}
	return out
}

func (p *toyPos) Play(m rules.Move) (rules.Position, error) {
	if p.placing() {
		return nil, fmt.Errorf("toy: the kings are being placed; use PlayAs: %w", rules.ErrNotYourTurn)
	}
	if p.Outcome().IsOver() {
		return nil, fmt.Errorf("toy: %w", rules.ErrGameOver)
	}
	if !slices.Contains(p.LegalMoves(), m) {
		return nil, fmt.Errorf("toy: %s is not a king step to a free square: %w", p.UCI(m), rules.ErrIllegalMove)
	}
	q := *p
	q.king[p.turn] = m.To
	q.turn = p.turn.Other()
	q.ply++
	return &q, nil
}

func (p *toyPos) ParseMove(text string) (rules.Move, error) {
	t := strings.TrimPrefix(strings.TrimPrefix(strings.TrimSpace(text), "K@"), "K")
	if p.placing() {
		sq, err := toyDims.ParseSquare(t)
		if err != nil {
			return rules.NullMove, err
		}
		return rules.Move{From: rules.NoSquare, To: sq, Drop: rules.King}, nil
	}
	from, n := toyDims.ScanSquare(t)
	if n > 0 && n < len(t) {
		to, err := toyDims.ParseSquare(t[n:])
		if err != nil {
			return rules.NullMove, err
		}
		m := rules.Move{From: from, To: to}
		if !slices.Contains(p.LegalMoves(), m) {
			return rules.NullMove, fmt.Errorf("toy: %s is not legal: %w", t, rules.ErrIllegalMove)
		}
		return m, nil
	}
	to, err := toyDims.ParseSquare(t)
	if err != nil {
		return rules.NullMove, err
	}
	m := rules.Move{From: p.king[p.turn], To: to}
	if !slices.Contains(p.LegalMoves(), m) {
		return rules.NullMove, fmt.Errorf("toy: %s is not legal: %w", t, rules.ErrIllegalMove)
	}
	return m, nil
}

func (p *toyPos) SAN(m rules.Move) string { return "K" + toyDims.Name(m.To) }

func (p *toyPos) UCI(m rules.Move) string {
	if m.IsDrop() {
		return "K@" + toyDims.Name(m.To)
	}
	return toyDims.Name(m.From) + toyDims.Name(m.To)
}

func (p *toyPos) String() string {
	name := func(sq rules.Square) string {
		if sq == rules.NoSquare {
			return "-"
		}
		return toyDims.Name(sq)
	}
	s := fmt.Sprintf("%s %s %c %d", name(p.king[0]), name(p.king[1]), p.turn.String()[0], p.ply)
	if p.blocked != rules.NoSquare {
		s += " " + toyDims.Name(p.blocked)
	}
	return s
}

// Simultaneous.

func (p *toyPos) Awaiting() []rules.Side {
	if !p.placing() {
		return nil
	}
	var out []rules.Side
	for _, s := range rules.Sides {
		if p.pending[s] == rules.NoSquare {
			out = append(out, s)
		}
	}
	return out
}

func (p *toyPos) LegalMovesFor(side rules.Side) []rules.Move {
	if !p.placing() {
		if side == p.turn {
			return p.LegalMoves()
		}
		return nil
	}
	if p.pending[side] != rules.NoSquare {
		return nil
	}
	rank := 0
	if side == rules.Black {
		rank = 7
	}
	var out []rules.Move
	for f := range 8 {
		if sq := toyDims.Square(f, rank); sq != p.blocked {
			out = append(out, rules.Move{From: rules.NoSquare, To: sq, Drop: rules.King})
		}
	}
	return out
}

func (p *toyPos) PlayAs(side rules.Side, m rules.Move) (rules.Position, error) {
	if !p.placing() {
		if side != p.turn {
			return nil, fmt.Errorf("toy: it is %s's turn: %w", p.turn, rules.ErrNotYourTurn)
		}
		return p.Play(m)
	}
	if p.pending[side] != rules.NoSquare {
		return nil, fmt.Errorf("toy: %s has already chosen: %w", side, rules.ErrNotYourTurn)
	}
	if !slices.Contains(p.LegalMovesFor(side), m) {
		return nil, fmt.Errorf("toy: %s cannot place its king on %s: %w", side, toyDims.Name(m.To), rules.ErrIllegalMove)
	}
	q := *p
	q.pending[side] = m.To
	if q.pending[side.Other()] != rules.NoSquare {
		q.king, q.pending = q.pending, [2]rules.Square{rules.NoSquare, rules.NoSquare}
		q.turn = rules.White
	}
	return &q, nil
}

func (p *toyPos) ViewFor(viewer rules.Side) rules.Position {
	q := *p
	q.pending[viewer.Other()] = rules.NoSquare
	return &q
}

// toyRegistry holds both toy variants.
func toyRegistry() *rules.Registry {
	return rules.NewRegistry(toyVariant{}, toyVariant{place: true})
}
