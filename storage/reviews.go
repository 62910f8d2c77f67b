package storage

import (
	"errors"
	"fmt"
	"time"
)

// Review is the engine's review of a game as it was when reviewed (Plies entries),
// stored so that asking again is instant; its key is the game's id. The bot turns it
// back into its picture and annotated PGN.
type Review struct {
	Game  string `json:"game"`
	Plies int    `json:"plies"` // the game's entries when it was reviewed
	// Nodes and TimeMS are the search budget of each position; Took is the review's
	// whole time in milliseconds.
	Nodes  int64        `json:"nodes,omitempty"`
	TimeMS int64        `json:"time_ms,omitempty"`
	Took   int64        `json:"took_ms"`
	Moves  []ReviewMove `json:"moves"`
	// Accuracy is each player's accuracy in percent, White's first.
	Accuracy [2]float64 `json:"accuracy"`
	Decisive int        `json:"decisive"` // index in Moves, -1 for none
	Made     time.Time  `json:"made,omitzero"`
	Stamp
}

// ReviewMove is the review of one entry of the game's record; the side and the
// move itself come from the record.
type ReviewMove struct {
	Index int    `json:"i"`     // index in the record's moves
	Class string `json:"class"` // best | good | inaccuracy | mistake | blunder
	// Eval and BestEval are the engine's scores of the move played and of its best
	// move, from the mover's side, in its units (centipawns; Gess: its own units);
	// mates are ±(1000000 − plies).
	Eval     int      `json:"eval"`
	BestEval int      `json:"best_eval"`
	Loss     float64  `json:"loss"`           // winning chance lost, in percentage points
	Best     string   `json:"best,omitempty"` // the engine's move in canonical text, when it differs
	Line     []string `json:"line,omitempty"` // its continuation, canonical texts
}

// reviewClasses are the stored texts of a move's class.
var reviewClasses = map[string]bool{"best": true, "good": true, "inaccuracy": true, "mistake": true, "blunder": true}

func (r *Review) recordKey() []byte     { return []byte(r.Game) }
func (r *Review) indexes() []indexEntry { return nil }

func (r *Review) validate() error {
	what := "review of game " + r.Game
	if err := checkKeyPart("review game id", r.Game, true); err != nil {
		return err
	}
	if r.Decisive < -1 || r.Decisive >= len(r.Moves) {
		return fmt.Errorf("storage: %s: decisive moment %d is not one of its %d moves: %w", what, r.Decisive, len(r.Moves), ErrInvalid)
	}
	for i, m := range r.Moves {
		if !reviewClasses[m.Class] || m.Index < 0 || m.Index >= r.Plies {
			return fmt.Errorf("storage: %s: move %d (entry %d of %d) has class %q: %w", what, i+1, m.Index+1, r.Plies, m.Class, ErrInvalid)
		}
	}
	return nil
}

// Review returns the review of game id, or an error wrapping ErrNotFound.
func (tx *Tx) Review(id string) (*Review, error) {
	return getRecord[Review](tx, kindReview, []byte(id))
}

// PutReview writes r with the version check (Version 0 creates it).
func (tx *Tx) PutReview(r *Review) error {
	return putRecord(tx, kindReview, r)
}

// ReviewRequest is a review asked for (by /review, or by a game's end) and not yet
// stored: written in the transaction that asks, deleted in the one that stores the
// review, so that a review promised to the players survives a restart. Its key is
// the game's id.
type ReviewRequest struct {
	Game  string `json:"game"`
	Plies int    `json:"plies"` // the game's entries when it was last asked for
	// By is the player who asked with /review, empty for a review made by itself
	// when the game ended; Claim, the review worker making it (reviewclaim.go).
	By    string       `json:"by,omitempty"`
	Claim *ReviewClaim `json:"claim,omitempty"`
	Stamp              // created when first asked for
}

func (r *ReviewRequest) recordKey() []byte     { return []byte(r.Game) }
func (r *ReviewRequest) indexes() []indexEntry { return nil }

func (r *ReviewRequest) validate() error {
	if err := checkKeyPart("review request game id", r.Game, true); err != nil {
		return err
	}
	if r.Plies < 0 {
		return fmt.Errorf("storage: review request of game %s: %d entries: %w", r.Game, r.Plies, ErrInvalid)
	}
	return nil
}

// AskReview queues a review of game id at plies entries unless one is queued
// already (whose entries it then updates); it reports whether the queue changed.
func (tx *Tx) AskReview(id string, plies int) (bool, error) {
	return tx.AskReviewBy(id, plies, "")
}

// ReviewDone removes game id's review request, if there is one.
func (tx *Tx) ReviewDone(id string) error {
	err := deleteRecord[ReviewRequest](tx, kindReviewAsk, []byte(id))
	if errors.Is(err, ErrNotFound) {
		return nil
	}
	return err
}

// ReviewRequests returns the queued review requests, first asked for first.
func (tx *Tx) ReviewRequests() ([]*ReviewRequest, error) {
	b, err := tx.bucket(bReviewQueue)
	if err != nil {
		return nil, err
	}
	var out []*ReviewRequest
	err = b.ForEach(func(k, raw []byte) error {
		var r ReviewRequest
		if err := decodeRecord(raw, &r, describe(kindReviewAsk, k)); err != nil {
			return err
		}
		out = append(out, &r)
		return nil
	})
	sortOldestFirst(out, func(r *ReviewRequest) string { return r.Game })
	return out, err
}
