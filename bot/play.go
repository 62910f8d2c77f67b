package bot

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/storage"
)

// cmdMove plays a move in one of the user's games.
func (s *Service) cmdMove(ctx context.Context, req Request) Reply {
	text := req.Args.Get("move")
	if text == "" {
		return refusal("Say which move, for example /move Nf3 or /move g1f3.")
	}
	return s.gameAction(ctx, req, turnGame, func(tx *storage.Tx, e *effects, g *storage.Game, side rules.Side) error {
		if _, ok := inRound(g.Position); ok {
			return s.choose(tx, e, g, side, text, &req.Place)
		}
		return s.play(tx, e, g, side, text, &req.Place)
	})
}

// cmdPlace makes a Go-Chess placement choice.
func (s *Service) cmdPlace(ctx context.Context, req Request) Reply {
	text := req.Args.Get("cell")
	if text == "" {
		return refusal("Say which cell, for example /place d4.")
	}
	return s.gameAction(ctx, req, turnGame, func(tx *storage.Tx, e *effects, g *storage.Game, side rules.Side) error {
		if _, ok := inRound(g.Position); !ok {
			return refuse(ErrRefused, "Game %s has no placement going on; play moves with /move.", g.ID)
		}
		return s.choose(tx, e, g, side, text, &req.Place)
	})
}

// notYourTurn is the refusal of an action by the side not due to act.
func notYourTurn(g *storage.Game, side rules.Side) error {
	other := g.Player(side.Other())
	return refuse(rules.ErrNotYourTurn, "It is %s's turn in game %s, not yours; you will be told when %s has moved.",
		seatName(other), g.ID, seatName(other))
}

// play plays text as side's move in g (not in a secret round) and stores the game.
// from is where the request came from, nil when no request caused it (an engine's
// move).
func (s *Service) play(tx *storage.Tx, e *effects, g *storage.Game, side rules.Side, text string, from *Place) error {
	if !g.Awaits(side) {
		return notYourTurn(g, side)
	}
	now := s.Now()
	before, pos := slices.Clone(g.ToMove), g.Position
	m, err := g.Play(side, text, now)
	if err != nil {
		if errors.Is(err, rules.ErrAmbiguousMove) {
			if ch := promotionChoice(pos, text, g); ch != nil {
				return &choiceError{userError: userError{kind: rules.ErrAmbiguousMove,
					msg: fmt.Sprintf("Which piece should the pawn become? Add it to the move, for example %s.", ch.Options[0].Label)}, choice: ch}
			}
		}
		return err
	}
	san := pos.SAN(m)
	var notes []string
	if o := g.DrawOffer; o != nil && o.By != side {
		notes = append(notes, fmt.Sprintf("%s's draw offer lapsed with this move.", seatName(g.Player(o.By))))
		g.DrawOffer = nil
	}
	if g.Takeback != nil {
		if g.Takeback.By != side {
			notes = append(notes, fmt.Sprintf("%s's takeback request lapsed with this move.", seatName(g.Player(g.Takeback.By))))
		}
		g.Takeback = nil
	}
	advanceClock(g, before, false, now)
	if err := s.save(tx, e, g, now); err != nil {
		return err
	}
	mover := seatName(g.Player(side))
	text = fmt.Sprintf("%s (%s) played **%s**.", mover, side, san)
	if len(notes) > 0 {
		text += " " + strings.Join(notes, " ")
	}
	if err := s.announce(tx, e, g, side, text, from, fmt.Sprintf("move/%s/%d", g.ID, len(g.Moves))); err != nil {
		return err
	}
	return nil
}

// announce builds the public reply after side acted in g (a move, a revealed round, a
// takeback) and tells the other player, or both players when the game ended.
func (s *Service) announce(tx *storage.Tx, e *effects, g *storage.Game, side rules.Side, text string, from *Place, key string) error {
	img, err := s.boardImage(tx, g, nextViewer(g, side), false)
	if err != nil {
		return err
	}
	e.reply = Reply{Title: s.gameTitle(g), Text: text + "\n" + s.statusLine(g), Game: gameRef(g), Actions: gameActions(g)}
	e.image = img
	inPlace := from != nil && samePlace(*from, g)
	if !g.Active() {
		for _, to := range rules.Sides {
			if to == side {
				continue // the reply tells the one who acted
			}
			if err := s.tell(tx, e, g, to, NoticeGameOver, text+"\n"+s.statusLine(g), key+"/over", inPlace); err != nil {
				return err
			}
		}
		return nil
	}
	for _, to := range g.ToMove {
		if to == side {
			continue
		}
		if err := s.tell(tx, e, g, to, NoticeTurn, text+"\n"+s.yourTurn(g, to), key+"/"+to.String(), inPlace); err != nil {
			return err
		}
	}
	return nil
}

// yourTurn is the line that tells side what to do next in g.
func (s *Service) yourTurn(g *storage.Game, side rules.Side) string {
	what := "Your move"
	if sim, ok := inRound(g.Position); ok {
		what = "Choose your cell"
		if ms := sim.LegalMovesFor(side); len(ms) > 0 {
			what = fmt.Sprintf("Choose the cell for your %s (/place)", ms[0].Drop)
		}
	}
	line := fmt.Sprintf("%s in game %s", what, g.ID)
	if d := g.Clock.Deadline; !d.IsZero() {
		line += fmt.Sprintf(", by %s (%s left)", formatTime(d), formatLeft(d.Sub(s.Now())))
	}
	return line + "."
}

// save plans g's next wake-up, sends the reminders that fell due, and stores g.
func (s *Service) save(tx *storage.Tx, e *effects, g *storage.Game, now time.Time) error {
	due, err := planWake(tx, g, now)
	if err != nil {
		return err
	}
	ending := !g.Active() && g.EndedAt.IsZero() // the store sets EndedAt when it first stores the end
	if err := tx.PutGame(g); err != nil {
		return err
	}
	if ending {
		if err := s.gameEnded(tx, e, g); err != nil {
			return fmt.Errorf("bot: after game %s ended: %w", g.ID, err)
		}
		if s.over != nil {
			if err := s.over(tx, g); err != nil {
				return fmt.Errorf("bot: after game %s ended: %w", g.ID, err)
			}
		}
		e.ended = append(e.ended, g)
	}
	for _, d := range due {
		if err := s.remind(tx, e, g, d); err != nil {
			return err
		}
	}
	if g.Active() {
		for _, side := range g.ToMove {
			if g.Player(side).IsEngine() && s.engine != nil {
				e.engine = append(e.engine, g.ID)
				break
			}
		}
	}
	e.wake = true
	return nil
}

// samePlace reports whether a reply to a request from p shows in g's own thread or
// channel, where a mention reaches the players.
func samePlace(p Place, g *storage.Game) bool {
	if g.Thread != "" {
		return p.Thread == g.Thread
	}
	return p.Thread == "" && p.Channel == g.Channel && p.Guild == g.Guild
}

// gameActions are the buttons under a game's board.
func gameActions(g *storage.Game) []Action {
	if !g.Active() {
		return []Action{{Label: "PGN", Style: StyleSecondary, Command: CmdPGN, Args: Args{"game": g.ID}}}
	}
	args := Args{"game": g.ID}
	if _, ok := inRound(g.Position); ok {
		return []Action{
			{Label: "Place", Style: StylePrimary, Command: CmdPlace, Args: args, Input: "cell", InputLabel: "Cell (such as d4)"},
			{Label: "Resign", Style: StyleDanger, Command: CmdResign, Args: args, Confirm: "Resign game " + g.ID + "?"},
		}
	}
	return []Action{
		{Label: "Move", Style: StylePrimary, Command: CmdMove, Args: args, Input: "move", InputLabel: "Your move (such as Nf3 or g1f3)"},
		{Label: "Offer draw", Style: StyleSecondary, Command: CmdDraw, Args: args.with("action", "offer")},
		{Label: "Resign", Style: StyleDanger, Command: CmdResign, Args: args, Confirm: "Resign game " + g.ID + "?"},
	}
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
	ch := &Choice{Placeholder: "Promote to", Command: CmdMove, Arg: "move", Args: Args{"game": g.ID}}
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
		return refuse(rules.ErrNotYourTurn, "You have already chosen in this round of game %s; wait for %s to choose.", g.ID, seatName(other))
	}
	now := s.Now()
	before := slices.Clone(g.ToMove)
	kind := rules.NoPiece
	if ms := sim.LegalMovesFor(side); len(ms) > 0 {
		kind = ms[0].Drop
	}
	placedBefore := countPieces(publicView(g.Position))
	_, err := g.Play(side, text, now)
	if err != nil && errors.Is(err, rules.ErrBadNotation) && kind != rules.NoPiece {
		// A bare cell: say which piece, in drop notation.
		if _, n := g.Position.Variant().Dims().ScanSquare(text); n == len(text) {
			_, err = g.Play(side, string(kind.Letter())+"@"+text, now)
		}
	}
	if err != nil {
		return err
	}
	cell := choiceCell(g)
	advanceClock(g, before, true, now)
	if err := s.save(tx, e, g, now); err != nil {
		return err
	}
	if next, ok := inRound(g.Position); ok && len(next.Awaiting()) == 1 && next.Awaiting()[0] == side.Other() {
		// The other side has still to choose: only the chooser may see this choice.
		img, err := s.boardImage(tx, g, side, true)
		if err != nil {
			return err
		}
		e.reply = Reply{Private: true, Title: s.gameTitle(g), Game: gameRef(g),
			Text: fmt.Sprintf("You chose **%s** for your %s; it stays secret until %s has chosen too.", cell, kind, seatName(g.Player(side.Other())))}
		e.image = img
		key := fmt.Sprintf("chosen/%s/%d", g.ID, len(g.Moves))
		return s.tell(tx, e, g, side.Other(), NoticeTurn,
			fmt.Sprintf("%s has made this round's choice; waiting for yours.\n%s", seatName(g.Player(side)), s.yourTurn(g, side.Other())), key, false)
	}
	// Both have chosen: the round is revealed (or must be chosen again).
	var text2 string
	switch added := countPieces(publicView(g.Position)) - placedBefore; {
	case added > 0:
		text2 = fmt.Sprintf("Round revealed: both %ss are placed (%s).", kind, revealed(g))
	case sameChoices(g):
		text2 = fmt.Sprintf("Both chose %s for the %s: both choose again, and no cell tried in this round may be chosen again.", cell, kind)
	default:
		text2 = fmt.Sprintf("The two kings would attack each other (%s): both choose again, each avoiding the cells already tried for his own king.", revealed(g))
	}
	if _, ok := inRound(g.Position); !ok && g.Active() {
		text2 += fmt.Sprintf(" Placement is complete: %s moves first.", seatName(g.Player(g.ToMove[0])))
	}
	return s.announce(tx, e, g, side, text2, from, fmt.Sprintf("round/%s/%d", g.ID, len(g.Moves)))
}

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
	return highlight(g.Position.Variant().Dims(), g.Moves[len(g.Moves)-1].Move)
}

// sameChoices reports whether the last two entries (the two choices of a round) are
// the same cell.
func sameChoices(g *storage.Game) bool {
	n := len(g.Moves)
	if n < 2 {
		return false
	}
	d := g.Position.Variant().Dims()
	a, b := highlight(d, g.Moves[n-1].Move), highlight(d, g.Moves[n-2].Move)
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
		if m := highlight(d, e.Move); m != nil {
			parts = append(parts, fmt.Sprintf("%s %s", e.Side, d.Name(m.To)))
		}
	}
	slices.Sort(parts)
	slices.Reverse(parts) // white first
	return strings.Join(parts, ", ")
}

// countPieces counts the pieces on pos's board.
func countPieces(pos rules.Position) int {
	n := 0
	for _, c := range pos.Board().Cells {
		if !c.Piece.IsNone() {
			n++
		}
	}
	return n
}
