package views

import (
	"bytes"
	"context"
	"embed"
	"fmt"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/clock"
	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/bot/words"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/record"
	"github.com/missivechess/missive/storage"
)

// The commands of the feature.
const (
	CmdBoard   = "board"
	CmdGames   = "games"
	CmdNext    = "next"
	CmdHistory = "history"
	CmdPGN     = "pgn"
	CmdGIF     = "gif"
	CmdHint    = "hint"
)

// localeFiles are the views' messages, one file per language.
//
//go:embed locales/*.yaml
var localeFiles embed.FS

// Catalogue is the views' message catalogue: the sentences of the boards, the list
// of games, histories, PGN, animations and hints, and the commands' names.
var Catalogue = i18n.MustLoad("views", localeFiles)

// feature is what a player sees: boards, the list of games, histories, PGN,
// animations and hints.
type feature struct {
	svc *bot.Service
}

// New returns the views: /board, /games, /next, /history, /pgn, /gif and /hint,
// and the PGN button under a finished game's board.
func New(s *bot.Service) bot.Feature {
	f := &feature{svc: s}
	cmds := []bot.Command{
		f.boardCommand(),
		f.gamesCommand(),
		f.nextCommand(),
		f.historyCommand(),
		f.pgnCommand(),
		f.gifCommand(),
		f.hintCommand(),
	}
	for i := range cmds {
		cmds[i].Spec = cmds[i].Spec.Localize(Catalogue)
	}
	return bot.Feature{Commands: cmds, ButtonsIn: pgnButtonIn}
}

// boardCommand is /board.
func (f *feature) boardCommand() bot.Command {
	c := f.svc.OnGame(bot.Command{Handle: f.cmdBoard, Spec: bot.CommandSpec{Name: CmdBoard, Description: "Show a game's board"}})
	// After game, which a bare word names.
	c.Spec.Options = append(c.Spec.Options, bot.OptionSpec{Name: "text", Description: "As text instead of a picture, for screen readers", Type: bot.OptBoolean})
	return c
}

// gamesCommand is /games; its answer is private.
func (f *feature) gamesCommand() bot.Command {
	return bot.Command{Handle: f.cmdGames, Spec: bot.CommandSpec{Name: CmdGames, Description: "Your games, those waiting for your move first, with the time left", Private: true}}
}

// historyCommand is /history.
func (f *feature) historyCommand() bot.Command {
	return f.svc.OnGame(bot.Command{Handle: f.cmdHistory, Spec: bot.CommandSpec{Name: CmdHistory, Description: "A game's moves, numbered"}})
}

// pgnCommand is /pgn.
func (f *feature) pgnCommand() bot.Command {
	return f.svc.OnGame(bot.Command{Handle: f.cmdPGN, Spec: bot.CommandSpec{Name: CmdPGN, Description: "Export a game as PGN"}})
}

// gifCommand is /gif.
func (f *feature) gifCommand() bot.Command {
	return f.svc.OnGame(bot.Command{Handle: f.cmdGIF, Spec: bot.CommandSpec{Name: CmdGIF, Description: "An animation of a game, one frame per move"}})
}

// hintCommand is /hint; its answer is private.
func (f *feature) hintCommand() bot.Command {
	return f.svc.OnGame(bot.Command{Handle: f.cmdHint, Spec: bot.CommandSpec{Name: CmdHint, Description: "The engine's suggestion for your move (private; not in rated games)", Private: true}})
}

// asker returns the views' localizer for the one who sent req, read in tx.
func asker(tx *bot.Tx, req bot.Request) (*i18n.Localizer, error) {
	lang, err := bot.AskerLang(tx.Tx, req)
	return Catalogue.For(lang), err
}

// cmdBoard shows a game's board; during placement a player sees their own pending
// choice, privately.
func (f *feature) cmdBoard(ctx context.Context, req bot.Request) bot.Reply {
	s := f.svc
	return s.View(ctx, req, func(tx *bot.Tx) error {
		loc, err := asker(tx, req)
		if err != nil {
			return err
		}
		g, err := s.FindGame(tx.Tx, req, bot.AnyGame)
		if err != nil {
			return err
		}
		side, plays := g.SideOf(req.User.ID)
		_, round := record.Round(g.Position)
		private := plays && round && g.Active()
		viewer := bot.ViewerFor(g, req.User.ID)
		img, err := tx.BoardIn(loc.Lang(), g, viewer, private)
		if err != nil {
			return err
		}
		text, ok := bot.ParseBool(req.Args.Get("text"))
		if !ok {
			return bot.Refuse(bot.ErrRefused, "%s", loc.T("views.board.text", i18n.Data{"Value": rules.Echo(req.Args.Get("text"))}))
		}
		l := loc.Lang()
		r := bot.Reply{Private: private, Title: s.GameTitleIn(l, g), Text: s.StatusLineIn(l, g), Fields: s.GameFieldsIn(l, g), Game: bot.RefOf(g)}
		if private && !g.Awaits(side) {
			r.Text += "\n" + loc.T("views.board.secret", nil)
		}
		if plays {
			r.Actions = s.ButtonsIn(l, g)
		}
		if text {
			// The text board and the picture's description, for screen readers.
			alt, board := s.PictureText(img)
			r.Text += "\n" + alt
			r.Board = board
			tx.SetReply(r, nil)
			return nil
		}
		tx.SetReply(r, img)
		return nil
	})
}

// cmdGames lists the user's games: those waiting for the user first, then by time
// left; then the challenges waiting for an answer and the last finished games.
func (f *feature) cmdGames(ctx context.Context, req bot.Request) bot.Reply {
	s := f.svc
	return s.View(ctx, req, func(tx *bot.Tx) error {
		loc, err := asker(tx, req)
		if err != nil {
			return err
		}
		w, cw := words.In(loc.Lang()), clock.In(loc.Lang())
		games, err := tx.PlayerActiveGames(req.User.ID)
		if err != nil {
			return err
		}
		mine := func(g *storage.GameSummary) bool { return awaitsUser(g, req.User.ID) }
		sortByUrgency(games, req.User.ID)
		r := bot.Reply{Private: true, Title: loc.T("views.games.title", nil)}
		var lines []string
		ch := &bot.Choice{Placeholder: loc.T("views.games.choose", nil), Command: CmdBoard, Arg: "game", Args: bot.Args{}}
		for _, g := range games {
			side, _ := g.SideOf(req.User.ID)
			opp := g.Players[side.Other()]
			state := loc.T("views.games.tomove", i18n.Data{"Player": words.Seat(g.Players[firstOr(g.ToMove, side)])})
			if mine(g) {
				state = loc.T("views.games.yours", nil)
			}
			if len(g.ToMove) == 2 {
				state = loc.T("views.games.both", nil)
			}
			left := loc.T("views.games.noclock", nil)
			switch {
			case !g.Deadline.IsZero() && !g.Paused.IsZero():
				left = loc.T("views.games.frozen", i18n.Data{"Left": w.Left(g.Deadline.Sub(g.Paused))})
			case !g.Deadline.IsZero():
				left = loc.T("views.games.left", i18n.Data{"Left": w.Left(g.Deadline.Sub(s.Now()))})
			}
			if g.Bank != nil {
				left = loc.T("views.games.bank", i18n.Data{"Left": left, "Bank": cw.Text(0, g.Bank)})
			}
			game := s.VariantNameIn(loc.Lang(), g.Variant)
			lines = append(lines, loc.T("views.games.line", i18n.Data{"ID": g.ID, "Game": game, "Opponent": words.Seat(opp), "Side": w.Side(side), "State": state, "Left": left}))
			if len(ch.Options) < 25 {
				ch.Options = append(ch.Options, bot.ChoiceOption{Label: loc.T("views.games.option", i18n.Data{"ID": g.ID, "Opponent": words.Seat(opp)}), Value: g.ID, Description: game})
			}
		}
		if len(lines) == 0 {
			lines = append(lines, loc.T("views.games.none", nil))
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
				open = append(open, s.ChallengeLineIn(loc.Lang(), c))
			}
		}
		if len(open) > 0 {
			r.Fields = append(r.Fields, bot.Field{Name: loc.T("views.games.open", nil), Value: strings.Join(open, "\n")})
		}
		done, err := tx.PlayerFinishedGames(req.User.ID, 5)
		if err != nil {
			return err
		}
		var past []string
		for _, g := range done {
			past = append(past, loc.T("views.games.past", i18n.Data{"ID": g.ID, "Game": s.VariantNameIn(loc.Lang(), g.Variant), "Outcome": w.Outcome(g.Players, g.Outcome)}))
		}
		if len(past) > 0 {
			r.Fields = append(r.Fields, bot.Field{Name: loc.T("views.games.finished", nil), Value: strings.Join(past, "\n")})
		}
		*tx.Reply() = r
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
func (f *feature) cmdHistory(ctx context.Context, req bot.Request) bot.Reply {
	s := f.svc
	return s.View(ctx, req, func(tx *bot.Tx) error {
		loc, err := asker(tx, req)
		if err != nil {
			return err
		}
		g, err := s.FindGame(tx.Tx, req, bot.AnyGame)
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
			b.WriteString(loc.T("views.history.placement", i18n.Data{"Placement": record.PlacementText(place)}) + "\n")
		}
		if len(moves) == 0 {
			b.WriteString(loc.T("views.history.none", nil))
		} else {
			b.WriteString(record.Wrap(record.Movetext(moves), 72))
		}
		if !g.Active() {
			b.WriteString(" " + bot.PGNResult(g.Outcome))
		}
		r := bot.Reply{Title: s.GameTitleIn(loc.Lang(), g), Text: b.String() + "\n" + s.StatusLineIn(loc.Lang(), g), Game: bot.RefOf(g)}
		if len(r.Text) > 3500 {
			r.Files = append(r.Files, bot.File{Name: fmt.Sprintf("game-%s-moves.txt", g.ID), ContentType: "text/plain; charset=utf-8", Data: []byte(r.Text)})
			r.Text = "…" + tail(r.Text, 3000)
		}
		*tx.Reply() = r
		return nil
	})
}

// cmdPGN exports a game as PGN.
func (f *feature) cmdPGN(ctx context.Context, req bot.Request) bot.Reply {
	s := f.svc
	return s.View(ctx, req, func(tx *bot.Tx) error {
		loc, err := asker(tx, req)
		if err != nil {
			return err
		}
		g, err := s.FindGame(tx.Tx, req, bot.AnyGame)
		if err != nil {
			return err
		}
		text, err := s.PGN(g)
		if err != nil {
			return err
		}
		*tx.Reply() = bot.Reply{Title: s.GameTitleIn(loc.Lang(), g), Text: loc.T("views.pgn", i18n.Data{"ID": g.ID}), Game: bot.RefOf(g),
			Files: []bot.File{{Name: fmt.Sprintf("game-%s.pgn", g.ID), ContentType: "application/x-chess-pgn", Data: []byte(text)}}}
		return nil
	})
}

// cmdGIF makes an animation of a game.
func (f *feature) cmdGIF(ctx context.Context, req bot.Request) bot.Reply {
	s := f.svc
	var frames []bot.Frame
	var g *storage.Game
	var opts bot.BoardOptions
	loc := Catalogue.For(i18n.English)
	r := s.View(ctx, req, func(tx *bot.Tx) error {
		var err error
		if loc, err = asker(tx, req); err != nil {
			return err
		}
		if g, err = s.FindGame(tx.Tx, req, bot.AnyGame); err != nil {
			return err
		}
		h, err := s.PublicHistory(g)
		if err != nil {
			return err
		}
		frames = []bot.Frame{{Position: record.PublicView(h.Start)}}
		for _, st := range h.Steps {
			if st.Simultaneous && !st.Revealed {
				continue
			}
			m := st.Move
			frames = append(frames, bot.Frame{Position: record.PublicView(st.After), LastMove: &m})
		}
		p, err := bot.Settings(tx.Tx, req.User.ID)
		if err != nil {
			return err
		}
		opts = bot.BoardOptions{Viewer: bot.ViewerFor(g, req.User.ID), Theme: p.Theme}
		*tx.Reply() = bot.Reply{Title: s.GameTitleIn(loc.Lang(), g), Text: loc.N("views.gif", len(frames), i18n.Data{"ID": g.ID}), Game: bot.RefOf(g)}
		return nil
	})
	if r.Refused {
		return r
	}
	var b bytes.Buffer
	if err := s.Renderer().GIF(&b, frames, opts); err != nil {
		return s.Fail(req, err)
	}
	r.Files = append(r.Files, bot.File{Name: fmt.Sprintf("game-%s.gif", g.ID), ContentType: "image/gif", Data: b.Bytes(),
		Alt: loc.T("views.gif.alt", i18n.Data{"ID": g.ID})})
	return r
}

// cmdHint asks the engine for the best move, privately.
func (f *feature) cmdHint(ctx context.Context, req bot.Request) bot.Reply {
	s := f.svc
	eng := s.Engine()
	if eng == nil {
		return bot.Refusal(s.AskerLocalizer(ctx, Catalogue, req).T("views.hint.noengine", nil))
	}
	var g *storage.Game
	var side rules.Side
	var theme string
	loc := Catalogue.For(i18n.English)
	r := s.View(ctx, req, func(tx *bot.Tx) error {
		var err error
		if loc, err = asker(tx, req); err != nil {
			return err
		}
		if g, err = s.FindGame(tx.Tx, req, bot.TurnGame); err != nil {
			return err
		}
		if err := bot.MustBeActive(g); err != nil {
			return err
		}
		side, _ = g.SideOf(req.User.ID)
		if !s.HintsAllowed(g) {
			return bot.Refuse(bot.ErrRefused, "%s", loc.T("views.hint.notallowed", nil))
		}
		if !g.Awaits(side) {
			return bot.NotYourTurn(g, side)
		}
		p, err := bot.Settings(tx.Tx, req.User.ID)
		theme = p.Theme
		return err
	})
	if r.Refused {
		return r
	}
	pos := record.View(g.Position, side)
	ctx, cancel := context.WithTimeout(ctx, s.EngineTimeout())
	defer cancel()
	h, err := eng.Hint(ctx, pos, side)
	if err != nil {
		return s.Fail(req, err)
	}
	m := h.Move
	text := loc.T("views.hint.move", i18n.Data{"Move": words.Move(pos, m), "Evaluation": hintEvaluationIn(loc, h, g.Variant)})
	if m.IsDrop() { // a placement: the cell, as /place takes it
		cell := pos.Variant().Dims().Name(m.To)
		id := "views.hint.place." + m.Drop.String()
		if !Catalogue.Has(id) {
			id = "views.hint.place"
		}
		text = loc.T(id, i18n.Data{"Cell": cell, "Piece": words.In(loc.Lang()).Piece(m.Drop)})
	}
	reply := bot.Reply{Private: true, Title: s.GameTitleIn(loc.Lang(), g), Game: bot.RefOf(g), Text: text}
	s.Attach(&reply, bot.BoardPicture(pos, bot.BoardOptions{Viewer: side, Theme: theme, LastMove: bot.LastMove(g), Hint: &m},
		fmt.Sprintf("game-%s-hint.png", g.ID), loc.T("views.hint.alt", nil), false))
	return reply
}

// hintEvaluation words a hint's evaluation in English for the player it is for, in
// variant's units: " (evaluation +0.44 for you)", " (you mate in 3 moves)"; "" when the
// engine gives none.
func hintEvaluation(h bot.Hint, variant string) string {
	return hintEvaluationIn(Catalogue.For(i18n.English), h, variant)
}

// hintEvaluationIn words a hint's evaluation in loc's language (see hintEvaluation),
// its number with the language's decimal separator.
func hintEvaluationIn(loc *i18n.Localizer, h bot.Hint, variant string) string {
	gess := ""
	if variant == "gess" {
		gess = ".gess"
	}
	switch {
	case !h.Scored:
		return ""
	case h.MateIn > 0:
		return loc.N("views.hint.win"+gess, h.MateIn, nil)
	case h.MateIn < 0:
		return loc.N("views.hint.lose"+gess, -h.MateIn, nil)
	}
	pawns := h.Pawns
	if math.Abs(pawns) < 0.005 {
		pawns = 0 // no "-0.00"
	}
	eval := fmt.Sprintf("%+.2f", pawns)
	if loc.Lang() != i18n.English {
		eval = strings.Replace(eval, ".", ",", 1)
	}
	return loc.T("views.hint.eval"+gess, i18n.Data{"Eval": eval})
}

// tail returns the last n bytes of s or a little less, starting at a whole
// character.
func tail(s string, n int) string {
	i := len(s) - n
	for i > 0 && i < len(s) && !utf8.RuneStart(s[i]) {
		i++
	}
	return s[max(i, 0):]
}

// pgnButtonIn puts the PGN button first under a finished game's board, labelled
// in language l, the reader's.
func pgnButtonIn(l i18n.Lang, g *storage.Game, actions []bot.Action) []bot.Action {
	if g.Active() {
		return actions
	}
	return append([]bot.Action{{Label: Catalogue.For(l).T("views.button.pgn", nil), Style: bot.StyleSecondary, Command: CmdPGN, Args: bot.Args{"game": g.ID}}}, actions...)
}
