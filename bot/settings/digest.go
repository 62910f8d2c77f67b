package settings

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/bot/words"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/storage"
)

// The daily digest: a player who asks for it (/settings digest_hour:H) gets one
// direct message a day, at that hour (UTC), listing the games waiting for their
// move, least time first; nothing on a day when no game waits, nor while they are on
// leave. The player's record
// holds when the next one is due (Player.DigestNext, in the store's index of players
// due) and the date of the last one sent (Player.DigestSent), changed in the
// transaction that queues the message, so a restart neither loses nor repeats one.

// NoticeDigest is the daily digest.
const NoticeDigest bot.NoticeKind = "digest"

// cmdBoard is the views' /board, which a digest's buttons run.
const cmdBoard = "board"

// maxDigestButtons bounds the board buttons under a digest (one row).
const maxDigestButtons = 5

// digestOption is /settings' option for the digest.
func digestOption() bot.OptionSpec {
	return bot.OptionSpec{Name: "digest_hour", Type: bot.OptString, MaxLength: 10,
		Description: "A daily direct message listing the games waiting for your move, at this hour (0-23, UTC), or off"}
}

// parseDigestHour reads digest_hour: an hour 0 to 23 (UTC), or off (nil); a
// refusal in loc's language.
func parseDigestHour(loc *i18n.Localizer, t string) (*int, error) {
	switch strings.ToLower(t) {
	case "off", "none", "no":
		return nil, nil
	}
	h, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSuffix(strings.ToLower(t), " utc"), ":00"))
	if err != nil || h < 0 || h > 23 {
		return nil, refuse(bot.ErrRefused, loc, "settings.digest.bad", i18n.Data{"Value": rules.Echo(t)})
	}
	return &h, nil
}

// setDigest sets p's digest hour (nil: off) and when the next one is due after now.
func setDigest(p *storage.Player, hour *int, now time.Time) {
	p.DigestHour, p.DigestNext = hour, time.Time{}
	if hour != nil {
		p.DigestNext = nextDigest(now, *hour)
	}
}

// nextDigest is the first time after now at hour (UTC) o'clock.
func nextDigest(now time.Time, hour int) time.Time {
	now = now.UTC()
	t := time.Date(now.Year(), now.Month(), now.Day(), hour, 0, 0, 0, time.UTC)
	if !t.After(now) {
		t = t.AddDate(0, 0, 1)
	}
	return t
}

// digestText describes p's digest setting in loc's language.
func digestText(loc *i18n.Localizer, p *storage.Player) string {
	if p.DigestHour == nil {
		return loc.T("settings.digest.off", nil)
	}
	return loc.T("settings.digest.daily", i18n.Data{"Hour": fmt.Sprintf("%02d", *p.DigestHour)})
}

// sendDigest queues p's digest when it is due at now (and none was sent today, and
// some game waits for p), and plans the next one. The caller stores p.
func (f *feature) sendDigest(tx *bot.Tx, p *storage.Player, now time.Time) error {
	if p.DigestHour == nil || now.Before(p.DigestNext) {
		return nil
	}
	p.DigestNext = nextDigest(now, *p.DigestHour)
	today := now.UTC().Format(time.DateOnly)
	if p.DigestSent == today || onLeave(p, now) {
		return nil // one a day; none while the player is away on leave
	}
	games, err := tx.PlayerActiveGames(p.ID)
	if err != nil {
		return err
	}
	games = slices.DeleteFunc(games, func(g *storage.GameSummary) bool {
		side, _ := g.SideOf(p.ID)
		return !slices.Contains(g.ToMove, side)
	})
	if len(games) == 0 {
		return nil
	}
	slices.SortStableFunc(games, func(a, b *storage.GameSummary) int { return cmp.Compare(bot.DeadlineKey(a), bot.DeadlineKey(b)) })
	loc := playerLoc(p)
	w := words.In(loc.Lang())
	r := bot.Reply{Title: loc.T("digest.title", nil), Text: loc.N("digest.text", len(games), nil)}
	for _, g := range games {
		side, _ := g.SideOf(p.ID)
		data := i18n.Data{"ID": g.ID, "Variant": w.Variant(g.Variant, f.svc.VariantName(g.Variant)), "Opponent": words.Seat(g.Players[side.Other()])}
		line := loc.T("digest.line.noclock", data)
		if !g.Deadline.IsZero() {
			data["Left"], data["Deadline"] = w.Left(g.Deadline.Sub(now)), w.Time(g.Deadline)
			line = loc.T("digest.line", data)
		}
		if link := threadLink(g.Guild, g.Thread); link != "" {
			line += " · " + link
		}
		r.Text += "\n" + line
		if len(r.Actions) < maxDigestButtons {
			r.Actions = append(r.Actions, bot.Action{Label: loc.T("digest.button", i18n.Data{"ID": g.ID}), Style: bot.StyleSecondary, Command: cmdBoard, Args: bot.Args{"game": g.ID}})
		}
	}
	p.DigestSent = today
	tx.TellDirect(storage.Seat{ID: p.ID, Name: p.Name}, NoticeDigest, r, "digest/"+p.ID+"/"+today)
	return nil
}

// threadLink is the address of a game's thread on Discord, empty for a game without
// one (local play).
func threadLink(guild, thread string) string {
	if guild == "" || thread == "" {
		return ""
	}
	return "https://discord.com/channels/" + guild + "/" + thread
}
