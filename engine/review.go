package engine

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/record"
)

// Game review: the engine looks at every position of a finished game and says how
// much each move cost.
//
// Each position before an ordinary move is searched within the review's Limits
// (per position; a context deadline bounds the whole review). Its score is the
// mover's best; the score of the move played is the next position's score seen from
// the mover (or the result, when the move ended the game). Both become a winning
// chance, the mover's expected score in percent, through a logistic of the
// evaluation,
//
//	win% = 100 / (1 + exp(-k × eval))
//
// with k per game (Scale): for the chess family k = 0.00368208 per centipawn, the
// curve Lichess fitted to human games (+1 pawn ≈ 59%, +3 ≈ 75%, +5 ≈ 86%); for Gess,
// whose units are the engine's own (a stone 20, a spare ring 250), k = 0.0044, so
// that a spare ring counts like a minor piece (≈ 75%). A forced mate (in Gess, a
// forced loss of the last ring) is 100% or 0%.
//
// The loss of a move is the fall in the mover's winning chance, in percentage points,
// from the best move to the move played (never below 0). Because the thresholds are
// on winning chances rather than on the engine's units, they mean the same in every
// game:
//
//	best        the engine's own choice
//	good        loss below 5 points
//	inaccuracy  loss of 5 points or more
//	mistake     loss of 10 points or more
//	blunder     loss of 15 points or more
//
// A forced mate that is let go is judged by what is left: a blunder when the mover
// is no longer clearly winning (below 93%), a mistake below 97.5%, else an
// inaccuracy.
//
// A move's accuracy is 103.1668 × exp(−0.04354 × loss) − 3.1669, clamped to 0..100
// (Lichess's curve: 100 for a move that loses nothing, about 50 for a 15-point
// blunder); a player's accuracy is the mean over the player's reviewed moves.
//
// Go-Chess placement choices are compared with the engine's placement strategy
// (Place), which names the cell it preferred; as that strategy is a rule of thumb
// rather than a search, a different choice is "good" and costs nothing, except in
// the king round, which ends the phase: there the play position the choice led to
// is searched against the one the preferred cell would have led to (the opponent's
// choice kept), and the choice is classed by that loss like a move.

// Class is how good a reviewed move was; its text is stable (it is stored).
type Class string

// The classes of a reviewed move, best first.
const (
	ClassBest       Class = "best"
	ClassGood       Class = "good"
	ClassInaccuracy Class = "inaccuracy"
	ClassMistake    Class = "mistake"
	ClassBlunder    Class = "blunder"
)

// Classes lists the classes, best first.
var Classes = [...]Class{ClassBest, ClassGood, ClassInaccuracy, ClassMistake, ClassBlunder}

// Thresholds of loss, in percentage points of winning chance, for each class.
const (
	InaccuracyLoss = 5.0
	MistakeLoss    = 10.0
	BlunderLoss    = 15.0
)

// Scale returns the logistic scale k (per engine unit) that turns variant's
// evaluations into winning chances.
func Scale(variant string) float64 {
	if variant == "gess" {
		return 0.0044
	}
	return 0.00368208
}

// WinChance returns the expected score in percent of the side a score s is for.
func WinChance(s Score, k float64) float64 {
	switch {
	case s >= mateBound:
		return 100
	case s <= -mateBound:
		return 0
	}
	return 100 / (1 + math.Exp(-k*float64(s)))
}

// MoveAccuracy returns the accuracy in percent of a move that lost loss points.
func MoveAccuracy(loss float64) float64 {
	return min(max(103.1668*math.Exp(-0.04354*loss)-3.1669, 0), 100)
}

// DefaultReviewLimits bound the search of each position of a review: enough for
// tactics a few moves deep on one core, about a second per position at most.
var DefaultReviewLimits = Limits{Nodes: 200_000, Time: time.Second}

// MoveReview is the review of one entry of a game's history.
type MoveReview struct {
	Index     int        // index in the history's steps
	Side      rules.Side // who played or chose it
	Placement bool       // a Go-Chess placement choice
	Move      rules.Move
	// Best is the engine's choice in the same position; BestLine starts with it and
	// goes on with the engine's expected continuation.
	Best     rules.Move
	BestLine []rules.Move
	// BestEval is the score of Best and Eval that of the move played, both from the
	// mover's side (0 for a placement choice outside the king round).
	BestEval, Eval Score
	Loss           float64 // winning chance lost, in percentage points
	Class          Class
}

// BestDiffers reports whether the engine preferred another move.
func (m MoveReview) BestDiffers() bool { return m.Best != m.Move }

// PlayerReview sums up one player's moves.
type PlayerReview struct {
	Counts   map[Class]int
	Accuracy float64 // mean move accuracy in percent; 0 when the player has no move
	Moves    int     // moves counted in Accuracy
}

// Review is a game reviewed by the engine.
type Review struct {
	Variant string // the variant's key
	Scale   float64
	Moves   []MoveReview
	Players [2]PlayerReview // by side
	// Decisive is the index in Moves of the decisive moment: in a game won, the
	// loser's mistake or blunder that cost the most; in a game still being played,
	// anyone's; -1 when there is none, and always in a drawn game, which no move
	// decided (its mistakes are still classed and counted).
	Decisive int
	Nodes    int64
	Time     time.Duration
}

// WhiteChance returns White's winning chance after move i (index in Moves), in percent.
func (r *Review) WhiteChance(i int) float64 {
	m := r.Moves[i]
	c := WinChance(m.Eval, r.Scale)
	if m.Side == rules.Black {
		c = 100 - c
	}
	return c
}

// ReviewOptions configure ReviewWith.
type ReviewOptions struct {
	// Limits bound the search of each position (DefaultReviewLimits when zero).
	Limits Limits
	// Pause, when set, is called before each search and every thousand nodes or so
	// during it; it may block, so that a review in the background gives way to play
	// (the position's time runs on meanwhile; its node budget does not), and stops the
	// review by returning an error.
	Pause func(ctx context.Context) error
	// Outcome is how the game ended, for the decisive moment; when it is not over
	// (the zero value) the outcome of the history's last position is used, which
	// knows nothing of resignations, agreements or time.
	Outcome rules.Outcome
}

// Review analyses every position of h, a game's public history, within lim per
// position (DefaultReviewLimits when zero) and ctx; the review of a game is best
// given an engine of its own, so that it never shares a table with play.
func (e *Engine) Review(ctx context.Context, h *record.History, lim Limits) (*Review, error) {
	return e.ReviewWith(ctx, h, ReviewOptions{Limits: lim})
}

// ReviewWith is Review with options.
func (e *Engine) ReviewWith(ctx context.Context, h *record.History, opts ReviewOptions) (*Review, error) {
	lim := opts.Limits
	if lim == (Limits{}) {
		lim = DefaultReviewLimits
	}
	start := time.Now()
	key := h.Start.Variant().Key()
	r := &Review{Variant: key, Scale: Scale(key), Decisive: -1}
	// One search per position before an ordinary move, and of the last position.
	type eval = posEval
	cache := map[int]eval{} // by step index; len(h.Steps) for the last position
	searchAt := func(pos rules.Position) (eval, error) {
		if o := pos.Outcome(); o.IsOver() {
			return eval{score: outcomeScore(o, pos.Turn()), done: true}, nil
		}
		if opts.Pause != nil {
			if err := opts.Pause(ctx); err != nil {
				return eval{}, err
			}
		}
		res, err := e.search(ctx, pos, lim, 0, opts.Pause)
		if err != nil {
			return eval{}, err
		}
		if err := ctx.Err(); err != nil {
			return eval{}, err
		}
		r.Nodes += res.Nodes
		return eval{score: res.Score, best: res.Move, line: res.PV}, nil
	}
	at := func(i int) (eval, error) {
		if ev, ok := cache[i]; ok {
			return ev, nil
		}
		pos := h.Position()
		if i < len(h.Steps) {
			pos = h.Steps[i].Before
		}
		ev, err := searchAt(pos)
		if err != nil {
			return eval{}, fmt.Errorf("engine: reviewing the position before entry %d: %w", i+1, err)
		}
		cache[i] = ev
		return ev, nil
	}
	for i, st := range h.Steps {
		if st.Simultaneous {
			mr, err := e.reviewChoice(ctx, h, i, searchAt, r.Scale)
			if err != nil {
				return nil, err
			}
			r.Moves = append(r.Moves, mr)
			continue
		}
		before, err := at(i)
		if err != nil {
			return nil, err
		}
		after, err := at(i + 1)
		if err != nil {
			return nil, err
		}
		played := after.score
		if st.After.Turn() != st.Side {
			played = parentScore(played)
		}
		mr := MoveReview{Index: i, Side: st.Side, Move: st.Move, Best: before.best, BestLine: before.line,
			BestEval: before.score, Eval: played}
		if mr.Best == mr.Move {
			// The same move scored twice (before and after) differs only by the
			// horizon; the engine's own choice loses nothing.
			mr.Eval = max(mr.Eval, mr.BestEval)
		}
		classify(&mr, r.Scale)
		r.Moves = append(r.Moves, mr)
	}
	outcome := opts.Outcome
	if !outcome.IsOver() {
		outcome = h.Position().Outcome()
	}
	r.sum(outcome)
	r.Time = time.Since(start)
	return r, nil
}

// reviewChoice reviews the placement choice h.Steps[i] against the engine's
// placement strategy (see the package's review notes).
func (e *Engine) reviewChoice(ctx context.Context, h *record.History, i int, search func(rules.Position) (posEval, error), k float64) (MoveReview, error) {
	st := h.Steps[i]
	mr := MoveReview{Index: i, Side: st.Side, Placement: true, Move: st.Move, Best: st.Move, Class: ClassBest}
	sim, ok := record.Round(st.Before)
	if !ok {
		return mr, fmt.Errorf("engine: entry %d is a placement choice outside a placement round", i+1)
	}
	view, ok := sim.ViewFor(st.Side).(rules.Simultaneous)
	if !ok {
		return mr, fmt.Errorf("engine: %s's view of entry %d is not a placement position", st.Side, i+1)
	}
	best, err := e.Place(ctx, view, st.Side)
	if err != nil {
		return mr, err
	}
	mr.Best, mr.BestLine = best, []rules.Move{best}
	if best == st.Move {
		return mr, nil
	}
	mr.Class = ClassGood
	// The king round: compare the play positions the two cells lead to.
	played, alt, ok := roundEnds(h, i, best)
	if !ok {
		return mr, nil
	}
	pe, err := search(played)
	if err != nil {
		return mr, err
	}
	ae, err := search(alt)
	if err != nil {
		return mr, err
	}
	side := func(s Score, pos rules.Position) Score {
		if pos.Turn() != st.Side {
			return -s
		}
		return s
	}
	mr.Eval, mr.BestEval = side(pe.score, played), side(ae.score, alt)
	classify(&mr, k)
	if mr.Class == ClassBest {
		mr.Class = ClassGood
	}
	return mr, nil
}

// roundEnds returns, when step i's round is the last of its phase (its reveal gives
// a play position), that play position and the one alt instead of step i's choice
// would have given, the other side's choice of the round kept.
func roundEnds(h *record.History, i int, alt rules.Move) (played, instead rules.Position, ok bool) {
	st := h.Steps[i]
	// The round's two choices: this one and its partner (before or after it).
	j := -1
	for _, n := range []int{i + 1, i - 1} {
		if n >= 0 && n < len(h.Steps) && h.Steps[n].Simultaneous && h.Steps[n].Side != st.Side &&
			(h.Steps[n].Revealed || st.Revealed) {
			j = n
			break
		}
	}
	if j < 0 {
		return nil, nil, false
	}
	last := max(i, j)
	played = h.Steps[last].After
	if _, still := played.(rules.Simultaneous); still {
		return nil, nil, false
	}
	first := min(i, j)
	sim, ok := record.Round(h.Steps[first].Before)
	if !ok {
		return nil, nil, false
	}
	var pos rules.Position = sim
	for _, n := range []int{first, last} {
		m := h.Steps[n].Move
		if n == i {
			m = alt
		}
		s, ok := record.Round(pos)
		if !ok {
			return nil, nil, false
		}
		next, err := s.PlayAs(h.Steps[n].Side, m)
		if err != nil {
			return nil, nil, false
		}
		pos = next
	}
	if _, still := pos.(rules.Simultaneous); still {
		return nil, nil, false // the other cell would have been tried again
	}
	return played, pos, true
}

// posEval is the search of one position of a review.
type posEval struct {
	score Score // from the side to move's point of view
	best  rules.Move
	line  []rules.Move
	done  bool // the game was over: score is the result
}

// outcomeScore scores a finished game's outcome o for side.
func outcomeScore(o rules.Outcome, side rules.Side) Score {
	switch {
	case o.Status != rules.Won:
		return drawScore
	case o.Winner == side:
		return MateScore
	}
	return -MateScore
}

// parentScore turns the score s of a position into the score, for the other side,
// of the position one ply before it: negated, and a mate one ply further away.
func parentScore(s Score) Score {
	switch s = -s; {
	case s >= mateBound:
		s--
	case s <= -mateBound:
		s++
	}
	return s
}

// classify sets m's loss and class from its scores.
func classify(m *MoveReview, k float64) {
	bestC, playedC := WinChance(m.BestEval, k), WinChance(m.Eval, k)
	m.Loss = max(bestC-playedC, 0)
	switch {
	case m.Best == m.Move && !m.Placement:
		m.Class, m.Loss = ClassBest, 0
	case m.BestEval >= mateBound && m.Eval < mateBound:
		// A forced mate let go: judged by what is left.
		raw := 100 / (1 + math.Exp(-k*float64(min(m.Eval, mateBound-1))))
		switch {
		case raw < 93:
			m.Class = ClassBlunder
		case raw < 97.5:
			m.Class = ClassMistake
		default:
			m.Class = ClassInaccuracy
		}
	case m.Loss >= BlunderLoss:
		m.Class = ClassBlunder
	case m.Loss >= MistakeLoss:
		m.Class = ClassMistake
	case m.Loss >= InaccuracyLoss:
		m.Class = ClassInaccuracy
	default:
		m.Class = ClassGood
	}
}

// sum fills the players' summaries and the decisive moment of a game that ended
// in o (see Review.Decisive).
func (r *Review) sum(o rules.Outcome) {
	var acc [2]float64
	for s := range r.Players {
		r.Players[s].Counts = map[Class]int{}
	}
	worst := 0.0
	for i, m := range r.Moves {
		p := &r.Players[m.Side&1]
		p.Counts[m.Class]++
		if m.Placement && m.Eval == 0 && m.BestEval == 0 {
			continue // compared with a rule of thumb only: not in the accuracy
		}
		acc[m.Side&1] += MoveAccuracy(m.Loss)
		p.Moves++
		loser := !o.IsOver() || o.Status == rules.Won && m.Side == o.Winner.Other()
		if loser && (m.Class == ClassMistake || m.Class == ClassBlunder) && m.Loss > worst {
			worst, r.Decisive = m.Loss, i
		}
	}
	for s := range r.Players {
		if n := r.Players[s].Moves; n > 0 {
			r.Players[s].Accuracy = acc[s] / float64(n)
		}
	}
}
