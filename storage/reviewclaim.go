package storage

import (
	"errors"
	"time"
)

// ReviewClaim says which review worker is making a requested review: Run names
// the process (a new name each start, so that a claim left by a process that
// stopped half-way is void for the next one), Worker the worker in it.
type ReviewClaim struct {
	Run    string    `json:"run"`
	Worker int       `json:"worker"`
	At     time.Time `json:"at"`
}

// ReviewRequestOf returns game id's review request, or an error wrapping
// ErrNotFound when none is queued.
func (tx *Tx) ReviewRequestOf(id string) (*ReviewRequest, error) {
	return getRecord[ReviewRequest](tx, kindReviewAsk, []byte(id))
}

// AskReviewBy is AskReview for a review that player by asks for: the request
// records who asked (a request made by a game's end becomes a player's), so that
// it keeps its place ahead of the automatic ones across a restart. It reports
// whether the queue changed.
func (tx *Tx) AskReviewBy(id string, plies int, by string) (bool, error) {
	r, err := getRecord[ReviewRequest](tx, kindReviewAsk, []byte(id))
	switch {
	case errors.Is(err, ErrNotFound):
		r = &ReviewRequest{Game: id}
	case err != nil:
		return false, err
	case r.Plies == plies && (r.By != "" || by == ""):
		return false, nil
	}
	r.Plies = plies
	if by != "" {
		r.By = by
	}
	return true, putRecord(tx, kindReviewAsk, r)
}

// ClaimReview claims game id's review request for worker of run, unless another
// worker of the same run holds it; a claim of another run (a process that has
// stopped) passes to the caller. It returns the request claimed, or nil when
// there is nothing to claim (no request: the review is made; or a claim of run's).
func (tx *Tx) ClaimReview(id, run string, worker int, now time.Time) (*ReviewRequest, error) {
	r, err := getRecord[ReviewRequest](tx, kindReviewAsk, []byte(id))
	switch {
	case errors.Is(err, ErrNotFound):
		return nil, nil
	case err != nil:
		return nil, err
	case r.Claim != nil && r.Claim.Run == run:
		return nil, nil
	}
	r.Claim = &ReviewClaim{Run: run, Worker: worker, At: now}
	return r, putRecord(tx, kindReviewAsk, r)
}

// ReviewMade ends game id's review request once its review at plies entries is
// stored: the request goes, unless it was asked again for a longer game
// meanwhile, when it stays (its claim released) for the next review. It
// reports whether the request stays.
func (tx *Tx) ReviewMade(id string, plies int) (bool, error) {
	r, err := getRecord[ReviewRequest](tx, kindReviewAsk, []byte(id))
	switch {
	case errors.Is(err, ErrNotFound):
		return false, nil
	case err != nil:
		return false, err
	case r.Plies > plies:
		r.Claim = nil
		return true, putRecord(tx, kindReviewAsk, r)
	}
	return false, tx.ReviewDone(id)
}
