package bot

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/bot/words"
	"github.com/missivechess/missive/engine"
	"github.com/missivechess/missive/engine/external"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/record"
	"github.com/missivechess/missive/storage"
)

// Engine player ids: "engine:builtin:N" for the built-in engine at level N (1-8),
// "engine:ext:NAME" for a configured external engine.
const (
	builtinPrefix  = storage.EnginePrefix + "builtin:"
	externalPrefix = storage.EnginePrefix + "ext:"
	// DefaultLevel is the built-in engine's level when a challenge names none.
	DefaultLevel = 4
)

// ErrEngineForfeits: an engine player broke a bound the bot sets it (its memory
// limit) and loses its game at once, in any game: a try again would only do the
// same, and the person would wait an hour for nothing.
var ErrEngineForfeits = errors.New("bot: the engine forfeits the game")

// engines is the service's Engine: the built-in engine and, when configured,
// external engines from a bounded pool.
type engines struct {
	builtin *engine.Engine
	pool    *external.Pool
	ext     map[string]external.Config

	mu     sync.Mutex
	checks map[string]engineCheck // the last check or move of each engine and variant (pairKey)
}

// NewEngine returns the Engine of the built-in engine and of the external engines
// cfgs (taken from pool, which bounds their processes; nil when none is configured).
func NewEngine(builtin *engine.Engine, pool *external.Pool, cfgs []external.Config) Engine {
	e := &engines{builtin: builtin, pool: pool, ext: map[string]external.Config{}, checks: map[string]engineCheck{}}
	if pool != nil {
		for _, c := range cfgs {
			e.ext[strings.ToLower(c.Name)] = c
		}
	}
	return e
}

// Opponent resolves "builtin" (or empty) and the name of a configured engine.
func (e *engines) Opponent(name string, level int, variant string) (storage.Seat, error) {
	name = strings.ToLower(strings.TrimSpace(name))
	if name == "" || name == "builtin" {
		if level == 0 {
			level = DefaultLevel
		}
		if level < 1 || level > engine.MaxLevel {
			return storage.Seat{}, refusal(ErrRefused, "refusal.enginelevel", func(words.W) i18n.Data { return i18n.Data{"Max": engine.MaxLevel} })
		}
		return storage.Seat{ID: builtinPrefix + strconv.Itoa(level), Name: fmt.Sprintf("Missive engine (level %d)", level)}, nil
	}
	c, ok := e.ext[name]
	if !ok {
		names := strings.Join(e.names(), ", ")
		return storage.Seat{}, refusal(ErrRefused, "refusal.noengine", func(words.W) i18n.Data { return i18n.Data{"Name": rules.Echo(name), "Engines": names} })
	}
	if _, ok := c.Variants[variant]; !ok {
		return storage.Seat{}, refusal(ErrRefused, "refusal.enginevariant", func(w words.W) i18n.Data { return i18n.Data{"Name": c.Name, "Variant": variantWord(w, variant)} })
	}
	if level != 0 {
		return storage.Seat{}, refusal(ErrRefused, "refusal.enginelevels", func(words.W) i18n.Data { return i18n.Data{"Name": c.Name} })
	}
	e.mu.Lock()
	last, checked := e.checks[pairKey(c.Name, variant)]
	e.mu.Unlock()
	if checked && last.Err != nil {
		return storage.Seat{}, refusal(ErrRefused, "refusal.enginedown", func(w words.W) i18n.Data { return i18n.Data{"Name": c.Name, "Variant": variantWord(w, variant)} })
	}
	return storage.Seat{ID: externalPrefix + c.Name, Name: c.Name}, nil
}

// variantWord names variant key in w's language; the English says the key, as it
// always has.
func variantWord(w words.W, key string) string {
	if w.Lang() == i18n.English {
		return key
	}
	return w.Variant(key, key)
}

// Names lists the engines that can be challenged: builtin, then the configured ones.
func (e *engines) Names() []string { return e.names() }

// names lists the engines that can be challenged.
func (e *engines) names() []string {
	out := []string{"builtin"}
	for _, c := range e.ext {
		out = append(out, c.Name)
	}
	slices.Sort(out[1:])
	return out
}

// Move asks the engine that plays turn.Player.
func (e *engines) Move(ctx context.Context, turn EngineTurn) (rules.Move, error) {
	if name, ok := strings.CutPrefix(turn.Player, externalPrefix); ok {
		return e.external(ctx, name, turn)
	}
	level, err := strconv.Atoi(strings.TrimPrefix(turn.Player, builtinPrefix))
	if !strings.HasPrefix(turn.Player, builtinPrefix) || err != nil {
		return rules.NullMove, fmt.Errorf("bot: unknown engine player %q", turn.Player)
	}
	if sim, ok := inRound(turn.Position); ok {
		return e.builtin.Place(ctx, sim, turn.Side)
	}
	return e.builtin.Move(ctx, turn.Position, level)
}

// external asks a configured engine from the pool.
func (e *engines) external(ctx context.Context, name string, turn EngineTurn) (rules.Move, error) {
	c, ok := e.ext[strings.ToLower(name)]
	if !ok || e.pool == nil {
		return rules.NullMove, fmt.Errorf("bot: the engine %q is no longer configured", name)
	}
	if sim, round := inRound(turn.Position); round {
		// UCI and XBoard have no secret placement phase: the built-in engine's
		// placement strategy chooses the external engine's cells.
		return e.builtin.Place(ctx, sim, turn.Side)
	}
	if turn.Start == nil {
		return rules.NullMove, fmt.Errorf("bot: the engine %s needs the game's moves", name)
	}
	x, err := e.pool.Acquire(ctx, c.Name)
	if err != nil {
		return rules.NullMove, err
	}
	defer e.pool.Release(x)
	m, err := x.Move(ctx, turn.Start, turn.Moves, c.Think)
	switch {
	case errors.Is(err, external.ErrResigned): // it answered: it plays
		e.record(c.Name, turn.Position.Variant().Key(), nil)
		err = fmt.Errorf("%w: %w", ErrEngineResigned, err)
	case err == nil || ctx.Err() == nil: // not when the bot gave up waiting
		e.record(c.Name, turn.Position.Variant().Key(), err)
		if errors.Is(err, external.ErrMemory) {
			err = fmt.Errorf("%w: %w", ErrEngineForfeits, err)
		}
	}
	return m, err
}

// hintTime bounds the search for a hint, drawTime (the engine's own bound) the one
// that judges a draw offer.
const (
	hintTime = 3 * time.Second
	drawTime = engine.DrawTime
)

// Hint asks the built-in engine at full strength, for a few seconds.
func (e *engines) Hint(ctx context.Context, pos rules.Position, side rules.Side) (Hint, error) {
	ctx, cancel := context.WithTimeout(ctx, hintTime)
	defer cancel()
	if sim, ok := inRound(pos); ok {
		m, err := e.builtin.Place(ctx, sim, side)
		return Hint{Move: m}, err
	}
	m, score, err := e.builtin.Hint(ctx, pos)
	if err != nil {
		return Hint{}, err
	}
	return Hint{Move: m, Scored: true, Pawns: float64(score) / 100, MateIn: score.MateIn()}, nil
}

// AcceptsDraw asks the built-in engine to judge a draw offer at full strength;
// external engines are not asked (UCI and XBoard have no way to), so they play on.
func (e *engines) AcceptsDraw(ctx context.Context, turn EngineTurn) (bool, error) {
	if name, ok := strings.CutPrefix(turn.Player, externalPrefix); ok {
		return false, refusal(ErrRefused, "refusal.enginedraw", func(words.W) i18n.Data { return i18n.Data{"Name": name} })
	}
	if _, ok := inRound(turn.Position); ok {
		return false, refusal(ErrRefused, "refusal.enginedrawround", nil)
	}
	ctx, cancel := context.WithTimeout(ctx, drawTime)
	defer cancel()
	return e.builtin.AcceptsDraw(ctx, turn.Position, turn.Side, gamePlies(turn))
}

// gamePlies is how many half-moves turn's game has had, counted from its start's
// move number when that is a set-up position (a FEN's fullmove number and side to
// move), so that a game set up at move 41 is judged past its opening.
func gamePlies(turn EngineTurn) int {
	n := len(turn.Moves)
	if f, ok := turn.Start.(interface{ FullmoveNumber() int }); ok {
		n += 2 * (max(f.FullmoveNumber(), 1) - 1)
		if turn.Start.Turn() == rules.Black {
			n++
		}
	}
	return n
}

// OffersDraw asks the built-in engine whether its player offers a draw with the move
// it has just played (at its moves 30, 40, ..., when the game is level; see
// engine.OffersDraw). External engines never offer one (UCI has no way to), nor does
// any engine during Go-Chess placement.
func (e *engines) OffersDraw(ctx context.Context, turn EngineTurn) (bool, error) {
	if !strings.HasPrefix(turn.Player, builtinPrefix) {
		return false, nil
	}
	if _, ok := inRound(turn.Position); ok {
		return false, nil
	}
	ctx, cancel := context.WithTimeout(ctx, drawTime)
	defer cancel()
	return e.builtin.OffersDraw(ctx, turn.Position, turn.Side, gamePlies(turn))
}

// Review reviews h with an engine of its own (a small table, never the one of play).
func (e *engines) Review(ctx context.Context, h *record.History, opts engine.ReviewOptions) (*engine.Review, error) {
	return engine.New(engine.Options{HashBits: 18}).ReviewWith(ctx, h, opts)
}
