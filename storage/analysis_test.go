package storage_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"

	"github.com/missivechess/missive/storage"
)

// An analysis is kept per game and player across a restart, one player's is not
// another's, and bad data is refused without replacing the good.
func TestAnalysisKeptPerPlayerAcrossRestart(t *testing.T) {
	s, _, path := openTemp(t)
	doc := json.RawMessage(`{"nodes":[{"move":"e2e4","note":"my secret plan"}]}`)
	update(t, s, func(tx *storage.Tx) error {
		return tx.PutAnalysis(&storage.Analysis{Game: "1", Player: "alice", Data: doc})
	})
	update(t, s, func(tx *storage.Tx) error {
		a, err := tx.Analysis("1", "alice")
		if err != nil {
			return err
		}
		a.Data = json.RawMessage(`{"nodes":`) // not JSON
		if err := tx.PutAnalysis(a); !errors.Is(err, storage.ErrInvalid) {
			t.Errorf("PutAnalysis(bad JSON) = %v, want ErrInvalid", err)
		}
		a.Data = bytes.Repeat([]byte(" "), storage.MaxAnalysis+1)
		if err := tx.PutAnalysis(a); !errors.Is(err, storage.ErrInvalid) {
			t.Errorf("PutAnalysis(too big) = %v, want ErrInvalid", err)
		}
		return nil
	})
	mustVerify(t, s)
	s.Close()
	s = openAt(t, path, nil)
	view(t, s, func(tx *storage.Tx) error {
		a, err := tx.Analysis("1", "alice")
		if err != nil {
			return err
		}
		if !bytes.Equal(a.Data, doc) {
			t.Errorf("after a restart the analysis is %s, want %s", a.Data, doc)
		}
		if _, err := tx.Analysis("1", "bob"); !errors.Is(err, storage.ErrNotFound) {
			t.Errorf("bob's analysis: %v, want ErrNotFound", err)
		}
		return nil
	})
}

// The web link key is made once, kept in the data file, and read back the same
// after a restart; revoking raises a link generation of one game and player only.
func TestWebSecretAndRevocation(t *testing.T) {
	s, _, path := openTemp(t)
	var key []byte
	view(t, s, func(tx *storage.Tx) error {
		if _, err := tx.WebSecret(); !errors.Is(err, storage.ErrReadOnly) {
			t.Errorf("WebSecret in a read transaction of a new file: %v, want ErrReadOnly", err)
		}
		return nil
	})
	update(t, s, func(tx *storage.Tx) (err error) {
		key, err = tx.WebSecret()
		return err
	})
	if len(key) != 32 || bytes.Equal(key, make([]byte, 32)) {
		t.Fatalf("WebSecret = %x", key)
	}
	update(t, s, func(tx *storage.Tx) error {
		for _, want := range []uint64{1, 2} {
			if n, err := tx.RevokeTokens("7", "alice"); err != nil || n != want {
				t.Errorf("RevokeTokens = %d, %v; want %d", n, err, want)
			}
		}
		return nil
	})
	s.Close()
	s = openAt(t, path, nil)
	view(t, s, func(tx *storage.Tx) error {
		again, err := tx.WebSecret()
		if err != nil || !bytes.Equal(again, key) {
			t.Errorf("after a restart WebSecret = %x, %v; want the same key", again, err)
		}
		for _, c := range []struct {
			game, player string
			want         uint64
		}{{"7", "alice", 2}, {"7", "", 0}, {"7", "bob", 0}, {"8", "alice", 0}} {
			if n, err := tx.TokenGeneration(c.game, c.player); err != nil || n != c.want {
				t.Errorf("TokenGeneration(%q, %q) = %d, %v; want %d", c.game, c.player, n, err, c.want)
			}
		}
		got := map[string]uint64{}
		if err := tx.TokenGenerations(func(game, player string, gen uint64) { got[game+"/"+player] = gen }); err != nil {
			return err
		}
		if len(got) != 1 || got["7/alice"] != 2 {
			t.Errorf("TokenGenerations = %v, want 7/alice: 2", got)
		}
		return nil
	})
}
