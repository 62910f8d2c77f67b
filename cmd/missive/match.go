package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/missivechess/missive/engine"
	"github.com/missivechess/missive/engine/external"
	"github.com/missivechess/missive/engine/match"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/variants"
)

// runMatch plays an engine match and prints its summary.
func runMatch(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("match", flag.ContinueOnError)
	fs.SetOutput(stderr)
	variant := fs.String("variant", "gothic", "game: gothic, keltic, gochess or gess")
	games := fs.Int("games", 10, "number of games (colours alternate)")
	a := fs.String("a", "builtin", "first player: builtin[:depth=N|time=D|level=N|nodes=N], greedy, or engine:NAME")
	b := fs.String("b", "greedy", "second player, as -a")
	cfgPath := fs.String("engines", "", "YAML file with the external engines (engines: [...])")
	think := fs.Duration("think", time.Second, "think time per move for time-limited players")
	openings := fs.Int("opening-plies", 4, "random plies that open each pair of games")
	seed := fs.Uint64("seed", 1, "seed of the openings and start positions")
	maxPlies := fs.Int("max-plies", 300, "adjudicate a draw after this many plies (0: never)")
	pgn := fs.String("pgn", "", "write all games to this PGN file")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %w", err, errUsage)
	}
	for _, f := range []struct {
		name   string
		n, min int
	}{{"games", *games, 1}, {"opening-plies", *openings, 0}, {"max-plies", *maxPlies, 0}} {
		if f.n < f.min {
			return fmt.Errorf("match: --%s must be at least %d, not %d: %w", f.name, f.min, f.n, errUsage)
		}
	}
	if *maxPlies > 0 && *maxPlies <= *openings {
		return fmt.Errorf("match: --max-plies %d would end the games within their %d opening plies; give more, or 0 for no cap: %w", *maxPlies, *openings, errUsage)
	}
	v, err := variants.Registry().Lookup(*variant)
	if err != nil {
		return err
	}
	var cfgs []external.Config
	if *cfgPath != "" {
		if cfgs, err = external.Load(*cfgPath); err != nil {
			return err
		}
	}
	pa, err := player(*a, cfgs, *think, *seed)
	if err != nil {
		return err
	}
	pb, err := player(*b, cfgs, *think, *seed+1)
	if err != nil {
		return err
	}
	for _, p := range []match.Player{pa, pb} {
		if x, ok := p.(*match.External); ok {
			defer x.Engine.Close()
			if !x.Engine.Supports(v.Key()) {
				return fmt.Errorf("match: %s is not configured for %s", x.Name(), v.Key())
			}
		}
	}
	c := match.Config{Variant: v, A: pa, B: pb, Games: *games, OpeningPlies: *openings, Seed: *seed, MaxPlies: *maxPlies, Log: stdout}
	if v.Key() == "gochess" {
		c.Start = func(_ int, rng *rand.Rand) (rules.Position, error) { return match.GoChessStart(ctx, v, pa, pb, rng) }
	}
	if *pgn != "" {
		f, err := os.Create(*pgn)
		if err != nil {
			return err
		}
		defer f.Close()
		c.PGN = f
	}
	sum, _, err := match.Run(ctx, c)
	fmt.Fprintln(stdout, sum)
	return err
}

// player parses a player specification.
func player(spec string, cfgs []external.Config, think time.Duration, seed uint64) (match.Player, error) {
	kind, arg, _ := strings.Cut(spec, ":")
	switch kind {
	case "greedy":
		return match.NewGreedy(seed), nil
	case "builtin":
		p := &match.Builtin{Label: "missive", Engine: engine.New(engine.Options{Seed: seed}), Limits: engine.Limits{Time: think}}
		if arg != "" {
			k, val, _ := strings.Cut(arg, "=")
			p.Label = "missive-" + arg
			n, err := strconv.Atoi(val)
			switch {
			case k == "level":
				level, lerr := engine.ParseLevel(val)
				var le *engine.LevelError
				if errors.As(lerr, &le) {
					return nil, fmt.Errorf("match: %q: %s (%w)", spec, le.Sentence(), errUsage)
				}
				l := engine.LevelLimits(level)
				p.Limits = engine.Limits{Depth: l.Depth, Time: l.Time}
			case k == "time":
				d, derr := time.ParseDuration(val)
				if derr != nil {
					return nil, fmt.Errorf("match: %q: %w: %w", spec, derr, errUsage)
				}
				p.Limits = engine.Limits{Time: d}
			case err != nil:
				return nil, fmt.Errorf("match: %q: %s takes a number: %w", spec, k, errUsage)
			case k == "depth":
				p.Limits = engine.Limits{Depth: n}
			case k == "nodes":
				p.Limits = engine.Limits{Nodes: int64(n)}
			default:
				return nil, fmt.Errorf("match: unknown builtin limit %q (depth, time, nodes or level): %w", k, errUsage)
			}
		}
		return p, nil
	case "engine":
		for _, c := range cfgs {
			if c.Name == arg {
				e, err := external.New(c)
				if err != nil {
					return nil, err
				}
				return &match.External{Engine: e, Think: think}, nil
			}
		}
		return nil, fmt.Errorf("match: no engine %q in the --engines file: %w", arg, errUsage)
	}
	return nil, fmt.Errorf("match: unknown player %q (builtin, greedy or engine:NAME): %w", spec, errUsage)
}
