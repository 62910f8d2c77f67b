package words

import (
	"embed"
	"fmt"
	"strings"
	"time"

	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/storage"
)

//go:embed locales/*.yaml
var localeFiles embed.FS

// Catalogue holds the words' messages in every language Missive speaks: times,
// durations, lists, sides, pieces, the games' names and how a game ended.
var Catalogue = i18n.MustLoad("words", localeFiles)

// W writes the words of one language. The zero W writes English.
type W struct{ lang i18n.Lang }

// In returns the words of language l (English when Missive does not speak it).
func In(l i18n.Lang) W { return W{lang: l} }

// English is the words of the source language, as the package-level functions write them.
var English = In(i18n.English)

// l is the words' localizer (the zero language's is the English).
func (w W) l() *i18n.Localizer { return Catalogue.For(w.lang) }

// Lang returns the words' language.
func (w W) Lang() i18n.Lang { return w.l().Lang() }

// T returns the words' message id (for a caller that needs one of them alone).
func (w W) T(id string, data i18n.Data) string { return w.l().T(id, data) }

// Time writes a time for people, in UTC, in the language: "Mon 2 Jan 15:04 UTC",
// "Mo., 2. Jan., 15:04 UTC".
func (w W) Time(t time.Time) string {
	t = t.UTC()
	return w.l().T("time", i18n.Data{
		"Weekday": w.l().T("weekday."+strings.ToLower(t.Weekday().String()[:3]), nil),
		"Day":     t.Day(),
		"Month":   w.l().T("month."+strings.ToLower(t.Month().String()[:3]), nil),
		"Clock":   t.Format("15:04"),
	})
}

// Left writes a duration for people: "2d 4h", "5h 10m", "12m"; "none" when it is
// not positive.
func (w W) Left(d time.Duration) string {
	if d <= 0 {
		return w.l().T("left.none", nil)
	}
	d = d.Round(time.Minute)
	days, hours, mins := int(d/(24*time.Hour)), int(d/time.Hour)%24, int(d/time.Minute)%60
	switch {
	case days > 0:
		return w.l().T("left.days", i18n.Data{"Days": days, "Hours": hours})
	case hours > 0:
		return w.l().T("left.hours", i18n.Data{"Hours": hours, "Minutes": mins})
	}
	return w.l().T("left.minutes", i18n.Data{"Minutes": max(mins, 1)})
}

// And joins names as a sentence of the language lists them: "a", "a and b", "a,
// b and c".
func (w W) And(names []string) string { return w.join(names, "list.and") }

// Or joins alternatives as a sentence of the language offers them: "a, b or c".
func (w W) Or(names []string) string { return w.join(names, "list.or") }

// OrInts joins numbers as a sentence offers them: "1, 2 or 3".
func (w W) OrInts(ns []int) string {
	parts := make([]string, len(ns))
	for i, n := range ns {
		parts[i] = fmt.Sprint(n)
	}
	return w.Or(parts)
}

func (w W) join(names []string, id string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return w.l().T(id, i18n.Data{"Init": strings.Join(names[:len(names)-1], w.l().T("list.comma", nil)), "Last": names[len(names)-1]})
}

// Side names a side as the games' players do, in lower case where the language
// allows: "white", "black".
func (w W) Side(s rules.Side) string { return w.l().T("side."+s.String(), nil) }

// Piece names a kind of piece, in lower case: "knight", "chancellor".
func (w W) Piece(k rules.PieceKind) string { return w.l().T("piece."+k.String(), nil) }

// Variant names the game of a variant key ("gothic"): "Gothic Chess"; english is
// the variant's own name, for a key the catalogue does not have.
func (w W) Variant(key, english string) string {
	if id := "variant." + key; Catalogue.Has(id) {
		return w.l().T(id, nil)
	}
	return english
}

// Seated writes a player with their side: "alice (white)".
func (w W) Seated(s storage.Seat, side rules.Side) string {
	return w.l().T("seated", i18n.Data{"Player": Seat(s), "Side": w.Side(side)})
}

// Outcome says how a game between players ended: "alice (white) wins by
// checkmate", "drawn by agreement", "aborted, no result"; each a whole phrase of
// the language, one for each way a game is won or drawn.
func (w W) Outcome(players [2]storage.Seat, o rules.Outcome) string {
	if o.Reason == rules.Aborted {
		return w.l().T("outcome.aborted", nil)
	}
	if (o.Status == rules.Won || o.Status == rules.Drawn) && !Catalogue.Has("outcome."+map[bool]string{true: "won", false: "drawn"}[o.Status == rules.Won]+"."+string(o.Reason)) {
		return Outcome(players, o) // a reason the catalogue does not word: as the English did
	}
	switch o.Status {
	case rules.Won:
		return w.l().T("outcome.won."+string(o.Reason), i18n.Data{"Player": Seat(players[o.Winner&1]), "Side": w.Side(o.Winner)})
	case rules.Drawn:
		return w.l().T("outcome.drawn."+string(o.Reason), nil)
	}
	return w.l().T("outcome.playing", nil)
}

// Reason says why a game ended, as a phrase after "wins" or "drawn".
func (w W) Reason(r rules.Reason) string {
	if id := "reason." + string(r); r != "" && Catalogue.Has(id) {
		return w.l().T(id, nil)
	}
	return "(" + string(r) + ")"
}

// NameTooLong returns the sentence refusing name, the player's text for what (such
// as "An opponent's name", already in the language), when it has more than most
// characters; "" when it fits.
func (w W) NameTooLong(what, name string, most int) string {
	if n := len([]rune(name)); n > most {
		return w.l().T("name.toolong", i18n.Data{"What": what, "Most": most, "Name": rules.Echo(name), "Length": n})
	}
	return ""
}

// Units says what the engine's evaluations of variant's games count when it is
// not pawns; "" for pawns, which go without saying.
func (w W) Units(variant string) string {
	if variant == "gess" {
		return w.l().T("units.gess", nil)
	}
	return ""
}

// EvaluationUnits says what the engine's evaluations of variant's games count:
// "pawns", or the game's own units.
func (w W) EvaluationUnits(variant string) string {
	if u := w.Units(variant); u != "" {
		return u
	}
	return w.l().T("units.pawns", nil)
}

// ForcedWin returns the words for a forced win and a forced loss in variant's
// games, each with %s for the number of moves.
func (w W) ForcedWin(variant string) (win, lose string) {
	if variant == "gess" {
		return w.l().T("forced.gess.win", nil), w.l().T("forced.gess.lose", nil)
	}
	return w.l().T("forced.win", nil), w.l().T("forced.lose", nil)
}
