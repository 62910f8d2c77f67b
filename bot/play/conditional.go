package play

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/bot/words"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/record"
	"github.com/missivechess/missive/storage"
)

// Conditional moves: while waiting for the opponent, a player prepares lines (the
// opponent's move, the player's reply, the opponent's next move, ...). When the
// opponent's move matches a line, the reply is played at once through the path of
// an ordinary move and the line moves on; any other move clears the player's
// lines, and so do a takeback and the end of the game. The lines are kept in the
// game record (storage.Conditional) and shown to nobody but their player.

// The limits of a player's conditional lines in one game.
const (
	maxConditionalLines = 10
	maxConditionalPlies = 20
	maxLineLength       = 200 // characters of a line as typed
)

// conditionalCommand is /conditional; its hooks, which play, advance and clear
// the lines, are conditionalMoved and clearConditional.
func (f *feature) conditionalCommand() bot.Command {
	return bot.Command{Handle: f.cmdConditional, Complete: map[string]bot.Completer{"game": f.svc.CompleteGame},
		Spec: bot.CommandSpec{Name: CmdConditional, Private: true,
			Description: "Prepare replies to your opponent's next moves while you wait (private)",
			Subcommands: []bot.CommandSpec{
				{Name: "add", Description: "Add a line: their move, your reply, and so on", Options: []bot.OptionSpec{
					{Name: "line", Description: "Such as Nf3 Ce7 Bxe7 Qxe7 (Go-Chess placement: Q@d4 N@e6)", Type: bot.OptString,
						Required: true, MaxLength: maxLineLength},
					bot.GameOption()}},
				{Name: "show", Description: "Your conditional lines in a game", Options: []bot.OptionSpec{bot.GameOption()}},
				{Name: "clear", Description: "Remove your conditional lines in a game", Options: []bot.OptionSpec{bot.GameOption()}},
			}}}
}

// cmdConditional adds, shows or clears the user's conditional lines in a game.
// The sentences that explain a line end with conditional.help, which says how
// lines are written.
func (f *feature) cmdConditional(ctx context.Context, req bot.Request) bot.Reply {
	switch action := strings.ToLower(req.Args.Get(bot.SubcommandArg)); action {
	case "add":
		text := req.Args.Get("line")
		if text == "" {
			loc := f.svc.AskerLocalizer(ctx, Catalogue, req)
			return bot.Refusal(loc.T("conditional.say", nil) + " " + loc.T("conditional.help", nil))
		}
		return f.act(ctx, req, bot.OwnGame, nil, func(tx *bot.Tx, g *storage.Game, side rules.Side, sp speaker) error {
			return f.addConditional(tx, g, side, text, sp)
		})
	case "clear":
		return f.act(ctx, req, bot.OwnGame, nil, func(tx *bot.Tx, g *storage.Game, side rules.Side, sp speaker) error {
			mine, others := splitLines(g, side)
			g.Conditional = others
			if err := tx.PutGame(g); err != nil {
				return err
			}
			text := sp.T("conditional.cleared.none", i18n.Data{"Game": g.ID})
			if len(mine) > 0 {
				text = sp.N("conditional.cleared", len(mine), i18n.Data{"Game": g.ID})
			}
			*tx.Reply() = bot.Reply{Private: true, Title: f.svc.GameTitleIn(sp.Lang(), g), Game: bot.RefOf(g), Text: text}
			return nil
		})
	case "show", "":
		return f.svc.View(ctx, req, func(tx *bot.Tx) error {
			sp, err := asker(tx, req)
			if err != nil {
				return err
			}
			g, err := f.svc.FindGame(tx.Tx, req, bot.OwnGame)
			if err != nil {
				return err
			}
			if err := bot.MustBeActive(g); err != nil {
				return err
			}
			side, _ := g.SideOf(req.User.ID)
			*tx.Reply() = bot.Reply{Private: true, Title: f.svc.GameTitleIn(sp.Lang(), g), Game: bot.RefOf(g), Text: showLines(g, side, sp)}
			return nil
		})
	default:
		return bot.Refusal(f.svc.AskerLocalizer(ctx, Catalogue, req).T("conditional.badaction", i18n.Data{"Action": rules.Echo(action)}))
	}
}

// splitLines returns side's lines for the current point of g (see splitLinesAt)
// and everyone else's.
func splitLines(g *storage.Game, side rules.Side) (mine, others []storage.Conditional) {
	return splitLinesAt(g, side, len(g.Moves))
}

// addConditional checks text as a line of side in g and adds it; sp speaks the
// asker's language.
func (f *feature) addConditional(tx *bot.Tx, g *storage.Game, side rules.Side, text string, sp speaker) error {
	opp := g.Player(side.Other())
	data := i18n.Data{"Game": g.ID, "Them": words.Seat(opp)}
	if g.Awaits(side) {
		if _, ok := record.Round(g.Position); ok {
			return sp.refuse("conditional.choosefirst", data)
		}
		return sp.refuse("conditional.yourmove", data)
	}
	if opp.IsEngine() {
		return sp.refuse("conditional.engine", data)
	}
	moves, err := parseLine(g, side, text, sp)
	if err != nil {
		return err
	}
	mine, others := splitLines(g, side)
	kept := make([]storage.Conditional, 0, len(mine)+1)
	for _, c := range mine {
		n := min(len(c.Moves), len(moves))
		for i := 0; i < n; i += 2 {
			if c.Moves[i] != moves[i] {
				break
			}
			if c.Moves[i+1] != moves[i+1] {
				shown := lineText(g, c.Moves[:i+2])
				return sp.refuse("conditional.clash", i18n.Data{"Move": shown[i], "Reply": lineText(g, moves[:i+2])[i+1], "Other": shown[i+1]})
			}
		}
		switch {
		case slices.Equal(c.Moves[:n], moves[:n]) && len(c.Moves) >= len(moves):
			return sp.refuse("conditional.duplicate", data)
		case slices.Equal(c.Moves[:n], moves[:n]):
			continue // the new line carries this one further
		}
		kept = append(kept, c)
	}
	if len(kept) >= maxConditionalLines {
		return bot.Refuse(bot.ErrRefused, "%s", sp.N("conditional.toomany", len(kept), data))
	}
	kept = append(kept, storage.Conditional{Side: side, Ply: len(g.Moves), Moves: moves})
	g.Conditional = append(others, kept...)
	if err := tx.PutGame(g); err != nil {
		return err
	}
	*tx.Reply() = bot.Reply{Private: true, Title: f.svc.GameTitleIn(sp.Lang(), g), Game: bot.RefOf(g),
		Text: sp.T("conditional.added", i18n.Data{"Game": g.ID, "Line": describeLine(lineText(g, moves), sp)}) + "\n" + showLines(g, side, sp)}
	return nil
}

// parseLine reads text as a line of side in g: its moves, alternately the
// opponent's and side's, each legal where it falls, in canonical text. A refusal
// is in sp's language.
func parseLine(g *storage.Game, side rules.Side, text string, sp speaker) ([]string, error) {
	var toks []string
	for _, f := range strings.FieldsFunc(text, func(r rune) bool { return unicode.IsSpace(r) || r == ',' || r == ';' }) {
		// Move numbers ("12.", "12...", "12.Nf3") are accepted and ignored.
		f = strings.TrimLeft(strings.TrimLeft(f, "0123456789"), ".")
		if f != "" {
			toks = append(toks, f)
		}
	}
	switch {
	case len(toks) < 2:
		return nil, bot.Refuse(bot.ErrRefused, "%s", sp.T("conditional.short", nil)+" "+sp.T("conditional.help", nil))
	case len(toks)%2 != 0:
		return nil, sp.refuse("conditional.odd", i18n.Data{"Move": rules.Echo(toks[len(toks)-1])})
	case len(toks) > maxConditionalPlies:
		return nil, bot.Refuse(bot.ErrRefused, "%s", sp.N("conditional.long", maxConditionalPlies, i18n.Data{"Given": len(toks)}))
	}
	trial := g.Record
	trial.Moves = slices.Clone(g.Moves)
	pos := g.Position
	out := make([]string, 0, len(toks))
	for i, tok := range toks {
		// whose is the last part of the keys that say whose move tok is meant to be.
		who, whose := side.Other(), "opponent"
		if i%2 == 1 {
			who, whose = side, "reply"
		}
		data := i18n.Data{"Move": rules.Echo(tok), "N": i + 1}
		if pos.Outcome().IsOver() {
			return nil, sp.refuse("conditional.over", data)
		}
		if !slices.Contains(record.ToMove(pos), who) {
			data["Player"] = words.Seat(g.Player(who.Other()))
			return nil, sp.refuse("conditional.not"+whose, data)
		}
		next, err := playTrial(&trial, pos, who, tok)
		if err != nil {
			if text, ok := bot.SentenceIn(sp.Lang(), err); ok {
				return nil, sp.refuse("conditional.illegal."+whose, i18n.Data{"N": i + 1, "Why": text})
			}
			return nil, err
		}
		pos = next
		out = append(out, trial.Moves[len(trial.Moves)-1].Move)
	}
	return out, nil
}

// playTrial plays tok as who's entry on r after pos; in a placement round a bare
// cell means the round's piece.
func playTrial(r *record.Record, pos rules.Position, who rules.Side, tok string) (rules.Position, error) {
	_, next, err := r.Play(pos, who, tok, time.Time{})
	if err != nil && errors.Is(err, rules.ErrBadNotation) {
		if sim, ok := record.Round(pos); ok {
			if ms := sim.LegalMovesFor(who); len(ms) > 0 {
				if _, n := pos.Variant().Dims().ScanSquare(tok); n == len(tok) {
					_, next, err = r.Play(pos, who, string(ms[0].Drop.Letter())+"@"+tok, time.Time{})
				}
			}
		}
	}
	return next, err
}

// lineText writes the moves of a line of g in the game's notation, numbered as in
// PGN when the position carries move numbers ("12. Nf3", "12... Ce7"; a placement
// choice as its drop, such as N@e6); a move that no longer replays ends it.
func lineText(g *storage.Game, moves []string) []string {
	trial := g.Record
	trial.Moves = slices.Clone(g.Moves)
	pos := g.Position
	out := make([]string, 0, len(moves))
	for _, mv := range moves {
		tos := record.ToMove(pos)
		if len(tos) == 0 {
			break
		}
		who := tos[0]
		if len(tos) == 2 && len(trial.Moves) > 0 { // the first of a round's two choices is the line owner's reply
			who = trial.Moves[len(trial.Moves)-1].Side.Other()
		}
		m, next, err := trial.Play(pos, who, mv, time.Time{})
		if err != nil {
			break
		}
		text := pos.SAN(m)
		if f, ok := pos.(interface{ FullmoveNumber() int }); ok && len(tos) == 1 {
			dots := "."
			if who == rules.Black {
				dots = "..."
			}
			text = fmt.Sprintf("%d%s %s", f.FullmoveNumber(), dots, text) // numbered as in PGN
		}
		out = append(out, text)
		pos = next
	}
	return out
}

// describeLine says a line in sp's words: "if 12. Nf3 then 12... Ce7; if 13. Bxe7
// then 13... Qxe7".
func describeLine(moves []string, sp speaker) string {
	var parts []string
	for i := 0; i+1 < len(moves); i += 2 {
		parts = append(parts, sp.T("conditional.if", i18n.Data{"Move": moves[i], "Reply": moves[i+1]}))
	}
	return strings.Join(parts, sp.T("conditional.join", nil))
}

// showLines lists side's conditional lines in g, for that player alone, in sp's
// language.
func showLines(g *storage.Game, side rules.Side, sp speaker) string {
	mine, _ := splitLines(g, side)
	if len(mine) == 0 {
		return sp.T("conditional.none", i18n.Data{"Game": g.ID}) + " " + sp.T("conditional.help", nil)
	}
	lines := []string{sp.T("conditional.list", i18n.Data{"Game": g.ID})}
	for i, c := range mine {
		lines = append(lines, fmt.Sprintf("%d. %s", i+1, describeLine(lineText(g, c.Moves), sp)))
	}
	lines = append(lines, sp.T("conditional.clears", i18n.Data{"Them": words.Seat(g.Player(side.Other()))}))
	return strings.Join(lines, "\n")
}

// conditionalMoved plays the reply of the waiting player's line that the move just
// made matches, and moves that line on; a move outside every line clears them.
func (f *feature) conditionalMoved(ch bot.GameChange) error {
	g, owner := ch.Game, ch.Side.Other()
	mine, others := splitLinesAt(g, owner, len(g.Moves)-1)
	if len(mine) == 0 {
		if len(others) == len(g.Conditional) {
			return nil
		}
		g.Conditional = others
		return ch.Tx.PutGame(g)
	}
	played := g.Moves[len(g.Moves)-1]
	var reply string
	var next []storage.Conditional
	for _, c := range mine {
		if c.Moves[0] != played.Move {
			continue
		}
		reply = c.Moves[1]
		if len(c.Moves) > 2 {
			next = append(next, storage.Conditional{Side: owner, Ply: len(g.Moves) + 1, Moves: c.Moves[2:]})
		}
	}
	if o := g.DrawOffer; o != nil && o.By == ch.Side {
		reply = "" // a draw offer waits for the player's own answer
	}
	if reply == "" || !g.Awaits(owner) {
		g.Conditional = others
		return ch.Tx.PutGame(g)
	}
	ownerSeat := g.Player(owner)
	saved, image := *ch.Tx.Reply(), ch.Tx.Picture()
	_, round := record.Round(g.Position)
	shown := "" // the reply as played, public once played (a placement choice is not shown)
	if m, err := g.Position.ParseMove(reply); err == nil && !round {
		shown = g.Position.SAN(m)
	}
	g.Conditional = append(others, next...)
	before := ch.Tx.Notices()
	// The note goes with the reply's announcement, in each reader's language; l is
	// the language of the one who asked (the mover), who reads the reply.
	data := i18n.Data{"Player": words.Seat(ownerSeat), "Them": words.Seat(g.Player(ch.Side))}
	note := phrase(func(sp speaker) string {
		if round {
			return sp.T("conditional.ready.round", data)
		}
		return sp.T("conditional.ready", data)
	})
	l := ch.Tx.Lang()
	// What the change said, worded now in each language: the reply changes the
	// game, and the words of a revealed round would then read its new state.
	said := bot.Same(ch.Said)
	if ch.SaidIn != nil {
		said = fixed(ch.SaidIn)
	}
	if err := ch.PlayIn(owner, reply, note); err != nil {
		if _, ok := bot.SentenceIn(l, err); !ok {
			return err
		}
		// The reply no longer fits (it was checked when entered): the lines go.
		g.Conditional = others
		return ch.Tx.PutGame(g)
	}
	// The owner's turn notice for the move is moot: the reply followed at once. A
	// mover who asked sees the reply where they asked, and needs no notice of it.
	moverID := g.Player(ch.Side).ID
	ch.Tx.DropNotices(ch.Notices, func(i int, n bot.Notification) bool {
		if i >= before {
			return ch.From != nil && n.To.ID == moverID
		}
		return n.To.ID == ownerSeat.ID
	})
	if ch.From != nil {
		ch.Tx.Unmention(moverID)
	}
	if round {
		// The owner's choice is secret: the reply shows the reveal, not the chooser's board.
		saved.Mentions = slices.DeleteFunc(saved.Mentions, func(id string) bool { return id == ownerSeat.ID })
		saved.Text = said(l) + "\n" + note(l) + "\n" + f.svc.StatusLineIn(l, g)
		saved.Actions = f.svc.ButtonsIn(l, g)
		ch.Tx.SetReply(saved, image)
	} else {
		ch.Tx.Reply().Text = said(l) + "\n" + ch.Tx.Reply().Text
	}
	told := func(l i18n.Lang) string {
		if round {
			// A notice may be posted where everyone reads it: it does not name the cell.
			return said(l) + "\n" + in(l).T("conditional.played.round", nil)
		}
		return said(l) + "\n" + in(l).T("conditional.played", i18n.Data{"Move": shown})
	}
	inPlace := ch.From != nil && bot.SamePlace(*ch.From, g)
	return ch.Tx.TellIn(g, owner, bot.NoticeInfo, told,
		fmt.Sprintf("conditional/%s/%d", g.ID, len(g.Moves)), inPlace)
}

// splitLinesAt returns side's lines made for entry ply of g, and every other
// player's lines; a line of side made for another point of the game (which no
// hook moved on) is dropped.
func splitLinesAt(g *storage.Game, side rules.Side, ply int) (mine, others []storage.Conditional) {
	for _, c := range g.Conditional {
		switch {
		case c.Side != side:
			others = append(others, c)
		case c.Ply == ply && len(c.Moves) >= 2:
			mine = append(mine, c)
		}
	}
	return mine, others
}

// clearConditional removes every conditional line of the changed game (after a
// takeback, or when it ends).
func clearConditional(ch bot.GameChange) error {
	if len(ch.Game.Conditional) == 0 {
		return nil
	}
	ch.Game.Conditional = nil
	return ch.Tx.PutGame(ch.Game)
}

// fixed is p worded at once in every language Missive speaks, for a phrase that
// reads what may change before it is read.
func fixed(p bot.Phrase) bot.Phrase {
	said := make(map[i18n.Lang]string, len(i18n.Langs))
	for _, l := range i18n.Langs {
		said[l] = p(l)
	}
	return func(l i18n.Lang) string {
		if s, ok := said[l]; ok {
			return s
		}
		return said[i18n.English]
	}
}
