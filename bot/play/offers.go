package play

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/clock"
	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/bot/words"
	"github.com/missivechess/missive/engine"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/storage"
)

// resignCommand is /resign.
func (f *feature) resignCommand() bot.Command {
	return f.svc.OnGame(bot.Command{Handle: f.cmdResign, Spec: bot.CommandSpec{Name: CmdResign, Description: "Resign a game"}})
}

// drawCommand is /draw.
func (f *feature) drawCommand() bot.Command {
	return f.svc.OnGame(bot.Command{Handle: f.cmdDraw,
		Spec: bot.CommandSpec{Name: CmdDraw, Description: "Offer a draw, or accept or decline your opponent's offer", Options: []bot.OptionSpec{
			{Name: "action", Description: "What to do (default: offer, or accept when your opponent offered)", Type: bot.OptString,
				Choices: []bot.OptionChoice{{Name: "Offer", Value: "offer"}, {Name: "Accept", Value: "accept"}, {Name: "Decline", Value: "decline"}}}}}})
}

// takebackCommand is /takeback.
func (f *feature) takebackCommand() bot.Command {
	return f.svc.OnGame(bot.Command{Handle: f.cmdTakeback,
		Spec: bot.CommandSpec{Name: CmdTakeback, Description: "Casual games: ask to take back your last move, or answer such a request", Options: []bot.OptionSpec{
			{Name: "action", Description: "What to do (default: request, or accept when your opponent asked)", Type: bot.OptString,
				Choices: []bot.OptionChoice{{Name: "Request", Value: "request"}, {Name: "Accept", Value: "accept"}, {Name: "Decline", Value: "decline"}}}}}})
}

// abortCommand is /abort.
func (f *feature) abortCommand() bot.Command {
	return f.svc.OnGame(bot.Command{Handle: f.cmdAbort, Spec: bot.CommandSpec{Name: CmdAbort, Description: "Call off a game before both sides have moved (no result)"}})
}

// cmdResign resigns the user's game.
func (f *feature) cmdResign(ctx context.Context, req bot.Request) bot.Reply {
	return f.act(ctx, req, bot.OwnGame, nil, func(tx *bot.Tx, g *storage.Game, side rules.Side, sp speaker) error {
		said := func(sp speaker) string {
			return sp.T("resign.said", i18n.Data{"Player": sp.w.Seated(g.Player(side), side)})
		}
		return tx.EndIn(g, side, rules.Win(side.Other(), rules.Resignation), phrase(said), &req.Place)
	})
}

// cmdAbort calls off a game in which not both sides have moved.
func (f *feature) cmdAbort(ctx context.Context, req bot.Request) bot.Reply {
	return f.act(ctx, req, bot.OwnGame, nil, func(tx *bot.Tx, g *storage.Game, side rules.Side, sp speaker) error {
		if bothMoved(g) {
			return sp.refuse("abort.bothmoved", i18n.Data{"Game": g.ID})
		}
		said := func(sp speaker) string {
			return sp.T("abort.said", i18n.Data{"Player": words.Seat(g.Player(side))})
		}
		return tx.EndIn(g, side, rules.Outcome{Status: rules.Drawn, Reason: rules.Aborted}, phrase(said), &req.Place)
	})
}

// bothMoved reports whether each side has made a move or a placement choice in g.
func bothMoved(g *storage.Game) bool {
	var moved [2]bool
	ordinary := 0
	for _, e := range g.Moves {
		if e.Simultaneous {
			moved[e.Side&1] = true
		} else {
			ordinary++
		}
	}
	if ordinary >= 2 || (moved[0] && moved[1]) {
		return true
	}
	if ordinary == 1 {
		// The side who moved is the one not to move now (unless the game is over,
		// which an abort does not reach).
		if len(g.ToMove) == 1 {
			moved[g.ToMove[0].Other()] = true
		}
	}
	return moved[0] && moved[1]
}

// offerKind is one kind of proposal a player makes and the opponent answers: a draw
// offer or a takeback request.
type offerKind struct {
	command string         // CmdDraw or CmdTakeback
	ask     string         // the action that proposes: "offer" or "request"
	key     string         // its sentences' keys start with key + ".": "draw", "takeback"
	notice  bot.NoticeKind // how the opponent is told
	// slot is the game's pending proposal of this kind.
	slot func(g *storage.Game) **storage.Offer
	// allowed refuses, in sp's language, a proposal side may not make now (nil:
	// always allowed).
	allowed func(g *storage.Game, side rules.Side, sp speaker) error
	// agree carries out the proposal, accepted by the side accepter; sp speaks the
	// asker's language.
	agree func(f *feature, tx *bot.Tx, g *storage.Game, accepter rules.Side, from *bot.Place, sp speaker) error
	// engineAnswer is an engine opponent's answer to a new proposal in g: "" to
	// agree at once, else the sentence in sp's language that declines it (nothing
	// changes), or the refusal of a proposal it could not judge.
	engineAnswer func(g *storage.Game, sp speaker) (declined string, err error)
}

var drawOffer = offerKind{
	command: CmdDraw, ask: "offer", key: "draw", notice: NoticeDrawOffer,
	slot: func(g *storage.Game) **storage.Offer { return &g.DrawOffer },
	agree: func(f *feature, tx *bot.Tx, g *storage.Game, accepter rules.Side, from *bot.Place, sp speaker) error {
		said := func(sp speaker) string {
			return sp.T("draw.accepted", i18n.Data{"Accepter": words.Seat(g.Player(accepter)), "Offerer": words.Seat(g.Player(accepter.Other()))})
		}
		return tx.EndIn(g, accepter, rules.Draw(rules.Agreement), phrase(said), from)
	},
	// cmdDraw asks an engine opponent to judge the offer; this answer is for an
	// offer it could not ask about.
	engineAnswer: func(g *storage.Game, sp speaker) (string, error) {
		engine := g.Players[rules.White]
		if !engine.IsEngine() {
			engine = g.Players[rules.Black]
		}
		return sp.T("draw.engine.notnow", i18n.Data{"Engine": words.Seat(engine)}), nil
	},
}

var takebackRequest = offerKind{
	command: CmdTakeback, ask: "request", key: "takeback", notice: NoticeTakeback,
	slot: func(g *storage.Game) **storage.Offer { return &g.Takeback },
	allowed: func(g *storage.Game, side rules.Side, sp speaker) error {
		_, err := takebackPlies(g, side, sp)
		return err
	},
	agree: func(f *feature, tx *bot.Tx, g *storage.Game, accepter rules.Side, from *bot.Place, sp speaker) error {
		return f.takeBack(tx, g, accepter, from, sp)
	},
	engineAnswer: func(*storage.Game, speaker) (string, error) { return "", nil },
}

// cmdDraw offers, accepts or declines a draw. An engine opponent judges an offer
// with a search before the offer's transaction, and answers it at once.
func (f *feature) cmdDraw(ctx context.Context, req bot.Request) bot.Reply {
	k := drawOffer
	if answer := f.judgeDraw(ctx, req); answer != nil {
		k.engineAnswer = answer
	}
	return f.proposal(ctx, req, k)
}

// judgeDraw asks the engine opponent in the game req names whether it agrees to a
// draw, when req offers it one, and returns drawOffer's engineAnswer for what it
// said; nil when req is no such offer (proposal then answers, or refuses, as usual).
func (f *feature) judgeDraw(ctx context.Context, req bot.Request) func(*storage.Game, speaker) (string, error) {
	eng := f.svc.Engine()
	if a := strings.ToLower(req.Args.Get("action")); eng == nil || a != "" && a != drawOffer.ask {
		return nil
	}
	var turn bot.EngineTurn
	var id, name string
	var ply int
	asked := false
	// A game that cannot be read here (none named, not the player's, the store
	// failing) asks no engine: proposal's own transaction meets the same error
	// and tells the player.
	_ = f.svc.Read(ctx, func(tx *storage.Tx) error {
		g, err := f.svc.FindGame(tx, req, bot.OwnGame)
		if err != nil || !g.Active() {
			return err
		}
		side, _ := g.SideOf(req.User.ID)
		opp := g.Player(side.Other())
		if !opp.IsEngine() || g.DrawOffer != nil {
			return nil // no engine to ask, or an offer already made (answered as usual)
		}
		if turn, err = bot.EngineTurnOf(g, side.Other()); err != nil {
			return err
		}
		id, ply, name, asked = g.ID, len(g.Moves), words.Seat(opp), true
		return nil
	})
	if !asked {
		return nil
	}
	tctx, cancel := context.WithTimeout(ctx, f.svc.EngineTimeout())
	agrees, err := eng.AcceptsDraw(tctx, turn)
	cancel()
	return func(g *storage.Game, sp speaker) (string, error) {
		switch {
		case err != nil:
			return "", err
		case g.ID != id || len(g.Moves) != ply:
			return "", sp.refuse("draw.engine.movedon", i18n.Data{"Game": g.ID, "Engine": name})
		case !agrees:
			return sp.T("draw.engine.declines", i18n.Data{"Engine": name, "Pawns": sp.pawns(engine.DrawWorse), "Move": engine.DrawAfterMove}), nil
		}
		return "", nil
	}
}

// cmdTakeback requests, accepts or declines taking back a move (casual games only).
func (f *feature) cmdTakeback(ctx context.Context, req bot.Request) bot.Reply {
	return f.proposal(ctx, req, takebackRequest)
}

// proposal makes, accepts or declines a proposal of kind k. Without an action it
// accepts the opponent's pending proposal, or else makes one; making one while the
// opponent's is pending accepts theirs. The reply is in the asker's language, the
// opponent's notice in theirs.
func (f *feature) proposal(ctx context.Context, req bot.Request, k offerKind) bot.Reply {
	action := strings.ToLower(req.Args.Get("action"))
	return f.act(ctx, req, bot.OwnGame, nil, func(tx *bot.Tx, g *storage.Game, side rules.Side, sp speaker) error {
		if k.command == CmdTakeback && (g.Rated || g.Tournament != "") {
			return sp.refuse("takeback.rated", i18n.Data{"Game": g.ID})
		}
		slot := k.slot(g)
		theirs := *slot != nil && (*slot).By != side
		if action == "" {
			action = k.ask
			if theirs {
				action = "accept"
			}
		}
		me, them := words.Seat(g.Player(side)), words.Seat(g.Player(side.Other()))
		data := i18n.Data{"Me": me, "Them": them, "Game": g.ID}
		inPlace := bot.SamePlace(req.Place, g)
		topic := k.command + "/" + g.ID
		// answer settles the offer: the reply is the offer message's new state.
		answer := func(err error) error {
			tx.Reply().Topic, tx.Reply().Update = topic, true
			return err
		}
		switch action {
		case k.ask:
			if theirs {
				return answer(k.agree(f, tx, g, side, &req.Place, sp))
			}
			if *slot != nil {
				return sp.refuse(k.key+".already", data)
			}
			if k.allowed != nil {
				if err := k.allowed(g, side, sp); err != nil {
					return err
				}
			}
			*slot = &storage.Offer{By: side, Ply: len(g.Moves), At: tx.Now()}
			if g.Player(side.Other()).IsEngine() {
				declined, err := k.engineAnswer(g, sp)
				switch {
				case err != nil:
					return err
				case declined != "":
					// An answer, not a refusal: the game goes on, and no offer stays.
					*slot = nil
					*tx.Reply() = bot.Reply{Private: true, Title: f.svc.GameTitleIn(sp.Lang(), g), Text: declined + "\n" + f.svc.StatusLineIn(sp.Lang(), g), Game: bot.RefOf(g)}
					return nil
				}
				return k.agree(f, tx, g, side.Other(), &req.Place, sp)
			}
			if err := tx.Save(g); err != nil {
				return err
			}
			*tx.Reply() = bot.Reply{Title: f.svc.GameTitleIn(sp.Lang(), g), Text: sp.T(k.key+".proposed", data), Game: bot.RefOf(g), Topic: topic, Actions: []bot.Action{
				{Label: sp.T("button."+k.key+".accept", nil), Style: bot.StyleSuccess, Command: k.command, Args: bot.Args{"game": g.ID, "action": "accept"}, Answers: true},
				{Label: sp.T("button.decline", nil), Style: bot.StyleSecondary, Command: k.command, Args: bot.Args{"game": g.ID, "action": "decline"}, Answers: true},
			}}
			proposed := phrase(func(sp speaker) string { return sp.T(k.key+".proposed", data) })
			return tx.TellIn(g, side.Other(), k.notice, proposed, fmt.Sprintf("%s/%s/%d/%s", k.command, g.ID, len(g.Moves), side), inPlace)
		case "accept", "decline":
			switch {
			case *slot != nil && !theirs:
				// The board's buttons go to both players; these are for the other one.
				return sp.refuse(k.key+".yours", data)
			case !theirs && action == "accept":
				return sp.refuse(k.key+".noneaccept", data)
			case !theirs:
				return sp.refuse(k.key+".nonedecline", data)
			case action == "accept":
				return answer(k.agree(f, tx, g, side, &req.Place, sp))
			}
			*slot = nil
			if err := tx.Save(g); err != nil {
				return err
			}
			*tx.Reply() = bot.Reply{Title: f.svc.GameTitleIn(sp.Lang(), g), Text: sp.T(k.key+".declined", data) + "\n" + f.svc.StatusLineIn(sp.Lang(), g), Game: bot.RefOf(g)}
			declined := phrase(func(sp speaker) string { return sp.T(k.key+".declined", data) })
			return answer(tx.TellIn(g, side.Other(), bot.NoticeInfo, declined, fmt.Sprintf("%s-declined/%s/%d", k.command, g.ID, len(g.Moves)), inPlace))
		}
		return sp.refuse(k.key+".badaction", i18n.Data{"Action": rules.Echo(action)})
	})
}

// takebackPlies returns how many entries to remove so that side's last move is
// undone and side is to move again: 1 when side moved last, 2 when the opponent has
// answered since. Placement choices cannot be taken back. A refusal is in sp's
// language.
func takebackPlies(g *storage.Game, side rules.Side, sp speaker) (int, error) {
	n := 0
	switch {
	case len(g.ToMove) == 1 && g.ToMove[0] == side.Other():
		n = 1
	case len(g.ToMove) == 1 && g.ToMove[0] == side:
		n = 2
	}
	if n == 0 || n > len(g.Moves) {
		return 0, sp.refuse("takeback.nomove", i18n.Data{"Game": g.ID})
	}
	if slices.ContainsFunc(g.Moves[len(g.Moves)-n:], func(e storage.MoveEntry) bool { return e.Simultaneous }) {
		return 0, sp.refuse("takeback.placement", nil)
	}
	return n, nil
}

// takeBack undoes the requester's last move in g; accepter is the side agreeing,
// and sp speaks the asker's language.
func (f *feature) takeBack(tx *bot.Tx, g *storage.Game, accepter rules.Side, from *bot.Place, sp speaker) error {
	requester := g.Takeback.By
	n, err := takebackPlies(g, requester, sp)
	if err != nil {
		return err
	}
	if err := g.Undo(n, f.svc.Registry()); err != nil {
		return err
	}
	g.Takeback, g.DrawOffer = nil, nil
	clock.Restart(g, tx.Now())
	if err := tx.Save(g); err != nil {
		return err
	}
	said := phrase(func(sp speaker) string {
		return sp.N("takeback.done", n, i18n.Data{"Player": words.Seat(g.Player(accepter))})
	})
	n0 := tx.Notices()
	if err := tx.AnnounceIn(g, accepter, said, from, fmt.Sprintf("takeback-done/%s/%d", g.ID, len(g.Moves))); err != nil {
		return err
	}
	return tx.TookBackIn(g, accepter, said, from, n0)
}
