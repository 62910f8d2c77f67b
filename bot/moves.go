package bot

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/missivechess/missive/bot/clock"
	"github.com/missivechess/missive/bot/words"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/storage"
)

// The move core, which every path to a move takes (a player's /move or /place,
// an engine's move, a conditional reply): play and choose check the turn, run the
// Moving hooks, advance the clock, store and announce the game, and run the Moved
// hooks.

// play plays text as side's move in g (not in a secret round) and stores the game.
// from is where the request came from, nil when no request caused it (an engine's
// move).
func (s *Service) play(tx *storage.Tx, e *effects, g *storage.Game, side rules.Side, text string, from *Place) error {
	if !g.Awaits(side) {
		return NotYourTurn(g, side)
	}
	now := s.Now()
	before, pos := slices.Clone(g.ToMove), g.Position
	m, err := g.Play(side, text, now)
	if err != nil {
		if errors.Is(err, rules.ErrAmbiguousMove) {
			if ch := promotionChoice(pos, text, g); ch != nil {
				return RefuseWithChoice(rules.ErrAmbiguousMove,
					fmt.Sprintf("Which piece should the pawn become? Add it to the move, for example %s.", ch.Options[0].Label), ch)
			}
		}
		return err
	}
	san := pos.SAN(m)
	var notes []string
	if o := g.DrawOffer; o != nil && o.By != side {
		notes = append(notes, fmt.Sprintf("%s's draw offer lapsed with this move.", words.Seat(g.Player(o.By))))
		g.DrawOffer = nil
	}
	if g.Takeback != nil {
		if g.Takeback.By != side {
			notes = append(notes, fmt.Sprintf("%s's takeback request lapsed with this move.", words.Seat(g.Player(g.Takeback.By))))
		}
		g.Takeback = nil
	}
	if from != nil {
		if err := s.moving(tx, e, g, side, now); err != nil {
			return err
		}
	}
	clock.Advance(g, before, false, now)
	if err := s.save(tx, e, g, now); err != nil {
		return err
	}
	if e.note != "" {
		notes = append(notes, e.note)
		e.note = ""
	}
	mover := words.Seat(g.Player(side))
	text = fmt.Sprintf("%s (%s) played **%s**.", mover, side, san)
	if len(notes) > 0 {
		text += " " + strings.Join(notes, " ")
	}
	n0 := len(e.notes)
	if err := s.announce(tx, e, g, side, text, from, fmt.Sprintf("move/%s/%d", g.ID, len(g.Moves))); err != nil {
		return err
	}
	return s.changed(s.hooks.moved, GameChange{Tx: s.tx(tx, e), Game: g, Side: side, Said: text, From: from, Notices: n0})
}

// promotionChoice returns a select menu of the promotions text may mean in pos, or
// nil when the ambiguity is of another kind.
func promotionChoice(pos rules.Position, text string, g *storage.Game) *Choice {
	var kinds []rules.PieceKind
	for _, m := range pos.LegalMoves() {
		if m.Promotion != rules.NoPiece && !slices.Contains(kinds, m.Promotion) {
			kinds = append(kinds, m.Promotion)
		}
	}
	var found []rules.Move
	for _, k := range kinds {
		for _, suffix := range []string{"=" + string(k.Letter()), strings.ToLower(string(k.Letter()))} {
			if m, err := pos.ParseMove(text + suffix); err == nil && m.Promotion == k {
				found = append(found, m)
				break
			}
		}
	}
	if len(found) < 2 {
		return nil
	}
	ch := &Choice{Placeholder: "Promote to", Arg: "move", Args: Args{"game": g.ID}} // its command is the one that asked (Fail)
	for _, m := range found {
		if m.From != found[0].From || m.To != found[0].To {
			return nil
		}
		ch.Options = append(ch.Options, ChoiceOption{Label: pos.SAN(m), Value: pos.UCI(m), Description: m.Promotion.String()})
	}
	return ch
}

// choose makes side's secret choice in g's current round and stores the game.
func (s *Service) choose(tx *storage.Tx, e *effects, g *storage.Game, side rules.Side, text string, from *Place) error {
	sim, _ := inRound(g.Position)
	if !g.Awaits(side) {
		other := g.Player(side.Other())
		return Refuse(rules.ErrNotYourTurn, "You have already chosen in this round of game %s; wait for %s to choose.", g.ID, words.Seat(other))
	}
	now := s.Now()
	before := slices.Clone(g.ToMove)
	kind := rules.NoPiece
	if ms := sim.LegalMovesFor(side); len(ms) > 0 {
		kind = ms[0].Drop
	}
	placedBefore := publicView(g.Position).Board().Pieces()
	_, err := g.Play(side, text, now)
	if err != nil && errors.Is(err, rules.ErrBadNotation) && kind != rules.NoPiece {
		// A bare cell: say which piece, in drop notation.
		d := g.Position.Variant().Dims()
		if _, n := d.ScanSquare(text); n == len(text) {
			_, err = g.Play(side, string(kind.Letter())+"@"+text, now)
		} else if offBoard.MatchString(text) {
			return Refuse(rules.ErrBadNotation, "%s is not on the board (%s-%s).", rules.Echo(text), d.Name(0), d.Name(rules.Square(d.Cells()-1)))
		}
	}
	if err != nil {
		return err
	}
	cell := choiceCell(g)
	if from != nil {
		if err := s.moving(tx, e, g, side, now); err != nil {
			return err
		}
	}
	clock.Advance(g, before, true, now)
	if err := s.save(tx, e, g, now); err != nil {
		return err
	}
	if next, ok := inRound(g.Position); ok && len(next.Awaiting()) == 1 && next.Awaiting()[0] == side.Other() {
		// The other side has still to choose: only the chooser may see this choice.
		img, err := s.boardImage(tx, g, side, true)
		if err != nil {
			return err
		}
		e.reply = Reply{Private: true, Title: s.GameTitle(g), Game: RefOf(g),
			Text: fmt.Sprintf("You chose **%s** for your %s; it stays secret until %s has chosen too.", cell, kind, words.Seat(g.Player(side.Other())))}
		e.image = img
		key := fmt.Sprintf("chosen/%s/%d", g.ID, len(g.Moves))
		made := fmt.Sprintf("%s has made this round's choice;", words.Seat(g.Player(side)))
		if e.note != "" {
			made += " " + e.note
			e.note = ""
		}
		return s.tell(tx, e, g, side.Other(), NoticeTurn,
			fmt.Sprintf("%s waiting for yours.\n%s", made, s.YourTurn(g, side.Other())), key, false)
	}
	// Both have chosen: the round is revealed (or must be chosen again).
	var text2 string
	switch added := publicView(g.Position).Board().Pieces() - placedBefore; {
	case added > 0:
		text2 = fmt.Sprintf("Round revealed: both %ss are placed (%s).", kind, revealed(g))
	case sameChoices(g):
		text2 = fmt.Sprintf("Both chose %s for the %s: both choose again, and no cell tried in this round may be chosen again.", cell, kind)
	default:
		text2 = fmt.Sprintf("The two kings would attack each other (%s): both choose again, each avoiding the cells already tried for his own king.", revealed(g))
	}
	if _, ok := inRound(g.Position); !ok && g.Active() {
		text2 += fmt.Sprintf(" Placement is complete: %s moves first.", words.Seat(g.Player(g.ToMove[0])))
	}
	n0 := len(e.notes)
	if err := s.announce(tx, e, g, side, text2, from, fmt.Sprintf("round/%s/%d", g.ID, len(g.Moves))); err != nil {
		return err
	}
	return s.changed(s.hooks.moved, GameChange{Tx: s.tx(tx, e), Game: g, Side: side, Said: text2, From: from, Notices: n0})
}

// offBoard matches what can only be meant as a cell, such as k3 or a11, when the
// board has none of that name.
var offBoard = regexp.MustCompile(`^(?:[A-Za-z]@)?[a-z][0-9]{1,2}$`)

// choiceCell is the cell named by g's last stored entry.
func choiceCell(g *storage.Game) string {
	if m := lastEntryMove(g); m != nil {
		return g.Position.Variant().Dims().Name(m.To)
	}
	return "?"
}

// lastEntryMove reads the squares of g's last stored entry.
func lastEntryMove(g *storage.Game) *rules.Move {
	if len(g.Moves) == 0 {
		return nil
	}
	return Highlight(g.Position.Variant().Dims(), g.Moves[len(g.Moves)-1].Move)
}

// sameChoices reports whether the last two entries (the two choices of a round) are
// the same cell.
func sameChoices(g *storage.Game) bool {
	n := len(g.Moves)
	if n < 2 {
		return false
	}
	d := g.Position.Variant().Dims()
	a, b := Highlight(d, g.Moves[n-1].Move), Highlight(d, g.Moves[n-2].Move)
	return a != nil && b != nil && a.To == b.To
}

// revealed describes the two choices of the round just completed: "white d4, black e7".
func revealed(g *storage.Game) string {
	n := len(g.Moves)
	if n < 2 {
		return ""
	}
	d := g.Position.Variant().Dims()
	var parts []string
	for _, e := range g.Moves[n-2:] {
		if m := Highlight(d, e.Move); m != nil {
			parts = append(parts, fmt.Sprintf("%s %s", e.Side, d.Name(m.To)))
		}
	}
	slices.Sort(parts)
	slices.Reverse(parts) // white first
	return strings.Join(parts, ", ")
}

// moving runs the features' Moving hooks before side's own move or choice in g
// changes the clock.
func (s *Service) moving(tx *storage.Tx, e *effects, g *storage.Game, side rules.Side, now time.Time) error {
	for _, hook := range s.hooks.moving {
		if err := hook(s.tx(tx, e), g, side, now); err != nil {
			return err
		}
	}
	return nil
}
