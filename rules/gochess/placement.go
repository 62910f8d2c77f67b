package gochess

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/chess"
)

// Rounds lists the kind placed in each round of the placement phase, in order.
var Rounds = [...]rules.PieceKind{
	rules.Pawn, rules.Pawn, rules.Pawn, rules.Pawn, rules.Pawn, rules.Pawn, rules.Pawn, rules.Pawn,
	rules.Bishop, rules.Bishop, rules.Rook, rules.Rook, rules.Knight, rules.Knight,
	rules.Queen, rules.King,
}

const (
	kingRound         = len(Rounds) - 1
	secondBishopRound = 9
	// hidden marks, in a player's view, the opponent's choice made but not shown.
	hidden rules.Square = -2
	// placementTag is the second field of a placement text.
	placementTag = "placement"
)

// Placement is a Go-Chess game in its placement phase, an immutable value; it
// implements rules.Simultaneous. The full state (Start, ParsePosition, PlayAs)
// holds both players' pending choices and is the stored form; ViewFor gives what
// one player may see.
//
// In each round both players choose a cell for the round's kind with PlayAs; when
// both have chosen the round is revealed: on the same cell, both choose again and
// that cell goes on the round's slate of tried cells; for kings that would attack
// each other, both choose again and each remembers his own king's cell; otherwise
// both pieces appear and the next round begins. After the king round PlayAs
// returns the play position (a *chess.Position with the first player to move),
// on which the game goes on with Play.
//
// The house rule (docs/RULES.md) is applied in the way that waives least: when a player
// has no eligible cell, first the tried cells (the slate, his king's memory) are
// allowed again; only if that still leaves none (every empty cell attacked, for a
// king) may he take any empty unblocked cell. A second bishop always keeps a cell
// of the other colour: at least 22 of its 50 cells are free (at most 10 blocked, 18
// pieces), so the last step never waives the bishop's colour.
type Placement struct {
	v         *Variant
	layout    *chess.Layout
	cells     []rules.Cell // blocked cells and revealed pieces; never changed once built
	round     int          // index into Rounds
	slate     []rules.Square
	kingTried [2][]rules.Square
	pending   [2]rules.Square // NoSquare: not chosen yet; hidden: chosen, not shown
	viewer    int             // -1 for the full state, else the side whose view this is
}

var _ rules.Simultaneous = (*Placement)(nil)

func (v *Variant) newPlacement(b rules.Board) (*Placement, error) {
	states := make([]rules.CellState, len(b.Cells))
	for i, c := range b.Cells {
		states[i] = c.State
	}
	l, err := v.core.Layout(states)
	if err != nil {
		return nil, err
	}
	return &Placement{v: v, layout: l, cells: b.Cells, pending: [2]rules.Square{rules.NoSquare, rules.NoSquare}, viewer: -1}, nil
}

// clone returns a copy of p that shares nothing mutable with it.
func (p *Placement) clone() *Placement {
	q := *p
	q.slate = slices.Clone(p.slate)
	q.kingTried = [2][]rules.Square{slices.Clone(p.kingTried[0]), slices.Clone(p.kingTried[1])}
	return &q
}

// Variant returns Go-Chess.
func (p *Placement) Variant() rules.Variant { return p.v }

// Round returns the number of the current round, 1 to 16.
func (p *Placement) Round() int { return p.round + 1 }

// Kind returns the kind placed in the current round.
func (p *Placement) Kind() rules.PieceKind { return Rounds[p.round] }

// Slate returns the cells tried by both players at once this round (collisions),
// which neither may choose again this round.
func (p *Placement) Slate() []rules.Square { return slices.Clone(p.slate) }

// KingTried returns the cells side has already tried for his king in this round's
// mutual-check re-placements, which he may not choose again.
func (p *Placement) KingTried(side rules.Side) []rules.Square {
	return slices.Clone(p.kingTried[side&1])
}

// Pending returns side's choice this round: the cell, rules.NoSquare when side has
// not chosen, and ok false when side has chosen but this view hides the cell.
func (p *Placement) Pending(side rules.Side) (sq rules.Square, ok bool) {
	c := p.pending[side&1]
	return c, c != hidden
}

// Blocked returns the blocked cells in square order.
func (p *Placement) Blocked() []rules.Square {
	var out []rules.Square
	for i, c := range p.cells {
		if c.State == rules.Blocked {
			out = append(out, rules.Square(i))
		}
	}
	return out
}

// Awaiting lists the sides that still have to choose in the current round, White first.
func (p *Placement) Awaiting() []rules.Side {
	var out []rules.Side
	for _, s := range rules.Sides {
		if p.pending[s] == rules.NoSquare {
			out = append(out, s)
		}
	}
	return out
}

// Turn is not meaningful in placement; it returns the first side still awaited
// (White when both are).
func (p *Placement) Turn() rules.Side {
	if a := p.Awaiting(); len(a) > 0 {
		return a[0]
	}
	return rules.White
}

// Board returns the blocked cells and revealed pieces; a player's view also shows
// the viewer's own pending choice. The full state shows no pending choice.
func (p *Placement) Board() rules.Board {
	b := rules.Board{Dims: dims, Cells: slices.Clone(p.cells)}
	if p.viewer >= 0 {
		if sq := p.pending[p.viewer]; sq >= 0 {
			b.Cells[sq].Piece = rules.Piece{Side: rules.Side(p.viewer), Kind: p.Kind()}
		}
	}
	return b
}

// LegalMovesFor returns side's eligible cells this round as placement moves, in
// square order (the house rule included), or none when side has already chosen.
func (p *Placement) LegalMovesFor(side rules.Side) []rules.Move {
	if side != rules.White && side != rules.Black || p.pending[side] != rules.NoSquare {
		return []rules.Move{}
	}
	kind := p.Kind()
	cells := p.eligible(side)
	out := make([]rules.Move, len(cells))
	for i, sq := range cells {
		out[i] = rules.Move{From: rules.NoSquare, To: sq, Drop: kind}
	}
	return out
}

// LegalMoves returns the moves any awaited side may choose: the union of their
// eligible cells in square order (each cell once). Use LegalMovesFor for one side.
func (p *Placement) LegalMoves() []rules.Move {
	var cells []rules.Square
	for _, s := range p.Awaiting() {
		cells = append(cells, p.eligible(s)...)
	}
	slices.Sort(cells)
	cells = slices.Compact(cells)
	out := make([]rules.Move, len(cells))
	for i, sq := range cells {
		out[i] = rules.Move{From: rules.NoSquare, To: sq, Drop: p.Kind()}
	}
	return out
}

// eligible returns side's eligible cells this round in square order, applying the
// house rule when the rules leave none.
func (p *Placement) eligible(side rules.Side) []rules.Square {
	var strict, lenient, open []rules.Square
	for i, c := range p.cells {
		sq := rules.Square(i)
		if c.State != rules.Playable || !c.Piece.IsNone() {
			continue
		}
		open = append(open, sq)
		if p.colourProblem(side, sq) != nil || p.checkProblem(side, sq) != nil {
			continue
		}
		lenient = append(lenient, sq)
		if p.triedProblem(side, sq) == nil {
			strict = append(strict, sq)
		}
	}
	switch {
	case len(strict) > 0:
		return strict
	case len(lenient) > 0:
		return lenient
	}
	return open
}

// triedProblem refuses sq as already tried this round, or returns nil.
func (p *Placement) triedProblem(side rules.Side, sq rules.Square) error {
	if slices.Contains(p.slate, sq) {
		return rules.RefuseAs(rules.ErrIllegalMove, "gochess.place.slate", rules.Args{"Square": dims.Name(sq)},
			"Both players already tried %s this round (both chose it at once), so neither may choose it again until the round ends.", dims.Name(sq))
	}
	if slices.Contains(p.kingTried[side], sq) {
		return rules.RefuseAs(rules.ErrIllegalMove, "gochess.place.kingtried", rules.Args{"Square": dims.Name(sq)},
			"You already tried %s for your king this round (the kings would have attacked each other); choose a cell you have not tried.", dims.Name(sq))
	}
	return nil
}

// colourProblem refuses sq as the wrong colour for side's second bishop, or
// returns nil.
func (p *Placement) colourProblem(side rules.Side, sq rules.Square) error {
	if p.round != secondBishopRound {
		return nil
	}
	for i, c := range p.cells {
		if c.Piece == (rules.Piece{Side: side, Kind: rules.Bishop}) {
			if light(rules.Square(i)) == light(sq) {
				return rules.RefuseAs(rules.ErrIllegalMove, "gochess.place.colour."+colourName(!light(sq)), rules.Args{"First": dims.Name(rules.Square(i)), "Square": dims.Name(sq)},
					"Your second bishop goes on a %s cell: your first bishop stands on %s, a %s cell, and %s is %s too.",
					colourName(!light(sq)), dims.Name(rules.Square(i)), colourName(light(sq)), dims.Name(sq), colourName(light(sq)))
			}
			return nil
		}
	}
	return nil
}

// checkProblem refuses a king of side on sq that would stand in check, or
// returns nil.
func (p *Placement) checkProblem(side rules.Side, sq rules.Square) error {
	if p.round != kingRound {
		return nil
	}
	b := rules.Board{Dims: dims, Cells: p.cells}
	if !p.layout.Attacked(b, sq, side.Other()) {
		return nil
	}
	return rules.RefuseAs(rules.ErrIllegalMove, "gochess.place.check", rules.Args{"Square": dims.Name(sq)},
		"Your king would be in check on %s from the pieces already on the board; a king may not be placed in check.", dims.Name(sq))
}

// light reports whether sq is a light cell: (file + rank) odd with a = 1, a1 dark.
func light(sq rules.Square) bool { return (dims.File(sq)+dims.Rank(sq))%2 == 1 }

func colourName(light bool) string {
	if light {
		return "light"
	}
	return "dark"
}

// placeErr is an internal error: a caller misused the placement API.
func placeErr(format string, args ...any) error {
	return fmt.Errorf("gochess: "+format+": %w", append(args, rules.ErrIllegalMove)...)
}

// refusePlace refuses a player's placement with the sentence gochess.place.<key>
// of the rules' catalogue, args its placeholders; format and a write it in English.
func refusePlace(key string, args rules.Args, format string, a ...any) error {
	return rules.RefuseAs(rules.ErrIllegalMove, "gochess.place."+key, args, format, a...)
}

// Play refuses: placement choices are secret and simultaneous, so each is made
// with PlayAs naming the side that chooses.
func (p *Placement) Play(m rules.Move) (rules.Position, error) {
	return nil, placeErr("in the placement phase both players choose at once; record a choice with PlayAs(side, move), not Play")
}

// PlayAs records side's choice m for this round and, when both have chosen,
// reveals the round. It returns an error wrapping rules.ErrNotYourTurn when side
// has already chosen this round, or rules.ErrIllegalMove naming the problem (off
// the board, blocked, occupied, tried this round, wrong bishop colour, king in
// check); the opponent's pending choice never changes the answer or the text.
func (p *Placement) PlayAs(side rules.Side, m rules.Move) (rules.Position, error) {
	if p.viewer >= 0 {
		return nil, placeErr("this is %s's view of the game, which cannot record choices; play on the game itself", rules.Side(p.viewer))
	}
	if side != rules.White && side != rules.Black {
		return nil, fmt.Errorf("gochess: %v is not a side: %w", side, rules.ErrNotYourTurn)
	}
	if err := p.check(side, m); err != nil {
		return nil, err
	}
	q := p.clone()
	q.pending[side] = m.To
	if q.pending[side.Other()] == rules.NoSquare {
		return q, nil
	}
	return q.reveal()
}

// check returns why side may not choose m now, or nil.
func (p *Placement) check(side rules.Side, m rules.Move) error {
	kind := p.Kind()
	if p.pending[side] != rules.NoSquare {
		return rules.RefuseAs(rules.ErrNotYourTurn, "gochess.place.chosen", rules.Args{"Piece": kind.String(), "Side": side.Other().String()},
			"You have already chosen a cell for this round's %s; wait until %s has chosen too.", kind, side.Other())
	}
	if m.From != rules.NoSquare || m.Drop != kind {
		return refusePlace("cellonly", rules.Args{"RoundAPiece": kind.String(), "Letter": string(kind.Letter())},
			"This round places a %s: name only its cell, such as e4 or %c@e4.", kind, kind.Letter())
	}
	sq := m.To
	if !dims.Contains(sq) {
		return refusePlace("offboard", nil, "That cell is not on the 10x10 board (files a-j, ranks 1-10).")
	}
	c := p.cells[sq]
	if c.State == rules.Blocked {
		return refusePlace("blocked", rules.Args{"Square": dims.Name(sq)}, "The cell %s is a blocked cell; no piece may stand there.", dims.Name(sq))
	}
	if !c.Piece.IsNone() {
		return refusePlace("occupied", rules.Args{"Square": dims.Name(sq), "ThePiece": c.Piece.Kind.String(), "PieceSide": c.Piece.Side.String()},
			"The cell %s is occupied by the %s; choose an empty cell.", dims.Name(sq), c.Piece)
	}
	elig := p.eligible(side)
	if slices.Contains(elig, sq) {
		return nil
	}
	for _, why := range []error{p.colourProblem(side, sq), p.checkProblem(side, sq), p.triedProblem(side, sq)} {
		if why != nil {
			return why
		}
	}
	// Not reached: a cell no rule refuses is eligible (the house rule applies the
	// rules' refusals only); the sentence stays English, with no key.
	return rules.Refuse(rules.ErrIllegalMove, "The cell %s is not eligible this round.", dims.Name(sq))
}

// reveal resolves a round in which both players have chosen; p is a fresh copy.
func (p *Placement) reveal() (rules.Position, error) {
	w, b := p.pending[rules.White], p.pending[rules.Black]
	kind := p.Kind()
	p.pending = [2]rules.Square{rules.NoSquare, rules.NoSquare}
	if w == b {
		p.slate = insertSorted(p.slate, w)
		return p, nil
	}
	cells := slices.Clone(p.cells)
	cells[w].Piece = rules.Piece{Side: rules.White, Kind: kind}
	cells[b].Piece = rules.Piece{Side: rules.Black, Kind: kind}
	// Kings that would attack each other choose again, each remembering his cell;
	// so do two kings both left in check (only possible by the house rule's last
	// resort), which would make an impossible play position.
	if kind == rules.King && (kingsClash(w, b) || bothInCheck(p.layout, rules.Board{Dims: dims, Cells: cells})) {
		p.kingTried[rules.White] = insertSorted(p.kingTried[rules.White], w)
		p.kingTried[rules.Black] = insertSorted(p.kingTried[rules.Black], b)
		return p, nil
	}
	p.cells = cells
	p.slate, p.kingTried = nil, [2][]rules.Square{}
	if p.round < kingRound {
		p.round++
		return p, nil
	}
	return p.play()
}

// kingsClash reports whether kings on a and b would attack each other.
func kingsClash(a, b rules.Square) bool {
	df, dr := dims.File(a)-dims.File(b), dims.Rank(a)-dims.Rank(b)
	return df >= -1 && df <= 1 && dr >= -1 && dr <= 1
}

func kingSquare(b rules.Board, side rules.Side) rules.Square {
	for i, c := range b.Cells {
		if c.Piece == (rules.Piece{Side: side, Kind: rules.King}) {
			return rules.Square(i)
		}
	}
	return rules.NoSquare
}

func inCheck(l *chess.Layout, b rules.Board, side rules.Side) bool {
	k := kingSquare(b, side)
	return k != rules.NoSquare && l.Attacked(b, k, side.Other())
}

func bothInCheck(l *chess.Layout, b rules.Board) bool {
	return inCheck(l, b, rules.White) && inCheck(l, b, rules.Black)
}

func insertSorted(list []rules.Square, sq rules.Square) []rules.Square {
	i, found := slices.BinarySearch(list, sq)
	if found {
		return list
	}
	return slices.Insert(slices.Clone(list), i, sq)
}

// play returns the play position after the last round: the first player by the
// distance rule moves first, unless the house rule left one king in check, in
// which case that side moves first to answer it.
func (p *Placement) play() (rules.Position, error) {
	b := rules.Board{Dims: dims, Cells: p.cells}
	first, _ := FirstPlayer(b)
	for _, s := range rules.Sides {
		if inCheck(p.layout, b, s) {
			first = s
		}
	}
	turn := "w"
	if first == rules.Black {
		turn = "b"
	}
	pos, err := p.v.core.ParsePosition(boardField(p.cells) + " " + turn + " - - 0 1")
	if err != nil {
		return nil, fmt.Errorf("gochess: the placed pieces do not make a play position (a bug): %w", err)
	}
	return pos, nil
}

// Tie-break levels of FirstPlayer, in the order they are compared.
const (
	LevelKingQueen = iota // king to queen
	LevelKnight1          // king to nearest knight
	LevelKnight2          // king to other knight
	LevelRook1            // king to nearest rook
	LevelRook2            // king to other rook
	LevelBishop1          // king to nearest bishop
	LevelBishop2          // king to other bishop
	LevelPawn1            // king to nearest pawn; LevelPawn1+i is the (i+1)-th nearest
	LevelAllTied   = LevelPawn1 + 8
)

// distance is files apart plus ranks apart.
func distance(a, b rules.Square) int {
	df, dr := dims.File(a)-dims.File(b), dims.Rank(a)-dims.Rank(b)
	return max(df, -df) + max(dr, -dr)
}

// distances returns side's comparison key: king to queen, then king to its
// knights, rooks, bishops and pawns, each kind nearest first.
func distances(b rules.Board, side rules.Side) []int {
	k := kingSquare(b, side)
	byKind := map[rules.PieceKind][]int{}
	for i, c := range b.Cells {
		if c.Piece.Side == side && !c.Piece.IsNone() && c.Piece.Kind != rules.King {
			byKind[c.Piece.Kind] = append(byKind[c.Piece.Kind], distance(k, rules.Square(i)))
		}
	}
	var key []int
	for _, kind := range []rules.PieceKind{rules.Queen, rules.Knight, rules.Rook, rules.Bishop, rules.Pawn} {
		d := byKind[kind]
		slices.Sort(d)
		key = append(key, d...)
	}
	return key
}

// FirstPlayer applies the distance rule to a fully placed board: the side whose
// king and queen are nearer moves first; ties go to king-to-knight (nearest, then
// other), rooks, bishops, then pawns nearest first; if all tie, White. It also
// returns the level that decided (LevelKingQueen ... LevelAllTied).
func FirstPlayer(b rules.Board) (rules.Side, int) {
	w, k := distances(b, rules.White), distances(b, rules.Black)
	for i := 0; i < len(w) && i < len(k); i++ {
		switch {
		case w[i] < k[i]:
			return rules.White, i
		case k[i] < w[i]:
			return rules.Black, i
		}
	}
	return rules.White, LevelAllTied
}

// Outcome is ongoing: nobody wins or loses during placement.
func (p *Placement) Outcome() rules.Outcome { return rules.OngoingOutcome }

// CanWin is true for both sides: during placement material is still coming. It
// implements rules.MaterialJudge.
func (p *Placement) CanWin(rules.Side) bool { return true }

// InCheck is false: no king is in check during placement.
func (p *Placement) InCheck() bool { return false }

// ViewFor returns viewer's view: revealed pieces, the tried cells and viewer's own
// pending choice; the opponent's pending choice is hidden (shown as "?" in the
// text: chosen, cell unknown). A view cannot record choices.
func (p *Placement) ViewFor(viewer rules.Side) rules.Position {
	q := p.clone()
	q.viewer = int(viewer & 1)
	if o := viewer.Other() & 1; q.pending[o] != rules.NoSquare {
		q.pending[o] = hidden
	}
	return q
}

// boardField writes cells as the board field of a FEN, '*' for blocked cells.
func boardField(cells []rules.Cell) string {
	var b strings.Builder
	for r := dims.Ranks - 1; r >= 0; r-- {
		empty := 0
		for f := 0; f < dims.Files; f++ {
			c := cells[dims.Square(f, r)]
			if c.State != rules.Blocked && c.Piece.IsNone() {
				empty++
				continue
			}
			if empty > 0 {
				b.WriteString(strconv.Itoa(empty))
				empty = 0
			}
			if c.State == rules.Blocked {
				b.WriteByte('*')
			} else {
				b.WriteByte(c.Piece.FENLetter())
			}
		}
		if empty > 0 {
			b.WriteString(strconv.Itoa(empty))
		}
		if r > 0 {
			b.WriteByte('/')
		}
	}
	return b.String()
}

func squareList(list []rules.Square) string {
	if len(list) == 0 {
		return "-"
	}
	names := make([]string, len(list))
	for i, sq := range list {
		names[i] = dims.Name(sq)
	}
	return strings.Join(names, ",")
}

func pendingName(sq rules.Square) string {
	switch sq {
	case rules.NoSquare:
		return "-"
	case hidden:
		return "?"
	}
	return dims.Name(sq)
}

// String returns the placement text, which ParsePosition reads back exactly:
//
//	<board> placement <round> <slate> <white king tries>/<black king tries> <white choice>/<black choice>
//
// The board is a FEN board field ('*' blocked, revealed pieces); round is 1 to 16
// (8 pawns, 2 bishops, 2 rooks, 2 knights, queen, king); the slate and the king
// tries are comma-separated cells or "-"; a choice is a cell, "-" for none yet, or
// "?" in a player's view for the opponent's hidden choice. For example
//
//	10/10/.../**********  placement 3 e4 -/- f6/-
func (p *Placement) String() string {
	return fmt.Sprintf("%s %s %d %s %s/%s %s/%s", boardField(p.cells), placementTag, p.round+1, squareList(p.slate),
		squareList(p.kingTried[0]), squareList(p.kingTried[1]), pendingName(p.pending[0]), pendingName(p.pending[1]))
}

// ParseMove reads a placement of the current round's kind: "e4", "@e4", "P@e4" or
// "p@e4" (the letter in either case, and it must be this round's kind). Whether
// the cell is eligible depends on the side, so PlayAs checks that.
func (p *Placement) ParseMove(text string) (rules.Move, error) {
	kind := p.Kind()
	s := strings.TrimSpace(text)
	if i := strings.IndexByte(s, '@'); i >= 0 {
		letter := s[:i]
		s = s[i+1:]
		if letter != "" {
			k, ok := rules.PieceKindFromLetter(letter[0])
			if len(letter) != 1 || !ok {
				return rules.NullMove, rules.RefuseAs(rules.ErrBadNotation, "gochess.notation.letter", rules.Args{"Text": rules.Echo(text), "Given": rules.Echo(letter), "Letter": string(kind.Letter())},
					"I cannot read %s as a placement: %s is not a piece letter; write the cell, such as e4 or %c@e4.", rules.Echo(text), rules.Echo(letter), kind.Letter())
			}
			if k != kind {
				return rules.NullMove, refusePlace("kind", rules.Args{"RoundAPiece": kind.String(), "GivenAPiece": k.String(), "Letter": string(kind.Letter())},
					"This round places a %s, not a %s; write the cell, such as e4 or %c@e4.", kind, k, kind.Letter())
			}
		}
	}
	if strings.TrimSpace(text) == "" {
		return rules.NullMove, rules.RefuseAs(rules.ErrBadNotation, "gochess.notation.empty", rules.Args{"YourPiece": kind.String(), "Letter": string(kind.Letter())},
			"Write the cell for your %s, such as e4 or %c@e4.", kind, kind.Letter())
	}
	sq, err := dims.ParseSquare(s)
	if err != nil {
		return rules.NullMove, &rules.Error{Kind: rules.ErrBadNotation, Text: fmt.Sprintf("I cannot read %s as a placement; write the cell, such as e4 or %c@e4.", rules.Echo(text), kind.Letter()), Cause: err,
			Key: "gochess.notation.unreadable", Args: rules.Args{"Text": rules.Echo(text), "Letter": string(kind.Letter())}}
	}
	return rules.Move{From: rules.NoSquare, To: sq, Drop: kind}, nil
}

// UCI returns the placement text "P@e4": the kind's upper-case letter, '@' and the cell.
func (p *Placement) UCI(m rules.Move) string {
	return string(m.Drop.Letter()) + "@" + dims.Name(m.To)
}

// SAN returns the same text as UCI.
func (p *Placement) SAN(m rules.Move) string { return p.UCI(m) }

// badPlacement refuses a placement text with the sentence gochess.text.<key> of
// the rules' catalogue, args its placeholders; format and a write the clause
// that says why in English.
func badPlacement(key string, args rules.Args, format string, a ...any) error {
	return rules.RefuseAs(rules.ErrBadPosition, "gochess.text."+key, args, "This Go-Chess placement text cannot be read: %s.", fmt.Sprintf(format, a...))
}

// parsePlacement reads the text String writes and checks that it is a state the
// placement rules can reach: the right pieces for the round, tried cells empty,
// pending choices eligible.
func (v *Variant) parsePlacement(text string) (*Placement, error) {
	f := strings.Fields(text)
	if len(f) != 6 {
		return nil, badPlacement("fields", rules.Args{"Fields": strconv.Itoa(len(f))}, "it has six fields separated by spaces (board, %q, round, slate, king tries, choices), and this one has %d", placementTag, len(f))
	}
	b, err := v.core.ParseBoard(f[0])
	if err != nil {
		return nil, err
	}
	p, err := v.newPlacement(b)
	if err != nil {
		return nil, err
	}
	round, err := strconv.Atoi(f[2])
	if err != nil || round < 1 || round > len(Rounds) {
		return nil, badPlacement("round", rules.Args{"Text": rules.Echo(f[2])}, "the round is a number from 1 to %d, not %s", len(Rounds), rules.Echo(f[2]))
	}
	p.round = round - 1
	if err := p.checkMaterial(); err != nil {
		return nil, err
	}
	if p.slate, err = parseCells(f[3], "slate", "slate", nil); err != nil {
		return nil, err
	}
	tries := strings.Split(f[4], "/")
	if len(tries) != 2 {
		return nil, badPlacement("tries", rules.Args{"Text": rules.Echo(f[4])}, "the king tries are white's cells/black's cells, such as e4,f6/-, not %s", rules.Echo(f[4]))
	}
	for i, t := range tries {
		if p.kingTried[i], err = parseCells(t, rules.Side(i).String()+"'s king tries", "tries", rules.Args{"OfSide": rules.Side(i).String()}); err != nil {
			return nil, err
		}
		if len(p.kingTried[i]) > 0 && p.round != kingRound {
			return nil, badPlacement("kinground", rules.Args{"Round": strconv.Itoa(round)}, "king tries are only kept in the king round (16), not in round %d", round)
		}
	}
	for _, list := range [][]rules.Square{p.slate, p.kingTried[0], p.kingTried[1]} {
		for _, sq := range list {
			if c := p.cells[sq]; c.State != rules.Playable || !c.Piece.IsNone() {
				return nil, badPlacement("tried", rules.Args{"Square": dims.Name(sq)}, "the tried cell %s must be empty and unblocked", dims.Name(sq))
			}
		}
	}
	choices := strings.Split(f[5], "/")
	if len(choices) != 2 {
		return nil, badPlacement("choices", rules.Args{"Text": rules.Echo(f[5])}, "the choices are white's/black's, each a cell or -, not %s", rules.Echo(f[5]))
	}
	for i, c := range choices {
		if c == "?" {
			return nil, badPlacement("hidden", nil, "this is a player's view, in which the opponent's choice is hidden (?); only the full game state can be resumed")
		}
		if c == "-" {
			continue
		}
		sq, err := dims.ParseSquare(c)
		if err != nil {
			return nil, badPlacement("choice", rules.Args{"Text": rules.Echo(c)}, "the choice %s is not a cell", rules.Echo(c))
		}
		side := rules.Side(i)
		if err := p.check(side, rules.Move{From: rules.NoSquare, To: sq, Drop: p.Kind()}); err != nil {
			return nil, &rules.Error{Kind: rules.ErrBadPosition, Text: fmt.Sprintf("This Go-Chess placement text cannot be read: %s's choice %s is not eligible.", side, c), Cause: err,
				Key: "gochess.text.ineligible", Args: rules.Args{"OfSide": side.String(), "Choice": c}}
		}
		p.pending[i] = sq
	}
	if p.pending[0] != rules.NoSquare && p.pending[1] != rules.NoSquare {
		return nil, badPlacement("both", nil, "both players have a choice recorded, but a round is revealed as soon as both have chosen")
	}
	return p, nil
}

// parseCells reads a sorted comma-separated list of cells, or "-"; what names
// the list in English, key its refusals' sentences (gochess.text.list.<key>),
// with args.
func parseCells(field, what, key string, args rules.Args) ([]rules.Square, error) {
	with := func() rules.Args {
		a := rules.Args{"Text": rules.Echo(field)}
		for k, v := range args {
			a[k] = v
		}
		return a
	}
	if field == "-" {
		return nil, nil
	}
	var out []rules.Square
	for _, name := range strings.Split(field, ",") {
		sq, err := dims.ParseSquare(name)
		if err != nil {
			return nil, badPlacement("list.cell."+key, with(), "the %s list %s has something that is not a cell", what, rules.Echo(field))
		}
		if len(out) > 0 && sq <= out[len(out)-1] {
			return nil, badPlacement("list.order."+key, with(), "the %s list %s must name each cell once in square order (a1, b1, ..., j10)", what, rules.Echo(field))
		}
		out = append(out, sq)
	}
	return out, nil
}

// checkMaterial checks that each side has exactly the pieces of the rounds before
// the current one, and two bishops on different colours once both are placed.
func (p *Placement) checkMaterial() error {
	want := map[rules.PieceKind]int{}
	for _, k := range Rounds[:p.round] {
		want[k]++
	}
	for _, side := range rules.Sides {
		have := map[rules.PieceKind]int{}
		var bishops []rules.Square
		for i, c := range p.cells {
			if c.Piece.Side == side && !c.Piece.IsNone() {
				have[c.Piece.Kind]++
				if c.Piece.Kind == rules.Bishop {
					bishops = append(bishops, rules.Square(i))
				}
			}
		}
		for _, k := range []rules.PieceKind{rules.Pawn, rules.Bishop, rules.Rook, rules.Knight, rules.Queen, rules.King} {
			if have[k] != want[k] {
				return badPlacement("material", rules.Args{"Round": strconv.Itoa(p.round + 1), "OfSide": side.String(), "Have": strconv.Itoa(have[k]), "Piece": k.String(), "Want": strconv.Itoa(want[k])},
					"in round %d %s has %d %ss on the board; the rounds before place %d", p.round+1, side, have[k], k, want[k])
			}
		}
		if len(bishops) == 2 && light(bishops[0]) == light(bishops[1]) {
			return badPlacement("bishops", rules.Args{"OfSide": side.String()}, "%s's two bishops stand on cells of one colour; they are placed on different colours", side)
		}
	}
	return nil
}
