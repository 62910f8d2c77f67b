package bot

import (
	"context"
	"fmt"
	"reflect"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/storage"
)

// Feature is a part of the service plugged into its core: the commands it adds and
// what it does when a game ends. The service's own features (features.go) and those
// of Config.Features are registered alike.
type Feature struct {
	Commands []Command
	// GameEnded, when set, runs inside the transaction that ends a game (by the
	// rules, resignation, agreement, abort or time), so that what follows from the
	// result commits with it; an error undoes the whole change.
	GameEnded func(end GameEnd) error
	// AfterGameEnded, when set, runs once that transaction has committed; a panic in
	// it is logged and the service goes on.
	AfterGameEnded func(ctx context.Context, g *storage.Game)
	// Started, when set, runs once when the service has been built, after the
	// notifications an earlier process left are resumed: a feature picks up the
	// background work it had stored (a panic in it is logged and the service goes on).
	Started func()
	// Moved, when set, runs inside the transaction of every move and revealed
	// placement round that leaves the game going, once it is stored and announced; it may act
	// on the game in turn (GameChange.Play), and an error undoes the whole change.
	Moved func(ch GameChange) error
	// TookBack, when set, runs inside the transaction of a takeback once it is
	// stored and announced.
	TookBack func(ch GameChange) error
	// Saving, when set, runs inside every change that stores a game, before its
	// next wake-up is planned (leave freezes a clock here, or runs it again).
	Saving func(tx *Tx, g *storage.Game, now time.Time) error
	// Moving, when set, runs inside the change of a player's own move or placement
	// choice, before the clock advances (a player's own move ends their leave).
	Moving func(tx *Tx, g *storage.Game, side rules.Side, now time.Time) error
	// Tick, when set, runs at each pass of the scheduler after the games due (leaves
	// that end, daily digests, challenges that expire); its error is logged.
	Tick func(ctx context.Context, now time.Time) error
	// Buttons, when set, returns the buttons under g's board with the feature's own
	// added where they belong among those the features listed before it gave.
	Buttons func(g *storage.Game, buttons []Action) []Action
	// ButtonsIn, when set, is Buttons with the labels in language l, the reader's
	// (it is used instead of Buttons, which then gives the English).
	ButtonsIn func(l i18n.Lang, g *storage.Game, buttons []Action) []Action
	// Lane, when set, claims games for an engine lane of their own: their engine
	// turns take turns there, apart from people's games, at most Plies in a row,
	// and an engine that fails to move in them loses at once.
	Lane func(g *storage.Game) (Lane, bool)
	// EngineMoved, when set, runs inside the change of an engine's move once it is
	// stored and announced (an engine match adjudicates at its ply cap).
	EngineMoved func(tx *Tx, g *storage.Game, side rules.Side) error
	// EngineFailed, when set, runs inside the change that ends a game because its
	// engine resigned or failed to move, before the end is stored; report is the
	// sentence that says what happened.
	EngineFailed func(tx *Tx, g *storage.Game, report string) error
	// Threads record the thread an adapter opened for an event of each kind the
	// feature owns (Service.SetEventThread); a thread already recorded stays.
	Threads map[EventKind]func(tx *storage.Tx, id, thread string) error
}

// Lane is an engine lane a feature claims for its games (Feature.Lane).
type Lane struct {
	// Plies is the most engine turns played in a row before the scheduler goes on.
	Plies int
}

// hooks are the features' hooks other than commands, in the order of the features.
type hooks struct {
	ended      []func(GameEnd) error
	afterEnded []func(context.Context, *storage.Game)
	started    []func()
	// moved and tookBack run inside the transaction of a move or a takeback.
	moved, tookBack []func(GameChange) error
	saving          []func(*Tx, *storage.Game, time.Time) error
	moving          []func(*Tx, *storage.Game, rules.Side, time.Time) error
	tick            []func(context.Context, time.Time) error
	buttons         []func(i18n.Lang, *storage.Game, []Action) []Action
	lane            []func(*storage.Game) (Lane, bool)
	engineMoved     []func(*Tx, *storage.Game, rules.Side) error
	engineFailed    []func(*Tx, *storage.Game, string) error
	threads         map[EventKind]func(*storage.Tx, string, string) error
}

// GameChange is a move, revealed placement round or takeback just stored and
// announced, as an in-transaction hook sees it.
type GameChange struct {
	Tx   *Tx
	Game *storage.Game
	Side rules.Side // who moved (for a takeback, who agreed)
	Said string     // what the announcement said happened (in English)
	// SaidIn is Said in a reader's language.
	SaidIn Phrase
	// From is where the request came from; nil when none did (an engine's move, a
	// move played for a player).
	From *Place
	// Notices is how many notifications the change had queued before the
	// announcement.
	Notices int
}

// GameEnd is a game that has just ended, as an in-transaction hook sees it.
type GameEnd struct {
	Tx   *Tx
	Game *storage.Game
}

// plug registers the features: their commands by name (listed as order says) and their options'
// completers by option name, their end-of-game hooks in order. It refuses a
// CommandOf declared twice or without a handler, and a completer for an option that
// is not autocompleted, or none for one that is.
func (s *Service) plug(features []Feature, order []string) error {
	s.byName = map[string]int{}
	s.completers = map[string]Completer{}
	s.hooks.threads = map[EventKind]func(*storage.Tx, string, string) error{}
	for _, f := range features {
		for _, c := range f.Commands {
			name := strings.ToLower(c.Spec.Name)
			if name == "" || c.Handle == nil {
				return fmt.Errorf("bot: command %q has no name or no handler", c.Spec.Name)
			}
			if _, dup := s.byName[name]; dup {
				return fmt.Errorf("bot: command %q is declared twice", name)
			}
			for opt, complete := range c.Complete {
				if o, ok := c.Spec.Option(opt); !ok || !o.Autocomplete || complete == nil {
					return fmt.Errorf("bot: command %q completes %q, which is not one of its autocompleted options", name, opt)
				}
			}
			s.byName[name] = len(s.commands)
			s.commands = append(s.commands, c)
		}
		s.hooks.add(f)
		for kind, set := range f.Threads {
			if _, dup := s.hooks.threads[kind]; dup {
				return fmt.Errorf("bot: two features record threads of %s events", kind)
			}
			s.hooks.threads[kind] = set
		}
	}
	rank := func(c Command) int {
		if i := slices.Index(order, strings.ToLower(c.Spec.Name)); i >= 0 {
			return i
		}
		return len(order)
	}
	slices.SortStableFunc(s.commands, func(a, b Command) int { return rank(a) - rank(b) })
	for i, c := range s.commands {
		s.byName[strings.ToLower(c.Spec.Name)] = i
		for opt, complete := range c.Complete { // the first command listed shares its completer
			if _, ok := s.completers[opt]; !ok {
				s.completers[opt] = complete
			}
		}
	}
	for _, c := range s.commands {
		for _, o := range c.Spec.AllOptions() {
			if _, ok := s.completers[o.Name]; o.Autocomplete && !ok {
				return fmt.Errorf("bot: command %q autocompletes %q, which no command completes", c.Spec.Name, o.Name)
			}
		}
	}
	return nil
}

// add appends f's hooks.
func (h *hooks) add(f Feature) {
	appendSet(&h.ended, f.GameEnded)
	appendSet(&h.afterEnded, f.AfterGameEnded)
	appendSet(&h.started, f.Started)
	appendSet(&h.moved, f.Moved)
	appendSet(&h.tookBack, f.TookBack)
	appendSet(&h.saving, f.Saving)
	appendSet(&h.moving, f.Moving)
	appendSet(&h.tick, f.Tick)
	switch {
	case f.ButtonsIn != nil:
		h.buttons = append(h.buttons, f.ButtonsIn)
	case f.Buttons != nil:
		buttons := f.Buttons
		h.buttons = append(h.buttons, func(_ i18n.Lang, g *storage.Game, a []Action) []Action { return buttons(g, a) })
	}
	appendSet(&h.lane, f.Lane)
	appendSet(&h.engineMoved, f.EngineMoved)
	appendSet(&h.engineFailed, f.EngineFailed)
}

// appendSet appends fn to list when it is set.
func appendSet[F any](list *[]F, fn F) {
	if any(fn) != nil && !reflect.ValueOf(fn).IsNil() {
		*list = append(*list, fn)
	}
}

// CommandOf returns the command named name (with or without its slash, in any case).
func (s *Service) CommandOf(name string) (Command, bool) {
	i, ok := s.byName[strings.ToLower(strings.TrimPrefix(name, "/"))]
	if !ok {
		return Command{}, false
	}
	return s.commands[i], true
}

// Commands returns the specs of every command the service handles, in the order
// they are best listed. Variant choices come from the registry, themes from the
// renderer.
func (s *Service) Commands() []CommandSpec {
	out := make([]CommandSpec, len(s.commands))
	for i, c := range s.commands {
		out[i] = c.Spec
		out[i].Options = slices.Clone(c.Spec.Options)
	}
	return out
}

// Spec returns the spec of command name, and false when there is none.
func (s *Service) Spec(name string) (CommandSpec, bool) {
	c, ok := s.CommandOf(name)
	if !ok || c.Spec.Name != name {
		return CommandSpec{}, false
	}
	spec := c.Spec
	spec.Options = slices.Clone(spec.Options)
	return spec, true
}

// start runs the features' Started hooks.
func (s *Service) start() {
	for _, hook := range s.hooks.started {
		func() {
			defer func() {
				if r := recover(); r != nil {
					s.log.Error("bot: a feature's start panicked", "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
				}
			}()
			hook()
		}()
	}
}

// gameEnded runs the in-transaction end-of-game hooks for g, which has just ended,
// and queues the after-commit ones.
func (s *Service) gameEnded(tx *storage.Tx, e *effects, g *storage.Game) error {
	for _, hook := range s.hooks.ended {
		if err := hook(GameEnd{Tx: s.tx(tx, e), Game: g}); err != nil {
			return fmt.Errorf("bot: after game %s ended: %w", g.ID, err)
		}
	}
	for _, hook := range s.hooks.afterEnded {
		e.after = append(e.after, func(ctx context.Context) {
			defer func() {
				if r := recover(); r != nil {
					s.log.Error("bot: an after-game hook panicked", "game", g.ID, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
				}
			}()
			hook(ctx, g)
		})
	}
	return nil
}

// changed runs hooks (the Moved or TookBack ones) on a change of g that side made.
func (s *Service) changed(hooks []func(GameChange) error, ch GameChange) error {
	for _, hook := range hooks {
		if !ch.Game.Active() {
			return nil
		}
		if err := hook(ch); err != nil {
			return fmt.Errorf("bot: after a change of game %s: %w", ch.Game.ID, err)
		}
	}
	return nil
}

// Play plays text as side's move, or side's choice in a placement round, in the
// changed game, through the path a player's own move takes (clock, notices,
// end-of-game hooks). note, when not empty, is added to its announcement.
func (ch GameChange) Play(side rules.Side, text, note string) error {
	var p Phrase
	if note != "" {
		p = Same(note)
	}
	return ch.PlayIn(side, text, p)
}

// PlayIn is Play with a note in each reader's language (nil for none).
func (ch GameChange) PlayIn(side rules.Side, text string, note Phrase) error {
	t := ch.Tx
	t.e.note = note
	defer func() { t.e.note = nil }()
	if _, ok := inRound(ch.Game.Position); ok {
		return t.Choose(ch.Game, side, text, ch.From)
	}
	return t.Play(ch.Game, side, text, ch.From)
}
