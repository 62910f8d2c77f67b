package storage_test

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/storage"
)

// A game's conditional lines are stored with it, read back after reopening the
// file, and kept out of its summary (what listings read).
func TestConditionalLinesRoundTrip(t *testing.T) {
	s, _, path := openTemp(t)
	g := create(t, s, newGame("walk", "alice", "bob"))
	want := []storage.Conditional{
		{Side: rules.Black, Ply: 0, Moves: []string{"e1e2", "e8e7", "e2e3", "e7e6"}},
		{Side: rules.Black, Ply: 0, Moves: []string{"e1d1", "e8d8"}},
	}
	if _, err := s.UpdateGame(context.Background(), g.ID, func(g *storage.Game) error {
		g.Conditional = want
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	raw, err := json.Marshal(g)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(raw), "conditional") {
		t.Fatalf("a game without lines stores the member: %s", raw)
	}
	s.Close()
	s = openAt(t, path, nil)
	var got *storage.Game
	var sum []*storage.GameSummary
	view(t, s, func(tx *storage.Tx) (err error) {
		if got, err = tx.Game(g.ID); err != nil {
			return err
		}
		sum, err = tx.PlayerActiveGames("alice")
		return err
	})
	if !reflect.DeepEqual(got.Conditional, want) {
		t.Fatalf("read back %+v, want %+v", got.Conditional, want)
	}
	data, err := json.Marshal(sum)
	if err != nil {
		t.Fatal(err)
	}
	if len(sum) != 1 || strings.Contains(string(data), "e8e7") {
		t.Fatalf("the summary holds the lines: %s", data)
	}
}
