package storage_test

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/missivechess/missive/storage"
	bolt "go.etcd.io/bbolt"
)

// A time-bank clock, a paused clock and the extra time given are stored under their
// own field names and read back as they were; an impossible bank is refused.
func TestClockBankRoundTrip(t *testing.T) {
	s, clock, path := openTemp(t)
	g := fullGame(t, clock)
	now := clock.Now()
	g.Clock = storage.Clock{Bank: &storage.TimeBank{BaseHours: 720, IncrementHours: 12, CapHours: 1080},
		Left: [2]time.Duration{30 * 24 * time.Hour, 29*24*time.Hour + 90*time.Minute}, Since: now,
		Deadline: now.Add(30 * 24 * time.Hour), Paused: now.Add(time.Hour), NoLeave: true, Given: [2]int{0, 2}}
	g = create(t, s, g)
	loaded, err := s.Game(context.Background(), g.ID)
	if err != nil {
		t.Fatal(err)
	}
	c := loaded.Clock
	if *c.Bank != *g.Clock.Bank || c.Left != g.Clock.Left || !c.Since.Equal(now) || !c.Paused.Equal(now.Add(time.Hour)) ||
		!c.NoLeave || c.Given != [2]int{0, 2} || c.DaysPerMove != 0 {
		t.Errorf("clock read back as %+v", c)
	}
	if !c.Due().IsZero() {
		t.Errorf("a paused clock is due at %v", c.Due())
	}
	s.Close()
	raw := string(rawRecord(t, path, "games", g.ID))
	for _, want := range []string{`"bank":{"base_h":720,"inc_h":12,"cap_h":1080}`, `"left_s":[2592000,2511000]`, `"given":[0,2]`, `"no_leave":true`, `"paused":`} {
		if !strings.Contains(raw, want) {
			t.Errorf("stored clock lacks %s: %s", want, raw)
		}
	}
	s2 := openAt(t, path, nil)
	g.Clock.Bank.CapHours = 100
	g.ID, g.Version = "", 0
	if err := s2.CreateGame(context.Background(), g); !errors.Is(err, storage.ErrInvalid) {
		t.Errorf("a bank capped below its start was stored: %v", err)
	}
}

// Shift moves a period's start, deadline and wake-up, and leaves an unset time unset.
func TestClockShift(t *testing.T) {
	at := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	c := storage.Clock{Since: at, Deadline: at.Add(48 * time.Hour)}
	c.Shift(5 * time.Hour)
	if !c.Since.Equal(at.Add(5*time.Hour)) || !c.Deadline.Equal(at.Add(53*time.Hour)) || !c.Wake.IsZero() {
		t.Errorf("shifted clock %+v", c)
	}
}

// A player on leave is listed by DuePlayers once the leave's end has come, and no
// longer once the leave is over; a leave that ends before it starts is refused.
func TestDuePlayersLeave(t *testing.T) {
	s, clock, _ := openTemp(t)
	now := clock.Now()
	ended := func(at time.Time) (ids []string) {
		update(t, s, func(tx *storage.Tx) error {
			ps, err := tx.DuePlayers(at)
			for _, p := range ps {
				ids = append(ids, p.ID)
			}
			return err
		})
		return ids
	}
	update(t, s, func(tx *storage.Tx) error {
		return tx.PutPlayer(&storage.Player{ID: "7", Leave: &storage.Leave{Start: now, End: now.Add(48 * time.Hour)}, LeaveYear: 2025, LeaveUsedHours: 5})
	})
	if got := ended(now.Add(47 * time.Hour)); len(got) != 0 {
		t.Errorf("ended before its end: %v", got)
	}
	if got := ended(now.Add(48 * time.Hour)); len(got) != 1 || got[0] != "7" {
		t.Errorf("ended at its end: %v", got)
	}
	update(t, s, func(tx *storage.Tx) error {
		p, err := tx.Player("7")
		if err != nil {
			return err
		}
		p.Leave = nil
		return tx.PutPlayer(p)
	})
	if got := ended(now.Add(96 * time.Hour)); len(got) != 0 {
		t.Errorf("a finished leave is still listed: %v", got)
	}
	err := s.Update(context.Background(), func(tx *storage.Tx) error {
		return tx.PutPlayer(&storage.Player{ID: "8", Leave: &storage.Leave{Start: now, End: now}})
	})
	if !errors.Is(err, storage.ErrInvalid) {
		t.Errorf("an empty leave was stored: %v", err)
	}
	if err := s.Verify(context.Background()); err != nil {
		t.Error(err)
	}
}

// TestMigrationToSchema5 opens a file as schema 4 left it (no index of players due)
// and finds it upgraded, listing a player on leave once the leave ends.
func TestMigrationToSchema5(t *testing.T) {
	path := copyFile(t, filledFile(t))
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Update(func(tx *bolt.Tx) error {
		if err := tx.DeleteBucket([]byte("idx.player.due")); err != nil {
			return err
		}
		return tx.Bucket([]byte("meta")).Put([]byte("schema"), []byte("4"))
	}); err != nil {
		t.Fatal(err)
	}
	db.Close()
	s := openAt(t, path, nil)
	at := time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)
	update(t, s, func(tx *storage.Tx) error {
		return tx.PutPlayer(&storage.Player{ID: "9", Leave: &storage.Leave{Start: at, End: at.Add(time.Hour)}})
	})
	update(t, s, func(tx *storage.Tx) error {
		ps, err := tx.DuePlayers(at.Add(time.Hour))
		if err == nil && (len(ps) != 1 || ps[0].ID != "9") {
			t.Errorf("due after migrating: %v", ps)
		}
		return err
	})
	if err := s.Verify(t.Context()); err != nil {
		t.Errorf("Verify after migrating: %v", err)
	}
	s.Close()
	if got := string(rawRecord(t, path, "meta", "schema")); got != strconv.Itoa(storage.SchemaVersion) {
		t.Errorf("schema after migrating: %q", got)
	}
}
