package storage_test

import (
	"errors"
	"testing"

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
