package storage

import (
	"context"
	"fmt"
	"time"
)

// MaxResultSize bounds the result blob stored with a request id.
const MaxResultSize = 64 << 10

// pruneBatch is how many expired request entries each recorded request removes.
const pruneBatch = 8

// requestRecord is the stored result of an interaction or command.
type requestRecord struct {
	At     time.Time `json:"at"`
	Result []byte    `json:"result,omitempty"`
}

// Do runs fn at most once per requestID (a Discord interaction id, a console command
// id): in one write transaction it either finds requestID already recorded and
// returns its stored result with replayed = true without calling fn, or it calls fn
// and records requestID with fn's result together with fn's changes. A retried
// delivery therefore never applies a move twice. When fn fails nothing is recorded,
// so a retry runs it again. Entries expire after Options.RequestTTL. An empty
// requestID runs fn without recording anything. fn may run more than once (see Update).
func (s *Store) Do(ctx context.Context, requestID string, fn func(*Tx) ([]byte, error)) (result []byte, replayed bool, err error) {
	if err := checkKeyPart("request id", requestID, false); err != nil {
		return nil, false, err
	}
	if requestID != "" { // a retried delivery usually needs no write transaction at all
		err = s.View(ctx, func(tx *Tx) (err error) {
			result, replayed, err = tx.request(requestID)
			return err
		})
		if err != nil || replayed {
			return result, replayed, err
		}
	}
	err = s.Update(ctx, func(tx *Tx) error {
		result, replayed = nil, false
		if requestID != "" {
			prev, found, err := tx.request(requestID)
			if err != nil {
				return err
			}
			if found {
				result, replayed = prev, true
				return nil
			}
		}
		r, err := fn(tx)
		if err != nil {
			return err
		}
		result = r
		if requestID == "" {
			return nil
		}
		return tx.recordRequest(requestID, r)
	})
	if err != nil {
		return nil, false, err
	}
	return result, replayed, nil
}

// request returns the stored result of requestID, if recorded.
func (tx *Tx) request(id string) ([]byte, bool, error) {
	b, err := tx.bucket(bRequests)
	if err != nil {
		return nil, false, err
	}
	raw := b.Get([]byte(id))
	if raw == nil {
		return nil, false, nil
	}
	var r requestRecord
	if err := decodeRecord(raw, &r, "request "+id); err != nil {
		return nil, false, err
	}
	return r.Result, true, nil
}

// recordRequest stores requestID with its result and prunes a few expired entries.
func (tx *Tx) recordRequest(id string, result []byte) error {
	if len(result) > MaxResultSize {
		return fmt.Errorf("storage: the result of request %s is %d bytes, more than %d: %w", id, len(result), MaxResultSize, ErrInvalid)
	}
	b, err := tx.bucket(bRequests)
	if err != nil {
		return err
	}
	idx, err := tx.bucket(xRequestTime)
	if err != nil {
		return err
	}
	data, err := encodeRecord(requestRecord{At: tx.now, Result: result})
	if err != nil {
		return err
	}
	tx.dirty = true
	if err := b.Put([]byte(id), data); err != nil {
		return fmt.Errorf("storage: recording request %s: %w", id, err)
	}
	if err := idx.Put(concat(timeKey(tx.now), []byte(id)), []byte{}); err != nil {
		return fmt.Errorf("storage: recording request %s: %w", id, err)
	}
	_, err = tx.pruneRequests(pruneBatch)
	return err
}

// pruneRequests deletes up to max (all when max <= 0) entries older than the TTL.
func (tx *Tx) pruneRequests(max int) (int, error) {
	b, err := tx.bucket(bRequests)
	if err != nil {
		return 0, err
	}
	idx, err := tx.bucket(xRequestTime)
	if err != nil {
		return 0, err
	}
	cutoff := tx.now.Add(-tx.s.ttl).UnixMilli()
	n := 0
	c := idx.Cursor()
	for k, _ := c.First(); k != nil && (max <= 0 || n < max); k, _ = c.First() {
		at, ok := parseTimeKey(k)
		if ok && at.UnixMilli() >= cutoff {
			break
		}
		tx.dirty = true
		if ok {
			id := k[8:]
			// Delete the entry only if it is this one (a re-recorded id has a newer time).
			var r requestRecord
			if raw := b.Get(id); raw != nil && decodeRecord(raw, &r, "request "+string(id)) == nil && r.At.UnixMilli() == at.UnixMilli() {
				if err := b.Delete(id); err != nil {
					return n, err
				}
			}
		}
		if err := c.Delete(); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// PruneRequests deletes every idempotency entry older than Options.RequestTTL and
// returns how many it removed. Recording requests already prunes a few each time.
func (s *Store) PruneRequests(ctx context.Context) (int, error) {
	var n int
	err := s.Update(ctx, func(tx *Tx) (err error) {
		n, err = tx.pruneRequests(0)
		return err
	})
	return n, err
}
