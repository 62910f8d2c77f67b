package storage

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Tx is one transaction over the store, handed to the callbacks of Store.View,
// Store.Update and Store.Do. It must not be used after the callback returns.
// Reads see the transaction's own writes.
type Tx struct {
	s     *Store
	btx   *bolt.Tx
	now   time.Time
	dirty bool     // something was written to btx
	undo  []func() // restores caller-visible structs when the transaction does not commit
}

// Now returns the time at which the transaction started, per the store's clock.
func (tx *Tx) Now() time.Time { return tx.now }

// rollbackUndo reverts, newest first, the changes made to caller structs.
func (tx *Tx) rollbackUndo() {
	for i := len(tx.undo) - 1; i >= 0; i-- {
		tx.undo[i]()
	}
	tx.undo = nil
}

func (tx *Tx) writable() error {
	if !tx.btx.Writable() {
		if tx.s.readOnly {
			return fmt.Errorf("storage: the store %s is open read-only: %w", tx.s.path, ErrReadOnly)
		}
		return fmt.Errorf("storage: write inside a read-only transaction (use Store.Update): %w", ErrReadOnly)
	}
	return nil
}

// bucket returns the named bucket, or an error naming it if the schema lacks it.
func (tx *Tx) bucket(name []byte) (*bolt.Bucket, error) {
	b := tx.btx.Bucket(name)
	if b == nil {
		return nil, fmt.Errorf("storage: data file %s has no bucket %q: %w", tx.s.path, name, ErrCorrupt)
	}
	return b, nil
}

// record is implemented by the pointer types of every stored record.
type record interface {
	stamp() *Stamp
	recordKey() []byte
	indexes() []indexEntry
	validate() error
}

// idRecord is a record whose id the store assigns when it is first written with none.
type idRecord interface {
	getID() string
	setID(string)
}

// kind describes one record type.
type kind struct {
	name   string // for messages: "game", "player", ...
	bucket []byte
}

var (
	kindGame       = &kind{"game", bGames}
	kindPlayer     = &kind{"player", bPlayers}
	kindChallenge  = &kind{"challenge", bChallenges}
	kindTournament = &kind{"tournament", bTournaments}
	kindRating     = &kind{"rating", bRatings}
	kindServer     = &kind{"server", bServers}
	kindMatch      = &kind{"match", bMatches}
	kindReview     = &kind{"review", bReviews}
	kindReviewAsk  = &kind{"review request", bReviewQueue}
)

// indexEntry is one key of an index bucket derived from a record.
type indexEntry struct {
	bucket []byte
	key    []byte
	value  []byte
	unique string // for a unique index, what the key is ("thread 123"), used in errors
	count  bool   // a counter (counts.go): its appearing adds one to the count named key, its going takes one away
}

// describe names a record by kind and readable key.
func describe(k *kind, rk []byte) string {
	return k.name + " " + strconv.Quote(string(bytes.ReplaceAll(rk, []byte{sep}, []byte{'/'})))
}

// getRecord reads and decodes the record at rk.
func getRecord[T any, P interface {
	*T
	record
}](tx *Tx, k *kind, rk []byte) (P, error) {
	b, err := tx.bucket(k.bucket)
	if err != nil {
		return nil, err
	}
	raw := b.Get(rk)
	if raw == nil {
		return nil, fmt.Errorf("storage: %s not found: %w", describe(k, rk), ErrNotFound)
	}
	var r T
	if err := decodeRecord(raw, P(&r), describe(k, rk)); err != nil {
		return nil, err
	}
	return P(&r), nil
}

// putRecord writes r with the version check: Version 0 creates the record (assigning
// an id when it has none) and fails with ErrExists if the key is taken; otherwise the
// stored version must equal r's. It bumps Version, sets the times and maintains the
// indexes. If the transaction does not commit, r is restored.
func putRecord[T any, P interface {
	*T
	record
}](tx *Tx, k *kind, r P) error {
	if err := tx.writable(); err != nil {
		return err
	}
	b, err := tx.bucket(k.bucket)
	if err != nil {
		return err
	}
	saved := *r
	tx.undo = append(tx.undo, func() { *r = saved })
	st := r.stamp()
	if ir, ok := any(r).(idRecord); ok && st.Version == 0 && ir.getID() == "" {
		id, err := nextID(b)
		if err != nil {
			return err
		}
		ir.setID(id)
	}
	if err := r.validate(); err != nil {
		return err
	}
	rk := r.recordKey()
	old := b.Get(rk)
	var oldIdx []indexEntry
	if st.Version == 0 {
		if old != nil {
			return fmt.Errorf("storage: %s already exists: %w", describe(k, rk), ErrExists)
		}
	} else {
		if old == nil {
			return fmt.Errorf("storage: %s (version %d) no longer exists: %w", describe(k, rk), st.Version, ErrNotFound)
		}
		var prev T
		if err := decodeRecord(old, P(&prev), describe(k, rk)); err != nil {
			return err
		}
		if v := P(&prev).stamp().Version; v != st.Version {
			return fmt.Errorf("storage: %s changed since it was read (version %d, now %d); reload it and try again: %w",
				describe(k, rk), st.Version, v, ErrConflict)
		}
		oldIdx = P(&prev).indexes()
		st.CreatedAt = P(&prev).stamp().CreatedAt
	}
	w, err := prepareWrite(k, r, old, oldIdx, tx.now)
	if err != nil {
		return err
	}
	return tx.apply(w)
}

// preparedWrite is a record write computed ahead of its transaction: the bytes
// expected under the key (nil: none), the new bytes and both sets of index entries.
type preparedWrite struct {
	k        *kind
	key      []byte
	old, new []byte
	oldIdx   []indexEntry
	newIdx   []indexEntry
}

// prepareWrite stamps r (Version+1, times at now) and encodes it and its indexes.
func prepareWrite(k *kind, r record, old []byte, oldIdx []indexEntry, now time.Time) (*preparedWrite, error) {
	st := r.stamp()
	if st.Version == 0 && st.CreatedAt.IsZero() {
		st.CreatedAt = now
	}
	st.Version++
	st.CreatedAt, st.UpdatedAt = utc(st.CreatedAt), now
	data, err := encodeRecord(r)
	if err != nil {
		return nil, fmt.Errorf("storage: encoding %s: %w", describe(k, r.recordKey()), err)
	}
	return &preparedWrite{k: k, key: r.recordKey(), old: old, new: data, oldIdx: oldIdx, newIdx: r.indexes()}, nil
}

// errStale reports that a prepared write's record changed after it was read.
var errStale = errors.New("storage: the record changed after it was read")

// apply performs a prepared write if the stored bytes are still the expected ones,
// and fails with errStale otherwise.
func (tx *Tx) apply(w *preparedWrite) error {
	if err := tx.writable(); err != nil {
		return err
	}
	b, err := tx.bucket(w.k.bucket)
	if err != nil {
		return err
	}
	if cur := b.Get(w.key); (cur == nil) != (w.old == nil) || !bytes.Equal(cur, w.old) {
		return errStale
	}
	tx.dirty = true
	what := describe(w.k, w.key)
	if err := b.Put(w.key, w.new); err != nil {
		return fmt.Errorf("storage: writing %s: %w", what, err)
	}
	return tx.updateIndexes(w.oldIdx, w.newIdx, what)
}

// deleteRecord removes the record at rk and its index entries.
func deleteRecord[T any, P interface {
	*T
	record
}](tx *Tx, k *kind, rk []byte) error {
	if err := tx.writable(); err != nil {
		return err
	}
	r, err := getRecord[T, P](tx, k, rk)
	if err != nil {
		return err
	}
	b, err := tx.bucket(k.bucket)
	if err != nil {
		return err
	}
	tx.dirty = true
	if err := tx.updateIndexes(r.indexes(), nil, describe(k, rk)); err != nil {
		return err
	}
	return b.Delete(rk)
}

// nextID returns the next free decimal id of bucket b.
func nextID(b *bolt.Bucket) (string, error) {
	for {
		seq, err := b.NextSequence()
		if err != nil {
			return "", fmt.Errorf("storage: allocating an id: %w", err)
		}
		id := strconv.FormatUint(seq, 10)
		if b.Get([]byte(id)) == nil {
			return id, nil
		}
	}
}

// updateIndexes replaces the index entries old by new, leaving shared ones alone and
// refusing to overwrite another record's entry in a unique index.
func (tx *Tx) updateIndexes(old, new []indexEntry, what string) error {
	ident := func(e indexEntry) string { return string(e.bucket) + "\x00" + string(e.key) }
	stale := make(map[string]indexEntry, len(old))
	for _, e := range old {
		stale[ident(e)] = e
	}
	var add []indexEntry
	for _, e := range new {
		if o, ok := stale[ident(e)]; ok && bytes.Equal(o.value, e.value) {
			delete(stale, ident(e))
			continue
		}
		add = append(add, e)
	}
	for _, e := range stale {
		if e.count {
			if err := tx.addCount(e.key, -1); err != nil {
				return err
			}
			continue
		}
		b, err := tx.bucket(e.bucket)
		if err != nil {
			return err
		}
		if err := b.Delete(e.key); err != nil {
			return fmt.Errorf("storage: updating index %s of %s: %w", e.bucket, what, err)
		}
	}
	for _, e := range add {
		if e.count {
			if err := tx.addCount(e.key, 1); err != nil {
				return err
			}
			continue
		}
		b, err := tx.bucket(e.bucket)
		if err != nil {
			return err
		}
		if e.unique != "" {
			if cur := b.Get(e.key); cur != nil && !bytes.Equal(cur, e.value) {
				return fmt.Errorf("storage: %s already belongs to %q, so %s cannot take it: %w", e.unique, cur, what, ErrExists)
			}
		}
		if err := b.Put(e.key, e.value); err != nil {
			return fmt.Errorf("storage: updating index %s of %s: %w", e.bucket, what, err)
		}
	}
	return nil
}

// indexIDs returns the ids an index holds under pre: the rest of each key after skip
// bytes (a time key), in key order or reversed, at most limit of them (all when
// limit <= 0).
func (tx *Tx) indexIDs(name, pre []byte, skip, limit int, reverse bool) ([]string, error) {
	var ids []string
	collect := func(rest, _ []byte) bool {
		if len(rest) > skip {
			ids = append(ids, string(rest[skip:]))
		}
		return limit <= 0 || len(ids) < limit
	}
	var err error
	if reverse {
		err = tx.scanPrefixReverse(name, pre, collect)
	} else {
		err = tx.scanPrefix(name, pre, collect)
	}
	return ids, err
}

// loadRecords reads the records of kind k with the given ids, in order.
func loadRecords[T any, P interface {
	*T
	record
}](tx *Tx, k *kind, ids []string) ([]P, error) {
	out := make([]P, 0, len(ids))
	for _, id := range ids {
		r, err := getRecord[T, P](tx, k, []byte(id))
		if err != nil {
			return nil, fmt.Errorf("storage: an index names %s %s: %w", k.name, id, err)
		}
		out = append(out, r)
	}
	return out, nil
}

// sortOldestFirst orders records or summaries by creation time, then by key.
func sortOldestFirst[P interface{ stamp() *Stamp }](rs []P, key func(P) string) {
	slices.SortFunc(rs, func(a, b P) int {
		return cmp.Or(a.stamp().CreatedAt.Compare(b.stamp().CreatedAt), cmp.Compare(key(a), key(b)))
	})
}

// scanPrefix calls fn with the rest of every key of index bucket name that starts
// with pre, in key order, until fn returns false.
func (tx *Tx) scanPrefix(name, pre []byte, fn func(rest, value []byte) bool) error {
	b, err := tx.bucket(name)
	if err != nil {
		return err
	}
	c := b.Cursor()
	for k, v := c.Seek(pre); k != nil && bytes.HasPrefix(k, pre); k, v = c.Next() {
		if !fn(k[len(pre):], v) {
			break
		}
	}
	return nil
}

// scanPrefixReverse is scanPrefix from the last key down.
func (tx *Tx) scanPrefixReverse(name, pre []byte, fn func(rest, value []byte) bool) error {
	b, err := tx.bucket(name)
	if err != nil {
		return err
	}
	c := b.Cursor()
	var k, v []byte
	if end := successor(pre); end == nil {
		k, v = c.Last()
	} else if k, v = c.Seek(end); k == nil {
		k, v = c.Last()
	} else {
		k, v = c.Prev()
	}
	for ; k != nil && bytes.HasPrefix(k, pre); k, v = c.Prev() {
		if !fn(k[len(pre):], v) {
			break
		}
	}
	return nil
}

// successor returns the smallest key greater than every key starting with p, or nil
// when there is none (p is all 0xff).
func successor(p []byte) []byte {
	q := bytes.Clone(p)
	for i := len(q) - 1; i >= 0; i-- {
		if q[i] < 0xff {
			q[i]++
			return q[:i+1]
		}
	}
	return nil
}
