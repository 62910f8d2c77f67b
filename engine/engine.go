package engine

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/gess"
)

// Errors of the engine.
var (
	errNoMoves = errors.New("engine: the position has no legal move")
	// ErrUnsupported means the engine cannot search this kind of position.
	ErrUnsupported = errors.New("engine: unsupported position")
	// ErrGameOver means the game in the position is already decided.
	ErrGameOver = errors.New("engine: the game is over")
)

// Options configure an Engine; the zero value is usable.
type Options struct {
	// HashBits sets the transposition table to 2^HashBits entries of 24 bytes (default 20, 24 MiB).
	HashBits uint
	// Seed makes the noise of the weak levels reproducible.
	Seed uint64
	// Info, when set, receives a report after each completed iteration.
	Info func(Info)
}

// Engine is the built-in engine for all four games. It is safe for concurrent use:
// each search builds its own board from the immutable position it is given. The
// engine keeps one transposition table and the move-ordering histories between
// searches (the histories halved at each search, cleared when the game changes and
// in Gess at every search), so that the searches of one game (one engine per game
// or per player) build on each other; a search that starts while another holds
// them gets fresh ones of its own. Searches limited only by depth clear what is
// kept first, so they stay deterministic.
type Engine struct {
	opts  Options
	mu    sync.Mutex
	kept  *searchState // nil while a search holds it
	ready bool         // Ready has run
}

// searchState is what a search borrows from its engine and gives back for the
// next: the transposition table and the memory of the search's other tables.
type searchState struct {
	tt  *table
	mem searchMem
}

// New returns an engine with opts.
func New(opts Options) *Engine {
	if opts.HashBits == 0 {
		opts.HashBits = 20
	}
	opts.HashBits = min(max(opts.HashBits, 10), 26)
	return &Engine{opts: opts, kept: &searchState{tt: newTable(opts.HashBits)}}
}

// Forget clears what the engine keeps between searches, as for a new game, keeping
// the memory: a UCI GUI may announce every move as a new game, and allocating a
// table each time would make the garbage collector run at nearly every move. A
// table that a running search holds is not cleared.
func (e *Engine) Forget() {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.kept != nil {
		clear(e.kept.tt.slots)
		e.kept.mem.learnt = false
	}
}

// Ready allocates the search memory the engine's first search would and brings the
// hash table's pages in, so that less of the first search's time goes to them: a
// UCI engine does it when asked "isready", before its clock runs. Later calls, and
// calls while a search runs, do nothing.
func (e *Engine) Ready() {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.ready || e.kept == nil {
		return
	}
	e.ready = true
	e.kept.mem.alloc()
	clear(e.kept.tt.slots) // zeroed already: clearing brings its pages in
}

// take hands a search the kept state, its table cleared when fresh is set, or a
// new state when another search holds it.
func (e *Engine) take(fresh bool) *searchState {
	e.mu.Lock()
	st := e.kept
	e.kept = nil
	e.mu.Unlock()
	if st == nil {
		st = &searchState{tt: newTable(e.opts.HashBits)}
	}
	if fresh {
		clear(st.tt.slots)
	}
	st.tt.newSearch()
	return st
}

// put keeps st for the next search.
func (e *Engine) put(st *searchState) {
	e.mu.Lock()
	e.kept = st
	e.mu.Unlock()
}

// newGame builds the private search board for pos.
func newGame(pos rules.Position) (game, error) {
	if gp, ok := pos.(*gess.Position); ok {
		return newGessGame(gp), nil
	}
	g, err := newChessGame(pos)
	if err != nil {
		return nil, fmt.Errorf("%w: %s positions: %v", ErrUnsupported, pos.Variant().Name(), err)
	}
	return g.forSearch(), nil
}

// Search finds the best move of pos within lim and ctx (whichever ends first); at a
// fixed depth without time or node limit the result is deterministic.
func (e *Engine) Search(ctx context.Context, pos rules.Position, lim Limits) (Result, error) {
	return e.search(ctx, pos, lim, 0, nil)
}

// search searches pos; pause, when set, is called every thousand nodes or so and
// may block (the search's time runs on meanwhile); its error stops the search.
func (e *Engine) search(ctx context.Context, pos rules.Position, lim Limits, noise Score, pause func(context.Context) error) (Result, error) {
	if o := pos.Outcome(); o.IsOver() {
		return Result{}, fmt.Errorf("%w: %s", ErrGameOver, o)
	}
	g, err := newGame(pos)
	if err != nil {
		return Result{}, err
	}
	start := time.Now()
	if lim.Time > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, lim.Time)
		defer cancel()
	}
	_, hasDeadline := ctx.Deadline()
	fresh := lim.Time == 0 && lim.Optimum == 0 && lim.Nodes == 0 && !hasDeadline
	st := e.take(fresh)
	defer e.put(st)
	s := newSearcher(ctx, g, st.tt, &st.mem, fresh)
	s.pause = pause
	var pick func([]mv, []Score) int
	if noise > 0 {
		rng := rand.New(rand.NewPCG(e.opts.Seed, g.hash()))
		pick = func(moves []mv, scores []Score) int {
			best := 0
			for i := range scores {
				if scores[i] > scores[best] {
					best = i
				}
			}
			// Choose among the moves within noise of the best, weighted towards the best.
			var cands []int
			for i := range scores {
				if scores[i] >= scores[best]-noise && !scores[i].IsMate() || i == best {
					cands = append(cands, i)
				}
			}
			if scores[best] >= mateBound {
				return best
			}
			return cands[rng.IntN(len(cands))]
		}
	}
	rr, err := s.iterate(lim, pick, e.opts.Info)
	if err != nil {
		return Result{}, err
	}
	res := Result{Move: g.toRules(rr.move), Score: rr.score, Depth: rr.depth, Nodes: s.nodes, Time: time.Since(start)}
	res.PV = s.rulesPV(rr.pv)
	if len(res.PV) == 0 || res.PV[0] != res.Move {
		res.PV = []rules.Move{res.Move}
	}
	return res, nil
}

// Level is a playing strength for human opponents, 1 (beginner) to 8 (full strength).
type Level struct {
	Depth int
	Time  time.Duration
	Noise Score // root moves within Noise of the best are chosen at random
}

// Levels lists the strength levels 1..8 (index 0 is level 1).
var Levels = [8]Level{
	{Depth: 1, Time: 200 * time.Millisecond, Noise: 300},
	{Depth: 1, Time: 300 * time.Millisecond, Noise: 120},
	{Depth: 2, Time: 500 * time.Millisecond, Noise: 60},
	{Depth: 3, Time: time.Second, Noise: 30},
	{Depth: 4, Time: 2 * time.Second, Noise: 10},
	{Depth: 6, Time: 3 * time.Second},
	{Depth: 0, Time: 5 * time.Second},
	{Depth: 0, Time: 10 * time.Second},
}

// Limits returns the search limits of the level: its depth, its time as the hard
// limit with half of it as the time the search aims to spend, and the contempt of
// a game (a level plays against a player, who is there to play, not to draw).
func (l Level) Limits() Limits {
	return Limits{Depth: l.Depth, Time: l.Time, Optimum: l.Time / 2, Contempt: DefaultContempt}
}

// MaxLevel is the strongest level.
const MaxLevel = len(Levels)

// LevelLimits returns the limits and noise of level (clamped to 1..MaxLevel).
func LevelLimits(level int) Level {
	return Levels[min(max(level, 1), MaxLevel)-1]
}

// Move chooses a move for pos at strength level (1..8), within ctx's deadline.
func (e *Engine) Move(ctx context.Context, pos rules.Position, level int) (rules.Move, error) {
	l := LevelLimits(level)
	// Gess positions have hundreds of moves: give the weak levels enough depth to see
	// the ring rule at all.
	r, err := e.search(ctx, pos, l.Limits(), l.Noise, nil)
	if err != nil {
		return rules.NullMove, err
	}
	return r.Move, nil
}

// fullStrength returns the limits of a search that judges a position for a player:
// none but ctx's deadline when it has one, else d with half of it as the aim.
func fullStrength(ctx context.Context, d time.Duration) Limits {
	if _, ok := ctx.Deadline(); ok {
		return Limits{}
	}
	return Limits{Time: d, Optimum: d / 2}
}

// Hint returns the best move of pos and its score for the side to move, searching
// at full strength for the context's deadline or a few seconds.
func (e *Engine) Hint(ctx context.Context, pos rules.Position) (rules.Move, Score, error) {
	r, err := e.search(ctx, pos, fullStrength(ctx, 3*time.Second), 0, nil)
	if err != nil {
		return rules.NullMove, 0, err
	}
	return r.Move, r.Score, nil
}
