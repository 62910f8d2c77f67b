package bot

import (
	"time"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/storage"
)

// What the play feature (bot/play) reaches of the kernel beyond api.go.

// EngineTimeout returns how long one engine search may take (Config.EngineTimeout,
// 60s by default): an engine asked to judge a draw offer is given as long.
func (s *Service) EngineTimeout() time.Duration { return s.engineTO }

// EngineTurnOf returns what the engine player of side in g is asked to act on: its
// view of the position and, outside a simultaneous round, the game's moves.
func EngineTurnOf(g *storage.Game, side rules.Side) (EngineTurn, error) {
	return engineTurnOf(g, side)
}

// The names of two commands of bot/play that the tests still in package bot
// list; the feature itself uses its own (play.CmdMoreTime, play.CmdConditional).
const (
	CmdMoreTime    = "moretime"
	CmdConditional = "conditional"
)
