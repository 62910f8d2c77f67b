package bot

import (
	"context"
	"fmt"

	"github.com/missivechess/missive/bot/clock"
	"github.com/missivechess/missive/bot/words"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/storage"
)

// CmdMoreTime is /moretime.
const CmdMoreTime = "moretime"

// moreTimeCommand is /moretime.
func (s *Service) moreTimeCommand() Command {
	return s.onGame(Command{Handle: s.cmdMoreTime, Spec: CommandSpec{Name: CmdMoreTime,
		Description: fmt.Sprintf("Give your opponent one more day on their clock (at most %d in a game)", clock.MaxGivenDays)}})
}

// cmdMoreTime gives the user's opponent one more day.
func (s *Service) cmdMoreTime(ctx context.Context, req Request) Reply {
	return s.gameAction(ctx, req, ownGame, func(tx *storage.Tx, e *effects, g *storage.Game, side rules.Side) error {
		opp := side.Other()
		now := s.Now()
		switch {
		case !clock.Runs(g.Clock):
			return Refuse(ErrRefused, "Game %s has no clock, so there is no time to give.", g.ID)
		case g.Clock.Given[side] >= clock.MaxGivenDays:
			return Refuse(ErrRefused, "You have already given %s in game %s, the most a player may give in a game.", words.Plural(clock.MaxGivenDays, "day"), g.ID)
		case g.Clock.Bank == nil && !g.Awaits(opp):
			return Refuse(ErrRefused, "%s's clock in game %s is not running: it starts afresh with %s when you have moved, so there is no time to give now.",
				words.Seat(g.Player(opp)), g.ID, words.Plural(g.Clock.DaysPerMove, "day"))
		}
		clock.GiveDay(g, side)
		if err := s.save(tx, e, g, now); err != nil {
			return err
		}
		what := "deadline is now " + words.Time(g.Clock.Deadline)
		if !g.Awaits(opp) {
			what = "time bank is now " + words.Left(clock.BankLeft(g, opp, now))
		}
		me, them := words.Seat(g.Player(side)), words.Seat(g.Player(opp))
		left := clock.MaxGivenDays - g.Clock.Given[side]
		e.reply = Reply{Title: s.gameTitle(g), Game: RefOf(g),
			Text: fmt.Sprintf("%s gave %s one more day in game %s: %s's %s. (%s may give %s more in this game.)",
				me, them, g.ID, them, what, me, words.Plural(left, "day"))}
		return s.tell(tx, e, g, opp, NoticeInfo, fmt.Sprintf("%s gave you one more day in game %s: your %s.", me, g.ID, what),
			fmt.Sprintf("moretime/%s/%s/%d", g.ID, side, g.Clock.Given[side]), SamePlace(req.Place, g))
	})
}
