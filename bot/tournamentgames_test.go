package bot_test

import (
	"context"

	"github.com/missivechess/missive/bot/bottest"
	"github.com/missivechess/missive/storage"
)

// tournament loads tournament id and its games.
func tournament(h *bottest.Harness, id string) (*storage.Tournament, []*storage.Game) {
	h.T.Helper()
	var t *storage.Tournament
	var games []*storage.Game
	if err := h.Store.View(context.Background(), func(tx *storage.Tx) (err error) {
		if t, err = tx.Tournament(id); err != nil {
			return err
		}
		sums, err := tx.TournamentGames(id)
		for _, s := range sums {
			g, err := tx.Game(s.ID)
			if err != nil {
				return err
			}
			games = append(games, g)
		}
		return err
	}); err != nil {
		h.T.Fatal(err)
	}
	return t, games
}
