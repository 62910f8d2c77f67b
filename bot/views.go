package bot

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/missivechess/missive/bot/clock"
	"github.com/missivechess/missive/bot/words"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/record"
	"github.com/missivechess/missive/storage"
)

// boardCommand is /board.
func (s *Service) boardCommand() Command {
	c := s.onGame(Command{Handle: s.cmdBoard, Spec: CommandSpec{Name: CmdBoard, Description: "Show a game's board"}})
	// After game, which a bare word names.
	c.Spec.Options = append(c.Spec.Options, OptionSpec{Name: "text", Description: "As text instead of a picture, for screen readers", Type: OptBoolean})
	return c
}

// gamesCommand is /games; its answer is private.
func (s *Service) gamesCommand() Command {
	return Command{Handle: s.cmdGames, Spec: CommandSpec{Name: CmdGames, Description: "Your games, those waiting for your move first, with the time left", Private: true}}
}

// historyCommand is /history.
func (s *Service) historyCommand() Command {
	return s.onGame(Command{Handle: s.cmdHistory, Spec: CommandSpec{Name: CmdHistory, Description: "A game's moves, numbered"}})
}

// pgnCommand is /pgn.
func (s *Service) pgnCommand() Command {
	return s.onGame(Command{Handle: s.cmdPGN, Spec: CommandSpec{Name: CmdPGN, Description: "Export a game as PGN"}})
}

// gifCommand is /gif.
func (s *Service) gifCommand() Command {
	return s.onGame(Command{Handle: s.cmdGIF, Spec: CommandSpec{Name: CmdGIF, Description: "An animation of a game, one frame per move"}})
}

// hintCommand is /hint; its answer is private.
func (s *Service) hintCommand() Command {
	return s.onGame(Command{Handle: s.cmdHint, Spec: CommandSpec{Name: CmdHint, Description: "The engine's suggestion for your move (private; not in rated games)", Private: true}})
}

// cmdBoard shows a game's board; during placement a player sees their own pending
// choice, privately.
func (s *Service) cmdBoard(ctx context.Context, req Request) Reply {
	return s.view(ctx, req, func(tx *storage.Tx, e *effects) error {
		g, err := s.findGame(tx, req, anyGame)
		if err != nil {
			return err
		}
		side, plays := g.SideOf(req.User.ID)
		_, round := inRound(g.Position)
		private := plays && round && g.Active()
		viewer := ViewerFor(g, req.User.ID)
		img, err := s.boardImage(tx, g, viewer, private)
		if err != nil {
			return err
		}
		text, ok := ParseBool(req.Args.Get("text"))
		if !ok {
			return Refuse(ErrRefused, "Text must be true or false, not %s.", rules.Echo(req.Args.Get("text")))
		}
		e.reply = Reply{Private: private, Title: s.gameTitle(g), Text: s.statusLine(g), Fields: s.gameFields(g), Game: RefOf(g)}
		if private && !g.Awaits(side) {
			e.reply.Text += "\nYour choice for this round shows on your board; your opponent cannot see it."
		}
		if plays {
			e.reply.Actions = s.Buttons(g)
		}
		if text {
			// The text board and the picture's description, for screen readers.
			e.reply.Text += "\n" + img.alt
			e.reply.Board = s.render.Text(img.pos, img.opts)
			return nil
		}
		e.image = img
		return nil
	})
}

// cmdGames lists the user's games: those waiting for the user first, then by time
// left; then the challenges waiting for an answer and the last finished games.
func (s *Service) cmdGames(ctx context.Context, req Request) Reply {
	return s.view(ctx, req, func(tx *storage.Tx, e *effects) error {
		games, err := tx.PlayerActiveGames(req.User.ID)
		if err != nil {
			return err
		}
		mine := func(g *storage.GameSummary) bool { return awaitsUser(g, req.User.ID) }
		sortByUrgency(games, req.User.ID)
		r := Reply{Private: true, Title: "Your games"}
		var lines []string
		ch := &Choice{Placeholder: "Show a game's board", Command: CmdBoard, Arg: "game", Args: Args{}}
		for _, g := range games {
			side, _ := g.SideOf(req.User.ID)
			opp := g.Players[side.Other()]
			state := words.Seat(g.Players[firstOr(g.ToMove, side)]) + " to move"
			if mine(g) {
				state = "**your move**"
			}
			if len(g.ToMove) == 2 {
				state = "**both choose**"
			}
			left := "no clock"
			switch {
			case !g.Deadline.IsZero() && !g.Paused.IsZero():
				left = "clock frozen by leave (" + words.Left(g.Deadline.Sub(g.Paused)) + " left when it runs again)"
			case !g.Deadline.IsZero():
				left = words.Left(g.Deadline.Sub(s.Now())) + " left"
			}
			if g.Bank != nil {
				left += " (" + clock.Text(0, g.Bank) + ")"
			}
			lines = append(lines, fmt.Sprintf("#%s %s vs %s (you: %s) · %s · %s", g.ID, s.variantName(g.Variant), words.Seat(opp), side, state, left))
			if len(ch.Options) < 25 {
				ch.Options = append(ch.Options, ChoiceOption{Label: fmt.Sprintf("#%s vs %s", g.ID, words.Seat(opp)), Value: g.ID, Description: s.variantName(g.Variant)})
			}
		}
		if len(lines) == 0 {
			lines = append(lines, "You have no game in progress. Start one with /challenge.")
		} else {
			r.Choice = ch
		}
		r.Text = strings.Join(lines, "\n")
		chs, err := tx.PlayerChallenges(req.User.ID)
		if err != nil {
			return err
		}
		var open []string
		for _, c := range chs {
			if c.ExpiresAt.IsZero() || s.Now().Before(c.ExpiresAt) {
				open = append(open, s.ChallengeLine(c))
			}
		}
		if len(open) > 0 {
			r.Fields = append(r.Fields, Field{Name: "Open challenges", Value: strings.Join(open, "\n")})
		}
		done, err := tx.PlayerFinishedGames(req.User.ID, 5)
		if err != nil {
			return err
		}
		var past []string
		for _, g := range done {
			past = append(past, fmt.Sprintf("#%s %s: %s", g.ID, s.variantName(g.Variant), words.Outcome(g.Players, g.Outcome)))
		}
		if len(past) > 0 {
			r.Fields = append(r.Fields, Field{Name: "Recently finished", Value: strings.Join(past, "\n")})
		}
		e.reply = r
		return nil
	})
}

func firstOr(s []rules.Side, def rules.Side) rules.Side {
	if len(s) > 0 {
		return s[0]
	}
	return def
}

// cmdHistory lists a game's moves with their numbers (and the revealed placement).
func (s *Service) cmdHistory(ctx context.Context, req Request) Reply {
	return s.view(ctx, req, func(tx *storage.Tx, e *effects) error {
		g, err := s.findGame(tx, req, anyGame)
		if err != nil {
			return err
		}
		h, err := s.PublicHistory(g)
		if err != nil {
			return err
		}
		place, moves := h.Placement(), h.Moves()
		var b strings.Builder
		if len(place) > 0 {
			b.WriteString("Placement: " + record.PlacementText(place) + "\n")
		}
		if len(moves) == 0 {
			b.WriteString("No moves yet.")
		} else {
			b.WriteString(record.Wrap(record.Movetext(moves), 72))
		}
		if !g.Active() {
			b.WriteString(" " + result(g.Outcome))
		}
		r := Reply{Title: s.gameTitle(g), Text: b.String() + "\n" + s.statusLine(g), Game: RefOf(g)}
		if len(r.Text) > 3500 {
			r.Files = append(r.Files, File{Name: fmt.Sprintf("game-%s-moves.txt", g.ID), ContentType: "text/plain; charset=utf-8", Data: []byte(r.Text)})
			r.Text = "…" + r.Text[len(r.Text)-3000:]
		}
		e.reply = r
		return nil
	})
}

// cmdPGN exports a game as PGN.
func (s *Service) cmdPGN(ctx context.Context, req Request) Reply {
	return s.view(ctx, req, func(tx *storage.Tx, e *effects) error {
		g, err := s.findGame(tx, req, anyGame)
		if err != nil {
			return err
		}
		text, err := s.pgn(g)
		if err != nil {
			return err
		}
		e.reply = Reply{Title: s.gameTitle(g), Text: fmt.Sprintf("PGN of game %s.", g.ID), Game: RefOf(g),
			Files: []File{{Name: fmt.Sprintf("game-%s.pgn", g.ID), ContentType: "application/x-chess-pgn", Data: []byte(text)}}}
		return nil
	})
}

// cmdGIF makes an animation of a game.
func (s *Service) cmdGIF(ctx context.Context, req Request) Reply {
	var frames []Frame
	var g *storage.Game
	var opts BoardOptions
	r := s.view(ctx, req, func(tx *storage.Tx, e *effects) error {
		var err error
		if g, err = s.findGame(tx, req, anyGame); err != nil {
			return err
		}
		h, err := s.PublicHistory(g)
		if err != nil {
			return err
		}
		frames = []Frame{{Position: publicView(h.Start)}}
		for _, st := range h.Steps {
			if st.Simultaneous && !st.Revealed {
				continue
			}
			m := st.Move
			frames = append(frames, Frame{Position: publicView(st.After), LastMove: &m})
		}
		p, err := Settings(tx, req.User.ID)
		if err != nil {
			return err
		}
		opts = BoardOptions{Viewer: ViewerFor(g, req.User.ID), Theme: p.Theme}
		e.reply = Reply{Title: s.gameTitle(g), Text: fmt.Sprintf("Game %s in %s.", g.ID, words.Plural(len(frames), "frame")), Game: RefOf(g)}
		return nil
	})
	if r.Refused {
		return r
	}
	var b bytes.Buffer
	if err := s.render.GIF(&b, frames, opts); err != nil {
		return s.fail(req, err)
	}
	r.Files = append(r.Files, File{Name: fmt.Sprintf("game-%s.gif", g.ID), ContentType: "image/gif", Data: b.Bytes(),
		Alt: fmt.Sprintf("animation of game %s, one frame per move", g.ID)})
	return r
}

// cmdHint asks the engine for the best move, privately.
func (s *Service) cmdHint(ctx context.Context, req Request) Reply {
	if s.engine == nil {
		return Refusal("No engine is available here, so there are no hints.")
	}
	var g *storage.Game
	var side rules.Side
	var theme string
	r := s.view(ctx, req, func(tx *storage.Tx, e *effects) error {
		var err error
		if g, err = s.findGame(tx, req, turnGame); err != nil {
			return err
		}
		if err := MustBeActive(g); err != nil {
			return err
		}
		side, _ = g.SideOf(req.User.ID)
		if !s.HintsAllowed(g) {
			return Refuse(ErrRefused, "Hints are not allowed in rated or tournament games.")
		}
		if !g.Awaits(side) {
			return NotYourTurn(g, side)
		}
		p, err := Settings(tx, req.User.ID)
		theme = p.Theme
		return err
	})
	if r.Refused {
		return r
	}
	pos := privateView(g.Position, side)
	ctx, cancel := context.WithTimeout(ctx, s.engineTO)
	defer cancel()
	h, err := s.engine.Hint(ctx, pos, side)
	if err != nil {
		return s.fail(req, err)
	}
	m := h.Move
	text := fmt.Sprintf("The engine suggests **%s**%s.", words.Move(pos, m), hintEvaluation(h, g.Variant))
	if m.IsDrop() { // a placement: the cell, as /place takes it
		cell := pos.Variant().Dims().Name(m.To)
		text = fmt.Sprintf("The engine suggests **%s** for your %s (/place cell:%s).", cell, m.Drop, cell)
	}
	reply := Reply{Private: true, Title: s.gameTitle(g), Game: RefOf(g), Text: text}
	s.attach(&reply, &Picture{pos: pos, opts: BoardOptions{Viewer: side, Theme: theme, LastMove: LastMove(g), Hint: &m},
		name: fmt.Sprintf("game-%s-hint.png", g.ID), alt: "board with the suggested move"})
	return reply
}

// hintEvaluation words a hint's evaluation for the player it is for, in
// variant's units: " (evaluation +0.44 for you)", " (you mate in 3 moves)"; "" when the
// engine gives none.
func hintEvaluation(h Hint, variant string) string {
	win, lose := words.ForcedWin(variant)
	units := ""
	if u := words.Units(variant); u != "" { // pawns go without saying
		units = "; in " + u
	}
	switch {
	case !h.Scored:
		return ""
	case h.MateIn > 0:
		return " (" + fmt.Sprintf(win, words.Plural(h.MateIn, "move")) + ")"
	case h.MateIn < 0:
		return " (" + fmt.Sprintf(lose, words.Plural(-h.MateIn, "move")) + ")"
	}
	pawns := h.Pawns
	if math.Abs(pawns) < 0.005 {
		pawns = 0 // no "-0.00"
	}
	return fmt.Sprintf(" (evaluation %+.2f for you%s)", pawns, units)
}

// pgnButton puts the PGN button first under a finished game's board.
func pgnButton(g *storage.Game, actions []Action) []Action {
	if g.Active() {
		return actions
	}
	return append([]Action{{Label: "PGN", Style: StyleSecondary, Command: CmdPGN, Args: Args{"game": g.ID}}}, actions...)
}
