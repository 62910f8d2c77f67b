package challenges

import (
	"context"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/bot/words"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/storage"
)

// Rematch: after a game, either player offers the same game again with colours
// swapped (the same variant, start, rated flag and clock: days per move or time
// bank), as a challenge to the opponent; against an engine the new game starts at
// once, and a player who answers the opponent's own rematch offer with /rematch
// accepts it. The button under a finished game's board (rematchButton) runs
// /rematch.

// CmdRematch is the command that offers a finished game again.
const CmdRematch = "rematch"

// rematchCommand is /rematch.
func (f *feature) rematchCommand() bot.Command {
	c := f.svc.OnGame(bot.Command{Handle: f.cmdRematch,
		Spec: bot.CommandSpec{Name: CmdRematch, Description: "Offer a finished game again with colours swapped (your last game if none is named)"}})
	c.Spec = c.Spec.Localize(Catalogue) // with the game option OnGame adds
	return c
}

// cmdRematch offers the user's finished game again with colours swapped.
func (f *feature) cmdRematch(ctx context.Context, req bot.Request) bot.Reply {
	var answer string // the opponent's open rematch offer, which this request accepts
	r := f.svc.Mutate(ctx, req, func(tx *bot.Tx) error {
		answer = ""
		loc := askerLoc(tx.Tx, req)
		g, err := f.rematchGame(tx.Tx, loc, req)
		if err != nil {
			return err
		}
		me, _ := g.SideOf(req.User.ID)
		opp := g.Player(me.Other())
		if c, err := f.pendingRematch(tx.Tx, loc, g, me); err != nil || c != nil {
			if c != nil {
				answer = c.ID
			}
			return err
		}
		if opp.IsFormer() {
			return refuse(bot.ErrRefused, loc, "rematch.former", i18n.Data{"Game": g.ID})
		}
		if opp.IsEngine() {
			if f.svc.Engine() == nil {
				return refuse(bot.ErrRefused, loc, "rematch.noengine", nil)
			}
			if err := f.checkLimits(tx.Tx, loc, req.User, false); err != nil {
				return err
			}
			mine := storage.Seat{ID: req.User.ID, Name: req.User.Name}
			players := [2]storage.Seat{mine, opp} // the user had Black: now White
			if me == rules.White {
				players = [2]storage.Seat{opp, mine}
			}
			_, err := tx.CreateGame(bot.NewGame{Variant: g.Variant, White: players[rules.White], Black: players[rules.Black],
				Place: bot.Place{Guild: g.Guild, Channel: g.Channel}, DaysPerMove: g.Clock.DaysPerMove, Bank: sameBank(g.Clock.Bank),
				Start: g.Start}, req.User.ID, &req.Place)
			if err != nil {
				return err
			}
			tx.Reply().Text = loc.T("rematch.engine", i18n.Data{"Game": g.ID}) + "\n" + tx.Reply().Text
			return nil
		}
		if err := f.checkLimits(tx.Tx, loc, req.User, true); err != nil {
			return err
		}
		open, err := tx.PlayerChallenges(req.User.ID)
		if err != nil {
			return err
		}
		for _, c := range open {
			if c.Challenger.ID == req.User.ID && c.Opponent.ID == opp.ID && c.Variant == g.Variant && f.openCheck(loc, c) == nil {
				return refuse(bot.ErrRefused, loc, "rematch.already", i18n.Data{"Opponent": words.Seat(opp), "Variant": f.variantName(loc, g.Variant), "ID": c.ID})
			}
		}
		c := &storage.Challenge{
			Guild: g.Guild, Channel: g.Channel,
			Challenger: storage.Seat{ID: req.User.ID, Name: req.User.Name}, Opponent: opp,
			Variant: g.Variant, Color: colorChoice(me.Other()), DaysPerMove: g.Clock.DaysPerMove, Bank: sameBank(g.Clock.Bank),
			Rated: g.Rated, Start: g.Start,
			ExpiresAt: f.svc.Now().Add(f.svc.Limits().ChallengeTTL),
		}
		return f.offerChallenge(tx, req, c, g.ID)
	})
	if answer != "" {
		return f.cmdAccept(ctx, bot.Request{ID: req.ID + "/accept", User: req.User, Names: req.Names, Place: req.Place,
			Command: CmdAccept, Args: bot.Args{"challenge": answer}})
	}
	return r
}

// rematchGame is the finished game a /rematch request is about: the one named or
// played in the request's thread, else the user's last finished game.
func (f *feature) rematchGame(tx *storage.Tx, loc *i18n.Localizer, req bot.Request) (*storage.Game, error) {
	var g *storage.Game
	if req.Args.Has("game") || req.Place.Thread != "" {
		var err error
		if g, err = f.svc.FindGame(tx, req, bot.AnyGame); err != nil {
			return nil, err
		}
	} else {
		done, err := tx.PlayerFinishedGames(req.User.ID, 1)
		if err != nil {
			return nil, err
		}
		if len(done) == 0 {
			return nil, refuse(bot.ErrRefused, loc, "rematch.nogame", nil)
		}
		if g, err = tx.Game(done[0].ID); err != nil {
			return nil, err
		}
	}
	if err := bot.MustPlay(g, req.User); err != nil {
		return nil, err
	}
	switch {
	case g.Active():
		return nil, refuse(bot.ErrRefused, loc, "rematch.active", i18n.Data{"Game": g.ID})
	case g.Tournament != "":
		return nil, refuse(bot.ErrRefused, loc, "rematch.tournament", i18n.Data{"Game": g.ID, "Tournament": g.Tournament})
	case g.Match != "":
		return nil, refuse(bot.ErrRefused, loc, "rematch.match", i18n.Data{"Game": g.ID})
	}
	return g, nil
}

// pendingRematch returns the opponent's open rematch offer of g to side's player
// (same settings, side's colour swapped), nil when there is none.
func (f *feature) pendingRematch(tx *storage.Tx, loc *i18n.Localizer, g *storage.Game, side rules.Side) (*storage.Challenge, error) {
	open, err := tx.PlayerChallenges(g.Player(side).ID)
	if err != nil {
		return nil, err
	}
	opp := g.Player(side.Other())
	for _, c := range open {
		if c.Challenger.ID == opp.ID && c.Opponent.ID == g.Player(side).ID && c.Variant == g.Variant &&
			c.Color == colorChoice(side) && c.DaysPerMove == g.Clock.DaysPerMove && equalBanks(c.Bank, g.Clock.Bank) && c.Rated == g.Rated &&
			c.Start == g.Start && f.openCheck(loc, c) == nil {
			return c, nil
		}
	}
	return nil, nil
}

// colorChoice is the challenge colour that gives its challenger side.
func colorChoice(side rules.Side) storage.ColorChoice {
	if side == rules.White {
		return storage.ColorWhite
	}
	return storage.ColorBlack
}

// sameBank returns a copy of a game's time-bank control for a new game (nil for a
// days-per-move clock).
func sameBank(b *storage.TimeBank) *storage.TimeBank {
	if b == nil {
		return nil
	}
	c := *b
	return &c
}

// equalBanks reports whether two time-bank controls are the same (both nil included).
func equalBanks(a, b *storage.TimeBank) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// rematchButton offers a rematch under a finished game's board, labelled in
// language l, its reader's; paired games (a tournament's, an engine match's) are
// not played again on demand.
func rematchButton(l i18n.Lang, g *storage.Game, actions []bot.Action) []bot.Action {
	if g.Active() || g.Tournament != "" || g.Match != "" {
		return actions
	}
	return append(actions, bot.Action{Label: Catalogue.For(l).T("button.rematch", nil), Style: bot.StylePrimary, Command: CmdRematch, Args: bot.Args{"game": g.ID}})
}
