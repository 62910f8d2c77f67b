package bot

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/missivechess/missive/bot/clock"
	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/bot/words"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/storage"
)

// The scheduler.
//
// Every game with a clock is in the store's next-deadline index under the earlier of
// its reminder wake-up (Clock.Wake) and its deadline. Run waits for the first entry
// (or a Wake call, or a minute at most), then Tick handles every game due: a passed
// deadline ends the game on time in the same transaction that removes it from the
// index, and a reminder is marked as sent (Clock.Sent) in the transaction that moves
// the wake-up on. After a restart the index holds exactly what is left to do, so
// nothing is lost and nothing is done twice; the notification is written to the
// outbox in the same transaction and delivered from there (outbox.go), so a crash
// after the commit delays it rather than losing it. Expired challenges are closed the
// same way.

// maxSleep bounds the scheduler's sleep, so that challenge expiries (which have no
// next-time query) and clock changes are noticed.
const maxSleep = time.Minute

// Wake asks the scheduler to look at its index again (a deadline changed).
func (s *Service) Wake() {
	select {
	case s.kick <- struct{}{}:
	default:
	}
}

// Run drives deadlines, reminders, engine retries, challenge expiry and the check
// of the external engines (enginecheck.go) until ctx ends, and records a heartbeat
// every minute while the service is connected. It first gives an outage back to the
// running games (Resume; when the adapter reports a gateway, once it is connected),
// then handles at once whatever fell due while the service was stopped.
func (s *Service) Run(ctx context.Context) error {
	if !s.gateway {
		s.live.mu.Lock()
		s.live.down = true
		s.live.mu.Unlock()
	}
	defer func() {
		// A clean stop is the outage's start, not the last minute's heartbeat.
		if s.Connected() {
			bctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
			defer cancel()
			if err := s.beat(bctx, s.Now()); err != nil {
				s.log.Error("bot: recording the last heartbeat failed", "error", err)
			}
		}
	}()
	for {
		s.CheckEngines()
		if s.resumeDue() {
			if err := s.Resume(ctx, s.Now()); err != nil && ctx.Err() == nil {
				s.log.Error("bot: scheduler cannot resume", "error", err)
			}
		}
		next, err := s.Tick(ctx)
		if err != nil && ctx.Err() == nil {
			s.log.Error("bot: scheduler pass failed", "error", err)
		}
		s.heartbeat(ctx)
		wait := maxSleep
		if !next.IsZero() {
			wait = min(wait, max(next.Sub(s.Now()), 0))
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		case <-s.kick:
			t.Stop()
		}
	}
}

// Tick handles everything due at the service's current time and returns when the
// next game is due (zero when none is). While the service is disconnected
// (Connected is false) it handles no game: their clocks are held.
func (s *Service) Tick(ctx context.Context) (time.Time, error) {
	// A pass is background work until its notices are handed to the outbox's
	// workers: Idle, and a console's script end, wait for a game it is ending.
	s.bg.add()
	defer s.bg.done()
	now := s.Now()
	held := !s.Connected()
	var due []storage.Due
	if !held {
		if err := s.store.View(ctx, func(tx *storage.Tx) (err error) {
			due, err = tx.DueGames(now, 0)
			return err
		}); err != nil {
			return time.Time{}, err
		}
	}
	var errs []error
	for _, d := range due {
		if err := s.processDue(ctx, d.Game); err != nil {
			errs = append(errs, fmt.Errorf("game %s: %w", d.Game, err))
		}
	}
	for _, hook := range s.hooks.tick {
		if err := s.tick(ctx, hook, now); err != nil {
			errs = append(errs, err)
		}
	}
	var next time.Time
	if held {
		return next, errors.Join(errs...) // GatewayUp wakes the scheduler
	}
	err := s.store.View(ctx, func(tx *storage.Tx) error {
		d, ok, err := tx.NextDue()
		if ok {
			next = d.At
		}
		return err
	})
	return next, errors.Join(append(errs, err)...)
}

// processDue ends game id on time when its deadline has passed, and otherwise sends
// the reminders that fell due and plans its next wake-up.
func (s *Service) processDue(ctx context.Context, id string) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("bot: scheduler panicked on game %s: %v", id, r)
		}
	}()
	var e effects
	if err := s.store.Update(ctx, func(tx *storage.Tx) error {
		e = effects{}
		g, err := tx.Game(id)
		if err != nil {
			return err
		}
		now := s.Now()
		if !g.Active() {
			return nil
		}
		if out := clock.Late(g, now); len(out) > 0 {
			err = s.timeout(tx, &e, g, out)
		} else {
			err = s.save(tx, &e, g, now)
		}
		if err != nil {
			return err
		}
		return s.out.enqueue(tx, &e)
	}); err != nil {
		return err
	}
	s.finish(ctx, &e)
	return nil
}

// timeout ends g on time: the side that ran out (of the sides in out, due to act)
// loses, or draws when the opponent could not possibly win; when both sides owed a
// placement choice, it is drawn.
func (s *Service) timeout(tx *storage.Tx, e *effects, g *storage.Game, out []rules.Side) error {
	var o rules.Outcome
	var text Phrase
	switch {
	case len(out) == 2:
		o = rules.Draw(rules.Timeout)
		text = func(l i18n.Lang) string { return catalogue.For(l).T("timeout.neither", nil) }
	case len(out) == 1:
		late := out[0]
		winner := late.Other()
		if rules.CanWin(g.Position, winner) {
			o = rules.Win(winner, rules.Timeout)
			text = func(l i18n.Lang) string {
				return catalogue.For(l).T("timeout.lost", i18n.Data{"Player": words.In(l).Seated(g.Player(late), late)})
			}
		} else {
			o = rules.Draw(rules.TimeoutDraw)
			text = func(l i18n.Lang) string {
				return catalogue.For(l).T("timeout.drawn", i18n.Data{"Player": words.In(l).Seated(g.Player(late), late),
					"Other": words.Seat(g.Player(winner))})
			}
		}
	default:
		return nil
	}
	g.Outcome = o
	g.DrawOffer, g.Takeback = nil, nil
	g.Clock.SetDeadline(time.Time{})
	if err := s.save(tx, e, g, s.Now()); err != nil {
		return err
	}
	img, err := s.boardImage(tx, g, rules.White, false)
	if err != nil {
		return err
	}
	e.reply = Reply{Title: s.GameTitle(g), Text: text(i18n.English) + "\n" + s.StatusLine(g), Game: RefOf(g)}
	e.image = img
	over := func(l i18n.Lang) string { return text(l) + "\n" + s.StatusLineIn(l, g) }
	for _, side := range rules.Sides {
		if err := s.tell(tx, e, g, side, NoticeGameOver, over, fmt.Sprintf("timeout/%s/%s", g.ID, side), false); err != nil {
			return err
		}
	}
	e.image = nil // no one asked: the players are told by notifications
	return nil
}

// remind queues the reminder d for g.
func (s *Service) remind(tx *storage.Tx, e *effects, g *storage.Game, d dueReminder) error {
	left := g.Clock.Deadline.Sub(s.Now())
	id := "reminder.move"
	if _, ok := inRound(g.Position); ok {
		id = "reminder.placement"
	}
	text := func(l i18n.Lang) string {
		w := words.In(l)
		return catalogue.For(l).T(id, i18n.Data{"Left": w.Left(left), "Game": g.ID, "Time": w.Time(g.Clock.Deadline)})
	}
	key := fmt.Sprintf("reminder/%s/%d/%s/%d", g.ID, g.Clock.Deadline.Unix(), g.Player(d.side).ID, d.hours)
	return s.tell(tx, e, g, d.side, NoticeReminder, text, key, false)
}

// tick runs one feature's Tick hook; a panic in it is logged as its error.
func (s *Service) tick(ctx context.Context, hook func(context.Context, time.Time) error, now time.Time) (err error) {
	defer func() {
		if r := recover(); r != nil {
			s.log.Error("bot: a feature's scheduler pass panicked", "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
			err = fmt.Errorf("bot: a feature's scheduler pass panicked: %v", r)
		}
	}()
	return hook(ctx, now)
}
