package storage_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"testing"

	"github.com/missivechess/missive/storage"
)

// TestCheckAfterOpenRefusesDamagedPage checks that a damaged leaf page of a file too
// large to read whole at Open (here: any file) is found by the check after Open,
// which then makes the store refuse every transaction as Open would, logging the way
// out; and that Open, reading the file whole, refuses it at once.
func TestCheckAfterOpenRefusesDamagedPage(t *testing.T) {
	path := copyFile(t, filledFile(t))
	data, _ := os.ReadFile(path)
	leafDamage["value size"](t, data)
	os.WriteFile(path, data, 0o600)

	wantOpenError(t, path, &storage.Options{NoBackupSocket: true}, storage.ErrCorrupt, "is damaged (page")
	var log bytes.Buffer // written before Checked is closed
	s := openAt(t, path, &storage.Options{NoBackupSocket: true, FullCheckBelow: -1, Logger: slog.New(slog.NewTextHandler(&log, nil))})
	<-s.Checked()
	damage, _ := s.CheckResult()
	if !errors.Is(damage, storage.ErrCorrupt) || !strings.Contains(damage.Error(), "as the check after start found") {
		t.Fatalf("the check after Open found %v", damage)
	}
	if _, err := s.Game(context.Background(), "1"); !errors.Is(err, storage.ErrCorrupt) {
		t.Errorf("a game of the damaged store: %v", err)
	}
	if err := s.Update(context.Background(), func(tx *storage.Tx) error { return tx.PutPlayer(&storage.Player{ID: "x"}) }); !errors.Is(err, storage.ErrCorrupt) {
		t.Errorf("a write to the damaged store: %v", err)
	}
	if !strings.Contains(log.String(), "restore the data file from a backup") {
		t.Errorf("the log does not give the way out: %s", log.String())
	}
}

// TestDamagedRecordReportedAtStart checks that a damaged game record is reported by
// the check after Open, by its id and with the way out, while the other games go on.
func TestDamagedRecordReportedAtStart(t *testing.T) {
	path := copyFile(t, filledFile(t))
	writeRaw(t, path, "games", "2", []byte(`{"v":1,"data":{"id":"2","moves":[`))
	var log bytes.Buffer // written before Checked is closed
	s := openAt(t, path, &storage.Options{NoBackupSocket: true, Logger: slog.New(slog.NewTextHandler(&log, nil))})
	<-s.Checked()
	damage, records := s.CheckResult()
	if damage != nil || len(records) != 1 || !strings.Contains(records[0].Error(), `game "2"`) {
		t.Fatalf("the check after Open: %v %v", damage, records)
	}
	for _, want := range []string{`game \"2\"`, "restore the data file from a backup made before the damage"} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("the log does not say %q: %s", want, log.String())
		}
	}
	if _, err := s.Game(context.Background(), "4"); err != nil {
		t.Errorf("an intact game next to the damaged one: %v", err)
	}
}

// TestRecordCheckSpansTransactions checks that the record check after Open, which
// reads a few thousand records per read transaction, reaches the records of every
// transaction: damaged games in the first and in a later one are both reported.
func TestRecordCheckSpansTransactions(t *testing.T) {
	s, _, path := openTemp(t)
	update(t, s, func(tx *storage.Tx) error {
		for range 4500 {
			if err := tx.PutGame(newGame("walk", "a", "b")); err != nil {
				return err
			}
		}
		return nil
	})
	s.Close()
	for _, id := range []string{"10", "4321"} { // keys sort as text: "4321" comes late
		writeRaw(t, path, "games", id, []byte(`{"v":1,"data":{"id":`))
	}
	s = openAt(t, path, &storage.Options{NoBackupSocket: true})
	<-s.Checked()
	_, records := s.CheckResult()
	text := fmt.Sprint(records)
	if len(records) != 2 || !strings.Contains(text, `game "10"`) || !strings.Contains(text, `game "4321"`) {
		t.Fatalf("the check after Open found %v", records)
	}
}
