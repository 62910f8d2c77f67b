package storage_test

import (
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/missivechess/missive/storage"
)

func engineMatch() *storage.Match {
	return &storage.Match{Guild: "900", Channel: "901", Name: "Level 3 vs level 6", Organizer: "111", Variant: "walk",
		Players: [2]storage.Seat{{ID: "engine:builtin:3", Name: "Missive engine (level 3)"}, {ID: "engine:builtin:6", Name: "Missive engine (level 6)"}},
		Games:   4, Seed: 1<<63 + 5, OpeningPlies: 4, MaxPlies: 300, StartedAt: time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)}
}

func TestMatchRecords(t *testing.T) {
	s, _, _ := openTemp(t)
	m := engineMatch()
	g := newGame("walk", m.Players[0].ID, m.Players[1].ID)
	update(t, s, func(tx *storage.Tx) error {
		if err := tx.PutMatch(m); err != nil {
			return err
		}
		g.Match, g.Round = m.ID, 1
		if err := tx.PutGame(g); err != nil {
			return err
		}
		m.GameIDs = append(m.GameIDs, g.ID)
		return tx.PutMatch(m)
	})
	if m.ID != "1" || m.Status != storage.MatchRunning || m.Version != 2 {
		t.Fatalf("after writing: id %q, status %q, version %d", m.ID, m.Status, m.Version)
	}
	view(t, s, func(tx *storage.Tx) error {
		got, err := tx.Match("1")
		if err != nil {
			return err
		}
		if !reflect.DeepEqual(got, m) {
			t.Errorf("read back\n%+v\nwant\n%+v", got, m)
		}
		gg, err := tx.GameRecord(g.ID)
		if err != nil {
			return err
		}
		if gg.Match != "1" || gg.Round != 1 {
			t.Errorf("game's match %q round %d", gg.Match, gg.Round)
		}
		active, err := tx.GuildMatches("900", true)
		if err != nil || len(active) != 1 || active[0].ID != "1" {
			t.Errorf("running matches: %v, %v", active, err)
		}
		return nil
	})
	update(t, s, func(tx *storage.Tx) error {
		m.Status = storage.MatchStopped
		return tx.PutMatch(m)
	})
	view(t, s, func(tx *storage.Tx) error {
		active, err := tx.GuildMatches("900", true)
		over, err2 := tx.GuildMatches("900", false)
		if err != nil || err2 != nil || len(active) != 0 || len(over) != 1 {
			t.Errorf("after stopping: running %v, over %v (%v, %v)", active, over, err, err2)
		}
		return nil
	})
	if err := s.Verify(t.Context()); err != nil {
		t.Errorf("Verify: %v", err)
	}
}

func TestMatchValidation(t *testing.T) {
	s, _, _ := openTemp(t)
	cases := map[string]func(m *storage.Match){
		"is not an engine":                func(m *storage.Match) { m.Players[1].ID = "user-7" },
		"both players are":                func(m *storage.Match) { m.Players[1] = m.Players[0] },
		"0 games is not 1 to 100":         func(m *storage.Match) { m.Games = 0 },
		"101 games is not 1 to 100":       func(m *storage.Match) { m.Games = 101 },
		"5 games started of 4":            func(m *storage.Match) { m.GameIDs = []string{"1", "2", "3", "4", "5"} },
		`status "paused" is not running`:  func(m *storage.Match) { m.Status = "paused" },
		"variant is empty":                func(m *storage.Match) { m.Variant = "" },
		"opening -1 plies, cap 300 plies": func(m *storage.Match) { m.OpeningPlies = -1 },
	}
	for want, spoil := range cases {
		m := engineMatch()
		spoil(m)
		err := s.Update(t.Context(), func(tx *storage.Tx) error { return tx.PutMatch(m) })
		if !errors.Is(err, storage.ErrInvalid) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v", want, err)
		}
	}
	view(t, s, func(tx *storage.Tx) error {
		if ms, err := tx.GuildMatches("900", true); err != nil || len(ms) != 0 {
			t.Errorf("refused writes left matches: %v, %v", ms, err)
		}
		return nil
	})
}

// TestMigrationToSchema2 opens a file as schema 1 left it (no matches bucket) and
// finds it upgraded, with a snapshot of the old file and every record intact.
func TestMigrationToSchema2(t *testing.T) {
	path := copyFile(t, filledFile(t))
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Update(func(tx *bolt.Tx) error {
		for _, b := range []string{"matches", "idx.match.guild"} {
			if err := tx.DeleteBucket([]byte(b)); err != nil {
				return err
			}
		}
		return tx.Bucket([]byte("meta")).Put([]byte("schema"), []byte("1"))
	}); err != nil {
		t.Fatal(err)
	}
	db.Close()
	s := openAt(t, path, nil)
	if got := string(rawRecord(t, path+".schema-1.bak", "meta", "schema")); got != "1" {
		t.Errorf("snapshot schema %q", got)
	}
	update(t, s, func(tx *storage.Tx) error {
		if _, err := tx.Game("1"); err != nil {
			return err
		}
		return tx.PutMatch(engineMatch())
	})
	if err := s.Verify(t.Context()); err != nil {
		t.Errorf("Verify after migrating: %v", err)
	}
	s.Close()
	if got := string(rawRecord(t, path, "meta", "schema")); got != strconv.Itoa(storage.SchemaVersion) {
		t.Errorf("schema after migrating: %q", got)
	}
}
