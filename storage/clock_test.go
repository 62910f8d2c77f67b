package storage_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/missivechess/missive/storage"
)

// The heartbeat survives reopening the file, to the nanosecond, and is absent in a
// new file.
func TestHeartbeat(t *testing.T) {
	s, _, path := openTemp(t)
	at := time.Date(2026, 3, 4, 5, 6, 7, 8, time.UTC)
	if err := s.View(context.Background(), func(tx *storage.Tx) error {
		if _, ok, err := tx.Heartbeat(); err != nil || ok {
			return fmt.Errorf("a new file has a heartbeat (%v, %v)", ok, err)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	update(t, s, func(tx *storage.Tx) error { return tx.SetHeartbeat(at.In(time.FixedZone("x", 3600))) })
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = openAt(t, path, nil)
	if err := s.View(context.Background(), func(tx *storage.Tx) error {
		got, ok, err := tx.Heartbeat()
		if err == nil && (!ok || !got.Equal(at)) {
			err = fmt.Errorf("heartbeat %v (%v) after reopening, want %v", got, ok, at)
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
}
