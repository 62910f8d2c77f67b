package bot

import (
	"context"
	"fmt"
	"time"

	"github.com/missivechess/missive/bot/clock"
	"github.com/missivechess/missive/bot/words"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/record"
	"github.com/missivechess/missive/storage"
)

// The life of a game, shared by every feature that acts on one: find it and act in
// a transaction, store it (which runs the end-of-game hooks when it has just ended),
// announce what happened, end it.

// gameAction runs op on the request's game (in progress, the user one of its
// players) in a write transaction.
func (s *Service) gameAction(ctx context.Context, req Request, mode findMode, fits Fits,
	op func(tx *storage.Tx, e *effects, g *storage.Game, side rules.Side) error) Reply {
	return s.mutate(ctx, req, func(tx *storage.Tx, e *effects) error {
		g, err := s.findGame(tx, req, mode, fits)
		if err != nil {
			return err
		}
		if err := MustBeActive(g); err != nil {
			return err
		}
		side, _ := g.SideOf(req.User.ID)
		return op(tx, e, g, side)
	})
}

// end finishes g with outcome o, caused by side's action, stores it and announces it.
func (s *Service) end(tx *storage.Tx, e *effects, g *storage.Game, side rules.Side, o rules.Outcome, text string, from *Place) error {
	g.Outcome = o
	g.DrawOffer, g.Takeback = nil, nil
	clock.Advance(g, g.ToMove, false, s.Now())
	if err := s.save(tx, e, g, s.Now()); err != nil {
		return err
	}
	return s.announce(tx, e, g, side, text, from, fmt.Sprintf("end/%s", g.ID))
}

// save plans g's next wake-up, sends the reminders that fell due, and stores g.
func (s *Service) save(tx *storage.Tx, e *effects, g *storage.Game, now time.Time) error {
	for _, hook := range s.hooks.saving {
		if err := hook(s.tx(tx, e), g, now); err != nil {
			return err
		}
	}
	due, err := planWake(tx, g, now)
	if err != nil {
		return err
	}
	ending := !g.Active() && g.EndedAt.IsZero() // the store sets EndedAt when it first stores the end
	if err := tx.PutGame(g); err != nil {
		return err
	}
	if ending {
		if err := s.gameEnded(tx, e, g); err != nil {
			return err
		}
	}
	for _, d := range due {
		if err := s.remind(tx, e, g, d); err != nil {
			return err
		}
	}
	if g.Active() {
		for _, side := range g.ToMove {
			if g.Player(side).IsEngine() && s.engine != nil {
				e.engine = append(e.engine, g.ID)
				break
			}
		}
	}
	e.wake = true
	return nil
}

// announce builds the public reply after side acted in g (a move, a revealed round, a
// takeback) and tells the other player, or both players when the game ended.
func (s *Service) announce(tx *storage.Tx, e *effects, g *storage.Game, side rules.Side, text string, from *Place, key string) error {
	img, err := s.boardImage(tx, g, viewerAfter(g, side, from), false)
	if err != nil {
		return err
	}
	e.reply = Reply{Title: s.GameTitle(g), Text: text + "\n" + s.StatusLine(g), Game: RefOf(g), Actions: s.Buttons(g), Final: !g.Active()}
	e.image = img
	inPlace := from != nil && SamePlace(*from, g)
	if !g.Active() {
		for _, to := range rules.Sides {
			if to == side {
				continue // the reply tells the one who acted
			}
			if err := s.tell(tx, e, g, to, NoticeGameOver, text+"\n"+s.StatusLine(g), key+"/over", inPlace); err != nil {
				return err
			}
		}
		return nil
	}
	for _, to := range g.ToMove {
		if to == side {
			continue
		}
		if err := s.tell(tx, e, g, to, NoticeTurn, text+"\n"+s.YourTurn(g, to), key+"/"+to.String(), inPlace); err != nil {
			return err
		}
	}
	return nil
}

// YourTurn is the line that tells side what to do next in g.
func (s *Service) YourTurn(g *storage.Game, side rules.Side) string {
	what := "Your move"
	if sim, ok := inRound(g.Position); ok {
		what = "Choose your cell"
		if ms := sim.LegalMovesFor(side); len(ms) > 0 {
			what = fmt.Sprintf("Choose the cell for your %s (/place)", ms[0].Drop)
		}
	}
	line := fmt.Sprintf("%s in game %s", what, g.ID)
	if d := g.Clock.Deadline; !d.IsZero() && !g.Clock.Paused.IsZero() {
		line += fmt.Sprintf(" (%s left; the clock is frozen while on leave)", words.Left(d.Sub(g.Clock.Paused)))
	} else if !d.IsZero() {
		line += fmt.Sprintf(", by %s (%s left)", words.Time(d), words.Left(d.Sub(s.Now())))
	}
	return line + "."
}

// SamePlace reports whether a reply to a request from p shows in g's own thread or
// channel, where a mention reaches the players.
func SamePlace(p Place, g *storage.Game) bool {
	if g.Thread != "" {
		return p.Thread == g.Thread
	}
	return p.Thread == "" && p.Channel == g.Channel && p.Guild == g.Guild
}

// Buttons are the buttons under g's board, as the features add them.
func (s *Service) Buttons(g *storage.Game) []Action {
	var actions []Action
	for _, hook := range s.hooks.buttons {
		actions = hook(g, actions)
	}
	return actions
}

// merge adds the notifications and background work of ge to e (not its reply).
func merge(e, ge *effects) {
	e.notes = append(e.notes, ge.notes...)
	e.engine = append(e.engine, ge.engine...)
	e.after = append(e.after, ge.after...)
	e.wake = e.wake || ge.wake
}

// SetThread records the thread an adapter opened for game id, so that commands in it
// mean that game and notifications go there.
func (s *Service) SetThread(ctx context.Context, id, thread string) error {
	return s.store.Update(ctx, func(tx *storage.Tx) error {
		_, err := tx.UpdateGame(id, func(g *storage.Game) error {
			g.Thread = thread
			return nil
		})
		return err
	})
}

// NewGame describes a game to start without a challenge (tournament pairings).
type NewGame struct {
	Variant      string
	White, Black storage.Seat
	Place        Place
	DaysPerMove  int               // 0: no clock (unless Bank is set)
	Bank         *storage.TimeBank // a time-bank clock instead of days per move
	NoLeave      bool              // leave does not freeze the game's clock
	Rated        bool
	Start        string // a start position text; empty for the variant's own
	Tournament   string
	Match        string // an engine match (Round is then the game's number in it)
	Round        int
}

// createGame stores a new game, starts its clock and prepares the reply and the
// notifications. from is where the request that started it came from (nil when no
// user's request did, as for tournament pairings); starter, the user who sent it,
// learns of the game from the reply.
func (s *Service) createGame(tx *storage.Tx, e *effects, ng NewGame, starter string, from *Place) (*storage.Game, error) {
	if !s.InGuild(ng.Place.Guild) {
		return nil, Refuse(ErrServerLeft, "Missive is no longer in that server, so no game can start there.")
	}
	v, err := s.reg.Lookup(ng.Variant)
	if err != nil {
		return nil, err
	}
	if ng.DaysPerMove != 0 && !clock.ValidDays(ng.DaysPerMove) {
		return nil, Refuse(ErrRefused, "Days per move must be one of %s, not %d.", words.OrInts(clock.DaysChoices), ng.DaysPerMove)
	}
	if ng.Bank != nil {
		if why := clock.BankFault(ng.Bank); why != "" {
			return nil, Refuse(ErrRefused, "That time bank %s.", why)
		}
		ng.DaysPerMove = 0
	}
	if ng.White.ID == "" || ng.Black.ID == "" || ng.White.ID == ng.Black.ID {
		return nil, Refuse(ErrRefused, "A game needs two different players.")
	}
	seed := s.rand()
	pos := v.Start(seed)
	if ng.Start != "" {
		if pos, err = v.ParsePosition(ng.Start); err != nil {
			return nil, err
		}
	}
	if err := Playable(pos); err != nil {
		return nil, err
	}
	g := &storage.Game{
		Variant: v.Key(), Players: [2]storage.Seat{ng.White, ng.Black},
		Guild: ng.Place.Guild, Channel: ng.Place.Channel, Thread: ng.Place.Thread,
		Record: record.Record{Seed: seed, Start: ng.Start}, Rated: ng.Rated,
		Clock:      storage.Clock{DaysPerMove: ng.DaysPerMove, Bank: ng.Bank, NoLeave: ng.NoLeave},
		Tournament: ng.Tournament, Match: ng.Match, Round: ng.Round,
	}
	if err := tx.PutGame(g); err != nil {
		return nil, err
	}
	now := s.Now()
	clock.Start(g, now)
	if err := s.save(tx, e, g, now); err != nil {
		return nil, err
	}
	viewer := ViewerFor(g, starter)
	if len(g.ToMove) == 1 {
		viewer = HumanSide(g, g.ToMove[0]) // the player who must look at it first
	}
	img, err := s.boardImage(tx, g, viewer, false)
	if err != nil {
		return nil, err
	}
	begins := fmt.Sprintf("Game %s begins: %s (white) vs %s (black).", g.ID, words.Seat(g.Players[rules.White]), words.Seat(g.Players[rules.Black]))
	status := s.StatusLine(g)
	if both := bothChoose(g); both != "" {
		status += "\n" + both
	}
	e.reply = Reply{Title: s.GameTitle(g), Text: begins + "\n" + status, Fields: s.GameFields(g),
		Game: RefOf(g), Started: RefOf(g), Actions: s.Buttons(g)}
	e.image = img
	inPlace := from != nil && SamePlace(*from, g)
	for _, side := range rules.Sides {
		if g.Player(side).ID == starter {
			continue
		}
		text := begins
		if g.Awaits(side) {
			text += "\n" + s.YourTurn(g, side)
		}
		if err := s.tell(tx, e, g, side, NoticeChallenge, text, fmt.Sprintf("start/%s/%s", g.ID, side), inPlace); err != nil {
			return nil, err
		}
	}
	return g, nil
}

// CreateGame starts a game without a challenge (a tournament pairing) and tells both
// players.
func (s *Service) CreateGame(ctx context.Context, ng NewGame) (*storage.Game, error) {
	var games []*storage.Game
	err := s.StartGames(ctx, func(tx *storage.Tx, create func(NewGame) (*storage.Game, error)) error {
		g, err := create(ng)
		games = []*storage.Game{g}
		return err
	})
	if err != nil {
		return nil, err
	}
	return games[0], nil
}

// StartGames runs fn in one write transaction in which create stores new games, so
// that a caller (the tournament code) can start a round's games together with its
// own records: all or nothing. After the commit both players of each game are told
// and engine players start thinking. Errors meant for people satisfy ErrRefused or
// the rules sentinels.
func (s *Service) StartGames(ctx context.Context, fn func(tx *storage.Tx, create func(NewGame) (*storage.Game, error)) error) error {
	var all []effects
	err := s.store.Update(ctx, func(tx *storage.Tx) error {
		all = all[:0]
		if err := fn(tx, func(ng NewGame) (*storage.Game, error) {
			var e effects
			g, err := s.createGame(tx, &e, ng, "", nil)
			if err == nil {
				e.image = nil // no one asked: the players are told by notifications
				all = append(all, e)
			}
			return g, err
		}); err != nil {
			return err
		}
		for i := range all {
			if err := s.out.enqueue(tx, &all[i]); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	for i := range all {
		s.finish(ctx, &all[i])
	}
	return nil
}

// Playable refuses a start position in which nobody can ever act: Go-Chess's empty
// board while its placement phase is not built.
func Playable(pos rules.Position) error {
	if sim, ok := pos.(rules.Simultaneous); ok && len(sim.Awaiting()) > 0 {
		return nil
	}
	if !pos.Outcome().IsOver() && len(pos.LegalMoves()) == 0 {
		return Refuse(ErrRefused, "%s cannot be played from its own start yet (its placement phase is not available in this version); "+
			"use the fen option to play from a set-up position.", pos.Variant().Name())
	}
	return nil
}

// NotYourTurn is the refusal of an action by the side not due to act.
func NotYourTurn(g *storage.Game, side rules.Side) error {
	other := g.Player(side.Other())
	return Refuse(rules.ErrNotYourTurn, "It is %s's turn in game %s, not yours; you will be told when %s has moved.",
		words.Seat(other), g.ID, words.Seat(other))
}
