package play

import (
	"context"
	"fmt"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/clock"
	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/bot/words"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/storage"
)

// moreTimeCommand is /moretime.
func (f *feature) moreTimeCommand() bot.Command {
	return f.svc.OnGame(bot.Command{Handle: f.cmdMoreTime, Spec: bot.CommandSpec{Name: CmdMoreTime,
		Description: fmt.Sprintf("Give your opponent one more day on their clock (at most %d in a game)", clock.MaxGivenDays)}})
}

// cmdMoreTime gives the user's opponent one more day; the reply says so in the
// giver's language, the notice in the opponent's.
func (f *feature) cmdMoreTime(ctx context.Context, req bot.Request) bot.Reply {
	return f.act(ctx, req, bot.OwnGame, nil, func(tx *bot.Tx, g *storage.Game, side rules.Side, sp speaker) error {
		opp := side.Other()
		now := tx.Now()
		switch {
		case !clock.Runs(g.Clock):
			return sp.refuse("moretime.noclock", i18n.Data{"Game": g.ID})
		case g.Clock.Given[side] >= clock.MaxGivenDays:
			return bot.Refuse(bot.ErrRefused, "%s", sp.N("moretime.most", clock.MaxGivenDays, i18n.Data{"Game": g.ID}))
		case g.Clock.Bank == nil && !g.Awaits(opp):
			return bot.Refuse(bot.ErrRefused, "%s", sp.N("moretime.notrunning", g.Clock.DaysPerMove,
				i18n.Data{"Them": words.Seat(g.Player(opp)), "Game": g.ID}))
		}
		clock.GiveDay(g, side)
		if err := tx.Save(g); err != nil {
			return err
		}
		// what is the key's last part and its data: the new deadline, or the bank.
		what := "deadline"
		if !g.Awaits(opp) {
			what = "bank"
		}
		data := func(w words.W) i18n.Data {
			d := i18n.Data{"Me": words.Seat(g.Player(side)), "Them": words.Seat(g.Player(opp)), "Game": g.ID}
			if what == "bank" {
				d["Left"] = w.Left(clock.BankLeft(g, opp, now))
			} else {
				d["Time"] = w.Time(g.Clock.Deadline)
			}
			return d
		}
		left := clock.MaxGivenDays - g.Clock.Given[side]
		*tx.Reply() = bot.Reply{Title: f.svc.GameTitleIn(sp.Lang(), g), Game: bot.RefOf(g), Text: sp.N("moretime.gave."+what, left, data(sp.w))}
		told := phrase(func(sp speaker) string { return sp.T("moretime.told."+what, data(sp.w)) })
		return tx.TellIn(g, opp, bot.NoticeInfo, told,
			fmt.Sprintf("moretime/%s/%s/%d", g.ID, side, g.Clock.Given[side]), bot.SamePlace(req.Place, g))
	})
}
