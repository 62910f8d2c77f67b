package bot_test

import (
	"context"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/bottest"
	"github.com/missivechess/missive/bot/matches"
	"github.com/missivechess/missive/storage"
)

// What the tests left here read of engine matches (package bot/matches): an
// engine's failure in a match game, which the kernel's engine turns report
// through the feature.

// match reads match id and its games.
func match(h *bottest.Harness, id string) (*storage.Match, []*storage.Game) {
	h.T.Helper()
	var m *storage.Match
	var games []*storage.Game
	if err := h.Store.View(context.Background(), func(tx *storage.Tx) (err error) {
		if m, err = tx.Match(id); err != nil {
			return err
		}
		for _, gid := range m.GameIDs {
			g, err := tx.Game(gid)
			if err != nil {
				return err
			}
			games = append(games, g)
		}
		return nil
	}); err != nil {
		h.T.Fatal(err)
	}
	return m, games
}

// matchNotes returns the texts of the match news among ns, and their files by name.
func matchNotes(ns []bot.Notification) (texts []string, files map[string][]byte) {
	files = map[string][]byte{}
	for _, n := range ns {
		if n.Kind != matches.NoticeMatch {
			continue
		}
		texts = append(texts, n.Reply.Text)
		for _, f := range n.Reply.Files {
			files[f.Name] = f.Data
		}
	}
	return texts, files
}
