package bottest

import "github.com/missivechess/missive/storage"

// Rating returns player's rating in variant (local play), nil when there is none.
func (h *Harness) Rating(variant, player string) *storage.Rating {
	h.T.Helper()
	var r *storage.Rating
	h.view(func(tx *storage.Tx) error {
		r, _ = tx.Rating("", variant, player)
		return nil
	})
	return r
}
