package storage_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/storage"
)

// moveOnce plays text for side in game id under request id, as a command handler does.
func moveOnce(s *storage.Store, request, id string, side rules.Side, text string, calls *int) ([]byte, bool, error) {
	return s.Do(context.Background(), request, func(tx *storage.Tx) ([]byte, error) {
		*calls++
		g, err := tx.Game(id)
		if err != nil {
			return nil, err
		}
		if _, err := g.Play(side, text, tx.Now()); err != nil {
			return nil, err
		}
		if err := tx.PutGame(g); err != nil {
			return nil, err
		}
		return fmt.Appendf(nil, "played %s, move %d", g.Moves[len(g.Moves)-1].Move, len(g.Moves)), nil
	})
}

func TestIdempotentRequests(t *testing.T) {
	s, clock, _ := openTemp(t)
	ctx := context.Background()
	g := create(t, s, newGame("walk", "a", "b"))
	calls := 0
	res, replayed, err := moveOnce(s, "interaction-1", g.ID, rules.White, "e2", &calls)
	if err != nil || replayed || string(res) != "played e1e2, move 1" {
		t.Fatalf("first delivery: %q %v %v", res, replayed, err)
	}
	// The retried delivery returns the stored result and applies nothing.
	res, replayed, err = moveOnce(s, "interaction-1", g.ID, rules.White, "e2", &calls)
	if err != nil || !replayed || string(res) != "played e1e2, move 1" || calls != 1 {
		t.Fatalf("retried delivery: %q %v %v, fn called %d times", res, replayed, err, calls)
	}
	if got, _ := s.Game(ctx, g.ID); len(got.Moves) != 1 || got.Version != 2 {
		t.Fatalf("after the retry the game has %d moves, version %d", len(got.Moves), got.Version)
	}
	// A failed request is not recorded: its retry runs again (and fails again).
	if _, _, err := moveOnce(s, "interaction-2", g.ID, rules.Black, "e5", &calls); !errors.Is(err, rules.ErrIllegalMove) {
		t.Fatalf("illegal move: %v", err)
	}
	if _, _, err := moveOnce(s, "interaction-2", g.ID, rules.Black, "e5", &calls); !errors.Is(err, rules.ErrIllegalMove) || calls != 3 {
		t.Fatalf("retried illegal move: %v, %d calls", err, calls)
	}
	// Concurrent duplicate deliveries: exactly one applies.
	var wg sync.WaitGroup
	var mu sync.Mutex
	applied, replays := 0, 0
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var n int
			_, rep, err := moveOnce(s, "interaction-3", g.ID, rules.Black, "e7", &n)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err != nil:
				t.Errorf("duplicate delivery: %v", err)
			case rep:
				replays++
			default:
				applied++
			}
		}()
	}
	wg.Wait()
	if applied != 1 || replays != 7 {
		t.Errorf("%d deliveries applied and %d replayed; want 1 and 7", applied, replays)
	}
	if got, _ := s.Game(ctx, g.ID); len(got.Moves) != 2 {
		t.Errorf("game has %d moves after duplicate deliveries", len(got.Moves))
	}
	mustVerify(t, s)

	// Entries expire after the TTL (48h by default): recording a new request prunes
	// old ones, and PruneRequests removes the rest.
	clock.Advance(49 * time.Hour)
	if _, _, err := moveOnce(s, "interaction-4", g.ID, rules.White, "e3", &calls); err != nil {
		t.Fatal(err)
	}
	if _, replayed, _ := moveOnce(s, "interaction-1", g.ID, rules.Black, "e6", &calls); replayed {
		t.Error("an expired request id was still replayed")
	}
	mustVerify(t, s)
	clock.Advance(49 * time.Hour)
	if n, err := s.PruneRequests(ctx); err != nil || n != 2 {
		t.Errorf("PruneRequests removed %d (%v), want 2", n, err)
	}
	mustVerify(t, s)

	// Results are bounded.
	_, _, err = s.Do(ctx, "big", func(*storage.Tx) ([]byte, error) { return make([]byte, storage.MaxResultSize+1), nil })
	if !errors.Is(err, storage.ErrInvalid) {
		t.Errorf("oversized result: %v", err)
	}
	// Without an id, Do simply runs fn.
	n := 0
	for range 2 {
		if _, rep, err := s.Do(ctx, "", func(*storage.Tx) ([]byte, error) { n++; return nil, nil }); err != nil || rep {
			t.Fatal(err)
		}
	}
	if n != 2 {
		t.Errorf("Do without an id ran %d times", n)
	}
}

func TestDoGame(t *testing.T) {
	s, _, _ := openTemp(t)
	ctx := context.Background()
	g := create(t, s, newGame("walk", "a", "b"))
	calls := 0
	move := func(request string, side rules.Side, text string) (*storage.Game, []byte, bool, error) {
		return s.DoGame(ctx, request, g.ID, func(g *storage.Game) ([]byte, error) {
			calls++
			if _, err := g.Play(side, text, time.Time{}); err != nil {
				return nil, err
			}
			return []byte("ok " + text), nil
		})
	}
	got, res, replayed, err := move("i-1", rules.White, "e2")
	if err != nil || replayed || string(res) != "ok e2" || len(got.Moves) != 1 || got.Version != 2 {
		t.Fatalf("first delivery: %v %q %v %v", got, res, replayed, err)
	}
	got, res, replayed, err = move("i-1", rules.White, "e2")
	if err != nil || !replayed || string(res) != "ok e2" || calls != 1 || len(got.Moves) != 1 {
		t.Fatalf("retry: %q %v %v, %d calls", res, replayed, err, calls)
	}
	if _, _, _, err := move("i-2", rules.White, "e3"); !errors.Is(err, rules.ErrNotYourTurn) {
		t.Fatalf("not white's turn: %v", err)
	}
	// Duplicate deliveries racing: exactly one applies.
	var wg sync.WaitGroup
	var mu sync.Mutex
	applied := 0
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _, rep, err := s.DoGame(ctx, "i-3", g.ID, func(g *storage.Game) ([]byte, error) {
				_, err := g.Play(rules.Black, "e7", time.Time{})
				return nil, err
			})
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				t.Errorf("duplicate: %v", err)
			} else if !rep {
				applied++
			}
		}()
	}
	wg.Wait()
	if got, _ := s.Game(ctx, g.ID); applied != 1 || len(got.Moves) != 2 {
		t.Errorf("%d deliveries applied; game has %d moves", applied, len(got.Moves))
	}
	if _, _, _, err := s.DoGame(ctx, "", g.ID, nil); !errors.Is(err, storage.ErrInvalid) {
		t.Errorf("DoGame without an id: %v", err)
	}
	if _, _, _, err := s.DoGame(ctx, "i-9", "404", nil); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("DoGame on a missing game: %v", err)
	}
	mustVerify(t, s)
}
