package bot

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/storage"
)

// resignCommand is /resign.
func (s *Service) resignCommand() Command {
	return s.onGame(Command{Handle: s.cmdResign, Spec: CommandSpec{Name: CmdResign, Description: "Resign a game"}})
}

// drawCommand is /draw.
func (s *Service) drawCommand() Command {
	return s.onGame(Command{Handle: s.cmdDraw,
		Spec: CommandSpec{Name: CmdDraw, Description: "Offer a draw, or accept or decline your opponent's offer", Options: []OptionSpec{
			{Name: "action", Description: "What to do (default: offer, or accept when your opponent offered)", Type: OptString,
				Choices: []OptionChoice{{"Offer", "offer"}, {"Accept", "accept"}, {"Decline", "decline"}}}}}})
}

// takebackCommand is /takeback.
func (s *Service) takebackCommand() Command {
	return s.onGame(Command{Handle: s.cmdTakeback,
		Spec: CommandSpec{Name: CmdTakeback, Description: "Casual games: ask to take back your last move, or answer such a request", Options: []OptionSpec{
			{Name: "action", Description: "What to do (default: request, or accept when your opponent asked)", Type: OptString,
				Choices: []OptionChoice{{"Request", "request"}, {"Accept", "accept"}, {"Decline", "decline"}}}}}})
}

// abortCommand is /abort.
func (s *Service) abortCommand() Command {
	return s.onGame(Command{Handle: s.cmdAbort, Spec: CommandSpec{Name: CmdAbort, Description: "Call off a game before both sides have moved (no result)"}})
}

// cmdResign resigns the user's game.
func (s *Service) cmdResign(ctx context.Context, req Request) Reply {
	return s.gameAction(ctx, req, ownGame, func(tx *storage.Tx, e *effects, g *storage.Game, side rules.Side) error {
		return s.end(tx, e, g, side, rules.Win(side.Other(), rules.Resignation),
			fmt.Sprintf("%s (%s) resigned.", seatName(g.Player(side)), side), &req.Place)
	})
}

// cmdAbort calls off a game in which not both sides have moved.
func (s *Service) cmdAbort(ctx context.Context, req Request) Reply {
	return s.gameAction(ctx, req, ownGame, func(tx *storage.Tx, e *effects, g *storage.Game, side rules.Side) error {
		if bothMoved(g) {
			return refuse(ErrRefused, "Game %s can no longer be aborted: both sides have moved. You may offer a draw (/draw) or resign (/resign).", g.ID)
		}
		return s.end(tx, e, g, side, rules.Outcome{Status: rules.Drawn, Reason: rules.Aborted},
			fmt.Sprintf("%s aborted the game before both sides had moved; it has no result.", seatName(g.Player(side))), &req.Place)
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
	command string     // CmdDraw or CmdTakeback
	ask     string     // the action that proposes: "offer" or "request"
	noun    string     // "draw offer", "takeback request"
	notice  NoticeKind // how the opponent is told
	// slot is the game's pending proposal of this kind.
	slot func(g *storage.Game) **storage.Offer
	// allowed refuses a proposal side may not make now (nil: always allowed).
	allowed func(g *storage.Game, side rules.Side) error
	// agree carries out the proposal, accepted by the side accepter.
	agree func(s *Service, tx *storage.Tx, e *effects, g *storage.Game, accepter rules.Side, from *Place) error
	// engineAgrees says whether an engine opponent agrees at once (else it refuses).
	engineAgrees bool
	// proposed describes a new proposal: me, game, them.
	proposed    string
	acceptLabel string
}

var drawOffer = offerKind{
	command: CmdDraw, ask: "offer", noun: "draw offer", notice: NoticeDrawOffer,
	slot: func(g *storage.Game) **storage.Offer { return &g.DrawOffer },
	agree: func(s *Service, tx *storage.Tx, e *effects, g *storage.Game, accepter rules.Side, from *Place) error {
		return s.end(tx, e, g, accepter, rules.Draw(rules.Agreement), fmt.Sprintf("%s accepted %s's draw offer.",
			seatName(g.Player(accepter)), seatName(g.Player(accepter.Other()))), from)
	},
	proposed:    "%s offers a draw in game %s. %s may accept or decline (/draw); the offer lapses if they move instead.",
	acceptLabel: "Accept draw",
}

var takebackRequest = offerKind{
	command: CmdTakeback, ask: "request", noun: "takeback request", notice: NoticeTakeback,
	slot: func(g *storage.Game) **storage.Offer { return &g.Takeback },
	allowed: func(g *storage.Game, side rules.Side) error {
		_, err := takebackPlies(g, side)
		return err
	},
	agree: func(s *Service, tx *storage.Tx, e *effects, g *storage.Game, accepter rules.Side, from *Place) error {
		return s.takeBack(tx, e, g, accepter, from)
	},
	engineAgrees: true,
	proposed:     "%s asks to take back their last move in game %s. %s may accept or decline (/takeback); moving instead declines.",
	acceptLabel:  "Allow takeback",
}

// cmdDraw offers, accepts or declines a draw.
func (s *Service) cmdDraw(ctx context.Context, req Request) Reply {
	return s.proposal(ctx, req, drawOffer)
}

// cmdTakeback requests, accepts or declines taking back a move (casual games only).
func (s *Service) cmdTakeback(ctx context.Context, req Request) Reply {
	return s.proposal(ctx, req, takebackRequest)
}

// proposal makes, accepts or declines a proposal of kind k. Without an action it
// accepts the opponent's pending proposal, or else makes one; making one while the
// opponent's is pending accepts theirs.
func (s *Service) proposal(ctx context.Context, req Request, k offerKind) Reply {
	action := strings.ToLower(req.Args.Get("action"))
	return s.gameAction(ctx, req, ownGame, func(tx *storage.Tx, e *effects, g *storage.Game, side rules.Side) error {
		if k.command == CmdTakeback && (g.Rated || g.Tournament != "") {
			return refuse(ErrRefused, "Game %s is rated or part of a tournament: moves cannot be taken back.", g.ID)
		}
		slot := k.slot(g)
		theirs := *slot != nil && (*slot).By != side
		if action == "" {
			action = k.ask
			if theirs {
				action = "accept"
			}
		}
		me, them := seatName(g.Player(side)), seatName(g.Player(side.Other()))
		inPlace := samePlace(req.Place, g)
		topic := k.command + "/" + g.ID
		// answer settles the offer: the reply is the offer message's new state.
		answer := func(err error) error {
			e.reply.Topic, e.reply.Update = topic, true
			return err
		}
		switch action {
		case k.ask:
			if theirs {
				return answer(k.agree(s, tx, e, g, side, &req.Place))
			}
			if *slot != nil {
				return refuse(ErrRefused, "You have already made a %s in game %s; %s has not answered yet.", k.noun, g.ID, them)
			}
			if k.allowed != nil {
				if err := k.allowed(g, side); err != nil {
					return err
				}
			}
			if g.Player(side.Other()).IsEngine() && !k.engineAgrees {
				return refuse(ErrRefused, "The engine does not accept a %s; play on, or resign.", k.noun)
			}
			*slot = &storage.Offer{By: side, Ply: len(g.Moves), At: s.Now()}
			if g.Player(side.Other()).IsEngine() {
				return k.agree(s, tx, e, g, side.Other(), &req.Place)
			}
			if err := s.save(tx, e, g, s.Now()); err != nil {
				return err
			}
			text := fmt.Sprintf(k.proposed, me, g.ID, them)
			e.reply = Reply{Title: s.gameTitle(g), Text: text, Game: gameRef(g), Topic: topic, Actions: []Action{
				{Label: k.acceptLabel, Style: StyleSuccess, Command: k.command, Args: Args{"game": g.ID, "action": "accept"}, Answers: true},
				{Label: "Decline", Style: StyleSecondary, Command: k.command, Args: Args{"game": g.ID, "action": "decline"}, Answers: true},
			}}
			return s.tell(tx, e, g, side.Other(), k.notice, text, fmt.Sprintf("%s/%s/%d/%s", k.command, g.ID, len(g.Moves), side), inPlace)
		case "accept":
			if !theirs {
				return refuse(ErrRefused, "%s has made no %s in game %s to accept; to make one, use /%s action:%s.", them, k.noun, g.ID, k.command, k.ask)
			}
			return answer(k.agree(s, tx, e, g, side, &req.Place))
		case "decline":
			if !theirs {
				return refuse(ErrRefused, "There is no %s from %s to decline in game %s.", k.noun, them, g.ID)
			}
			*slot = nil
			if err := s.save(tx, e, g, s.Now()); err != nil {
				return err
			}
			text := fmt.Sprintf("%s declined %s's %s; the game goes on.", me, them, k.noun)
			e.reply = Reply{Title: s.gameTitle(g), Text: text + "\n" + s.statusLine(g), Game: gameRef(g)}
			return answer(s.tell(tx, e, g, side.Other(), NoticeInfo, text, fmt.Sprintf("%s-declined/%s/%d", k.command, g.ID, len(g.Moves)), inPlace))
		}
		return refuse(ErrRefused, "The %s action must be %s, accept or decline, not %q.", k.command, k.ask, action)
	})
}

// takebackPlies returns how many entries to remove so that side's last move is
// undone and side is to move again: 1 when side moved last, 2 when the opponent has
// answered since. Placement choices cannot be taken back.
func takebackPlies(g *storage.Game, side rules.Side) (int, error) {
	n := 0
	switch {
	case len(g.ToMove) == 1 && g.ToMove[0] == side.Other():
		n = 1
	case len(g.ToMove) == 1 && g.ToMove[0] == side:
		n = 2
	}
	if n == 0 || n > len(g.Moves) {
		return 0, refuse(ErrRefused, "You have no move to take back in game %s.", g.ID)
	}
	if slices.ContainsFunc(g.Moves[len(g.Moves)-n:], func(e storage.MoveEntry) bool { return e.Simultaneous }) {
		return 0, refuse(ErrRefused, "Placement choices cannot be taken back.")
	}
	return n, nil
}

// takeBack undoes the requester's last move in g; accepter is the side agreeing.
func (s *Service) takeBack(tx *storage.Tx, e *effects, g *storage.Game, accepter rules.Side, from *Place) error {
	requester := g.Takeback.By
	n, err := takebackPlies(g, requester)
	if err != nil {
		return err
	}
	if err := g.Undo(n, s.reg); err != nil {
		return err
	}
	g.Takeback, g.DrawOffer = nil, nil
	restartClock(g, s.Now())
	if err := s.save(tx, e, g, s.Now()); err != nil {
		return err
	}
	text := fmt.Sprintf("%s agreed: %s taken back.", seatName(g.Player(accepter)), plural(n, "move"))
	n0 := len(e.notes)
	if err := s.announce(tx, e, g, accepter, text, from, fmt.Sprintf("takeback-done/%s/%d", g.ID, len(g.Moves))); err != nil {
		return err
	}
	return s.changed(s.tookBackHooks, GameChange{Tx: tx, Game: g, Side: accepter, Said: text, from: from, e: e, notes: n0})
}
