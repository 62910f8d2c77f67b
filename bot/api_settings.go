package bot

import (
	"time"

	"github.com/missivechess/missive/storage"
)

// DefaultLeaveDays is the yearly leave allowance when Limits.LeaveDays is not set.
const DefaultLeaveDays = 30

// SaveAt stores g as Save does, as of now rather than the service's current
// time: a change that runs as of a given time (a scheduler pass, a move) stores
// every game it touches as of that time.
func (t *Tx) SaveAt(g *storage.Game, now time.Time) error { return t.s.save(t.Tx, t.e, g, now) }
