package storage_test

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"testing"
	"time"

	"github.com/missivechess/missive/storage"
	bolt "go.etcd.io/bbolt"
)

// TestOutbox checks that entries keep their queue order and ids across a reopen,
// that a rolled-back transaction leaves no entry (nor a spent id on the caller's
// struct), and that delivered entries go.
func TestOutbox(t *testing.T) {
	s, _, path := openTemp(t)
	ctx := context.Background()
	put := func(dest, body string) *storage.OutboxEntry {
		e := &storage.OutboxEntry{Dest: dest, Body: json.RawMessage(body)}
		if err := s.Update(ctx, func(tx *storage.Tx) error { return tx.PutOutbox(e) }); err != nil {
			t.Fatal(err)
		}
		return e
	}
	a := put("channel:1", `{"n":1}`)
	b := put("dm:bob", `{"n":2}`)
	c := put("channel:1", `{"n":3}`)
	if a.ID != "1" || b.ID != "2" || c.ID != "3" || a.Queued.IsZero() {
		t.Fatalf("ids %q %q %q, queued %v", a.ID, b.ID, c.ID, a.Queued)
	}
	failed := &storage.OutboxEntry{Dest: "channel:1", Body: json.RawMessage(`{}`)}
	boom := errors.New("boom")
	if err := s.Update(ctx, func(tx *storage.Tx) error {
		if err := tx.PutOutbox(failed); err != nil {
			return err
		}
		return boom
	}); !errors.Is(err, boom) {
		t.Fatalf("got %v", err)
	}
	if failed.ID != "" {
		t.Errorf("a rolled-back entry kept id %q", failed.ID)
	}
	if err := s.Update(ctx, func(tx *storage.Tx) error {
		return tx.PutOutbox(&storage.OutboxEntry{Dest: "", Body: json.RawMessage(`{}`)})
	}); !errors.Is(err, storage.ErrInvalid) {
		t.Errorf("an entry without a destination: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = openAt(t, path, nil)
	var got []*storage.OutboxEntry
	view(t, s, func(tx *storage.Tx) (err error) {
		got, err = tx.Outbox(0)
		return err
	})
	if len(got) != 3 || got[0].ID != "1" || got[1].Dest != "dm:bob" || string(got[2].Body) != `{"n":3}` {
		t.Fatalf("after reopening: %+v", got)
	}
	if err := s.Update(ctx, func(tx *storage.Tx) error {
		if err := tx.DeleteOutbox("2"); err != nil {
			return err
		}
		return tx.DeleteOutbox("2") // again: already gone
	}); err != nil {
		t.Fatal(err)
	}
	d := put("dm:bob", `{"n":4}`)
	view(t, s, func(tx *storage.Tx) (err error) {
		got, err = tx.Outbox(0)
		if n, _ := tx.OutboxLen(); n != 3 {
			t.Errorf("OutboxLen = %d, want 3", n)
		}
		return err
	})
	if d.ID != "4" || len(got) != 3 || got[0].ID != "1" || got[1].ID != "3" || got[2].ID != "4" {
		t.Fatalf("after a delete: new id %q, entries %+v", d.ID, got)
	}
	mustVerify(t, s)
}

// TestMigrationToSchema3 opens a file as schema 2 left it (no outbox) and finds it
// upgraded, with an outbox that takes notices.
func TestMigrationToSchema3(t *testing.T) {
	path := copyFile(t, filledFile(t))
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Update(func(tx *bolt.Tx) error {
		if err := tx.DeleteBucket([]byte("outbox")); err != nil {
			return err
		}
		return tx.Bucket([]byte("meta")).Put([]byte("schema"), []byte("2"))
	}); err != nil {
		t.Fatal(err)
	}
	db.Close()
	s := openAt(t, path, nil)
	if got := string(rawRecord(t, path+".schema-2.bak", "meta", "schema")); got != "2" {
		t.Errorf("snapshot schema %q", got)
	}
	e := &storage.OutboxEntry{Dest: "dm:bob", Body: json.RawMessage(`{"key":"k"}`)}
	if err := s.Update(context.Background(), func(tx *storage.Tx) error { return tx.PutOutbox(e) }); err != nil {
		t.Fatal(err)
	}
	if err := s.Verify(t.Context()); err != nil {
		t.Errorf("Verify after migrating: %v", err)
	}
	s.Close()
	if got := string(rawRecord(t, path, "meta", "schema")); got != strconv.Itoa(storage.SchemaVersion) {
		t.Errorf("schema after migrating: %q", got)
	}
}
