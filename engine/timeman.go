package engine

import "time"

// timeManager decides, after each completed iteration, whether a search with an
// optimum time should stop: it spends more when the best move keeps changing or the
// score falls, less when the best move has held for several iterations, and does
// not start an iteration it is unlikely to finish.
type timeManager struct {
	optimum   time.Duration
	lastMove  mv
	lastScore Score
	stable    int     // iterations the best move has held
	changes   float64 // best-move changes, decaying by half each iteration
}

// stop records the iteration at depth (best move m, score sc, elapsed time) and
// reports whether the search should end.
func (t *timeManager) stop(depth int, m mv, sc Score, elapsed time.Duration) bool {
	t.changes /= 2
	if depth > 1 && m != t.lastMove {
		t.changes++
		t.stable = 0
	} else {
		t.stable++
	}
	drop := Score(0)
	if depth > 1 {
		drop = t.lastScore - sc
	}
	t.lastMove, t.lastScore = m, sc
	if depth < 4 {
		return false
	}
	scale := 1.0 + 0.6*t.changes // an unsettled best move earns time
	switch {
	case drop >= 60:
		scale *= 1.6
	case drop >= 25:
		scale *= 1.25
	case drop <= -60: // a jump upwards is usually a settled win of material
		scale *= 0.8
	}
	if t.stable >= 6 {
		scale *= 0.7
	}
	scale = min(max(scale, 0.4), 3)
	budget := time.Duration(float64(t.optimum) * scale)
	// The next iteration takes about twice as long as all before it: start it only
	// when it can finish near the budget.
	return elapsed > budget*6/10
}
