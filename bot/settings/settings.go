package settings

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/missivechess/missive/bot"
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
	}}}
}

// cmdSettings shows or changes the user's settings.
func (f *feature) cmdSettings(ctx context.Context, req bot.Request) bot.Reply {
	return f.svc.Mutate(ctx, req, func(tx *bot.Tx) error {
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
				return bot.Refuse(bot.ErrRefused, "Notify must be mention, dm or both, not %q.", t)
			}
			changed = true
		}
		if t := strings.ToLower(req.Args.Get("theme")); t != "" {
			if !slices.Contains(f.svc.Renderer().Themes(), t) {
				return bot.Refuse(bot.ErrRefused, "There is no theme %s; choose one of %s.", rules.Echo(t), strings.Join(f.svc.Renderer().Themes(), ", "))
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
			hour, err := parseDigestHour(t)
			if err != nil {
				return err
			}
			setDigest(p, hour, f.svc.Now())
			changed = true
		}
		if t := req.Args.Get("language"); t != "" {
			lang, err := parseLanguage(t)
			if err != nil {
				return err
			}
			p.Lang, changed = lang, true
		}
		serverChanged, err := setServerLanguage(tx, req)
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
		*tx.Reply() = bot.Reply{Private: true, Title: "Your settings", Fields: settingsFields(p)}
		if req.Place.Guild != "" {
			field, err := serverLanguageField(tx, req)
			if err != nil {
				return err
			}
			tx.Reply().Fields = append(tx.Reply().Fields, field)
		}
		if changed || serverChanged {
			tx.Reply().Text = "Saved."
		} else {
			tx.Reply().Text = "Change them with /settings notify:<mention|dm|both> theme:<name> reminders:<hours, such as 24,2, or none> digest_hour:<0-23 UTC, or off> language:<auto, en, de, fr, es, pt-BR, ru>."
		}
		return nil
	})
}

// settingsFields describes p's settings.
func settingsFields(p *storage.Player) []bot.Field {
	notify := string(p.Notify)
	if notify == "" {
		notify = "mention (default)"
	}
	theme := p.Theme
	if theme == "" {
		theme = "default"
	}
	hours := bot.ReminderHours(p)
	rem := "none"
	if len(hours) > 0 {
		parts := make([]string, len(hours))
		for i, h := range hours {
			parts[i] = strconv.Itoa(h) + " h"
		}
		rem = strings.Join(parts, ", ") + " before the deadline"
		if p.ReminderHours == nil {
			rem += " (default)"
		}
	}
	return []bot.Field{{Name: "Notifications", Value: notify, Inline: true}, {Name: "Theme", Value: theme, Inline: true},
		{Name: "Reminders", Value: rem, Inline: true}, {Name: "Daily digest", Value: digestText(p), Inline: true},
		{Name: "Language", Value: languageText(p), Inline: true}}
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
