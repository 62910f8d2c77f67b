package bot

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/missivechess/missive/bot/words"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/storage"
)

// Fair clocks.
//
// Time while the bot is down, or cut off from Discord's gateway, does not count
// against anyone. While the service runs and is connected, Run records a heartbeat in
// the data file (storage's Tx.SetHeartbeat) every heartbeatEvery. When the service
// starts again (Run) or the gateway comes back (GatewayUp), Resume compares the last
// heartbeat with the time: after an outage longer than the grace (OutageGrace by
// default) it moves every running game's deadline and reminder wake-up on by the
// outage, in one transaction, before the scheduler looks at any deadline, and tells
// both players of each game. A game whose deadline had already passed when the
// outage began is left alone: it was lost on time before the bot failed anyone, and
// the scheduler ends it as usual. While the gateway is down the scheduler handles no
// game at all: no timeouts, and no reminders that could not be delivered.

// OutageGrace is how long an outage may last before clocks are extended: a deploy or
// a gateway reconnect takes well under it, so players are not told about every blip,
// while the heartbeat (written every minute) stays well inside it, and five minutes
// are negligible against a clock of at least a day per move.
const OutageGrace = 5 * time.Minute

// heartbeatEvery is how often Run records that the service is live.
const heartbeatEvery = time.Minute

// liveness is the service's view of its own connection.
type liveness struct {
	mu sync.Mutex
	// down says that the gateway is disconnected or that the outage before it has
	// not yet been accounted for: the scheduler handles no game meanwhile.
	down bool
	// up says that the adapter reported the gateway connected (Resume may still be due).
	up bool
	// since is when the service went down (zero: it started down).
	since time.Time
	// beat is when this process last wrote a heartbeat.
	beat time.Time
}

// Connected reports whether the service is live and its clocks run: the gateway (when
// an adapter reports one) is connected and any outage before it is accounted for.
func (s *Service) Connected() bool {
	s.live.mu.Lock()
	defer s.live.mu.Unlock()
	return !s.live.down
}

// GatewayDown tells the service that the adapter lost its gateway connection at at:
// from then on no game times out until GatewayUp, and a longer outage is given back
// to every running game.
func (s *Service) GatewayDown(at time.Time) {
	s.live.mu.Lock()
	was := s.live.down
	s.live.down, s.live.up = true, false
	if !was {
		s.live.since = at
	}
	s.live.mu.Unlock()
	if was {
		return
	}
	s.log.Warn("bot: gateway disconnected; clocks are held until it is back", "at", at)
	// The outage begins now rather than at the last heartbeat.
	if err := s.beat(s.stopping, at); err != nil {
		s.log.Error("bot: recording the last heartbeat failed", "error", err)
	}
}

// GatewayUp tells the service that the adapter's gateway connection is (again) up at
// at: an outage longer than the grace is given back to every running game (Resume),
// and the scheduler goes on.
func (s *Service) GatewayUp(at time.Time) {
	s.live.mu.Lock()
	s.live.up = true
	s.live.mu.Unlock()
	if err := s.Resume(s.stopping, at); err != nil {
		// Run tries again on its next pass; meanwhile clocks stay held.
		s.log.Error("bot: accounting for an outage failed", "error", err)
	}
}

// resumeDue reports whether the service is down but may go on once Resume succeeds.
func (s *Service) resumeDue() bool {
	s.live.mu.Lock()
	defer s.live.mu.Unlock()
	return s.live.down && (s.live.up || !s.gateway)
}

// Resume marks the service live at at. When the data file's last heartbeat is older
// than the grace, it first moves every running game's deadline and reminders on by
// the outage and tells the players, in one transaction.
func (s *Service) Resume(ctx context.Context, at time.Time) error {
	at = at.UTC()
	var e effects
	var moved, damaged int
	var outage time.Duration
	if err := s.store.Update(ctx, func(tx *storage.Tx) error {
		e, moved, damaged, outage = effects{}, 0, 0, 0
		last, ok, err := tx.Heartbeat()
		if err != nil {
			return err
		}
		if ok && at.Sub(last) > s.grace {
			outage = at.Sub(last)
			if moved, damaged, err = s.extendClocks(tx, &e, last, at); err != nil {
				return err
			}
		}
		if !ok || at.After(last) {
			return tx.SetHeartbeat(at)
		}
		return nil
	}); err != nil {
		return fmt.Errorf("bot: resuming after an outage: %w", err)
	}
	s.live.mu.Lock()
	s.live.down, s.live.since, s.live.beat = false, time.Time{}, at
	s.live.mu.Unlock()
	if outage > 0 {
		s.log.Warn("bot: clocks extended after an outage", "outage", outage, "games", moved, "damaged", damaged)
	}
	e.wake = true
	s.finish(ctx, &e)
	return nil
}

// extendClocks moves the period start, deadline and wake-up of every running game
// on by the outage from..to (Clock.Shift; a game paused by leave stands still
// anyway), except games already out of time at from, and tells their players. Each
// game's shift stands on its own: a game whose record is damaged (it does not decode
// or replay) is logged by id, counted and skipped, and the others still get the
// time. It returns how many games it moved and how many it skipped as damaged.
func (s *Service) extendClocks(tx *storage.Tx, e *effects, from, to time.Time) (moved, damaged int, err error) {
	outage := to.Sub(from)
	due, err := tx.DueGames(time.UnixMilli(math.MaxInt64), 0)
	if err != nil {
		return 0, 0, err
	}
	for _, d := range due {
		g, err := tx.Game(d.Game)
		if errors.Is(err, storage.ErrCorrupt) || errors.Is(err, storage.ErrReplay) {
			s.log.Error("bot: a damaged game gets no time back for the outage; restore it from a backup", "game", d.Game, "error", err)
			damaged++
			continue
		}
		if err != nil {
			return moved, damaged, err
		}
		c := &g.Clock
		if !g.Active() || c.Deadline.IsZero() || c.Deadline.Before(from) {
			continue
		}
		c.Shift(outage) // the period's start too, so a time bank is not charged for it
		if err := tx.PutGame(g); err != nil {
			return moved, damaged, err
		}
		moved++
		text := fmt.Sprintf("Missive was offline from %s to %s (%s). That time does not count: the deadline in game %s moved to %s.",
			words.Time(from), words.Time(to), words.Left(outage), g.ID, words.Time(c.Deadline))
		for _, side := range rules.Sides {
			key := fmt.Sprintf("outage/%s/%d/%s", g.ID, from.Unix(), side)
			if err := s.tell(tx, e, g, side, NoticeInfo, text, key, false); err != nil {
				return moved, damaged, err
			}
		}
	}
	return moved, damaged, nil
}

// heartbeat records that the service is live, at most every heartbeatEvery.
func (s *Service) heartbeat(ctx context.Context) {
	now := s.Now()
	s.live.mu.Lock()
	skip := s.live.down || now.Sub(s.live.beat) < heartbeatEvery
	s.live.mu.Unlock()
	if skip {
		return
	}
	if err := s.beat(ctx, now); err != nil && ctx.Err() == nil {
		s.log.Error("bot: recording a heartbeat failed", "error", err)
	}
}

// beat writes a heartbeat at at, unless the stored one is later.
func (s *Service) beat(ctx context.Context, at time.Time) error {
	err := s.store.Update(ctx, func(tx *storage.Tx) error {
		last, ok, err := tx.Heartbeat()
		if err != nil || (ok && !at.After(last)) {
			return err
		}
		return tx.SetHeartbeat(at)
	})
	if err == nil {
		s.live.mu.Lock()
		s.live.beat = at
		s.live.mu.Unlock()
	}
	return err
}
