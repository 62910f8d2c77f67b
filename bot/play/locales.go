package play

import (
	"embed"
	"slices"
	"strconv"
	"strings"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/bot/words"
	"github.com/missivechess/missive/engine"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/storage"
)

//go:embed locales/*.yaml
var localeFiles embed.FS

// Catalogue holds the play feature's sentences in every language Missive speaks
// (locales/active.<lang>.yaml): what a player reads when moving, placing,
// resigning, offering a draw or a takeback, aborting, giving time and preparing
// conditional moves, the buttons under a game, and the commands' names.
var Catalogue = i18n.MustLoad("play", localeFiles)

// speaker says the feature's sentences in one language: its messages and the
// words (times, durations, sides) of that language.
type speaker struct {
	*i18n.Localizer
	w words.W
}

// in returns the speaker of language l.
func in(l i18n.Lang) speaker { return speaker{Localizer: Catalogue.For(l), w: words.In(l)} }

// english is the source language's speaker, whose sentences are the code's own.
var english = in(i18n.English)

// asker returns the speaker of the one who sent req.
func asker(tx *bot.Tx, req bot.Request) (speaker, error) {
	l, err := bot.AskerLang(tx.Tx, req)
	return in(l), err
}

// player returns the speaker of player id (English for one without settings, or
// an engine).
func player(tx *bot.Tx, id string) (speaker, error) {
	if id == "" || (storage.Seat{ID: id}).IsEngine() {
		return english, nil
	}
	loc, err := bot.PlayerLocalizer(tx.Tx, Catalogue, id)
	return in(loc.Lang()), err
}

// refuse is a refusal of sentence key in sp's language.
func (sp speaker) refuse(key string, data i18n.Data) error {
	return bot.Refuse(bot.ErrRefused, "%s", sp.T(key, data))
}

// decimal writes x (a number of pawns) as the prose of sp's language writes it:
// with a decimal comma in every language Missive speaks but English.
func (sp speaker) decimal(x float64) string {
	s := strconv.FormatFloat(x, 'f', -1, 64)
	if sp.Lang() != i18n.English {
		s = strings.ReplaceAll(s, ".", ",")
	}
	return s
}

// pawns writes a score in centipawns as pawns for draw.engine.declines: "a pawn",
// "0.5 pawns".
func (sp speaker) pawns(sc engine.Score) string {
	count := strconv.FormatFloat(float64(sc)/100, 'f', -1, 64)
	return sp.N("draw.engine.pawns", count, i18n.Data{"Pawns": sp.decimal(float64(sc) / 100)})
}

// retell words again, in its reader's language, each notice about g to one of its
// players queued since notice from: a text that begins with said (a sentence the
// change wrote in the asker's language) begins with say's sentence in the reader's
// language instead, and the feature's buttons under the board are labelled in it.
// A notice already in its reader's words is left as it is; one worded again is
// queued anew (with its board), after those queued since.
//
// The kernel words its announcements (bot.Tx.End, bot.Tx.Announce) and draws the
// buttons (bot.Feature.Buttons) once, for everyone; until it asks the feature for
// each reader's words, this is how the one who did not act reads their own.
func retell(tx *bot.Tx, from int, g *storage.Game, said string, say func(sp speaker) string) error {
	type redo struct {
		n    bot.Notification
		side rules.Side
	}
	var again []redo
	var failed error
	tx.DropNotices(from, func(_ int, n bot.Notification) bool {
		if failed != nil || n.Game == nil || n.Game.ID != g.ID {
			return false
		}
		side, ok := g.SideOf(n.To.ID)
		if !ok {
			return false
		}
		sp, err := player(tx, n.To.ID)
		if err != nil {
			failed = err
			return false
		}
		text := n.Reply.Text
		if said != "" && say != nil && strings.HasPrefix(text, said) {
			text = say(sp) + strings.TrimPrefix(text, said)
		}
		actions, relabelled := relabel(g, n.Reply.Actions, sp)
		if text == n.Reply.Text && !relabelled {
			return false
		}
		n.Reply.Text, n.Reply.Actions = text, actions
		again = append(again, redo{n: n, side: side})
		return true
	})
	if failed != nil {
		return failed
	}
	for _, r := range again {
		pic, err := tx.Board(g, r.side, false)
		if err != nil {
			return err
		}
		tx.Send(r.n, pic)
	}
	return nil
}

// relabelReply labels the feature's buttons of the reply being built in sp's
// language.
func relabelReply(tx *bot.Tx, g *storage.Game, sp speaker) {
	if r := tx.Reply(); len(r.Actions) > 0 {
		r.Actions, _ = relabel(g, r.Actions, sp)
	}
}

// relabel returns actions with the feature's buttons under g's board (as buttons
// labels them, in English) labelled in sp's language, and whether it changed any;
// actions itself when there is nothing to change.
func relabel(g *storage.Game, actions []bot.Action, sp speaker) ([]bot.Action, bool) {
	if sp.Lang() == i18n.English || len(actions) == 0 {
		return actions, false
	}
	from, to := buttonsIn(english, g, nil), buttonsIn(sp, g, nil)
	var out []bot.Action
	for i, a := range actions {
		for j, e := range from {
			if a.Command == e.Command && a.Label == e.Label && a.Confirm == e.Confirm && a.InputLabel == e.InputLabel && sameArgs(a.Args, e.Args) {
				if out == nil {
					out = slices.Clone(actions)
				}
				out[i].Label, out[i].Confirm, out[i].InputLabel = to[j].Label, to[j].Confirm, to[j].InputLabel
				break
			}
		}
	}
	if out == nil {
		return actions, false
	}
	return out, true
}

// sameArgs reports whether two buttons' arguments are the same.
func sameArgs(a, b bot.Args) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}
