package storage_test

import (
	"context"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/storage"
)

// fakeClock is a settable clock for Options.Now.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *fakeClock {
	return &fakeClock{t: time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// openAt opens (creating) a store at path with the toy variants.
func openAt(t testing.TB, path string, opts *storage.Options) *storage.Store {
	t.Helper()
	s, err := storage.Open(path, toyRegistry(), opts)
	if err != nil {
		t.Fatalf("Open(%s): %v", path, err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// openTemp opens a new store in a temporary folder with a fake clock.
func openTemp(t testing.TB) (*storage.Store, *fakeClock, string) {
	t.Helper()
	clock := newClock()
	path := filepath.Join(t.TempDir(), "test.db")
	return openAt(t, path, &storage.Options{Now: clock.Now}), clock, path
}

// newGame returns a new toy game between white and black ids.
func newGame(variant, white, black string) *storage.Game {
	return &storage.Game{
		Variant: variant,
		Players: [2]storage.Seat{{ID: white, Name: "Player " + white}, {ID: black, Name: "Player " + black}},
	}
}

// create stores g and fails the test on error.
func create(t testing.TB, s *storage.Store, g *storage.Game) *storage.Game {
	t.Helper()
	if err := s.CreateGame(context.Background(), g); err != nil {
		t.Fatalf("CreateGame: %v", err)
	}
	return g
}

// play applies moves alternately (ordinary turns) to game id, each in its own transaction.
func play(t testing.TB, s *storage.Store, id string, moves ...string) *storage.Game {
	t.Helper()
	var g *storage.Game
	for _, mv := range moves {
		var err error
		g, err = s.UpdateGame(context.Background(), id, func(g *storage.Game) error {
			_, err := g.Play(g.Position.Turn(), mv, time.Time{})
			return err
		})
		if err != nil {
			t.Fatalf("playing %s in game %s: %v", mv, id, err)
		}
	}
	return g
}

// mustVerify fails the test when the store does not verify.
func mustVerify(t testing.TB, s *storage.Store) {
	t.Helper()
	if err := s.Verify(context.Background()); err != nil {
		t.Fatalf("Verify: %v", err)
	}
}

// view runs fn in a read transaction and fails the test on error.
func view(t testing.TB, s *storage.Store, fn func(tx *storage.Tx) error) {
	t.Helper()
	if err := s.View(context.Background(), fn); err != nil {
		t.Fatalf("View: %v", err)
	}
}

// update runs fn in a write transaction and fails the test on error.
func update(t testing.TB, s *storage.Store, fn func(tx *storage.Tx) error) {
	t.Helper()
	if err := s.Update(context.Background(), fn); err != nil {
		t.Fatalf("Update: %v", err)
	}
}

var _ = rules.White
