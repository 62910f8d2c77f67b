package storage_test

import (
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/missivechess/missive/storage"
)

// A review is stored under its game's id, read back whole, refused when it does not
// fit its own numbers, and checked by Verify.
func TestReviewStored(t *testing.T) {
	s, _, _ := openTemp(t)
	r := &storage.Review{Game: "7", Plies: 3, Nodes: 1000, Decisive: 1, Accuracy: [2]float64{92.5, 40},
		Moves: []storage.ReviewMove{{Index: 0, Class: "best"}, {Index: 1, Class: "blunder", Eval: -900, BestEval: 20, Loss: 42.5, Best: "d8e7", Line: []string{"d8e7", "g1f3"}}, {Index: 2, Class: "good"}}}
	update(t, s, func(tx *storage.Tx) error { return tx.PutReview(r) })
	view(t, s, func(tx *storage.Tx) error {
		got, err := tx.Review("7")
		if err != nil {
			return err
		}
		if got.Moves[1].Best != "d8e7" || len(got.Moves[1].Line) != 2 || got.Accuracy[1] != 40 || got.Decisive != 1 || got.Version != 1 {
			t.Fatalf("read back %+v", got)
		}
		if _, err := tx.Review("8"); !errors.Is(err, storage.ErrNotFound) {
			t.Fatalf("a missing review: %v", err)
		}
		return nil
	})
	for name, bad := range map[string]*storage.Review{
		"class":    {Game: "9", Plies: 1, Decisive: -1, Moves: []storage.ReviewMove{{Class: "great"}}},
		"index":    {Game: "9", Plies: 1, Decisive: -1, Moves: []storage.ReviewMove{{Index: 1, Class: "good"}}},
		"decisive": {Game: "9", Plies: 1, Decisive: 1, Moves: []storage.ReviewMove{{Class: "good"}}},
	} {
		err := s.Update(t.Context(), func(tx *storage.Tx) error { return tx.PutReview(bad) })
		if !errors.Is(err, storage.ErrInvalid) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if err := s.Verify(t.Context()); err != nil {
		t.Fatal(err)
	}
}

// A review request is queued once per game (asking again at more entries updates
// it), listed first asked for first, survives reopening the file, and goes when
// its review is done.
func TestReviewRequests(t *testing.T) {
	s, clock, path := openTemp(t)
	ask := func(id string, plies int) bool {
		clock.Advance(time.Minute)
		var changed bool
		update(t, s, func(tx *storage.Tx) (err error) {
			changed, err = tx.AskReview(id, plies)
			return err
		})
		return changed
	}
	if !ask("12", 40) || !ask("3", 7) || ask("12", 40) || !ask("12", 41) {
		t.Fatal("AskReview reported the wrong change")
	}
	list := func(s *storage.Store) (out []string) {
		view(t, s, func(tx *storage.Tx) error {
			rs, err := tx.ReviewRequests()
			for _, r := range rs {
				out = append(out, fmt.Sprintf("%s@%d", r.Game, r.Plies))
			}
			return err
		})
		return out
	}
	if got := list(s); !slices.Equal(got, []string{"12@41", "3@7"}) {
		t.Fatalf("queue %v, want 12@41 (first asked for, at 40 entries, then 41) then 3@7", got)
	}
	if err := s.Verify(t.Context()); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s = openAt(t, path, nil)
	update(t, s, func(tx *storage.Tx) error {
		if err := tx.ReviewDone("3"); err != nil {
			return err
		}
		return tx.ReviewDone("99") // none: not an error
	})
	if got := list(s); !slices.Equal(got, []string{"12@41"}) {
		t.Fatalf("queue after reopening and one done: %v", got)
	}
	err := s.Update(t.Context(), func(tx *storage.Tx) error { _, err := tx.AskReview("a\x00b", 1); return err })
	if !errors.Is(err, storage.ErrInvalid) {
		t.Errorf("a bad game id: %v", err)
	}
}
