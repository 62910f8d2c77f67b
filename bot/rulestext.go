package bot

import (
	"errors"
	"strings"

	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/bot/words"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/storage"
)

// RulesCatalogue holds the rules' refusals in every language (rules.LocaleFiles):
// the sentences a rules.Error with a Key carries.
var RulesCatalogue = i18n.MustLoad("rules", rules.LocaleFiles)

// RulesSentence returns the sentence of rules refusal e in language l: the
// catalogue's, with e's Args (a piece, side or variant worded in l, see
// rules.Error), or e's English Text when it has no Key the catalogue knows.
func RulesSentence(l i18n.Lang, e *rules.Error) string {
	if e.Key == "" || !RulesCatalogue.Has(e.Key) {
		return e.Text
	}
	w := words.In(l)
	data := i18n.Data{}
	for k, v := range e.Args {
		switch {
		case strings.HasSuffix(k, "Piece"):
			if kind, ok := pieceKind(v); ok {
				data[k] = w.Piece(kind)
				continue
			}
		case strings.HasSuffix(k, "Side"):
			if side, err := rules.ParseSide(v); err == nil {
				data[k] = w.Side(side)
				continue
			}
		case strings.HasSuffix(k, "Variant"):
			data[k] = w.Variant(v, v)
			continue
		}
		data[k] = v
	}
	return RulesCatalogue.For(l).T(e.Key, data)
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

// UserTextIn is UserText in language l: a rules refusal with a Key in l's words
// (RulesSentence); a refusal of the bot's features as they wrote it (in the
// language they looked it up in); a conflict in l.
func UserTextIn(l i18n.Lang, err error) (string, bool) {
	var re *rules.Error
	if errors.As(err, &re) {
		return RulesSentence(l, re), true
	}
	var se rules.Sentencer
	if !errors.As(err, &se) && errors.Is(err, storage.ErrConflict) {
		return catalogue.For(l).T("refusal.conflict", nil), true
	}
	return UserText(err)
}
