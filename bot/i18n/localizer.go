package i18n

import (
	"maps"
	"strings"

	goi18n "github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/language"
)

// Data are the values of a message's placeholders, by name ({{.Name}}).
type Data = map[string]any

// Localizer looks up one catalogue's messages in one language; a message the
// language lacks is the English one.
type Localizer struct {
	lang Lang
	cat  *Catalogue
	l    *goi18n.Localizer
}

// Lang returns the localizer's language.
func (l *Localizer) Lang() Lang { return l.lang }

// T returns message id with data's placeholders filled in. A message the catalogue
// does not have at all comes back as its id, which a test of the package sees.
func (l *Localizer) T(id string, data Data) string {
	return l.localize(&goi18n.LocalizeConfig{MessageID: id, TemplateData: data})
}

// N returns the plural form of message id for count (an integer, or a decimal as
// text such as "1.5"), with count as the placeholder Count and data's placeholders
// filled in.
func (l *Localizer) N(id string, count any, data Data) string {
	d := maps.Clone(data)
	if d == nil {
		d = Data{}
	}
	d["Count"] = count
	return l.localize(&goi18n.LocalizeConfig{MessageID: id, TemplateData: d, PluralCount: count})
}

// Own returns message id in the localizer's language only, and false when that
// language has no translation of it (a command's localisations send only the
// translations there are).
func (l *Localizer) Own(id string) (string, bool) {
	s, tag, err := l.l.LocalizeWithTag(&goi18n.LocalizeConfig{MessageID: id})
	if err != nil || tag != language.Make(string(l.lang)) {
		return "", false
	}
	return s, true
}

func (l *Localizer) localize(lc *goi18n.LocalizeConfig) string {
	// A language without the message gives the English (and an error saying so).
	if s, err := l.l.Localize(lc); s != "" || err == nil {
		if strings.HasPrefix(lc.MessageID, "command.") {
			return s // a command's own name or description, as Discord registers it
		}
		return Commands(l.lang, s)
	}
	return lc.MessageID
}
