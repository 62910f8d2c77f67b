package bot_test

import (
	"github.com/missivechess/missive/bot/bottest"
	"github.com/missivechess/missive/storage"
)

// rating loads a player's rating in variant (local play), nil when there is none:
// the tests left here check that a game was not rated.
func rating(h *bottest.Harness, variant, player string) *storage.Rating {
	h.T.Helper()
	return h.Rating(variant, player)
}
