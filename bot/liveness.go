package bot

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/bot/words"
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
// outage before the scheduler looks at any deadline, and tells each player once, for
// all their games (giveBack: in batches of games, each its own transaction, so that
// players' writes are served between them, resumable from where a stopped process
// left it, and with memory independent of the number of games). A game whose deadline had already passed when the
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

// outageBatch is how many games one transaction of an outage's give-back handles
// (and how many players' notices): small enough that a player's write waiting behind
// it is served within some tens of milliseconds (a game costs some 0.2 ms to shift),
// large enough that the commits (one fsync each) stay a small part of the work.
const outageBatch = 128

// Resume marks the service live at at. When the data file's last heartbeat is older
// than the grace, it first gives the outage back to every running game and tells
// each player once (giveBack); an outage that a stopped process left half-way is
// finished first.
func (s *Service) Resume(ctx context.Context, at time.Time) error {
	s.resumeMu.Lock()
	defer s.resumeMu.Unlock()
	at = at.UTC()
	for {
		var o *storage.Outage
		if err := s.store.Update(ctx, func(tx *storage.Tx) (err error) {
			if o, err = tx.Outage(); err != nil || o != nil {
				return err // one left half-way goes first; its end is the heartbeat then
			}
			last, ok, err := tx.Heartbeat()
			if err != nil {
				return err
			}
			if ok && at.Sub(last) > s.grace {
				if o, err = tx.BeginOutage(last, at); err != nil {
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
		if o == nil {
			break
		}
		if err := s.giveBack(ctx); err != nil {
			return fmt.Errorf("bot: giving the outage from %s back: %w", words.Time(o.From), err)
		}
	}
	s.live.mu.Lock()
	s.live.down, s.live.since, s.live.beat = false, time.Time{}, at
	s.live.mu.Unlock()
	s.Wake()
	return nil
}

// giveBack gives the outage being given back (storage's Tx.Outage) to the running
// games, outageBatch games a transaction: each game owed it has its period start,
// deadline and wake-up moved on by the outage (a game paused by leave stands still
// anyway; a game already out of time when the outage began is left alone, and lost
// on time as usual), and is counted for its players. Then each player is told once,
// for all their games, outageBatch players a transaction. Every transaction stores
// how far it got, so a process stopped half-way goes on from there and no game is
// shifted twice. A game whose record is damaged is logged by id, counted and
// skipped: the others still get the time.
func (s *Service) giveBack(ctx context.Context) error {
	for batch := 1; ; batch++ {
		var e effects
		var cur *storage.Outage
		var damaged []string
		if err := s.store.Update(ctx, func(tx *storage.Tx) (err error) {
			e, damaged = effects{}, nil
			if cur, err = tx.Outage(); err != nil || cur == nil {
				return err
			}
			if cur.Phase == storage.OutageShift {
				damaged, err = s.shiftBatch(tx, cur)
			} else {
				err = s.noticeBatch(tx, &e, cur)
			}
			if err != nil {
				return err
			}
			return s.out.enqueue(tx, &e)
		}); err != nil {
			return err
		}
		for _, id := range damaged {
			s.log.Error("bot: a damaged game gets no time back for the outage; restore it from a backup", "game", id)
		}
		s.finish(ctx, &e)
		switch {
		case cur == nil:
			return nil
		case cur.Phase == storage.OutageDone:
			s.log.Warn("bot: clocks extended after an outage", "outage", cur.Length(), "games", cur.Shifted,
				"damaged", cur.Damaged, "players", cur.Notified)
		}
		if s.outageStep != nil {
			if err := s.outageStep(batch); err != nil {
				return err
			}
		}
	}
}

// shiftBatch gives outage o to the next outageBatch running games after its cursor
// and counts them for their players; it returns the ids of damaged game records.
func (s *Service) shiftBatch(tx *storage.Tx, o *storage.Outage) ([]string, error) {
	ids, err := tx.ActiveGamesAfter(o.Cursor, s.outageBatch)
	if err != nil {
		return nil, err
	}
	var damaged []string
	for _, id := range ids {
		g, given, err := tx.GiveBack(o, id)
		if errors.Is(err, storage.ErrCorrupt) {
			damaged = append(damaged, id)
			o.Damaged++
			continue
		}
		if err != nil {
			return nil, err
		}
		if !given {
			continue
		}
		o.Shifted++
		for i, seat := range g.Players {
			if seat.IsEngine() || seat.ID == "" || i == 1 && seat.ID == g.Players[0].ID {
				continue
			}
			if err := tx.TallyOutage(seat, g); err != nil {
				return nil, err
			}
		}
	}
	if len(ids) > 0 {
		o.Cursor = ids[len(ids)-1]
	}
	if len(ids) < s.outageBatch {
		o.Phase = storage.OutageNotify
	}
	return damaged, tx.SaveOutage(o)
}

// noticeBatch queues the notices of the next outageBatch players told about outage
// o, one a player for all their games, and ends o after the last.
func (s *Service) noticeBatch(tx *storage.Tx, e *effects, o *storage.Outage) error {
	tallies, err := tx.OutageTallies(s.outageBatch)
	if err != nil {
		return err
	}
	for _, t := range tallies {
		loc, err := PlayerLocalizer(tx, catalogue, t.Player)
		if err != nil {
			return err
		}
		w := words.In(loc.Lang())
		data := i18n.Data{"From": w.Time(o.From), "To": w.Time(o.To), "Length": w.Left(o.Length()),
			"Game": t.Game, "Deadline": w.Time(t.Deadline)}
		text := loc.T("outage.game", data)
		if t.Games != 1 {
			text = loc.N("outage.games", t.Games, data)
		}
		seat := storage.Seat{ID: t.Player, Name: t.Name}
		e.notes = append(e.notes, note{n: Notification{Key: "outage/" + o.ID + "/" + t.Player, Kind: NoticeInfo,
			To: User{ID: t.Player, Name: words.Seat(seat)}, Direct: true, Reply: Reply{Title: loc.T("outage.title", nil), Text: text}}})
		if err := tx.DeleteOutageTally(t.Player); err != nil {
			return err
		}
		o.Notified++
	}
	if len(tallies) < s.outageBatch {
		o.Phase = storage.OutageDone
		return tx.EndOutage()
	}
	return tx.SaveOutage(o)
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
