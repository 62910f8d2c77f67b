package storage_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/missivechess/missive/storage"
)

// ErasePlayer deletes a player's ratings and settings, gives their seat in a
// tournament (entrants and pairing state) to the seat given, keeps the other
// players' records, and refuses to erase into the player's own id.
func TestErasePlayer(t *testing.T) {
	s, _, _ := openTemp(t)
	gone := storage.Seat{ID: "former:1", Name: "a former player"}
	update(t, s, func(tx *storage.Tx) error {
		for _, p := range []string{"alice", "bob"} {
			if err := tx.PutPlayer(&storage.Player{ID: p, Name: p, Theme: "night"}); err != nil {
				return err
			}
			if err := tx.PutRating(&storage.Rating{Guild: "g", Variant: "gothic", Player: p, Rating: 1500}); err != nil {
				return err
			}
		}
		return tx.PutTournament(&storage.Tournament{Guild: "g", Name: "Spring", Variant: "gothic", Format: storage.RoundRobin,
			Status: storage.TournamentFinished, Organizer: "alice",
			Entrants: []storage.Entrant{{Player: storage.Seat{ID: "alice", Name: "alice"}}, {Player: storage.Seat{ID: "bob", Name: "bob"}}},
			Pairing:  json.RawMessage(`{"players":["alice","bob"],"games":[{"white":"alice","black":"bob","result":"1-0"}]}`)})
	})
	err := s.Update(t.Context(), func(tx *storage.Tx) error {
		_, err := tx.ErasePlayer("alice", storage.Seat{ID: "alice"}, nil)
		return err
	})
	if !errors.Is(err, storage.ErrInvalid) {
		t.Fatalf("erasing into the player's own id: %v", err)
	}
	update(t, s, func(tx *storage.Tx) error {
		d, err := tx.ErasePlayer("alice", gone, func(*storage.OutboxEntry) bool { return true })
		if err != nil || d.Player == nil || len(d.Ratings) != 1 || len(d.Tournaments) != 1 {
			t.Fatalf("erased %+v, %v", d, err)
		}
		return nil
	})
	view(t, s, func(tx *storage.Tx) error {
		d, err := tx.PlayerData("alice")
		if err != nil || d.Player != nil || len(d.Ratings)+len(d.Tournaments) != 0 {
			t.Fatalf("left about alice: %+v %v", d, err)
		}
		if _, err := tx.Rating("g", "gothic", "bob"); err != nil {
			t.Fatalf("bob's rating: %v", err)
		}
		tr, err := tx.Tournament("1")
		if err != nil {
			return err
		}
		if tr.Organizer != "" || tr.Entrants[0].Player != gone || tr.Entrants[1].Player.ID != "bob" ||
			strings.Contains(string(tr.Pairing), `"alice"`) || !strings.Contains(string(tr.Pairing), `"white":"former:1"`) {
			t.Fatalf("the tournament after: %+v %s", tr, tr.Pairing)
		}
		return nil
	})
	if err := s.Verify(t.Context()); err != nil {
		t.Fatal(err)
	}
}
