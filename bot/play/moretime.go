package play

import (
	"context"
	"fmt"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/clock"
	"github.com/missivechess/missive/bot/words"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/storage"
)

// moreTimeCommand is /moretime.
func (f *feature) moreTimeCommand() bot.Command {
	return f.svc.OnGame(bot.Command{Handle: f.cmdMoreTime, Spec: bot.CommandSpec{Name: CmdMoreTime,
		Description: fmt.Sprintf("Give your opponent one more day on their clock (at most %d in a game)", clock.MaxGivenDays)}})
}

// cmdMoreTime gives the user's opponent one more day.
func (f *feature) cmdMoreTime(ctx context.Context, req bot.Request) bot.Reply {
	return f.svc.Act(ctx, req, bot.OwnGame, func(tx *bot.Tx, g *storage.Game, side rules.Side) error {
		opp := side.Other()
		now := tx.Now()
		switch {
		case !clock.Runs(g.Clock):
			return bot.Refuse(bot.ErrRefused, "Game %s has no clock, so there is no time to give.", g.ID)
		case g.Clock.Given[side] >= clock.MaxGivenDays:
			return bot.Refuse(bot.ErrRefused, "You have already given %s in game %s, the most a player may give in a game.", words.Plural(clock.MaxGivenDays, "day"), g.ID)
		case g.Clock.Bank == nil && !g.Awaits(opp):
			return bot.Refuse(bot.ErrRefused, "%s's clock in game %s is not running: it starts afresh with %s when you have moved, so there is no time to give now.",
				words.Seat(g.Player(opp)), g.ID, words.Plural(g.Clock.DaysPerMove, "day"))
		}
		clock.GiveDay(g, side)
		if err := tx.Save(g); err != nil {
			return err
		}
		what := "deadline is now " + words.Time(g.Clock.Deadline)
		if !g.Awaits(opp) {
			what = "time bank is now " + words.Left(clock.BankLeft(g, opp, now))
		}
		me, them := words.Seat(g.Player(side)), words.Seat(g.Player(opp))
		left := clock.MaxGivenDays - g.Clock.Given[side]
		*tx.Reply() = bot.Reply{Title: f.svc.GameTitle(g), Game: bot.RefOf(g),
			Text: fmt.Sprintf("%s gave %s one more day in game %s: %s's %s. (%s may give %s more in this game.)",
				me, them, g.ID, them, what, me, words.Plural(left, "day"))}
		return tx.Tell(g, opp, bot.NoticeInfo, fmt.Sprintf("%s gave you one more day in game %s: your %s.", me, g.ID, what),
			fmt.Sprintf("moretime/%s/%s/%d", g.ID, side, g.Clock.Given[side]), bot.SamePlace(req.Place, g))
	})
}
