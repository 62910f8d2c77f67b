package bot

import (
	"context"
	"fmt"
	"runtime/debug"
	"slices"
	"strings"

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
}

// GameChange is a move, revealed placement round or takeback just stored and announced, as
// an in-transaction hook sees it.
type GameChange struct {
	Tx   *storage.Tx
	Game *storage.Game
	Side rules.Side // who moved (for a takeback, who agreed)
	Said string     // what the announcement said happened
	from *Place     // where the request came from; nil when none did
	svc  *Service
	e    *effects
	// notes is how many notifications the transaction had queued before the
	// announcement.
	notes int
}

// GameEnd is a game that has just ended, as an in-transaction hook sees it.
type GameEnd struct {
	Tx   *storage.Tx
	Game *storage.Game
	e    *effects // what the transaction does once committed
}

// plug registers the features: their commands by name and their options'
// completers by option name, their end-of-game hooks in order. It refuses a
// command declared twice or without a handler, and a completer for an option that
// is not autocompleted, or none for one that is.
func (s *Service) plug(features []Feature) error {
	s.byName = map[string]int{}
	s.completers = map[string]Completer{}
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
				if _, ok := s.completers[opt]; !ok {
					s.completers[opt] = complete
				}
			}
			s.byName[name] = len(s.commands)
			s.commands = append(s.commands, c)
		}
		if f.GameEnded != nil {
			s.ended = append(s.ended, f.GameEnded)
		}
		if f.Moved != nil {
			s.movedHooks = append(s.movedHooks, f.Moved)
		}
		if f.TookBack != nil {
			s.tookBackHooks = append(s.tookBackHooks, f.TookBack)
		}
		if f.AfterGameEnded != nil {
			s.afterEnded = append(s.afterEnded, f.AfterGameEnded)
		}
		if f.Started != nil {
			s.started = append(s.started, f.Started)
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

// command returns the command named name (with or without its slash, in any case).
func (s *Service) command(name string) (Command, bool) {
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
	c, ok := s.command(name)
	if !ok || c.Spec.Name != name {
		return CommandSpec{}, false
	}
	spec := c.Spec
	spec.Options = slices.Clone(spec.Options)
	return spec, true
}

// start runs the features' Started hooks.
func (s *Service) start() {
	for _, hook := range s.started {
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
	for _, hook := range s.ended {
		if err := hook(GameEnd{Tx: tx, Game: g, e: e}); err != nil {
			return fmt.Errorf("bot: after game %s ended: %w", g.ID, err)
		}
	}
	for _, hook := range s.afterEnded {
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
		ch.svc = s
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
	s := ch.svc
	ch.e.note = note
	defer func() { ch.e.note = "" }()
	if _, ok := inRound(ch.Game.Position); ok {
		return s.choose(ch.Tx, ch.e, ch.Game, side, text, ch.from)
	}
	return s.play(ch.Tx, ch.e, ch.Game, side, text, ch.from)
}
