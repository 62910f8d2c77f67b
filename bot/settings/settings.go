package settings

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/storage"
)

// CmdSettings is /settings.
const CmdSettings = "settings"

// feature is the settings feature: /settings, /leave and the daily digest.
type feature struct {
	svc *bot.Service
}

// New returns the settings feature of s: the commands /settings and /leave; a
// leave freezes the clocks of every game its player must move in (Saving), a
// player's own move ends it (Moving), and the scheduler ends the leaves that ran
// out and sends the daily digests due (Tick).
func New(s *bot.Service) bot.Feature {
	f := &feature{svc: s}
	return bot.Feature{
		Commands: []bot.Command{f.settingsCommand(), f.leaveCommand()},
		Saving:   syncPause,
		Moving:   f.moveEndsLeave,
		Tick:     f.duePlayers,
	}
}

// settingsCommand is /settings; its answer is private.
func (f *feature) settingsCommand() bot.Command {
	var themes []bot.OptionChoice
	for _, t := range f.svc.Renderer().Themes() {
		themes = append(themes, bot.OptionChoice{Name: t, Value: t})
	}
	return bot.Command{Handle: f.cmdSettings, Spec: bot.CommandSpec{Name: CmdSettings, Description: "Your notification style, board theme and reminders (shown when given no options)", Private: true, Options: []bot.OptionSpec{
		{Name: "notify", Description: "How to tell you about your games", Type: bot.OptString,
			Choices: []bot.OptionChoice{{Name: "Mention in the game's thread", Value: "mention"}, {Name: "Direct message", Value: "dm"}, {Name: "Both", Value: "both"}}},
		{Name: "theme", Description: "Board colours", Type: bot.OptString, Choices: themes},
		{Name: "reminders", Description: "Hours before a deadline to remind you, such as 24,2 (or none)", Type: bot.OptString, MaxLength: 40},
		digestOption(), // digest.go
		languageOption(),
		serverLanguageOption(), // language.go
	}}.Localize(Catalogue)}
}

// cmdSettings shows or changes the user's settings.
func (f *feature) cmdSettings(ctx context.Context, req bot.Request) bot.Reply {
	return f.svc.Mutate(ctx, req, func(tx *bot.Tx) error {
		loc := askerLoc(tx.Tx, req) // refusals in the language of the asking
		p, err := bot.Settings(tx.Tx, req.User.ID)
		if err != nil {
			return err
		}
		changed := false
		if t := strings.ToLower(req.Args.Get("notify")); t != "" {
			switch storage.NotifyStyle(t) {
			case storage.NotifyMention, storage.NotifyDM, storage.NotifyBoth:
				p.Notify = storage.NotifyStyle(t)
			default:
				return refuse(bot.ErrRefused, loc, "settings.notify.bad", i18n.Data{"Value": fmt.Sprintf("%q", t)})
			}
			changed = true
		}
		if t := strings.ToLower(req.Args.Get("theme")); t != "" {
			if !slices.Contains(f.svc.Renderer().Themes(), t) {
				return refuse(bot.ErrRefused, loc, "settings.theme.bad", i18n.Data{"Value": rules.Echo(t), "Themes": strings.Join(f.svc.Renderer().Themes(), ", ")})
			}
			p.Theme, changed = t, true
		}
		if t := req.Args.Get("reminders"); t != "" {
			hours, err := bot.ParseHours(t)
			if err != nil {
				return err
			}
			p.ReminderHours, changed = hours, true
		}
		if t := req.Args.Get("digest_hour"); t != "" {
			hour, err := parseDigestHour(loc, t)
			if err != nil {
				return err
			}
			setDigest(p, hour, f.svc.Now())
			changed = true
		}
		if t := req.Args.Get("language"); t != "" {
			lang, err := parseLanguage(loc, t)
			if err != nil {
				return err
			}
			p.Lang, changed = lang, true
		}
		serverChanged, err := setServerLanguage(tx, loc, req)
		if err != nil {
			return err
		}
		if changed {
			p.Name = req.User.Name
			if err := tx.PutPlayer(p); err != nil {
				return err
			}
			if err := f.replanPlayer(tx, req.User.ID); err != nil {
				return err
			}
		}
		loc = askerLoc(tx.Tx, req) // the answer in the language now chosen
		*tx.Reply() = bot.Reply{Private: true, Title: loc.T("settings.title", nil), Fields: settingsFields(loc, p, req.Locale)}
		if req.Place.Guild != "" {
			field, err := serverLanguageField(tx, loc, req)
			if err != nil {
				return err
			}
			tx.Reply().Fields = append(tx.Reply().Fields, field)
		}
		if changed || serverChanged {
			tx.Reply().Text = loc.T("settings.saved", nil)
		} else {
			tx.Reply().Text = loc.T("settings.how", nil)
		}
		return nil
	})
}

// settingsFields describes p's settings in loc's language (locale: the asker's
// client's).
func settingsFields(loc *i18n.Localizer, p *storage.Player, locale string) []bot.Field {
	notify := string(p.Notify)
	switch p.Notify {
	case "":
		notify = loc.T("settings.notify.default", nil)
	case storage.NotifyMention, storage.NotifyDM, storage.NotifyBoth:
		notify = loc.T("settings.notify."+notify, nil)
	}
	theme := p.Theme
	if theme == "" {
		theme = loc.T("settings.theme.default", nil)
	}
	hours := bot.ReminderHours(p)
	rem := loc.T("settings.reminders.none", nil)
	if len(hours) > 0 {
		parts := make([]string, len(hours))
		for i, h := range hours {
			parts[i] = loc.T("settings.hours", i18n.Data{"Hours": h})
		}
		key := "settings.reminders"
		if p.ReminderHours == nil {
			key += ".default"
		}
		rem = loc.T(key, i18n.Data{"Hours": strings.Join(parts, ", ")})
	}
	return []bot.Field{{Name: loc.T("settings.field.notify", nil), Value: notify, Inline: true}, {Name: loc.T("settings.field.theme", nil), Value: theme, Inline: true},
		{Name: loc.T("settings.field.reminders", nil), Value: rem, Inline: true}, {Name: loc.T("settings.field.digest", nil), Value: digestText(loc, p), Inline: true},
		{Name: loc.T("settings.field.language", nil), Value: languageText(loc, p, locale), Inline: true}}
}

// replanPlayer recomputes the next wake-up of the player's games after a change of
// reminder settings.
func (f *feature) replanPlayer(tx *bot.Tx, player string) error {
	games, err := tx.PlayerActiveGames(player)
	if err != nil {
		return err
	}
	for _, rec := range games {
		g, err := tx.Game(rec.ID)
		if err != nil {
			if errors.Is(err, storage.ErrReplay) {
				f.svc.Logger().Error("bot: game does not replay", "game", rec.ID, "error", err)
				continue
			}
			return err
		}
		if err := tx.Save(g); err != nil {
			return err
		}
	}
	return nil
}
