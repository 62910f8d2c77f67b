package toy

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/missivechess/missive/rules"
)

// Place ("toyplace") is a small game with a secret, simultaneous placement phase,
// to test the service's handling of rules.Simultaneous before and besides Go-Chess.
//
// The board is 4x4 (a-d, 1-4). Placement: two rounds in which each side places a
// pawn, in secret, on any empty cell; when both chose the same cell, both choose
// again and that cell is closed for the rest of the round. Play: White first; a move
// steps one's pawn one cell orthogonally onto an empty cell; a side with no move
// loses ("checkmate"); ply 40 is a draw ("fifty-move").
//
// Position text: "<16 cells a1..d4: . W B>/<rounds done>/<white pending|->/<black
// pending|->/<closed cells, comma separated>/<w|b>/<ply>".
type Place struct{}

var placeDims = rules.Dims{Files: 4, Ranks: 4}

func (Place) Key() string      { return "toyplace" }
func (Place) Name() string     { return "Place Placement" }
func (Place) Dims() rules.Dims { return placeDims }
func (Place) Start(uint64) rules.Position {
	return &placePos{pending: [2]rules.Square{rules.NoSquare, rules.NoSquare}}
}

func (Place) ParsePosition(text string) (rules.Position, error) {
	f := strings.Split(text, "/")
	bad := func(why string) (rules.Position, error) {
		return nil, rules.Refuse(rules.ErrBadPosition, "%s: %s.", rules.Echo(text), why)
	}
	if len(f) != 7 || len(f[0]) != 16 {
		return bad("want 7 fields and 16 cells")
	}
	p := &placePos{}
	for i, c := range f[0] {
		switch c {
		case 'W':
			p.cells[i] = 1
		case 'B':
			p.cells[i] = 2
		case '.':
		default:
			return bad("unknown cell")
		}
	}
	var err error
	if p.round, err = strconv.Atoi(f[1]); err != nil || p.round < 0 || p.round > 2 {
		return bad("round")
	}
	for i := range 2 {
		p.pending[i] = rules.NoSquare
		if f[2+i] != "-" {
			if p.pending[i], err = placeDims.ParseSquare(f[2+i]); err != nil {
				return bad("pending")
			}
		}
	}
	if f[4] != "" {
		for _, t := range strings.Split(f[4], ",") {
			sq, err := placeDims.ParseSquare(t)
			if err != nil {
				return bad("closed")
			}
			p.closed = append(p.closed, sq)
		}
	}
	switch f[5] {
	case "w":
	case "b":
		p.turn = rules.Black
	default:
		return bad("turn")
	}
	if p.ply, err = strconv.Atoi(f[6]); err != nil {
		return bad("ply")
	}
	return p, nil
}

type placePos struct {
	cells   [16]int8 // 0 empty, 1 white, 2 black
	round   int
	pending [2]rules.Square
	closed  []rules.Square
	turn    rules.Side
	ply     int
}

func (p *placePos) clone() *placePos {
	q := *p
	q.closed = slices.Clone(p.closed)
	return &q
}

func (p *placePos) Variant() rules.Variant { return Place{} }
func (p *placePos) Turn() rules.Side       { return p.turn }
func (p *placePos) InCheck() bool          { return false }
func (p *placePos) placing() bool          { return p.round < 2 }

func (p *placePos) Board() rules.Board {
	b := rules.Board{Dims: placeDims, Cells: make([]rules.Cell, 16)}
	for i, c := range p.cells {
		if c != 0 {
			b.Cells[i].Piece = rules.Piece{Side: rules.Side(c - 1), Kind: rules.Pawn}
		}
	}
	for side, sq := range p.pending {
		if sq != rules.NoSquare {
			b.Cells[sq].Piece = rules.Piece{Side: rules.Side(side), Kind: rules.Pawn}
		}
	}
	return b
}

func (p *placePos) Awaiting() []rules.Side {
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

func (p *placePos) LegalMovesFor(side rules.Side) []rules.Move {
	if !p.placing() || p.pending[side] != rules.NoSquare {
		return nil
	}
	var out []rules.Move
	for sq := rules.Square(0); sq < 16; sq++ {
		if p.cells[sq] == 0 && !slices.Contains(p.closed, sq) { // the opponent's secret choice stays allowed
			out = append(out, rules.Move{From: rules.NoSquare, To: sq, Drop: rules.Pawn})
		}
	}
	return out
}

func (p *placePos) PlayAs(side rules.Side, m rules.Move) (rules.Position, error) {
	if !p.placing() {
		return nil, rules.Refuse(rules.ErrIllegalMove, "Placement is over.")
	}
	if p.pending[side] != rules.NoSquare {
		return nil, rules.Refuse(rules.ErrNotYourTurn, "%s has already chosen this round.", side)
	}
	if !m.IsDrop() || !placeDims.Contains(m.To) || p.cells[m.To] != 0 {
		return nil, rules.Refuse(rules.ErrIllegalMove, "%s is not an empty cell.", placeDims.Name(m.To))
	}
	if slices.Contains(p.closed, m.To) {
		return nil, rules.Refuse(rules.ErrIllegalMove, "%s was already tried in this round.", placeDims.Name(m.To))
	}
	q := p.clone()
	q.pending[side] = m.To
	w, b := q.pending[rules.White], q.pending[rules.Black]
	if w != rules.NoSquare && b != rules.NoSquare {
		if w == b {
			q.closed = append(q.closed, w)
		} else {
			q.cells[w], q.cells[b] = 1, 2
			q.round++
			q.closed = nil
		}
		q.pending = [2]rules.Square{rules.NoSquare, rules.NoSquare}
	}
	return q, nil
}

func (p *placePos) ViewFor(viewer rules.Side) rules.Position {
	q := p.clone()
	q.pending[viewer.Other()] = rules.NoSquare
	return q
}

func (p *placePos) LegalMoves() []rules.Move {
	if p.placing() || p.ply >= 40 {
		return nil
	}
	var out []rules.Move
	for sq := rules.Square(0); sq < 16; sq++ {
		if p.cells[sq] != int8(p.turn)+1 {
			continue
		}
		f, r := placeDims.File(sq), placeDims.Rank(sq)
		for _, d := range [][2]int{{0, 1}, {1, 0}, {0, -1}, {-1, 0}} {
			to := placeDims.Square(f+d[0], r+d[1])
			if to != rules.NoSquare && p.cells[to] == 0 {
				out = append(out, rules.Move{From: sq, To: to})
			}
		}
	}
	return out
}

func (p *placePos) Play(m rules.Move) (rules.Position, error) {
	if p.placing() {
		return nil, fmt.Errorf("toy: placement goes on; use PlayAs: %w", rules.ErrNotYourTurn)
	}
	if !slices.Contains(p.LegalMoves(), m) {
		return nil, rules.Refuse(rules.ErrIllegalMove, "%s is not legal.", p.UCI(m))
	}
	q := p.clone()
	q.cells[m.To], q.cells[m.From] = q.cells[m.From], 0
	q.turn = q.turn.Other()
	q.ply++
	return q, nil
}

func (p *placePos) Outcome() rules.Outcome {
	switch {
	case p.placing():
		return rules.OngoingOutcome
	case p.ply >= 40:
		return rules.Draw(rules.FiftyMove)
	case len(p.LegalMoves()) == 0:
		return rules.Win(p.turn.Other(), rules.Checkmate)
	}
	return rules.OngoingOutcome
}

func (p *placePos) String() string {
	var b strings.Builder
	for _, c := range p.cells {
		b.WriteByte(".WB"[c])
	}
	pend := func(sq rules.Square) string {
		if sq == rules.NoSquare {
			return "-"
		}
		return placeDims.Name(sq)
	}
	var closed []string
	for _, sq := range p.closed {
		closed = append(closed, placeDims.Name(sq))
	}
	turn := "w"
	if p.turn == rules.Black {
		turn = "b"
	}
	return fmt.Sprintf("%s/%d/%s/%s/%s/%s/%d", b.String(), p.round, pend(p.pending[0]), pend(p.pending[1]), strings.Join(closed, ","), turn, p.ply)
}

func (p *placePos) ParseMove(text string) (rules.Move, error) {
	t := strings.TrimPrefix(strings.TrimSpace(text), "P@")
	if p.placing() {
		sq, err := placeDims.ParseSquare(t)
		if err != nil {
			return rules.NullMove, err
		}
		return rules.Move{From: rules.NoSquare, To: sq, Drop: rules.Pawn}, nil
	}
	from, n := placeDims.ScanSquare(t)
	if n == 0 {
		return rules.NullMove, rules.Refuse(rules.ErrBadNotation, "%s is not a move like a1a2.", rules.Echo(text))
	}
	to, err := placeDims.ParseSquare(strings.TrimPrefix(t[n:], "-"))
	if err != nil {
		return rules.NullMove, err
	}
	m := rules.Move{From: from, To: to}
	if !slices.Contains(p.LegalMoves(), m) {
		return rules.NullMove, rules.Refuse(rules.ErrIllegalMove, "%s is not legal here.", rules.Echo(text))
	}
	return m, nil
}

func (p *placePos) SAN(m rules.Move) string {
	if m.IsDrop() {
		return "P@" + placeDims.Name(m.To)
	}
	return placeDims.Name(m.From) + "-" + placeDims.Name(m.To)
}

func (p *placePos) UCI(m rules.Move) string {
	if m.IsDrop() {
		return "P@" + placeDims.Name(m.To)
	}
	return placeDims.Name(m.From) + placeDims.Name(m.To)
}
