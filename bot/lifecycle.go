package bot

import (
	"context"
	"fmt"
	"time"

	"github.com/missivechess/missive/bot/clock"
	"github.com/missivechess/missive/bot/i18n"
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
func (s *Service) end(tx *storage.Tx, e *effects, g *storage.Game, side rules.Side, o rules.Outcome, text Phrase, from *Place) error {
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
// takeback) and tells the other player, or both players when the game ended; text
// says what happened, in each reader's language.
func (s *Service) announce(tx *storage.Tx, e *effects, g *storage.Game, side rules.Side, text Phrase, from *Place, key string) error {
	l := e.readerLang()
	img, err := s.boardImageIn(l, tx, g, viewerAfter(g, side, from), false)
	if err != nil {
		return err
	}
	e.reply = Reply{Title: s.GameTitleIn(l, g), Text: text(l) + "\n" + s.StatusLineIn(l, g), Game: RefOf(g), Actions: s.ButtonsIn(l, g), Final: !g.Active()}
	e.image = img
	inPlace := from != nil && SamePlace(*from, g)
	if !g.Active() {
		for _, to := range rules.Sides {
			if to == side {
				continue // the reply tells the one who acted
			}
			over := func(l i18n.Lang) string { return text(l) + "\n" + s.StatusLineIn(l, g) }
			if err := s.tell(tx, e, g, to, NoticeGameOver, over, key+"/over", inPlace); err != nil {
				return err
			}
		}
		return nil
	}
	for _, to := range g.ToMove {
		if to == side {
			continue
		}
		turn := func(l i18n.Lang) string { return text(l) + "\n" + s.YourTurnIn(l, g, to) }
		if err := s.tell(tx, e, g, to, NoticeTurn, turn, key+"/"+to.String(), inPlace); err != nil {
			return err
		}
	}
	return nil
}

// YourTurn is the line that tells side what to do next in g.
func (s *Service) YourTurn(g *storage.Game, side rules.Side) string {
	return s.YourTurnIn(i18n.English, g, side)
}

// YourTurnIn is YourTurn in language l.
func (s *Service) YourTurnIn(l i18n.Lang, g *storage.Game, side rules.Side) string {
	loc, w := catalogue.For(l), words.In(l)
	what := loc.T("yourturn.move", i18n.Data{"Game": g.ID})
	if sim, ok := inRound(g.Position); ok {
		what = loc.T("yourturn.cell", i18n.Data{"Game": g.ID})
		if ms := sim.LegalMovesFor(side); len(ms) > 0 {
			what = pieceT(l, "yourturn.place", ms[0].Drop, i18n.Data{"Game": g.ID})
		}
	}
	if d := g.Clock.Deadline; !d.IsZero() && !g.Clock.Paused.IsZero() {
		return loc.T("yourturn.frozen", i18n.Data{"What": what, "Left": w.Left(d.Sub(g.Clock.Paused))})
	} else if !d.IsZero() {
		return loc.T("yourturn.deadline", i18n.Data{"What": what, "Time": w.Time(d), "Left": w.Left(d.Sub(s.Now()))})
	}
	return loc.T("yourturn.plain", i18n.Data{"What": what})
}

// SamePlace reports whether a reply to a request from p shows in g's own thread or
// channel, where a mention reaches the players.
func SamePlace(p Place, g *storage.Game) bool {
	if g.Thread != "" {
		return p.Thread == g.Thread
	}
	return p.Thread == "" && p.Channel == g.Channel && p.Guild == g.Guild
}

// ButtonsIn are the buttons under g's board labelled in language l, as the
// features add them (Feature.ButtonsIn, else Feature.Buttons).
func (s *Service) ButtonsIn(l i18n.Lang, g *storage.Game) []Action {
	var actions []Action
	for _, hook := range s.hooks.buttons {
		actions = hook(l, g, actions)
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
		return nil, refusal(ErrServerLeft, "refusal.serverleft", nil)
	}
	v, err := s.reg.Lookup(ng.Variant)
	if err != nil {
		return nil, err
	}
	if ng.DaysPerMove != 0 && !clock.ValidDays(ng.DaysPerMove) {
		return nil, refusal(ErrRefused, "refusal.days", func(w words.W) i18n.Data {
			return i18n.Data{"Choices": w.OrInts(clock.DaysChoices), "Days": ng.DaysPerMove}
		})
	}
	if ng.Bank != nil {
		if why := clock.BankFault(ng.Bank); why != "" {
			bank := ng.Bank
			return nil, RefuseIn(ErrRefused, func(l i18n.Lang) string {
				w := clock.In(l)
				return catalogue.For(l).T("refusal.bankfault", i18n.Data{"Fault": w.BankFault(w.ThatBank(), bank)})
			})
		}
		ng.DaysPerMove = 0
	}
	if ng.White.ID == "" || ng.Black.ID == "" || ng.White.ID == ng.Black.ID {
		return nil, refusal(ErrRefused, "refusal.twoplayers", nil)
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
	l := e.readerLang()
	img, err := s.boardImageIn(l, tx, g, viewer, false)
	if err != nil {
		return nil, err
	}
	begins := func(l i18n.Lang) string {
		return catalogue.For(l).T("game.begins", i18n.Data{"Game": g.ID, "White": words.Seat(g.Players[rules.White]), "Black": words.Seat(g.Players[rules.Black])})
	}
	status := s.StatusLineIn(l, g)
	if both := bothChoose(l, g); both != "" {
		status += "\n" + both
	}
	e.reply = Reply{Title: s.GameTitleIn(l, g), Text: begins(l) + "\n" + status, Fields: s.GameFieldsIn(l, g),
		Game: RefOf(g), Started: RefOf(g), Actions: s.ButtonsIn(l, g)}
	e.image = img
	inPlace := from != nil && SamePlace(*from, g)
	for _, side := range rules.Sides {
		if g.Player(side).ID == starter {
			continue
		}
		text := begins
		if g.Awaits(side) {
			text = func(l i18n.Lang) string { return begins(l) + "\n" + s.YourTurnIn(l, g, side) }
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
		v := pos.Variant()
		return refusal(ErrRefused, "refusal.unplayable", func(w words.W) i18n.Data { return i18n.Data{"Variant": w.Variant(v.Key(), v.Name())} })
	}
	return nil
}

// NotYourTurn is the refusal of an action by the side not due to act.
func NotYourTurn(g *storage.Game, side rules.Side) error {
	other := g.Player(side.Other())
	return refusal(rules.ErrNotYourTurn, "refusal.notyourturn", func(words.W) i18n.Data {
		return i18n.Data{"Player": words.Seat(other), "Game": g.ID}
	})
}
