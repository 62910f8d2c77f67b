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
	nodes := fs.Int("nodes", 0, "nodes a move instead of --think, for builtin and UCI engine:NAME players (0: use --think)")
	openings := fs.Int("opening-plies", 4, "random plies that open each pair of games")
	suite := fs.String("openings", "", "file of start positions, one FEN a line: each pair of games starts from the next (then --opening-plies random plies)")
	seed := fs.Uint64("seed", 1, "seed of the openings and start positions")
	maxPlies := fs.Int("max-plies", 300, "adjudicate a draw after this many plies (0: never)")
	pgn := fs.String("pgn", "", "write all games to this PGN file")
	jobs := fs.Int("j", 1, "game pairs played at once, each by its own players")
	sprtSpec := fs.String("sprt", "", "stop when a sequential test decides: elo0,elo1[,alpha,beta] (alpha and beta default to 0.05)")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %w", err, errUsage)
	}
	for _, f := range []struct {
		name   string
		n, min int
	}{{"games", *games, 1}, {"opening-plies", *openings, 0}, {"max-plies", *maxPlies, 0}, {"j", *jobs, 1}, {"nodes", *nodes, 0}} {
		if f.n < f.min {
			return fmt.Errorf("match: --%s must be at least %d, not %d: %w", f.name, f.min, f.n, errUsage)
		}
	}
	if *maxPlies > 0 && *maxPlies <= *openings {
		return fmt.Errorf("match: --max-plies %d would end the games within their %d opening plies; give more, or 0 for no cap: %w", *maxPlies, *openings, errUsage)
	}
	var sprt *match.SPRT
	if *sprtSpec != "" {
		t, err := parseSPRT(*sprtSpec)
		if err != nil {
			return err
		}
		sprt = &t
	}
	v, err := variants.Registry().Lookup(*variant)
	if err != nil {
		return err
	}
	var starts []rules.Position
	if *suite != "" {
		f, err := os.Open(*suite)
		if err != nil {
			return fmt.Errorf("match: --openings: %w", err)
		}
		starts, err = match.ReadOpenings(f, v, *suite)
		f.Close()
		if err != nil {
			return fmt.Errorf("%w: %w", err, errUsage)
		}
	}
	ps, err := newPlayers("match", *cfgPath, v, external.Budget{Think: *think, Nodes: int64(*nodes)})
	if err != nil {
		return err
	}
	defer ps.close()
	// Every worker gets its own players: an engine process plays one game at a time.
	players := func(w int) (match.Player, match.Player, error) {
		pa, err := ps.open(*a, *seed+2*uint64(w))
		if err != nil {
			return nil, nil, err
		}
		pb, err := ps.open(*b, *seed+2*uint64(w)+1)
		if err != nil {
			return nil, nil, err
		}
		return pa, pb, nil
	}
	pa, pb, err := players(0)
	if err != nil {
		return err
	}
	c := match.Config{Variant: v, A: pa, B: pb, Games: *games, OpeningPlies: *openings, Seed: *seed, MaxPlies: *maxPlies, Log: stdout}
	switch {
	case len(starts) > 0:
		c.Start = func(pair int, _ *rand.Rand) (rules.Position, error) { return starts[pair%len(starts)], nil }
	case v.Key() == "gochess":
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
	par := match.Parallel{Config: c, Jobs: *jobs, Players: func(w int) (match.Player, match.Player, error) {
		if w == 0 {
			return pa, pb, nil
		}
		return players(w)
	}}
	if sprt != nil {
		par.Stop = func(sum match.Summary, p match.Pentanomial) bool {
			llr := sprt.LLR5(p)
			lo, hi := sprt.Bounds()
			fmt.Fprintf(stdout, "sprt: %d pairs %v, LLR %.2f (%.2f, %.2f)\n", p.Pairs(), p, llr, lo, hi)
			return sprt.Verdict(p) != match.Continue
		}
	}
	sum, penta, err := par.Run(ctx)
	fmt.Fprintln(stdout, sum)
	if sum.Games() > 0 {
		fmt.Fprintln(stdout, sum.TimeText())
	}
	if sprt != nil {
		llr := sprt.LLR5(penta)
		fmt.Fprintf(stdout, "sprt [%g, %g] alpha %g beta %g: pairs %v, LLR %.2f, %v\n", sprt.Elo0, sprt.Elo1, sprt.Alpha, sprt.Beta, penta, llr, sprt.Verdict(penta))
	}
	return err
}

// playerSet opens the players of a command that plays or searches a variant:
// built-in and greedy ones, and the external engines of an engines file, which
// it closes at the end.
type playerSet struct {
	cmd    string // the command, for its errors
	cfgs   []external.Config
	v      rules.Variant
	budget external.Budget // the limit of engines whose specification gives none
	opened []match.Player
}

// newPlayers reads the engines file at cfgPath (none when empty) for cmd.
func newPlayers(cmd, cfgPath string, v rules.Variant, budget external.Budget) (*playerSet, error) {
	ps := &playerSet{cmd: cmd, v: v, budget: budget}
	if cfgPath != "" {
		var err error
		if ps.cfgs, err = external.Load(cfgPath); err != nil {
			return nil, err
		}
	}
	return ps, nil
}

// open returns a new player for spec, seeded with seed.
func (ps *playerSet) open(spec string, seed uint64) (match.Player, error) {
	p, err := player(ps.cmd, spec, ps.cfgs, ps.budget, seed)
	if err != nil {
		return nil, err
	}
	ps.opened = append(ps.opened, p)
	if x, ok := p.(*match.External); ok && !x.Engine.Supports(ps.v.Key()) {
		return nil, fmt.Errorf("%s: %s is not configured for %s", ps.cmd, x.Name(), ps.v.Key())
	}
	return p, nil
}

// close stops the external engines opened.
func (ps *playerSet) close() {
	for _, p := range ps.opened {
		if x, ok := p.(*match.External); ok {
			x.Engine.Close()
		}
	}
}

// player parses a player specification for the command cmd; budget is the
// limit of engines whose specification gives none.
func player(cmd, spec string, cfgs []external.Config, budget external.Budget, seed uint64) (match.Player, error) {
	kind, arg, _ := strings.Cut(spec, ":")
	switch kind {
	case "greedy":
		return match.NewGreedy(seed), nil
	case "builtin":
		p := &match.Builtin{Label: "missive", Engine: engine.New(engine.Options{Seed: seed}), Limits: engine.Limits{Time: budget.Think}}
		if budget.Nodes > 0 {
			p.Limits = engine.Limits{Nodes: budget.Nodes}
		}
		if arg != "" {
			lim, err := builtinLimits(cmd, spec, arg)
			if err != nil {
				return nil, err
			}
			p.Label, p.Limits = "missive-"+arg, lim
		}
		// A match is played, so draws cost what they cost the engine over UCI.
		p.Limits.Contempt = engine.DefaultContempt
		return p, nil
	case "engine":
		for _, c := range cfgs {
			if c.Name == arg {
				if budget.Nodes > 0 && c.Protocol != external.UCI {
					return nil, fmt.Errorf("%s: %s speaks XBoard, which has no search of a number of nodes; give the players a time instead (--nodes 0 --think D): %w", cmd, c.Name, errUsage)
				}
				e, err := external.New(c)
				if err != nil {
					return nil, err
				}
				return &match.External{Engine: e, Think: budget.Think, Nodes: budget.Nodes}, nil
			}
		}
		return nil, fmt.Errorf("%s: no engine %q in the --engines file: %w", cmd, arg, errUsage)
	}
	return nil, fmt.Errorf("%s: unknown player %q (builtin, greedy or engine:NAME): %w", cmd, spec, errUsage)
}

// builtinLimits reads the limit of a builtin player, arg of spec "builtin:arg":
// depth=N, nodes=N, time=D or level=N; cmd names the command in its errors.
func builtinLimits(cmd, spec, arg string) (engine.Limits, error) {
	k, val, _ := strings.Cut(arg, "=")
	n, err := strconv.Atoi(val)
	switch {
	case k == "level":
		level, lerr := engine.ParseLevel(val)
		var le *engine.LevelError
		if errors.As(lerr, &le) {
			return engine.Limits{}, fmt.Errorf("%s: %q: %s (%w)", cmd, spec, le.Sentence(), errUsage)
		}
		l := engine.LevelLimits(level)
		return l.Limits(), nil
	case k == "time":
		d, derr := time.ParseDuration(val)
		if derr != nil {
			return engine.Limits{}, fmt.Errorf("%s: %q: %w: %w", cmd, spec, derr, errUsage)
		}
		return engine.Limits{Time: d}, nil
	case k != "depth" && k != "nodes":
		return engine.Limits{}, fmt.Errorf("%s: unknown builtin limit %q (depth, time, nodes or level): %w", cmd, k, errUsage)
	case err != nil:
		return engine.Limits{}, fmt.Errorf("%s: %q: %s takes a number: %w", cmd, spec, k, errUsage)
	case n < 1:
		return engine.Limits{}, fmt.Errorf("%s: %q: %s must be at least 1, not %d: %w", cmd, spec, k, n, errUsage)
	case k == "depth":
		return engine.Limits{Depth: n}, nil
	}
	return engine.Limits{Nodes: int64(n)}, nil
}

// parseSPRT reads elo0,elo1[,alpha,beta].
func parseSPRT(spec string) (match.SPRT, error) {
	t := match.SPRT{Alpha: 0.05, Beta: 0.05}
	parts := strings.Split(spec, ",")
	if len(parts) != 2 && len(parts) != 4 {
		return t, fmt.Errorf("match: --sprt %q: give elo0,elo1 or elo0,elo1,alpha,beta: %w", spec, errUsage)
	}
	fields := []*float64{&t.Elo0, &t.Elo1, &t.Alpha, &t.Beta}
	for i, p := range parts {
		x, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil {
			return t, fmt.Errorf("match: --sprt %q: %q is not a number: %w", spec, p, errUsage)
		}
		*fields[i] = x
	}
	if err := t.Validate(); err != nil {
		return t, fmt.Errorf("match: --sprt %q: %w: %w", spec, err, errUsage)
	}
	return t, nil
}
