package toy

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/missivechess/missive/rules"
)

// The walking games, which test storage without the real variants.
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

var walkDims = rules.Dims{Files: 8, Ranks: 8}

// Walk is the toy game "walk", or "walkplace" when Place is set.
type Walk struct{ Place bool }

func (v Walk) Key() string {
	if v.Place {
		return "walkplace"
	}
	return "walk"
}
func (v Walk) Name() string     { return "Toy " + v.Key() }
func (v Walk) Dims() rules.Dims { return walkDims }

func (v Walk) Start(seed uint64) rules.Position {
	p := &walkPos{v: v, king: [2]rules.Square{4, 60}, blocked: rules.NoSquare}
	if seed != 0 {
		if b := rules.Square(seed % 64); b != 4 && b != 60 {
			p.blocked = b
		}
	}
	if v.Place {
		p.king = [2]rules.Square{rules.NoSquare, rules.NoSquare}
		p.pending = [2]rules.Square{rules.NoSquare, rules.NoSquare}
	}
	return p
}

func (v Walk) ParsePosition(text string) (rules.Position, error) {
	bad := func(why string) (rules.Position, error) {
		return nil, fmt.Errorf("toy: position %q: %s: %w", text, why, rules.ErrBadPosition)
	}
	f := strings.Fields(text)
	if len(f) != 4 && len(f) != 5 {
		return bad("want 4 or 5 fields")
	}
	p := &walkPos{v: v, blocked: rules.NoSquare, pending: [2]rules.Square{rules.NoSquare, rules.NoSquare}}
	for i := range 2 {
		if f[i] == "-" && v.Place {
			p.king[i] = rules.NoSquare
			continue
		}
		sq, err := walkDims.ParseSquare(f[i])
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
		if p.blocked, err = walkDims.ParseSquare(f[4]); err != nil || p.blocked == p.king[0] || p.blocked == p.king[1] {
			return bad("bad blocked square")
		}
	}
	return p, nil
}

type walkPos struct {
	v       Walk
	king    [2]rules.Square // NoSquare while unplaced
	pending [2]rules.Square // secret choices of the placement round
	blocked rules.Square
	turn    rules.Side
	ply     int
}

func (p *walkPos) Variant() rules.Variant { return p.v }
func (p *walkPos) Turn() rules.Side       { return p.turn }
func (p *walkPos) InCheck() bool          { return false }
func (p *walkPos) placing() bool          { return p.king[0] == rules.NoSquare }

func (p *walkPos) Board() rules.Board {
	b := rules.Board{Dims: walkDims, Cells: make([]rules.Cell, walkDims.Cells())}
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

func (p *walkPos) Outcome() rules.Outcome {
	switch {
	case p.placing():
		return rules.OngoingOutcome
	case walkDims.Rank(p.king[rules.White]) == 7:
		return rules.Win(rules.White, rules.Checkmate)
	case walkDims.Rank(p.king[rules.Black]) == 0:
		return rules.Win(rules.Black, rules.Checkmate)
	case p.ply >= 1000:
		return rules.Draw(rules.FiftyMove)
	}
	return rules.OngoingOutcome
}

func (p *walkPos) LegalMoves() []rules.Move {
	if p.placing() || p.Outcome().IsOver() {
		return nil
	}
	from := p.king[p.turn]
	var out []rules.Move
	for df := -1; df <= 1; df++ {
		for dr := -1; dr <= 1; dr++ {
			to := walkDims.Square(walkDims.File(from)+df, walkDims.Rank(from)+dr)
			if (df != 0 || dr != 0) && to != rules.NoSquare && to != p.blocked && to != p.king[p.turn.Other()] {
				out = append(out, rules.Move{From: from, To: to})
			}
		}
	}
	return out
}

func (p *walkPos) Play(m rules.Move) (rules.Position, error) {
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

func (p *walkPos) ParseMove(text string) (rules.Move, error) {
	t := strings.TrimPrefix(strings.TrimPrefix(strings.TrimSpace(text), "K@"), "K")
	if p.placing() {
		sq, err := walkDims.ParseSquare(t)
		if err != nil {
			return rules.NullMove, err
		}
		return rules.Move{From: rules.NoSquare, To: sq, Drop: rules.King}, nil
	}
	from, n := walkDims.ScanSquare(t)
	if n > 0 && n < len(t) {
		to, err := walkDims.ParseSquare(t[n:])
		if err != nil {
			return rules.NullMove, err
		}
		m := rules.Move{From: from, To: to}
		if !slices.Contains(p.LegalMoves(), m) {
			return rules.NullMove, fmt.Errorf("toy: %s is not legal: %w", t, rules.ErrIllegalMove)
		}
		return m, nil
	}
	to, err := walkDims.ParseSquare(t)
	if err != nil {
		return rules.NullMove, err
	}
	m := rules.Move{From: p.king[p.turn], To: to}
	if !slices.Contains(p.LegalMoves(), m) {
		return rules.NullMove, fmt.Errorf("toy: %s is not legal: %w", t, rules.ErrIllegalMove)
	}
	return m, nil
}

func (p *walkPos) SAN(m rules.Move) string { return "K" + walkDims.Name(m.To) }

func (p *walkPos) UCI(m rules.Move) string {
	if m.IsDrop() {
		return "K@" + walkDims.Name(m.To)
	}
	return walkDims.Name(m.From) + walkDims.Name(m.To)
}

func (p *walkPos) String() string {
	name := func(sq rules.Square) string {
		if sq == rules.NoSquare {
			return "-"
		}
		return walkDims.Name(sq)
	}
	s := fmt.Sprintf("%s %s %c %d", name(p.king[0]), name(p.king[1]), p.turn.String()[0], p.ply)
	if p.blocked != rules.NoSquare {
		s += " " + walkDims.Name(p.blocked)
	}
	return s
}

// Simultaneous.

func (p *walkPos) Awaiting() []rules.Side {
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

func (p *walkPos) LegalMovesFor(side rules.Side) []rules.Move {
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
		if sq := walkDims.Square(f, rank); sq != p.blocked {
			out = append(out, rules.Move{From: rules.NoSquare, To: sq, Drop: rules.King})
		}
	}
	return out
}

func (p *walkPos) PlayAs(side rules.Side, m rules.Move) (rules.Position, error) {
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
		return nil, fmt.Errorf("toy: %s cannot place its king on %s: %w", side, walkDims.Name(m.To), rules.ErrIllegalMove)
	}
	q := *p
	q.pending[side] = m.To
	if q.pending[side.Other()] != rules.NoSquare {
		q.king, q.pending = q.pending, [2]rules.Square{rules.NoSquare, rules.NoSquare}
		q.turn = rules.White
	}
	return &q, nil
}

func (p *walkPos) ViewFor(viewer rules.Side) rules.Position {
	q := *p
	q.pending[viewer.Other()] = rules.NoSquare
	return &q
}
