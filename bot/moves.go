package bot

import (
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/missivechess/missive/bot/clock"
	"github.com/missivechess/missive/bot/i18n"
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
			if ch := promotionChoice(i18n.English, pos, text, g); ch != nil {
				say := func(l i18n.Lang) string {
					return catalogue.For(l).T("refusal.promotion", i18n.Data{"Move": ch.Options[0].Label})
				}
				return &choiceError{userError: userError{kind: rules.ErrAmbiguousMove, msg: say(i18n.English), say: say}, choice: ch,
					choiceIn: func(l i18n.Lang) *Choice { return promotionChoice(l, pos, text, g) }}
			}
		}
		return err
	}
	san := pos.SAN(m)
	var notes []Phrase
	lapsed := func(id string, by rules.Side) Phrase {
		who := words.Seat(g.Player(by))
		return func(l i18n.Lang) string { return catalogue.For(l).T(id, i18n.Data{"Player": who}) }
	}
	if o := g.DrawOffer; o != nil && o.By != side {
		notes = append(notes, lapsed("move.drawlapsed", o.By))
		g.DrawOffer = nil
	}
	if g.Takeback != nil {
		if g.Takeback.By != side {
			notes = append(notes, lapsed("move.takebacklapsed", g.Takeback.By))
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
	if e.note != nil {
		notes = append(notes, e.note)
		e.note = nil
	}
	mover := g.Player(side)
	said := func(l i18n.Lang) string {
		text := catalogue.For(l).T("move.played", i18n.Data{"Player": words.In(l).Seated(mover, side), "Move": san})
		for _, n := range notes {
			text += " " + n(l)
		}
		return text
	}
	n0 := len(e.notes)
	if err := s.announce(tx, e, g, side, said, from, fmt.Sprintf("move/%s/%d", g.ID, len(g.Moves))); err != nil {
		return err
	}
	return s.changed(s.hooks.moved, GameChange{Tx: s.tx(tx, e), Game: g, Side: side, Said: said(i18n.English), SaidIn: said, From: from, Notices: n0})
}

// promotionChoice returns a select menu of the promotions text may mean in pos, in
// language l, or nil when the ambiguity is of another kind.
func promotionChoice(l i18n.Lang, pos rules.Position, text string, g *storage.Game) *Choice {
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
	ch := &Choice{Placeholder: catalogue.For(l).T("choice.promote", nil), Arg: "move", Args: Args{"game": g.ID}} // its command is the one that asked (Fail)
	for _, m := range found {
		if m.From != found[0].From || m.To != found[0].To {
			return nil
		}
		ch.Options = append(ch.Options, ChoiceOption{Label: pos.SAN(m), Value: pos.UCI(m), Description: words.In(l).Piece(m.Promotion)})
	}
	return ch
}

// choose makes side's secret choice in g's current round and stores the game.
func (s *Service) choose(tx *storage.Tx, e *effects, g *storage.Game, side rules.Side, text string, from *Place) error {
	sim, _ := inRound(g.Position)
	if !g.Awaits(side) {
		other := g.Player(side.Other())
		return refusal(rules.ErrNotYourTurn, "refusal.chosen", func(words.W) i18n.Data { return i18n.Data{"Game": g.ID, "Player": words.Seat(other)} })
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
			return refusal(rules.ErrBadNotation, "refusal.offboard", func(words.W) i18n.Data {
				return i18n.Data{"Text": rules.Echo(text), "First": d.Name(0), "Last": d.Name(rules.Square(d.Cells() - 1))}
			})
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
		l := e.readerLang()
		img, err := s.boardImageIn(l, tx, g, side, true)
		if err != nil {
			return err
		}
		other := words.Seat(g.Player(side.Other()))
		e.reply = Reply{Private: true, Title: s.GameTitleIn(l, g), Game: RefOf(g),
			Text: pieceT(l, "choose.secret", kind, i18n.Data{"Cell": cell, "Player": other})}
		e.image = img
		key := fmt.Sprintf("chosen/%s/%d", g.ID, len(g.Moves))
		chooser, note := words.Seat(g.Player(side)), e.note
		e.note = nil
		made := func(l i18n.Lang) string {
			loc := catalogue.For(l)
			text := loc.T("choose.made", i18n.Data{"Player": chooser})
			if note != nil {
				text = loc.T("choose.made.note", i18n.Data{"Player": chooser, "Note": note(l)})
			}
			return text + "\n" + s.YourTurnIn(l, g, side.Other())
		}
		return s.tell(tx, e, g, side.Other(), NoticeTurn, made, key, false)
	}
	// Both have chosen: the round is revealed (or must be chosen again).
	var said Phrase
	switch added := publicView(g.Position).Board().Pieces() - placedBefore; {
	case added > 0:
		said = func(l i18n.Lang) string {
			return pieceT(l, "round.revealed", kind, i18n.Data{"Choices": revealed(l, g)})
		}
	case sameChoices(g):
		said = func(l i18n.Lang) string {
			return catalogue.For(l).T("round.same", i18n.Data{"Cell": cell, "Piece": words.In(l).Piece(kind)})
		}
	default:
		said = func(l i18n.Lang) string {
			return catalogue.For(l).T("round.kings", i18n.Data{"Choices": revealed(l, g)})
		}
	}
	text2 := said
	if _, ok := inRound(g.Position); !ok && g.Active() {
		first := words.Seat(g.Player(g.ToMove[0]))
		text2 = func(l i18n.Lang) string {
			return said(l) + " " + catalogue.For(l).T("round.complete", i18n.Data{"Player": first})
		}
	}
	n0 := len(e.notes)
	if err := s.announce(tx, e, g, side, text2, from, fmt.Sprintf("round/%s/%d", g.ID, len(g.Moves))); err != nil {
		return err
	}
	return s.changed(s.hooks.moved, GameChange{Tx: s.tx(tx, e), Game: g, Side: side, Said: text2(i18n.English), SaidIn: text2, From: from, Notices: n0})
}

// pieceT is the catalogue's message id written for the piece kind (id.knight) in
// language l, or, for a kind without one, id with the piece's name as Piece.
func pieceT(l i18n.Lang, id string, kind rules.PieceKind, data i18n.Data) string {
	if own := id + "." + kind.String(); catalogue.Has(own) {
		return catalogue.For(l).T(own, data)
	}
	d := maps.Clone(data)
	if d == nil {
		d = i18n.Data{}
	}
	d["Piece"] = words.In(l).Piece(kind)
	return catalogue.For(l).T(id, d)
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

// revealed describes the two choices of the round just completed, in language l:
// "white d4, black e7".
func revealed(l i18n.Lang, g *storage.Game) string {
	n := len(g.Moves)
	if n < 2 {
		return ""
	}
	d := g.Position.Variant().Dims()
	var sides [2]string
	for _, e := range g.Moves[n-2:] {
		if m := Highlight(d, e.Move); m != nil {
			sides[e.Side&1] = d.Name(m.To)
		}
	}
	loc := catalogue.For(l)
	var parts []string // white first
	for _, side := range rules.Sides {
		if sides[side&1] != "" {
			parts = append(parts, loc.T("round.choice."+side.String(), i18n.Data{"Cell": sides[side&1]}))
		}
	}
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
