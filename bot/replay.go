package bot

import (
	"fmt"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/storage"
)

// step is one stored entry of a game, replayed.
type step struct {
	Index  int        // index in Game.Moves
	Side   rules.Side // who played or chose it
	Move   rules.Move
	SAN    string         // display notation (drop notation "P@d4" for a placement choice)
	Before rules.Position // the position it was played in
	After  rules.Position
	// Simultaneous marks a secret placement choice.
	Simultaneous bool
	// Revealed marks the choice that completed its round: after it no choice is
	// pending. Choices not followed by a revealing one are still secret.
	Revealed bool
}

// startPosition returns g's start position.
func startPosition(v rules.Variant, g *storage.Game) (rules.Position, error) {
	if g.Start != "" {
		return v.ParsePosition(g.Start)
	}
	return v.Start(g.Seed), nil
}

// replaySteps replays the first n entries of g (all when n < 0) from its start.
func replaySteps(v rules.Variant, g *storage.Game, n int) ([]step, error) {
	if n < 0 || n > len(g.Moves) {
		n = len(g.Moves)
	}
	pos, err := startPosition(v, g)
	if err != nil {
		return nil, fmt.Errorf("bot: game %s: start position: %w", g.ID, err)
	}
	steps := make([]step, 0, n)
	for i, e := range g.Moves[:n] {
		m, err := pos.ParseMove(e.Move)
		if err != nil {
			return nil, fmt.Errorf("bot: game %s: entry %d %q: %w", g.ID, i+1, e.Move, err)
		}
		st := step{Index: i, Move: m, Before: pos, Simultaneous: e.Simultaneous}
		var next rules.Position
		if sim, ok := inRound(pos); ok && e.Simultaneous {
			st.Side = e.Side
			st.SAN = string(m.Drop.Letter()) + "@" + v.Dims().Name(m.To)
			next, err = sim.PlayAs(e.Side, m)
			if err == nil {
				if after, ok := inRound(next); !ok || len(after.Awaiting()) == 2 {
					st.Revealed = true
				}
			}
		} else {
			st.Side = pos.Turn()
			st.SAN = pos.SAN(m)
			next, err = pos.Play(m)
		}
		if err != nil {
			return nil, fmt.Errorf("bot: game %s: entry %d %q: %w", g.ID, i+1, e.Move, err)
		}
		st.After = next
		steps = append(steps, st)
		pos = next
	}
	return steps, nil
}

// public returns the steps everyone may see: every ordinary move and the placement
// choices of completed rounds, never a pending secret choice.
func public(steps []step) []step {
	last := -1 // index of the last step that left no choice pending
	for i, st := range steps {
		if !st.Simultaneous || st.Revealed {
			last = i
		}
	}
	return steps[:last+1]
}

// splitPlacement separates placement choices from ordinary moves.
func splitPlacement(steps []step) (placement, moves []step) {
	for _, st := range steps {
		if st.Simultaneous {
			placement = append(placement, st)
		} else {
			moves = append(moves, st)
		}
	}
	return placement, moves
}
