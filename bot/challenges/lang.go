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
// asker's language; a challenge's post (and what a decline or withdrawal updates
// it with) in its server's, or its challenger's outside a server, where it is
// theirs; an acceptance heads the kernel's start of the game, in the language the
// kernel writes that reply in (the asker's). The notice of a challenge made to a
// player goes to them alone, text and buttons in their language; the notices of a
// decline, a withdrawal and an expiry are worded by the kernel for each reader (a
// post in a server's channel in the server's language, a direct message in the
// player's). A challenge's terms, the list's lines and the variants' names are the
// kernel's words (bot.ChallengeTermsIn, Service.ChallengeLineIn, VariantNameIn).

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

// playerLoc is the localizer of player id's language (bot.PlayerLocalizer).
func playerLoc(tx *storage.Tx, id string) *i18n.Localizer {
	loc, _ := bot.PlayerLocalizer(tx, Catalogue, id)
	return loc
}

// noticeLoc is the localizer of the notice of a challenge made to player id, at
// place, in the language the kernel gives a notice that goes to them alone (the
// challenge's buttons are labelled in it too): theirs (bot.PlayerLang); in local
// play (no place at all) one whose language Missive does not know yet reads it in
// the asker's, asker, as they read the reply.
func noticeLoc(tx *storage.Tx, id string, place bot.Place, asker i18n.Lang) *i18n.Localizer {
	p, err := bot.Settings(tx, id)
	if err != nil {
		return Catalogue.For(i18n.English)
	}
	if place == (bot.Place{}) && p.Lang == "" && p.Locale == "" {
		return Catalogue.For(asker)
	}
	return Catalogue.For(bot.PlayerLang(p))
}

// phrase is message id of the catalogue with data in each reader's language, for
// a notice the kernel writes for each of its readers (bot.Notice's TextIn).
func phrase(id string, data i18n.Data) bot.Phrase {
	return func(l i18n.Lang) string { return Catalogue.For(l).T(id, data) }
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

// titlePhrase is challenge c's title in each reader's language.
func (f *feature) titlePhrase(c *storage.Challenge) bot.Phrase {
	return func(l i18n.Lang) string { return f.challengeTitle(Catalogue.For(l), c) }
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
