package storage_test

import (
	"testing"
	"time"

	"github.com/missivechess/missive/storage"
)

// A review request is claimed by one worker of a run at a time; a claim of an
// earlier run (a process that stopped) passes on; a request asked by a player
// records who; and a review made for fewer entries than asked meanwhile leaves
// the request for the next one.
func TestReviewClaims(t *testing.T) {
	s, clock, _ := openTemp(t)
	claim := func(id, run string, worker int) *storage.ReviewRequest {
		var r *storage.ReviewRequest
		update(t, s, func(tx *storage.Tx) (err error) {
			r, err = tx.ClaimReview(id, run, worker, clock.Now())
			return err
		})
		return r
	}
	update(t, s, func(tx *storage.Tx) error {
		_, err := tx.AskReview("1", 10)
		return err
	})
	if r := claim("2", "run-a", 1); r != nil {
		t.Fatalf("claimed a review nobody asked for: %+v", r)
	}
	if r := claim("1", "run-a", 1); r == nil || r.Claim.Run != "run-a" || r.Claim.Worker != 1 {
		t.Fatalf("first claim: %+v", r)
	}
	if r := claim("1", "run-a", 2); r != nil {
		t.Fatalf("a second worker of the same run claimed it too: %+v", r.Claim)
	}
	clock.Advance(time.Hour)
	if r := claim("1", "run-b", 1); r == nil || r.Claim.Run != "run-b" {
		t.Fatalf("the next run could not take over a stopped run's claim: %+v", r)
	}
	update(t, s, func(tx *storage.Tx) error {
		if changed, err := tx.AskReviewBy("1", 12, "alice"); err != nil || !changed {
			t.Fatalf("asked by a player: %v %v", changed, err)
		}
		if changed, err := tx.AskReviewBy("1", 12, ""); err != nil || changed {
			t.Fatalf("the game's end asked again: %v %v", changed, err)
		}
		stays, err := tx.ReviewMade("1", 10)
		if err != nil || !stays {
			t.Fatalf("a review of 10 entries ended a request for 12: %v %v", stays, err)
		}
		r, err := tx.ReviewRequestOf("1")
		if err != nil || r.By != "alice" || r.Claim != nil || r.Plies != 12 {
			t.Fatalf("the request left: %+v %v", r, err)
		}
		if stays, err := tx.ReviewMade("1", 12); err != nil || stays {
			t.Fatalf("the review of 12 entries: %v %v", stays, err)
		}
		_, err = tx.ReviewRequestOf("1")
		if err == nil {
			t.Fatal("the request stays after its review")
		}
		return nil
	})
}
