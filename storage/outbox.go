package storage

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"strconv"
	"time"
)

// MaxOutboxBody bounds the stored form of one notice in the outbox.
const MaxOutboxBody = 1 << 20

// OutboxEntry is a notice waiting in the outbox: written in the transaction of the
// change that caused it, deleted when it has been delivered.
type OutboxEntry struct {
	// ID is assigned by PutOutbox: a decimal sequence number, so that entries sort in
	// the order they were queued and an id is never reused in a file.
	ID string `json:"id"`
	// Dest names where the notice goes ("channel:ID", "dm:USER", ...): entries for
	// one destination are delivered in ID order.
	Dest string `json:"dest"`
	// Queued is when the change that caused the notice committed.
	Queued time.Time `json:"queued"`
	// Body is the notice itself, in the format of its writer (package bot's
	// notification record, described in doc.go).
	Body json.RawMessage `json:"body"`
}

// outboxKey is the key of entry id: 8 big-endian bytes of its sequence number, so that
// byte order is queue order.
func outboxKey(seq uint64) []byte {
	return binary.BigEndian.AppendUint64(nil, seq)
}

// PutOutbox queues e in the outbox, assigning its ID and Queued time.
func (tx *Tx) PutOutbox(e *OutboxEntry) error {
	if err := tx.writable(); err != nil {
		return err
	}
	if e.Dest == "" || len(e.Dest) > maxKeyPart {
		return fmt.Errorf("storage: an outbox entry needs a destination of at most %d bytes, not %q: %w", maxKeyPart, e.Dest, ErrInvalid)
	}
	if len(e.Body) == 0 || len(e.Body) > MaxOutboxBody {
		return fmt.Errorf("storage: an outbox entry for %s has a body of %d bytes (1 to %d allowed): %w", e.Dest, len(e.Body), MaxOutboxBody, ErrInvalid)
	}
	b, err := tx.bucket(bOutbox)
	if err != nil {
		return err
	}
	seq, err := b.NextSequence()
	if err != nil {
		return fmt.Errorf("storage: queueing a notice for %s: %w", e.Dest, err)
	}
	id, queued := e.ID, e.Queued
	e.ID, e.Queued = strconv.FormatUint(seq, 10), tx.now
	tx.undo = append(tx.undo, func() { e.ID, e.Queued = id, queued })
	data, err := encodeRecord(e)
	if err != nil {
		return err
	}
	tx.dirty = true
	if err := b.Put(outboxKey(seq), data); err != nil {
		return fmt.Errorf("storage: queueing a notice for %s: %w", e.Dest, err)
	}
	return nil
}

// DeleteOutbox removes delivered entry id; an id no longer there is not an error.
func (tx *Tx) DeleteOutbox(id string) error {
	if err := tx.writable(); err != nil {
		return err
	}
	seq, err := strconv.ParseUint(id, 10, 64)
	if err != nil {
		return fmt.Errorf("storage: %q is not an outbox id: %w", id, ErrInvalid)
	}
	b, err := tx.bucket(bOutbox)
	if err != nil {
		return err
	}
	k := outboxKey(seq)
	if b.Get(k) == nil {
		return nil
	}
	tx.dirty = true
	return b.Delete(k)
}

// Outbox returns up to limit (all when limit <= 0) entries still to deliver, oldest
// first.
func (tx *Tx) Outbox(limit int) ([]*OutboxEntry, error) {
	b, err := tx.bucket(bOutbox)
	if err != nil {
		return nil, err
	}
	var out []*OutboxEntry
	c := b.Cursor()
	for k, v := c.First(); k != nil && (limit <= 0 || len(out) < limit); k, v = c.Next() {
		var e OutboxEntry
		what := "outbox entry"
		if len(k) == 8 {
			what += " " + strconv.FormatUint(binary.BigEndian.Uint64(k), 10)
		}
		if err := decodeRecord(v, &e, what); err != nil {
			return nil, err
		}
		out = append(out, &e)
	}
	return out, nil
}

// OutboxLen returns how many entries wait in the outbox.
func (tx *Tx) OutboxLen() (int, error) {
	b, err := tx.bucket(bOutbox)
	if err != nil {
		return 0, err
	}
	return b.Stats().KeyN, nil
}
