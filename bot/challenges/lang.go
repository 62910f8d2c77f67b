package challenges

import (
	"embed"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/bot/words"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/storage"
)

// The languages of the challenges: a refusal and a private answer are in the
// asker's language; a challenge's post (and what answers update it with) in its
// server's, or its challenger's outside a server, where it is theirs; the notice a
// player gets (a challenge made to them, declined, withdrawn, expired) in that
// player's.

//go:embed locales/*.yaml
var localeFiles embed.FS

// Catalogue holds the challenges' messages in every language Missive speaks, and
// the names and descriptions of their commands.
var Catalogue = i18n.MustLoad("challenges", localeFiles)

// askerLoc is the localizer of req's asker inside a transaction (English when
// their settings cannot be read).
func askerLoc(tx *storage.Tx, req bot.Request) *i18n.Localizer {
	l, _ := bot.AskerLang(tx, req)
	return Catalogue.For(l)
}

// postLoc is the localizer of challenge c's post, and of what answers update it
// with: its server's language, or outside a server (direct messages, a group, the
// console) its challenger's, in whose place it was made.
func postLoc(tx *storage.Tx, req bot.Request, c *storage.Challenge) *i18n.Localizer {
	switch {
	case c.Guild != "":
		loc, _ := bot.ServerLocalizer(tx, Catalogue, c.Guild, guildLocale(req, c.Guild))
		return loc
	case c.Challenger.ID == req.User.ID:
		return askerLoc(tx, req)
	}
	return playerLoc(tx, c.Challenger.ID)
}

// guildLocale is req's server language when req comes from guild, else "" (the
// one last seen there).
func guildLocale(req bot.Request, guild string) string {
	if req.Place.Guild == guild {
		return req.GuildLocale
	}
	return ""
}

// playerLoc is the localizer of a notice to player id.
func playerLoc(tx *storage.Tx, id string) *i18n.Localizer {
	loc, _ := bot.PlayerLocalizer(tx, Catalogue, id)
	return loc
}

// refuse is a refusal of kind in the localizer's language.
func refuse(kind error, loc *i18n.Localizer, id string, data i18n.Data) error {
	return bot.Refuse(kind, "%s", loc.T(id, data))
}

// variantName is the display name of a variant key in loc's language.
func (f *feature) variantName(loc *i18n.Localizer, key string) string {
	return f.svc.VariantNameIn(loc.Lang(), key)
}

// challengeTitle is the title of challenge c's messages in loc's language.
func (f *feature) challengeTitle(loc *i18n.Localizer, c *storage.Challenge) string {
	return loc.T("challenge.title", i18n.Data{"ID": c.ID, "Variant": f.variantName(loc, c.Variant)})
}

// outcomeText says how a position is decided, as the English said it
// (rules.Outcome's String) and in loc's language from the words (a win by its
// side, as the position has no players yet).
func outcomeText(loc *i18n.Localizer, o rules.Outcome) string {
	if loc.Lang() == i18n.English {
		return o.String()
	}
	w := words.In(loc.Lang())
	if o.Status == rules.Won {
		return loc.T("decided.won", i18n.Data{"Side": w.Side(o.Winner), "Reason": w.Reason(o.Reason)})
	}
	return w.Outcome([2]storage.Seat{}, o) // a draw names no player
}
