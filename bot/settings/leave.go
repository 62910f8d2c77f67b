package settings

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/clock"
	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/bot/words"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/storage"
)

// Leave: a player takes days off and their clocks are frozen in every game meanwhile.
//
// A player on leave has storage.Player.Leave set (and is in the store's index of
// leaves by their end). Whenever a game is stored (save), its clock is paused
// (Clock.Paused) while a player due to act is on leave and the game allows leave, and
// resumed otherwise: resuming moves the period's start and deadline on by the time
// it was paused (Clock.Shift), so reminders and deadlines move by the leave actually
// taken in that game. The leave ends when the player says so, when they move, or by
// itself at its end (the scheduler); each of these stores every game of the player
// again, which resumes their clocks, and tells the opponents.
//
// The allowance is per calendar year (UTC), as at ICCF: easy to state and to check
// ("30 days in 2025"), and it cannot be gamed by timing a rolling window. A leave
// counts, to the nearest hour, against the year in which it began.

// CmdLeave is /leave.
const CmdLeave = "leave"

// NoticeLeave tells a player that an opponent's leave began or ended.
const NoticeLeave bot.NoticeKind = "leave"

// leaveCommand is /leave, with the subcommands start, end and status.
func (f *feature) leaveCommand() bot.Command {
	return bot.Command{Handle: f.cmdLeave, Spec: bot.CommandSpec{Name: CmdLeave, Private: true,
		Description: "Take leave: your clocks are frozen in every game while you are away",
		Subcommands: []bot.CommandSpec{
			{Name: "start", Description: "Start leave now, for some days or until a date", Options: []bot.OptionSpec{
				{Name: "days", Description: "How many days", Type: bot.OptInteger, Min: 1, Max: 366},
				{Name: "until", Description: "The day you are back, YYYY-MM-DD (leave ends at 00:00 UTC that day)", Type: bot.OptString, MaxLength: 10},
			}},
			{Name: "end", Description: "End your leave now: your clocks run again"},
			{Name: "status", Description: "Whether you are on leave, and how much of this year's allowance is left"},
		}}.Localize(Catalogue)}
}

// cmdLeave runs /leave.
func (f *feature) cmdLeave(ctx context.Context, req bot.Request) bot.Reply {
	switch a := strings.ToLower(req.Args.Get("action")); a {
	case "start":
		return f.svc.Mutate(ctx, req, func(tx *bot.Tx) error { return f.leaveStart(tx, req) })
	case "end":
		return f.svc.Mutate(ctx, req, func(tx *bot.Tx) error {
			loc := askerLoc(tx.Tx, req)
			p, err := bot.Settings(tx.Tx, req.User.ID)
			if err != nil {
				return err
			}
			if !onLeave(p, f.svc.Now()) {
				return refuse(bot.ErrRefused, loc, "leave.notonleave", nil)
			}
			games, err := f.endLeave(tx, p, f.svc.Now(), nil)
			if err != nil {
				return err
			}
			*tx.Reply() = bot.Reply{Private: true, Title: loc.T("leave.title", nil), Text: resumedText(loc, "leave.welcome", games) + "\n" + f.leaveAllowance(loc, p, f.svc.Now())}
			return nil
		})
	case "", "status":
		return f.svc.View(ctx, req, func(tx *bot.Tx) error {
			loc := askerLoc(tx.Tx, req)
			p, err := bot.Settings(tx.Tx, req.User.ID)
			if err != nil {
				return err
			}
			text := loc.T("leave.off", nil)
			if onLeave(p, f.svc.Now()) {
				w := words.In(loc.Lang())
				text = loc.T("leave.on", i18n.Data{"Until": w.Time(p.Leave.End), "Left": w.Left(p.Leave.End.Sub(f.svc.Now()))})
			}
			*tx.Reply() = bot.Reply{Private: true, Title: loc.T("leave.title", nil), Text: text + "\n" + f.leaveAllowance(loc, p, f.svc.Now())}
			return nil
		})
	default:
		return bot.Refusal(f.svc.AskerLocalizer(ctx, Catalogue, req).T("leave.action", i18n.Data{"Value": rules.Echo(a)}))
	}
}

// leaveDays is the yearly allowance (Limits.LeaveDays, its default applied).
func (f *feature) leaveDays() int { return f.svc.Limits().LeaveDays }

// onLeave reports whether p is on leave at now.
func onLeave(p *storage.Player, now time.Time) bool {
	return p.Leave != nil && now.Before(p.Leave.End)
}

// leaveUsed returns the leave p has taken in now's calendar year, the current
// leave's time so far included.
func leaveUsed(p *storage.Player, now time.Time) time.Duration {
	var used time.Duration
	if p.LeaveYear == now.UTC().Year() {
		used = time.Duration(p.LeaveUsedHours) * time.Hour
	}
	if l := p.Leave; l != nil && l.Start.UTC().Year() == now.UTC().Year() {
		used += leaveHours(l, now)
	}
	return used
}

// leaveHours is the time of leave l taken by now, to the nearest hour.
func leaveHours(l *storage.Leave, now time.Time) time.Duration {
	return max(earlier(now, l.End).Sub(l.Start), 0).Round(time.Hour)
}

// leaveAllowance says in loc's language how much of the year's allowance p has
// left at now; during a leave, also when it started (its first hour rounds to no
// time taken).
func (f *feature) leaveAllowance(loc *i18n.Localizer, p *storage.Player, now time.Time) string {
	total := time.Duration(f.leaveDays()) * clock.Day
	used := leaveUsed(p, now)
	data := i18n.Data{"Year": now.UTC().Year(), "Taken": leaveAmount(loc, used), "Allowance": allowance(loc, f.leaveDays()),
		"Left": leaveAmount(loc, max(total-used, 0))}
	if !onLeave(p, now) {
		return loc.T("leave.allowance", data)
	}
	if used == 0 {
		data["Taken"] = loc.T("leave.underhour", nil)
	}
	if y, m, d := p.Leave.Start.UTC().Date(); now.UTC().Year() == y && now.UTC().Month() == m && now.UTC().Day() == d {
		return loc.T("leave.allowance.today", data)
	}
	data["Started"] = words.In(loc.Lang()).Time(p.Leave.Start)
	return loc.T("leave.allowance.started", data)
}

// leaveStart starts the user's leave and pauses their clocks.
func (f *feature) leaveStart(tx *bot.Tx, req bot.Request) error {
	now := f.svc.Now()
	loc := askerLoc(tx.Tx, req)
	w := words.In(loc.Lang())
	p, err := bot.Settings(tx.Tx, req.User.ID)
	if err != nil {
		return err
	}
	if onLeave(p, now) {
		return refuse(bot.ErrRefused, loc, "leave.already", i18n.Data{"Until": w.Time(p.Leave.End)})
	}
	if p.Leave != nil { // ended by its time, not yet by the scheduler
		if _, err := f.endLeave(tx, p, now, nil); err != nil {
			return err
		}
	}
	var end time.Time
	switch {
	case req.Args.Has("days") && req.Args.Has("until"):
		return refuse(bot.ErrRefused, loc, "leave.both", nil)
	case req.Args.Has("until"):
		t := req.Args.Get("until")
		d, err := time.Parse(time.DateOnly, t)
		if err != nil {
			return refuse(bot.ErrRefused, loc, "leave.until.bad", i18n.Data{"Example": now.Add(7 * clock.Day).Format(time.DateOnly), "Value": rules.Echo(t)})
		}
		if !d.After(now) {
			return refuse(bot.ErrRefused, loc, "leave.until.past", i18n.Data{"Value": t})
		}
		end = d
	default:
		n, err := strconv.Atoi(req.Args.Get("days"))
		if err != nil || n < 1 {
			return refuse(bot.ErrRefused, loc, "leave.days.bad", nil)
		}
		if n > f.leaveDays() {
			return refuse(bot.ErrRefused, loc, "leave.toolong", i18n.Data{"Allowance": allowance(loc, f.leaveDays())})
		}
		end = now.Add(time.Duration(n) * clock.Day)
	}
	want := end.Sub(now)
	left := time.Duration(f.leaveDays())*clock.Day - leaveUsed(p, now)
	if want > left {
		key := "leave.toomuch"
		if left > 0 && left <= clock.Day {
			key = "leave.toomuch.one"
		}
		return refuse(bot.ErrRefused, loc, key, i18n.Data{"Want": leaveAmount(loc, want.Round(time.Hour)), "Left": leaveAmount(loc, max(left, 0)),
			"Allowance": allowance(loc, f.leaveDays()), "Year": now.UTC().Year()})
	}
	if p.LeaveYear != now.UTC().Year() {
		p.LeaveYear, p.LeaveUsedHours = now.UTC().Year(), 0
	}
	p.Leave = &storage.Leave{Start: now, End: end}
	if p.Name == "" {
		p.Name = req.User.Name
	}
	if err := tx.PutPlayer(p); err != nil {
		return err
	}
	synced, err := f.syncPlayerGames(tx, p, now, time.Time{}, nil)
	if err != nil {
		return err
	}
	frozen, running, err := f.tellLeaveStart(tx, p, synced, now, end)
	if err != nil {
		return err
	}
	data := i18n.Data{"Until": w.Time(end), "Length": leaveAmount(loc, want.Round(time.Hour))}
	text := loc.T("leave.started", data)
	if len(frozen) > 0 {
		data["IDs"] = strings.Join(frozen, ", ")
		text = loc.N("leave.started.frozen", len(frozen), data)
	}
	if len(running) > 0 {
		text += "\n" + loc.N("leave.running", len(running), ids(running))
	}
	*tx.Reply() = bot.Reply{Private: true, Title: loc.T("leave.title", nil), Text: text + "\n" + f.leaveAllowance(loc, p, now)}
	return nil
}

// endLeave ends p's leave at now (or at its end, when that has passed): it counts the
// leave taken, resumes p's clocks and tells the opponents. current, when not nil, is
// a game the caller is changing and will store itself; it is resumed in place. It
// returns the ids of the games whose clock was resumed.
func (f *feature) endLeave(tx *bot.Tx, p *storage.Player, now time.Time, current *storage.Game) ([]string, error) {
	l := p.Leave
	if l == nil {
		return nil, nil
	}
	if p.LeaveYear != l.Start.UTC().Year() {
		p.LeaveYear, p.LeaveUsedHours = l.Start.UTC().Year(), 0
	}
	p.LeaveUsedHours += int(leaveHours(l, now) / time.Hour)
	p.Leave = nil
	if err := tx.PutPlayer(p); err != nil {
		return nil, err
	}
	var resumed []string
	if current != nil && !current.Clock.Paused.IsZero() {
		clock.Resume(&current.Clock, earlier(now, l.End))
		resumed = append(resumed, current.ID)
	}
	synced, err := f.syncPlayerGames(tx, p, now, earlier(now, l.End), current)
	if err != nil {
		return nil, err
	}
	for _, sg := range synced {
		g, side := sg.game, sg.side
		if !g.Clock.Deadline.IsZero() && !g.Clock.NoLeave && !slices.Contains(resumed, g.ID) && g.Awaits(side) {
			resumed = append(resumed, g.ID)
		}
		text := func(l i18n.Lang) string { // for each reader: the thread's, the opponent's
			loc := Catalogue.For(l)
			data := i18n.Data{"Player": words.Seat(g.Player(side))}
			if g.Clock.Deadline.IsZero() || g.Clock.NoLeave {
				return loc.T("leave.back", data)
			}
			data["Game"], data["Deadline"] = g.ID, words.In(l).Time(g.Clock.Deadline)
			return loc.T("leave.back.clock", data)
		}
		key := fmt.Sprintf("leave/%s/%s/%d/false", g.ID, p.ID, now.Unix())
		if err := tx.TellIn(g, side.Other(), NoticeLeave, text, key, false); err != nil {
			return nil, err
		}
	}
	return resumed, nil
}

// tellLeaveStart tells each opponent of p once, without a board, what p's leave
// until end changes in their games (synced, as syncPlayerGames stored them): a
// clock frozen now, one frozen once it is p's move, one that runs as its
// tournament refuses leave. It returns the games whose clock is frozen for p
// and those that refuse leave.
func (f *feature) tellLeaveStart(tx *bot.Tx, p *storage.Player, synced []syncedGame, now, end time.Time) (frozen, running []string, err error) {
	type news struct {
		seat, me                storage.Seat
		place                   bot.Place
		frozen, later, refusing []string
	}
	var order []string
	byOpponent := map[string]*news{}
	for _, sg := range synced {
		g, side := sg.game, sg.side
		opp := g.Player(side.Other())
		n := byOpponent[opp.ID]
		if n == nil {
			n = &news{seat: opp, me: g.Player(side), place: bot.Place{Guild: g.Guild, Channel: g.Channel, Thread: g.Thread}}
			byOpponent[opp.ID] = n
			order = append(order, opp.ID)
		}
		switch {
		case g.Clock.Deadline.IsZero():
		case g.Clock.NoLeave:
			running = append(running, g.ID)
			n.refusing = append(n.refusing, g.ID)
		case !g.Clock.Paused.IsZero():
			frozen = append(frozen, g.ID)
			n.frozen = append(n.frozen, g.ID)
		default:
			n.later = append(n.later, g.ID)
		}
	}
	for _, id := range order {
		n := byOpponent[id]
		// Worded for each reader: a post in the game's server in the server's
		// language, a direct message in the opponent's.
		text := func(l i18n.Lang) string {
			loc := Catalogue.For(l)
			var parts []string
			if len(n.frozen) > 0 {
				parts = append(parts, loc.N("leave.part.frozen", len(n.frozen), ids(n.frozen)))
			}
			if len(n.later) > 0 {
				parts = append(parts, loc.N("leave.part.later", len(n.later), ids(n.later)))
			}
			if len(n.refusing) > 0 {
				parts = append(parts, loc.N("leave.part.refusing", len(n.refusing), ids(n.refusing)))
			}
			data := i18n.Data{"Player": words.Seat(n.me), "Until": words.In(l).Time(end)}
			if len(parts) == 0 {
				return loc.T("leave.opponent", data)
			}
			data["Parts"] = strings.Join(parts, loc.T("leave.part.sep", nil))
			return loc.T("leave.opponent.parts", data)
		}
		title := func(l i18n.Lang) string { return Catalogue.For(l).T("leave.title", nil) }
		err := tx.TellUser(bot.Notice{To: n.seat, Kind: NoticeLeave, TitleIn: title, TextIn: text, Place: n.place,
			Key: fmt.Sprintf("leave/%s/%s/%d/true", p.ID, id, now.Unix())})
		if err != nil {
			return nil, nil, err
		}
	}
	return frozen, running, nil
}

// resumedText says in loc's language that a leave ended (key: leave.welcome when
// its player ended it, leave.over when its time did) and lists the games whose
// clock it resumed.
func resumedText(loc *i18n.Localizer, key string, games []string) string {
	if len(games) == 0 {
		return loc.T(key, nil)
	}
	return loc.N(key+".resumed", len(games), ids(games))
}

// syncedGame is a game syncPlayerGames stored again, with the side p plays.
type syncedGame struct {
	game *storage.Game
	side rules.Side
}

// syncPlayerGames stores again every game p plays (but skip), which pauses or resumes
// its clock as p's leave now requires, and returns them. A clock paused for p is
// resumed as of resumeAt when that is set (the leave's end).
func (f *feature) syncPlayerGames(tx *bot.Tx, p *storage.Player, now, resumeAt time.Time, skip *storage.Game) ([]syncedGame, error) {
	list, err := tx.PlayerActiveGames(p.ID)
	if err != nil {
		return nil, err
	}
	var out []syncedGame
	for _, sum := range list {
		if skip != nil && sum.ID == skip.ID {
			continue
		}
		g, err := tx.Game(sum.ID)
		if err != nil {
			return nil, err
		}
		side, _ := g.SideOf(p.ID)
		if !resumeAt.IsZero() && g.Awaits(side) {
			clock.Resume(&g.Clock, resumeAt)
		}
		if err := tx.SaveAt(g, now); err != nil {
			return nil, err
		}
		out = append(out, syncedGame{game: g, side: side})
	}
	return out, nil
}

// syncPause pauses g's clock while a player due to act is on leave (unless g refuses
// leave), and resumes it otherwise, as of now.
func syncPause(tx *bot.Tx, g *storage.Game, now time.Time) error {
	c := &g.Clock
	if !g.Active() || c.Deadline.IsZero() {
		c.Paused = time.Time{}
		return nil
	}
	away, until := false, now
	for _, side := range g.ToMove {
		seat := g.Player(side)
		if seat.IsEngine() {
			continue
		}
		p, err := bot.Settings(tx.Tx, seat.ID)
		if err != nil {
			return err
		}
		if onLeave(p, now) && !c.NoLeave {
			away = true
		} else if p.Leave != nil {
			until = earlier(until, p.Leave.End) // a leave past its end, not yet closed
		}
	}
	switch {
	case away && c.Paused.IsZero():
		c.Paused = now
	case !away:
		clock.Resume(c, until)
	}
	return nil
}

// moveEndsLeave ends the leave of the player who plays side in g, when a move of
// theirs is made while they are on leave.
func (f *feature) moveEndsLeave(tx *bot.Tx, g *storage.Game, side rules.Side, now time.Time) error {
	seat := g.Player(side)
	if seat.IsEngine() {
		return nil
	}
	p, err := bot.Settings(tx.Tx, seat.ID)
	if err != nil || p.Leave == nil {
		return err
	}
	_, err = f.endLeave(tx, p, now, g)
	return err
}

// duePlayers ends every leave whose time has run out at now and sends the daily
// digests due (digest.go), each player in a transaction of its own.
func (f *feature) duePlayers(ctx context.Context, now time.Time) error {
	var due []*storage.Player
	if err := f.svc.Read(ctx, func(tx *storage.Tx) (err error) {
		due, err = tx.DuePlayers(now)
		return err
	}); err != nil {
		return err
	}
	var errs []error
	for _, p := range due {
		if err := f.svc.Update(ctx, func(tx *bot.Tx) error {
			p, err := tx.Player(p.ID)
			if err != nil {
				return err
			}
			if p.Leave != nil && !now.Before(p.Leave.End) {
				games, err := f.endLeave(tx, p, now, nil)
				if err != nil {
					return err
				}
				loc := playerLoc(p)
				tx.TellDirect(storage.Seat{ID: p.ID, Name: p.Name}, NoticeLeave, bot.Reply{Title: loc.T("leave.title", nil),
					Text: resumedText(loc, "leave.over", games) + "\n" + f.leaveAllowance(loc, p, now)}, fmt.Sprintf("leave-over/%s/%d", p.ID, now.Unix()))
			}
			if p.DigestHour != nil && !now.Before(p.DigestNext) {
				if err := f.sendDigest(tx, p, now); err != nil {
					return err
				}
				if err := tx.PutPlayer(p); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			errs = append(errs, fmt.Errorf("player %s: %w", p.ID, err))
		}
	}
	return errors.Join(errs...)
}

// earlier returns the earlier of a and b.
func earlier(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}
