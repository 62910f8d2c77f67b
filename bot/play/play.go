package play

import (
	"context"
	"errors"
	"sort"
	"strings"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/record"
	"github.com/missivechess/missive/storage"
)

// The commands of the feature.
const (
	CmdMove        = "move"
	CmdPlace       = "place"
	CmdResign      = "resign"
	CmdDraw        = "draw"
	CmdTakeback    = "takeback"
	CmdMoreTime    = "moretime"
	CmdAbort       = "abort"
	CmdConditional = "conditional"
)

// feature is the play feature: its commands and hooks run on the service.
type feature struct {
	svc *bot.Service
}

// The kinds of notice the play feature sends besides the kernel's (turn, game
// over, info); the texts are stable.
const (
	NoticeDrawOffer bot.NoticeKind = "draw-offer" // your opponent offers a draw
	NoticeTakeback  bot.NoticeKind = "takeback"   // your opponent asks to take back a move
)

// New returns the play feature of s: /move, /place, /resign, /draw, /takeback,
// /moretime, /abort and /conditional, the buttons under a game in progress, and
// the hooks that play, move on and clear conditional lines.
func New(s *bot.Service) bot.Feature {
	f := &feature{svc: s}
	cmds := []bot.Command{
		f.moveCommand(),
		f.placeCommand(),
		f.resignCommand(),
		f.drawCommand(),
		f.takebackCommand(),
		f.moreTimeCommand(),
		f.abortCommand(),
		f.conditionalCommand(),
	}
	for i := range cmds {
		cmds[i].Spec = cmds[i].Spec.Localize(Catalogue)
	}
	return bot.Feature{
		Commands: cmds,
		ButtonsIn: func(l i18n.Lang, g *storage.Game, actions []bot.Action) []bot.Action {
			return buttonsIn(in(l), g, actions)
		},
		Moved:     f.conditionalMoved,
		TookBack:  clearConditional,
		GameEnded: func(end bot.GameEnd) error { return clearConditional(bot.GameChange{Tx: end.Tx, Game: end.Game}) },
	}
}

// moveCommand is /move.
func (f *feature) moveCommand() bot.Command {
	return f.svc.OnGame(bot.Command{Handle: f.cmdMove, Complete: map[string]bot.Completer{"move": f.completeMove},
		Spec: bot.CommandSpec{Name: CmdMove, Description: "Play a move (SAN such as Nf3, or coordinates such as g1f3)", Options: []bot.OptionSpec{
			{Name: "move", Description: "The move", Type: bot.OptString, Required: true, Autocomplete: true, MaxLength: 64}}}})
}

// placeCommand is /place; a choice stays secret until both have chosen, so its
// answer is private.
func (f *feature) placeCommand() bot.Command {
	return f.svc.OnGame(bot.Command{Handle: f.cmdPlace, Complete: map[string]bot.Completer{"cell": f.completeMove},
		Spec: bot.CommandSpec{Name: CmdPlace, Description: "Go-Chess placement: choose the cell for this round's piece (secret until both chose)", Private: true, Options: []bot.OptionSpec{
			{Name: "cell", Description: "The cell, such as d4", Type: bot.OptString, Required: true, Autocomplete: true, MaxLength: 16}}}})
}

// completeMove suggests the legal moves (or, during placement, the eligible cells)
// of the user's game when it is the user's turn; a secret round offers the user's
// own choices only.
func (f *feature) completeMove(tx *storage.Tx, req bot.Request, add func(label, value string) bool) {
	g, err := f.svc.FindGame(tx, req, bot.TurnGame)
	if err != nil || !g.Active() {
		return
	}
	side, _ := g.SideOf(req.User.ID)
	if !g.Awaits(side) {
		return
	}
	pos := g.Position
	var moves []rules.Move
	if sim, ok := record.Round(pos); ok {
		moves = sim.LegalMovesFor(side)
	} else {
		moves = pos.LegalMoves()
	}
	labels := make([]bot.ChoiceOption, 0, len(moves))
	for _, m := range moves {
		if m.IsDrop() {
			cell := pos.Variant().Dims().Name(m.To)
			labels = append(labels, bot.ChoiceOption{Label: cell, Value: cell})
		} else {
			labels = append(labels, bot.ChoiceOption{Label: pos.SAN(m), Value: pos.UCI(m)})
		}
	}
	sort.SliceStable(labels, func(i, j int) bool { return labels[i].Label < labels[j].Label })
	for _, l := range labels {
		if !add(l.Label, l.Value) {
			break
		}
	}
}

// cmdMove plays a move in one of the user's games.
func (f *feature) cmdMove(ctx context.Context, req bot.Request) bot.Reply {
	text := req.Args.Get("move")
	if text == "" {
		return bot.Refusal(f.svc.AskerLocalizer(ctx, Catalogue, req).T("move.say", nil))
	}
	return f.act(ctx, req, bot.TurnGame, fitsMove(text), func(tx *bot.Tx, g *storage.Game, side rules.Side, _ speaker) error {
		if _, ok := record.Round(g.Position); ok {
			return tx.Choose(g, side, text, &req.Place)
		}
		return tx.Play(g, side, text, &req.Place)
	})
}

// cmdPlace makes a Go-Chess placement choice.
func (f *feature) cmdPlace(ctx context.Context, req bot.Request) bot.Reply {
	text := req.Args.Get("cell")
	if text == "" {
		return bot.Refusal(f.svc.AskerLocalizer(ctx, Catalogue, req).T("place.say", nil))
	}
	return f.act(ctx, req, bot.TurnGame, fitsPlace(text), func(tx *bot.Tx, g *storage.Game, side rules.Side, sp speaker) error {
		if _, ok := record.Round(g.Position); !ok {
			return sp.refuse("place.noround", i18n.Data{"Game": g.ID})
		}
		return tx.Choose(g, side, text, &req.Place)
	})
}

// fitsMove says which games take text as a move: those where it is legal (or
// names a cell of the placement round).
func fitsMove(text string) bot.Fits {
	return func(g *storage.Game, side rules.Side) bot.Fit {
		if sim, ok := record.Round(g.Position); ok {
			return fitsCell(sim, side, text)
		}
		if _, err := g.Position.ParseMove(text); err == nil || errors.Is(err, rules.ErrAmbiguousMove) {
			return bot.Fitting
		}
		return bot.Applicable
	}
}

// fitsPlace says which games take text as a placement: a placement applies only
// during a placement round, and fits where the cell is one side may choose.
func fitsPlace(text string) bot.Fits {
	return func(g *storage.Game, side rules.Side) bot.Fit {
		if sim, ok := record.Round(g.Position); ok {
			return fitsCell(sim, side, text)
		}
		return bot.Inapplicable
	}
}

// fitsCell says whether text ("d4", or "K@d4") names a cell side may choose in the
// round of sim.
func fitsCell(sim rules.Simultaneous, side rules.Side, text string) bot.Fit {
	if _, cell, ok := strings.Cut(text, "@"); ok {
		text = cell
	}
	sq, n := sim.Variant().Dims().ScanSquare(strings.ToLower(text))
	if n == 0 || n != len(text) {
		return bot.Applicable
	}
	for _, m := range sim.LegalMovesFor(side) {
		if m.To == sq {
			return bot.Fitting
		}
	}
	return bot.Applicable
}

// act runs op on the request's game as bot.Service.ActFitting does (fits nil: as
// Act does), with the asker's speaker.
func (f *feature) act(ctx context.Context, req bot.Request, mode bot.FindMode, fits bot.Fits,
	op func(tx *bot.Tx, g *storage.Game, side rules.Side, sp speaker) error) bot.Reply {
	return f.svc.ActFitting(ctx, req, mode, fits, func(tx *bot.Tx, g *storage.Game, side rules.Side) error {
		sp, err := asker(tx, req)
		if err != nil {
			return err
		}
		return op(tx, g, side, sp)
	})
}

// buttonsIn are the buttons under the board of a game in progress (the feature's
// Feature.ButtonsIn, which the kernel calls with each reader's language), labelled in
// sp's language: move (or place, in a placement round), the draw offer or its
// answers, resign.
func buttonsIn(sp speaker, g *storage.Game, actions []bot.Action) []bot.Action {
	if !g.Active() {
		return actions
	}
	args := bot.Args{"game": g.ID}
	game := i18n.Data{"Game": g.ID}
	resign := bot.Action{Label: sp.T("button.resign", nil), Style: bot.StyleDanger, Command: CmdResign, Args: args, Confirm: sp.T("button.resign.confirm", game)}
	if _, ok := record.Round(g.Position); ok {
		return append(actions,
			bot.Action{Label: sp.T("button.place", nil), Style: bot.StylePrimary, Command: CmdPlace, Args: args, Input: "cell", InputLabel: sp.T("button.place.input", nil)},
			resign)
	}
	draw := []bot.Action{{Label: sp.T("button.draw.offer", nil), Style: bot.StyleSecondary, Command: CmdDraw, Args: args.With("action", "offer")}}
	if g.DrawOffer != nil {
		// The board goes to both players, but the buttons are for the one offered the
		// draw (the one who offered is told there is nothing to accept).
		draw = []bot.Action{
			{Label: sp.T("button.draw.accept", nil), Style: bot.StyleSuccess, Command: CmdDraw, Args: args.With("action", "accept")},
			{Label: sp.T("button.draw.decline", nil), Style: bot.StyleSecondary, Command: CmdDraw, Args: args.With("action", "decline")},
		}
	}
	actions = append(actions, bot.Action{Label: sp.T("button.move", nil), Style: bot.StylePrimary, Command: CmdMove, Args: args, Input: "move", InputLabel: sp.T("button.move.input", nil)})
	actions = append(actions, draw...)
	return append(actions, resign)
}
