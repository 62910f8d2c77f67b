package bot

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/storage"
)

// settingsCommand is /settings; its answer is private.
func (s *Service) settingsCommand() Command {
	var themes []OptionChoice
	for _, t := range s.render.Themes() {
		themes = append(themes, OptionChoice{Name: t, Value: t})
	}
	return Command{Handle: s.cmdSettings, Spec: CommandSpec{Name: CmdSettings, Description: "Your notification style, board theme and reminders (shown when given no options)", Private: true, Options: []OptionSpec{
		{Name: "notify", Description: "How to tell you about your games", Type: OptString,
			Choices: []OptionChoice{{"Mention in the game's thread", "mention"}, {"Direct message", "dm"}, {"Both", "both"}}},
		{Name: "theme", Description: "Board colours", Type: OptString, Choices: themes},
		{Name: "reminders", Description: "Hours before a deadline to remind you, such as 24,2 (or none)", Type: OptString, MaxLength: 40},
		digestOption(), // digest.go
	}}}
}

// cmdSettings shows or changes the user's settings.
func (s *Service) cmdSettings(ctx context.Context, req Request) Reply {
	return s.mutate(ctx, req, func(tx *storage.Tx, e *effects) error {
		p, err := Settings(tx, req.User.ID)
		if err != nil {
			return err
		}
		changed := false
		if t := strings.ToLower(req.Args.Get("notify")); t != "" {
			switch storage.NotifyStyle(t) {
			case storage.NotifyMention, storage.NotifyDM, storage.NotifyBoth:
				p.Notify = storage.NotifyStyle(t)
			default:
				return Refuse(ErrRefused, "Notify must be mention, dm or both, not %q.", t)
			}
			changed = true
		}
		if t := strings.ToLower(req.Args.Get("theme")); t != "" {
			if !slices.Contains(s.render.Themes(), t) {
				return Refuse(ErrRefused, "There is no theme %s; choose one of %s.", rules.Echo(t), strings.Join(s.render.Themes(), ", "))
			}
			p.Theme, changed = t, true
		}
		if t := req.Args.Get("reminders"); t != "" {
			hours, err := ParseHours(t)
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
			setDigest(p, hour, s.Now())
			changed = true
		}
		if changed {
			p.Name = req.User.Name
			if err := tx.PutPlayer(p); err != nil {
				return err
			}
			if err := s.replanPlayer(tx, e, req.User.ID); err != nil {
				return err
			}
		}
		e.reply = Reply{Private: true, Title: "Your settings", Fields: settingsFields(p)}
		if changed {
			e.reply.Text = "Saved."
		} else {
			e.reply.Text = "Change them with /settings notify:<mention|dm|both> theme:<name> reminders:<hours, such as 24,2, or none> digest_hour:<0-23 UTC, or off>."
		}
		return nil
	})
}

// settingsFields describes p's settings.
func settingsFields(p *storage.Player) []Field {
	notify := string(p.Notify)
	if notify == "" {
		notify = "mention (default)"
	}
	theme := p.Theme
	if theme == "" {
		theme = "default"
	}
	hours := ReminderHours(p)
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
	return []Field{{Name: "Notifications", Value: notify, Inline: true}, {Name: "Theme", Value: theme, Inline: true},
		{Name: "Reminders", Value: rem, Inline: true}, {Name: "Daily digest", Value: digestText(p), Inline: true}}
}

// replanPlayer recomputes the next wake-up of the player's games after a change of
// reminder settings.
func (s *Service) replanPlayer(tx *storage.Tx, e *effects, player string) error {
	games, err := tx.PlayerActiveGames(player)
	if err != nil {
		return err
	}
	for _, rec := range games {
		g, err := tx.Game(rec.ID)
		if err != nil {
			if errors.Is(err, storage.ErrReplay) {
				s.log.Error("bot: game does not replay", "game", rec.ID, "error", err)
				continue
			}
			return err
		}
		if err := s.save(tx, e, g, s.Now()); err != nil {
			return err
		}
	}
	return nil
}
