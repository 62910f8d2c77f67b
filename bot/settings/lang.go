package settings

import (
	"embed"
	"strings"
	"time"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/clock"
	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/storage"
)

// The languages of the settings: a reply to /settings and /leave, and a refusal,
// is in the asker's language (the answer to /settings language:de in German, the
// language now chosen; a refusal in the one the asker had); the daily digest and
// the leave's end by itself in the player's; what an opponent is told of a leave
// in that opponent's.

//go:embed locales/*.yaml
var localeFiles embed.FS

// Catalogue holds the settings' messages in every language Missive speaks, and
// the names and descriptions of /settings and /leave.
var Catalogue = i18n.MustLoad("settings", localeFiles)

// askerLoc is the localizer of req's asker inside a transaction (English when
// their settings cannot be read).
func askerLoc(tx *storage.Tx, req bot.Request) *i18n.Localizer {
	l, _ := bot.AskerLang(tx, req)
	return Catalogue.For(l)
}

// playerLoc is the localizer of a notice to player p.
func playerLoc(p *storage.Player) *i18n.Localizer { return Catalogue.For(bot.PlayerLang(p)) }

// refuse is a refusal of kind in the localizer's language.
func refuse(kind error, loc *i18n.Localizer, id string, data i18n.Data) error {
	return bot.Refuse(kind, "%s", loc.T(id, data))
}

// ids lists games' numbers for a message with {{.IDs}}: "4, 7".
func ids(list []string) i18n.Data { return i18n.Data{"IDs": strings.Join(list, ", ")} }

// leaveAmount writes an amount of leave in loc's language, in the clock's words
// (clock.W.Days) for days and hours: "3 days", "5 hours", "2 days 5 hours".
func leaveAmount(loc *i18n.Localizer, d time.Duration) string {
	w := clock.In(loc.Lang())
	days, hours := d/clock.Day*clock.Day, d%clock.Day/time.Hour*time.Hour
	switch {
	case hours == 0:
		return w.Days(days)
	case days == 0:
		return w.Days(hours)
	}
	return loc.T("amount.both", i18n.Data{"Days": w.Days(days), "Hours": w.Days(hours)})
}

// allowance writes a number of days of leave in loc's language: "30 days".
func allowance(loc *i18n.Localizer, days int) string {
	return clock.In(loc.Lang()).Days(time.Duration(days) * clock.Day)
}
