package bot

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"slices"
	"time"

	"github.com/missivechess/missive/bot/clock"
	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/bot/words"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/storage"
)

// startEngine lets the engine player of game id act, in the background, unless a job
// for that game is already running.
func (s *Service) startEngine(id string) {
	if s.engine == nil {
		return
	}
	s.engMu.Lock()
	if s.engBusy[id] {
		s.engMu.Unlock()
		return
	}
	s.engBusy[id] = true
	s.engMu.Unlock()
	s.bg.add()
	go func() {
		defer s.bg.done()
		defer func() {
			s.engMu.Lock()
			delete(s.engBusy, id)
			s.engMu.Unlock()
		}()
		// Games a feature claims (engine matches) take turns in a lane of their
		// own, so that a long match never keeps the engine from people's games.
		sem, limit := s.engSem, 64
		if lane, ok := s.lane(id); ok {
			sem, limit = s.laneSem, lane.Plies
			s.bg.toLane()
			defer s.bg.laneDone()
		}
		select {
		case sem <- struct{}{}:
		case <-s.closed:
			return
		}
		defer func() { <-sem }()
		s.engineTurns(id, limit)
	}()
}

// Settled waits until the background work started so far is done, as Idle does,
// but for the engine lanes' (the games of engine matches), which may go on for
// hours: what is left is only theirs. Their notifications still reach the
// notifier as they come.
func (s *Service) Settled() { s.bg.waitLanes() }

// toLane counts a job of the tracker as an engine lane's.
func (t *tracker) toLane() {
	t.mu.Lock()
	t.lane++
	if t.n == t.lane {
		t.cond.Broadcast()
	}
	t.mu.Unlock()
}

// laneDone counts an engine lane's job as an ordinary one again, before its done.
func (t *tracker) laneDone() {
	t.mu.Lock()
	t.lane--
	t.mu.Unlock()
}

// waitLanes waits until every job left is an engine lane's.
func (t *tracker) waitLanes() {
	t.mu.Lock()
	for t.n > t.lane {
		t.cond.Wait()
	}
	t.mu.Unlock()
}

// lane returns the engine lane a feature claims game id for (Feature.Lane).
func (s *Service) lane(id string) (Lane, bool) {
	var g *storage.Game
	if err := s.store.View(context.Background(), func(tx *storage.Tx) (err error) {
		g, err = tx.GameRecord(id)
		return err
	}); err != nil {
		return Lane{}, false
	}
	return laneOf(s.hooks.lane, g)
}

// laneOf returns the lane the first hook that claims g gives it.
func laneOf(hooks []func(*storage.Game) (Lane, bool), g *storage.Game) (Lane, bool) {
	for _, hook := range hooks {
		if lane, ok := hook(g); ok {
			return lane, true
		}
	}
	return Lane{}, false
}

// engineTurns plays the engine's moves (or placement choices) in game id for as long
// as the engine is due to act, at most limit of them (the scheduler goes on later).
func (s *Service) engineTurns(id string, limit int) {
	defer func() {
		if r := recover(); r != nil {
			s.log.Error("bot: engine job panicked", "game", id, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
		}
	}()
	for range limit {
		done, err := s.engineTurn(id)
		if err != nil {
			s.log.Warn("bot: engine move failed; the scheduler will try again", "game", id, "error", err)
			return
		}
		if done {
			return
		}
	}
}

// engineTurn makes one engine move in game id; done is true when the engine is not
// due to act.
func (s *Service) engineTurn(id string) (done bool, err error) {
	ctx := context.Background()
	var g *storage.Game
	if err := s.store.View(ctx, func(tx *storage.Tx) (err error) {
		g, err = tx.Game(id)
		return err
	}); err != nil {
		return true, err
	}
	side, ok := engineDue(g)
	if !ok {
		s.forgetFails(id) // a game that ended or moved on keeps no count
		return true, nil
	}
	seat := g.Player(side)
	turn, err := engineTurnOf(g, side)
	if err != nil {
		return false, err
	}
	pos := turn.Position
	tctx, cancel := context.WithTimeout(s.stopping, s.engineTO)
	m, err := s.engine.Move(tctx, turn)
	cancel()
	if err != nil {
		if _, own := laneOf(s.hooks.lane, g); own || errors.Is(err, ErrEngineResigned) || errors.Is(err, ErrEngineForfeits) {
			return s.engineFailed(id, len(g.Moves), side, err)
		}
		if s.engineStuck(g) {
			return s.engineFailed(id, len(g.Moves), side, fmt.Errorf("%w: %w", errEngineStuck, err))
		}
		return false, fmt.Errorf("bot: engine %s in game %s: %w", seat.ID, id, err)
	}
	s.forgetFails(id)
	text := pos.UCI(m)
	ply := len(g.Moves)
	offer := s.engineOffersDraw(g, side, turn, m)
	var e effects
	key := fmt.Sprintf("engine/%s/%d/%s", id, ply, side)
	_, replayed, err := s.store.Do(ctx, key, func(tx *storage.Tx) ([]byte, error) {
		e = effects{forceChannel: true}
		g, err := tx.Game(id)
		if err != nil {
			return nil, err
		}
		if len(g.Moves) != ply {
			return nil, nil // the game moved on meanwhile (a takeback, a resignation)
		}
		if s2, ok := engineDue(g); !ok || s2 != side {
			return nil, nil
		}
		if _, round := inRound(g.Position); round {
			err = s.choose(tx, &e, g, side, text, nil)
		} else {
			if offer && g.DrawOffer == nil {
				// The offer is made with the move: the announcement says so, and the
				// opponent's move lets it lapse as any other.
				g.DrawOffer = &storage.Offer{By: side, Ply: ply + 1, At: s.Now()}
				opponent := words.Seat(g.Player(side.Other()))
				e.note = func(l i18n.Lang) string { return catalogue.For(l).T("engine.offers", i18n.Data{"Player": opponent}) }
			}
			err = s.play(tx, &e, g, side, text, nil)
		}
		for _, hook := range s.hooks.engineMoved {
			if err == nil {
				err = hook(s.tx(tx, &e), g, side)
			}
		}
		if err == nil {
			err = s.out.enqueue(tx, &e)
		}
		return []byte(text), err
	})
	if err != nil {
		return false, fmt.Errorf("bot: engine %s played %s in game %s: %w", seat.ID, text, id, err)
	}
	if !replayed {
		e.engine = slices.DeleteFunc(e.engine, func(g string) bool { return g == id }) // this loop goes on by itself
		s.finish(ctx, &e)
	}
	return false, nil
}

// engineOffersDraw reports whether the engine player of side in g offers a draw
// with its move m, chosen for turn. It asks the engine only in a game against a
// person (not another engine), with no offer pending, when the move does not end
// the game; an engine that cannot judge (its error is logged) makes no offer.
func (s *Service) engineOffersDraw(g *storage.Game, side rules.Side, turn EngineTurn, m rules.Move) bool {
	if g.Player(side.Other()).IsEngine() || g.DrawOffer != nil || turn.Start == nil {
		return false
	}
	next, err := turn.Position.Play(m)
	if err != nil || next.Outcome().IsOver() {
		return false
	}
	after := turn
	after.Position, after.Moves = next, append(slices.Clip(turn.Moves), m)
	ctx, cancel := context.WithTimeout(s.stopping, s.engineTO)
	defer cancel()
	offers, err := s.engine.OffersDraw(ctx, after)
	if err != nil {
		s.log.Warn("bot: the engine could not judge whether to offer a draw; it makes none", "game", g.ID, "error", err)
		return false
	}
	return offers
}

// engineDue returns the side of an engine player due to act in g.
func engineDue(g *storage.Game) (rules.Side, bool) {
	if !g.Active() {
		return rules.White, false
	}
	for _, side := range g.ToMove {
		if g.Player(side).IsEngine() {
			return side, true
		}
	}
	return rules.White, false
}

// engineTurnOf is what the engine player of side in g is asked to act on: its view
// of the position and, outside a simultaneous round, the game's moves.
func engineTurnOf(g *storage.Game, side rules.Side) (EngineTurn, error) {
	turn := EngineTurn{Player: g.Player(side).ID, Side: side, Position: privateView(g.Position, side)}
	if _, round := inRound(g.Position); !round {
		var err error
		if turn.Start, turn.Moves, err = playedMoves(g); err != nil {
			return EngineTurn{}, err
		}
	}
	return turn, nil
}

// playedMoves returns the position where g's ordinary moves began (after any
// placement) and those moves.
func playedMoves(g *storage.Game) (rules.Position, []rules.Move, error) {
	h, err := g.Record.Trace(g.Position.Variant())
	if err != nil {
		return nil, nil, err
	}
	start := h.Start
	var moves []rules.Move
	for _, st := range h.Steps {
		if st.Simultaneous {
			start, moves = st.After, nil
			continue
		}
		moves = append(moves, st.Move)
	}
	return start, moves, nil
}

// An engine player that cannot move holds up a game against a person no longer than
// this: once its turn is engineGiveUp old and its last engineGiveUpTries tries (a
// minute apart, engineRetry) have all failed, it loses the game, so that the person
// is not left waiting for ever on an engine that was removed from the configuration
// or is broken. A failure or two after a restart does not end a game by itself.
const (
	engineGiveUp      = time.Hour
	engineGiveUpTries = 3
)

// errEngineStuck marks an engine failure that ends a game against a person.
var errEngineStuck = errors.New("bot: the engine could not move for an hour")

// engineStuck counts a failed try of g's engine and reports whether it now gives up
// (see engineGiveUp).
func (s *Service) engineStuck(g *storage.Game) bool {
	s.engMu.Lock()
	s.engFails[g.ID]++
	tries := s.engFails[g.ID]
	s.engMu.Unlock()
	start := clock.PeriodStart(g.Clock)
	return tries >= engineGiveUpTries && !start.IsZero() && s.Now().Sub(start) >= engineGiveUp
}

// forgetFails drops the count of game id's failed engine tries.
func (s *Service) forgetFails(id string) {
	s.engMu.Lock()
	delete(s.engFails, id)
	s.engMu.Unlock()
}

// engineFailed ends a game whose engine (side) resigned at ply, or could not move in
// a match or for an hour (engineGiveUp): it loses the game, as in any engine match,
// rather than stall the game until its deadline. A shutdown in progress is not a
// failure: the game goes on after the restart.
func (s *Service) engineFailed(id string, ply int, side rules.Side, cause error) (bool, error) {
	if s.stopping.Err() != nil {
		return true, nil
	}
	s.forgetFails(id)
	resigned := errors.Is(cause, ErrEngineResigned)
	var e effects
	err := s.store.Update(context.Background(), func(tx *storage.Tx) error {
		e = effects{}
		g, err := tx.Game(id)
		if err != nil {
			return err
		}
		if s2, ok := engineDue(g); !ok || s2 != side || len(g.Moves) != ply {
			return nil
		}
		seat := g.Player(side)
		say := func(l i18n.Lang) string {
			loc, who := catalogue.For(l), words.In(l).Seated(seat, side)
			switch {
			case resigned:
				return loc.T("engine.resigned", i18n.Data{"Player": who})
			case errors.Is(cause, errEngineStuck):
				// The cause is for the admins' log; the player learns what it means to them.
				return loc.T("engine.stuck", i18n.Data{"Player": who})
			}
			return loc.T("engine.failed", i18n.Data{"Player": who, "Why": FailureTextIn(l, cause)})
		}
		text := say
		for _, hook := range s.hooks.engineFailed {
			if err := hook(s.tx(tx, &e), g, text(i18n.English)); err != nil {
				return err
			}
		}
		if err := s.end(tx, &e, g, side, rules.Win(side.Other(), rules.Resignation), text, nil); err != nil {
			return err
		}
		return s.out.enqueue(tx, &e)
	})
	if err != nil {
		return true, fmt.Errorf("bot: ending game %s after its engine resigned or failed: %w", id, err)
	}
	if resigned {
		s.log.Info("bot: an engine resigned", "game", id, "side", side)
	} else {
		s.log.Warn("bot: an engine failed, and loses the game", "game", id, "side", side, "error", cause)
	}
	e.reply = Reply{}
	s.finish(context.Background(), &e)
	return true, nil
}
