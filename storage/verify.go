package storage

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"

	rec "github.com/missivechess/missive/rules/record"
)

// maxProblems bounds how many problems Verify reports.
const maxProblems = 20

// Verify checks the whole store in one snapshot: every record decodes and is stored
// under its own key, every game replays from its start through the rules (without the
// position cache) to a position that agrees with its stored status and turn, and every
// index bucket holds exactly the entries its records imply. It returns nil, or an
// error joining up to 20 problems.
func (s *Store) Verify(ctx context.Context) error {
	return s.View(ctx, func(tx *Tx) error { return tx.verify(ctx, verifyAll) })
}

// verifyMode says how much Verify checks.
type verifyMode int

const (
	verifyAll      verifyMode = iota + 1 // records, indexes, and every game replayed
	verifyNoReplay                       // records and indexes
	verifyRecords                        // records only
)

// verifier collects the index entries records imply and the problems found.
type verifier struct {
	ctx      context.Context
	tx       *Tx
	mode     verifyMode
	expected map[string]map[string][]byte // index bucket -> key -> value
	problems []error
	more     int
}

func (v *verifier) fail(err error) {
	if len(v.problems) < maxProblems {
		v.problems = append(v.problems, err)
	} else {
		v.more++
	}
}

func (v *verifier) expect(entries []indexEntry) {
	if v.mode == verifyRecords {
		return
	}
	for _, e := range entries {
		m := v.expected[string(e.bucket)]
		if m == nil {
			m = make(map[string][]byte)
			v.expected[string(e.bucket)] = m
		}
		if prev, dup := m[string(e.key)]; dup && !bytes.Equal(prev, e.value) {
			v.fail(fmt.Errorf("storage: index %s key %q is claimed by %q and %q: %w", e.bucket, e.key, prev, e.value, ErrCorrupt))
		}
		m[string(e.key)] = e.value
	}
}

func (tx *Tx) verify(ctx context.Context, mode verifyMode) error {
	v := &verifier{ctx: ctx, tx: tx, mode: mode, expected: make(map[string]map[string][]byte)}
	for _, check := range v.kinds() {
		check(nil, 0)
	}
	if b, err := tx.bucket(bRequests); err != nil {
		v.fail(err)
	} else {
		_ = b.ForEach(func(k, raw []byte) error {
			var r requestRecord
			if err := decodeRecord(raw, &r, "request "+string(k)); err != nil {
				v.fail(err)
				return nil
			}
			v.expect([]indexEntry{{bucket: xRequestTime, key: concat(timeKey(r.At), k), value: []byte{}}})
			return nil
		})
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	for _, name := range indexBuckets {
		if mode == verifyRecords {
			break
		}
		b, err := tx.bucket(name)
		if err != nil {
			v.fail(err)
			continue
		}
		want := v.expected[string(name)]
		seen := make(map[string]bool, len(want))
		_ = b.ForEach(func(k, val []byte) error {
			w, ok := want[string(k)]
			switch {
			case !ok:
				v.fail(fmt.Errorf("storage: index %s has a stray entry %q that no record implies: %w", name, k, ErrCorrupt))
			case !bytes.Equal(w, val):
				v.fail(fmt.Errorf("storage: index %s entry %q is %q, but its record implies %q: %w", name, k, val, w, ErrCorrupt))
			}
			seen[string(k)] = true
			return nil
		})
		var missing []string
		for k := range want {
			if !seen[k] {
				missing = append(missing, k)
			}
		}
		sort.Strings(missing)
		for _, k := range missing {
			v.fail(fmt.Errorf("storage: index %s lacks the entry %q that a record implies: %w", name, k, ErrCorrupt))
		}
	}
	if v.more > 0 {
		v.problems = append(v.problems, fmt.Errorf("storage: and %d more problems", v.more))
	}
	return errors.Join(v.problems...)
}

// kinds returns the check of each kind of record, from a key on (nil: the first) for
// at most limit records (0: all), each returning the key to go on from (nil at the
// end); the game's replays it when the mode says so.
func (v *verifier) kinds() []func(from []byte, limit int) []byte {
	game := func(g *Game) {
		if v.mode != verifyAll {
			return
		}
		pos, err := replay(v.tx.s.reg, g)
		switch {
		case err != nil:
			v.fail(err)
		case g.Active() && pos.Outcome().IsOver():
			v.fail(fmt.Errorf("storage: game %s is stored as ongoing, but the rules say %s: %w", g.ID, pos.Outcome(), ErrReplay))
		case g.Active() && !slices.Equal(g.ToMove, rec.ToMove(pos)):
			v.fail(fmt.Errorf("storage: game %s says %v are to move, but the position says %v: %w", g.ID, g.ToMove, rec.ToMove(pos), ErrReplay))
		}
	}
	return []func([]byte, int) []byte{
		func(from []byte, limit int) []byte { return verifyKind(v, kindGame, game, from, limit) },
		func(from []byte, limit int) []byte { return verifyKind[Player](v, kindPlayer, nil, from, limit) },
		func(from []byte, limit int) []byte { return verifyKind[Challenge](v, kindChallenge, nil, from, limit) },
		func(from []byte, limit int) []byte {
			return verifyKind[Tournament](v, kindTournament, nil, from, limit)
		},
		func(from []byte, limit int) []byte { return verifyKind[Rating](v, kindRating, nil, from, limit) },
		func(from []byte, limit int) []byte { return verifyKind[Server](v, kindServer, nil, from, limit) },
		func(from []byte, limit int) []byte { return verifyKind[Match](v, kindMatch, nil, from, limit) },
		func(from []byte, limit int) []byte { return verifyKind[Review](v, kindReview, nil, from, limit) },
		func(from []byte, limit int) []byte {
			return verifyKind[ReviewRequest](v, kindReviewAsk, nil, from, limit)
		},
		func(from []byte, limit int) []byte { return verifyKind[Analysis](v, kindAnalysis, nil, from, limit) },
	}
}

// verifyKind decodes the records of kind k from key from on (at most limit of them,
// 0: all), checks each is stored under its own key and is valid, records its index
// entries, and runs check on it when not nil. It returns the key to go on from, nil
// when no record is left.
func verifyKind[T any, P interface {
	*T
	record
}](v *verifier, k *kind, check func(P), from []byte, limit int) []byte {
	b, err := v.tx.bucket(k.bucket)
	if err != nil {
		v.fail(err)
		return nil
	}
	c := b.Cursor()
	rk, raw := c.First()
	if from != nil {
		rk, raw = c.Seek(from)
	}
	for n := 0; rk != nil; rk, raw = c.Next() {
		if limit > 0 && n == limit {
			return bytes.Clone(rk)
		}
		n++
		if v.ctx.Err() != nil {
			return nil // the caller reports it
		}
		var r T
		p := P(&r)
		if err := decodeRecord(raw, p, describe(k, rk)); err != nil {
			v.fail(err)
			continue
		}
		if !bytes.Equal(p.recordKey(), rk) {
			v.fail(fmt.Errorf("storage: %s is stored under the key of %s: %w", describe(k, p.recordKey()), describe(k, rk), ErrCorrupt))
		}
		if err := p.validate(); err != nil {
			v.fail(err)
		}
		v.expect(p.indexes())
		if check != nil {
			check(p)
		}
	}
	return nil
}
