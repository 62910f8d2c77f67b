package bot

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/missivechess/missive/engine"
	"github.com/missivechess/missive/engine/external"
	"github.com/missivechess/missive/rules"
)

// Checking the external engines.
//
// A configured engine that cannot play (its program missing, a variant it does not
// know, a protocol Missive cannot work with) would otherwise be found only when a
// game asks it for a move, after a person's challenge to it was accepted. So the
// scheduler checks every external engine on each of its variants when it starts:
// the engine plays one short move from the variant's start (Go-Chess: from a
// placement the built-in engine makes for both sides). A failure is logged with its
// reason, and challenges to that engine in that variant are refused until a later
// check passes; the pairs that failed are checked again every engineCheckEvery. A
// pair that passed is not checked again while its games show it plays: each move an
// engine makes or fails to make in a game counts as a check of its pair (a failure
// because the bot stopped waiting does not).

// engineChecker is an Engine that checks its external engines (engines.Check) and
// tells the last outcome of each engine and variant pair (engines.Checked).
type engineChecker interface {
	Check(ctx context.Context, reg *rules.Registry) []engineCheck
	Checked() []engineCheck
}

// engineCheck is the outcome of checking one external engine on one variant.
type engineCheck struct {
	Engine, Variant string
	Err             error // nil: it played
}

// The check's move gets engineCheckThink; engineCheckEvery is how often the pairs
// that failed are checked again.
const (
	engineCheckThink = 200 * time.Millisecond
	engineCheckEvery = 10 * time.Minute
)

// engineCheckState is when the service last started a check, and whether one runs.
type engineCheckState struct {
	at      time.Time
	running bool
}

// CheckEngines starts a check of the external engines in the background (Idle waits
// for it), unless one runs or one started less than engineCheckEvery ago, and logs
// what it finds. Run calls it on each pass.
func (s *Service) CheckEngines() {
	c, ok := s.engine.(engineChecker)
	if !ok {
		return
	}
	now := s.Now()
	s.engMu.Lock()
	if st := s.engCheck; st.running || !st.at.IsZero() && now.Sub(st.at) < engineCheckEvery {
		s.engMu.Unlock()
		return
	}
	s.engCheck.at, s.engCheck.running = now, true
	s.engMu.Unlock()
	s.bg.add()
	go func() {
		defer s.bg.done()
		defer func() {
			s.engMu.Lock()
			s.engCheck.running = false
			s.engMu.Unlock()
		}()
		defer func() {
			if r := recover(); r != nil {
				s.log.Error("bot: checking the external engines panicked", "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
			}
		}()
		for _, r := range c.Check(s.stopping, s.reg) {
			if r.Err != nil {
				s.log.Error(fmt.Sprintf("bot: an external engine cannot play; challenges to it in this game are refused until a check (every %d minutes) finds it can", int(engineCheckEvery.Minutes())),
					"engine", r.Engine, "variant", r.Variant, "error", r.Err)
			} else {
				s.log.Info("bot: an external engine plays", "engine", r.Engine, "variant", r.Variant)
			}
		}
	}()
}

// writeEngineMetrics writes, in the Prometheus text format, whether each external
// engine played in its last check or game move, by engine and variant (nothing
// before a check).
func (s *Service) writeEngineMetrics(w io.Writer) {
	c, ok := s.engine.(engineChecker)
	if !ok {
		return
	}
	checked := c.Checked()
	if len(checked) == 0 {
		return
	}
	fmt.Fprintln(w, "# HELP missive_engine_playable 1 when the external engine's last check or game move in this variant succeeded.")
	fmt.Fprintln(w, "# TYPE missive_engine_playable gauge")
	for _, r := range checked {
		up := 0
		if r.Err == nil {
			up = 1
		}
		fmt.Fprintf(w, "missive_engine_playable{engine=%q,variant=%q} %d\n", r.Engine, r.Variant, up)
	}
}

// pairKey is the key of an engine and variant pair in engines.checks.
func pairKey(name, variant string) string { return strings.ToLower(name) + "\x00" + variant }

// record keeps the outcome of engine name's check or game move in variant.
func (e *engines) record(name, variant string, err error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.checks[pairKey(name, variant)] = engineCheck{Engine: name, Variant: variant, Err: err}
}

// Checked returns the last outcome of each engine and variant pair, in order.
func (e *engines) Checked() []engineCheck {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := make([]engineCheck, 0, len(e.checks))
	for _, k := range slices.Sorted(maps.Keys(e.checks)) {
		out = append(out, e.checks[k])
	}
	return out
}

// Check checks each external engine on each of its variants that has not played
// in its last check or game move (see above) and returns the outcomes; a check cut
// short by ctx ending is left out and leaves the pair as it was.
func (e *engines) Check(ctx context.Context, reg *rules.Registry) []engineCheck {
	if e.pool == nil {
		return nil
	}
	var out []engineCheck
	for _, name := range slices.Sorted(maps.Keys(e.ext)) {
		c := e.ext[name]
		for _, variant := range slices.Sorted(maps.Keys(c.Variants)) {
			e.mu.Lock()
			last, checked := e.checks[pairKey(c.Name, variant)]
			e.mu.Unlock()
			if checked && last.Err == nil {
				continue
			}
			err := e.checkOne(ctx, c, reg, variant)
			if ctx.Err() != nil {
				return out
			}
			e.record(c.Name, variant, err)
			out = append(out, engineCheck{Engine: c.Name, Variant: variant, Err: err})
		}
	}
	return out
}

// checkOne has the engine c play one move from the start of variant (a resignation
// counts: the engine answered).
func (e *engines) checkOne(ctx context.Context, c external.Config, reg *rules.Registry, variant string) error {
	v, err := reg.Lookup(variant)
	if err != nil {
		return fmt.Errorf("bot: %q is not a game of this bot (%s): %w", variant, strings.Join(reg.Keys(), ", "), err)
	}
	start := v.Start(1)
	if sim, ok := inRound(start); ok {
		if start, err = engine.PlayPlacement(ctx, sim, e.builtin, e.builtin); err != nil {
			return err
		}
	}
	x, err := e.pool.Acquire(ctx, c.Name) // waits while games use every process
	if err != nil {
		return err
	}
	defer e.pool.Release(x)
	_, err = x.MoveWithin(ctx, start, nil, external.Budget{Think: engineCheckThink})
	if errors.Is(err, external.ErrResigned) {
		return nil
	}
	return err
}
