package bot

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/missivechess/missive/bot/clock"
	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/bot/words"
	"github.com/missivechess/missive/engine"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/storage"
)

// RulesCatalogue holds the rules' refusals in every language (rules.LocaleFiles):
// the sentences a rules.Error with a Key carries.
var RulesCatalogue = i18n.MustLoad("rules", rules.LocaleFiles)

// RulesSentence returns the sentence of rules refusal e in language l: the
// catalogue's, with e's Args worded in l as rules.Error says (pieces, sides,
// variants, lists, outcomes; Count chooses the plural form), or e's English Text
// when it has no Key the catalogue knows.
func RulesSentence(l i18n.Lang, e *rules.Error) string {
	if e.Key == "" || !RulesCatalogue.Has(e.Key) {
		return e.Text
	}
	loc := RulesCatalogue.For(l)
	data := i18n.Data{}
	for k, v := range e.Args {
		data[k] = rulesArg(loc, words.In(l), k, v)
	}
	if n, ok := e.Args["Count"]; ok {
		if count, err := strconv.Atoi(n); err == nil {
			return loc.N(e.Key, count, data)
		}
	}
	return loc.T(e.Key, data)
}

// rulesArg words the value v of a rules refusal's arg named k (rules.Error).
func rulesArg(loc *i18n.Localizer, w words.W, k, v string) string {
	items := strings.Split(v, "\n")
	switch {
	case strings.HasSuffix(k, "Piece"):
		kind, ok := pieceKind(v)
		if !ok {
			return v
		}
		if form := pieceForm(strings.TrimSuffix(k, "Piece")); form != "" {
			if id := "piece." + form + "." + v; RulesCatalogue.Has(id) {
				return loc.T(id, nil)
			}
		}
		return w.Piece(kind)
	case strings.HasSuffix(k, "Pieces"):
		var names []string
		for _, it := range items {
			if kind, ok := pieceKind(it); ok {
				names = append(names, fmt.Sprintf("%c (%s)", kind.Letter(), w.Piece(kind)))
			}
		}
		return strings.Join(names, ", ")
	case strings.HasSuffix(k, "Side"):
		if side, err := rules.ParseSide(v); err == nil {
			if form := pieceForm(strings.TrimSuffix(k, "Side")); form != "" {
				if id := "side." + form + "." + side.String(); RulesCatalogue.Has(id) {
					return loc.T(id, nil)
				}
			}
			return w.Side(side)
		}
	case strings.HasSuffix(k, "Variant"):
		return w.Variant(v, v)
	case strings.HasSuffix(k, "Directions"):
		for i, it := range items {
			items[i] = rulesDirection(loc, it)
		}
		return strings.Join(items, ", ")
	case strings.HasSuffix(k, "Direction"):
		return rulesDirection(loc, v)
	case strings.HasSuffix(k, "Outcome"):
		// "won.white.checkmate" or "drawn.threefold" (rules.OutcomeArg).
		parts := strings.Split(v, ".")
		data := i18n.Data{}
		if len(parts) == 3 {
			if side, err := rules.ParseSide(parts[1]); err == nil {
				data["Side"] = w.Side(side)
				parts = []string{parts[0], parts[2]}
			}
		}
		if id := "outcome." + strings.Join(parts, "."); RulesCatalogue.Has(id) {
			return loc.T(id, data)
		}
	case strings.HasSuffix(k, "Or"):
		return w.Or(items)
	case strings.HasSuffix(k, "And"):
		return w.And(items)
	case strings.HasSuffix(k, "List"):
		if last := items[len(items)-1]; len(items) > 1 && strings.HasPrefix(last, "+") {
			return loc.T("list.more", i18n.Data{"List": strings.Join(items[:len(items)-1], ", "), "More": last[1:]})
		}
		return strings.Join(items, ", ")
	}
	return v
}

// pieceForm returns the form a piece or side arg's prefix names (rules.Error):
// its last word in lower case, "the" for ThePiece, "of" for KingOfSide; "" for
// none.
func pieceForm(prefix string) string {
	i := strings.LastIndexFunc(prefix, unicode.IsUpper)
	if i < 0 {
		return ""
	}
	return strings.ToLower(prefix[i:])
}

// rulesDirection names a Gess direction ("north-east") in loc's language.
func rulesDirection(loc *i18n.Localizer, name string) string {
	if id := "direction." + name; RulesCatalogue.Has(id) {
		return loc.T(id, nil)
	}
	return name
}

// pieceKind reads a piece kind's stable name ("knight").
func pieceKind(name string) (rules.PieceKind, bool) {
	for _, k := range rules.PieceKinds {
		if k.String() == name {
			return k, true
		}
	}
	return rules.NoPiece, false
}

// UserTextIn is UserText in language l: a time bank refused (clock.ParseBank) in
// the clock's words for l; a rules refusal with a Key, or an engine level refused
// (engine.LevelError), in l's words (RulesSentence); a refusal made with RefuseIn
// (the kernel's, a feature's) worded in l; any other refusal of the bot's
// features as they wrote it (in the language they looked it up in); a conflict
// in l.
func UserTextIn(l i18n.Lang, err error) (string, bool) {
	if s, ok := clock.In(l).Sentence(err); ok { // a time bank refused (clock.ParseBank)
		return s, true
	}
	var re *rules.Error
	if errors.As(err, &re) {
		return RulesSentence(l, re), true
	}
	var le *engine.LevelError
	if errors.As(err, &le) {
		return RulesSentence(l, le.Refusal()), true
	}
	var se rules.Sentencer
	if !errors.As(err, &se) && errors.Is(err, storage.ErrConflict) {
		return catalogue.For(l).T("refusal.conflict", nil), true
	}
	return refusalIn(l, err)
}
