package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/missivechess/missive/engine/external"
	"github.com/missivechess/missive/engine/match"
	"github.com/missivechess/missive/rules/variants"
)

const suiteUsage = "search a test suite of best moves: suite --variant V --nodes N [--engines engines.yaml] FILE PLAYER..."

// runSuite searches every position of a test suite with each player and prints
// how many best moves each found and how each compares with the first.
func runSuite(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("suite", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: missive suite [options] FILE PLAYER...\n\n"+
			"FILE holds a position a line: its FEN, \"bm\" and the best move, as in EPD\n"+
			"(\"... w - - 0 1 bm e2e4; id \\\"name\\\";\"). PLAYER is builtin[:depth=N|time=D|nodes=N],\n"+
			"greedy or engine:NAME (from --engines); each searches every position afresh,\n"+
			"and each player after the first is compared with the first.\n\noptions:\n")
		fs.PrintDefaults()
	}
	variant := fs.String("variant", "gothic", "game: gothic, keltic, gochess or gess")
	cfgPath := fs.String("engines", "", "YAML file with the external engines (engines: [...])")
	nodes := fs.Int("nodes", 250000, "nodes a position, for builtin and UCI engine:NAME players (0: use --think)")
	think := fs.Duration("think", time.Second, "think time a position when --nodes is 0")
	jobs := fs.Int("j", 1, "positions searched at once, each by its own players")
	outPath := fs.String("out", "", "write each position's moves as tab-separated lines to this file")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %w", err, errUsage)
	}
	if fs.NArg() < 2 {
		return fmt.Errorf("suite: name the suite's file and at least one player, as in: missive suite FILE builtin: %w", errUsage)
	}
	if *jobs < 1 {
		return fmt.Errorf("suite: --j must be at least 1, not %d: %w", *jobs, errUsage)
	}
	if *nodes < 0 {
		return fmt.Errorf("suite: --nodes must be at least 0, not %d: %w", *nodes, errUsage)
	}
	v, err := variants.Registry().Lookup(*variant)
	if err != nil {
		return err
	}
	path := fs.Arg(0)
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("suite: %w", err)
	}
	entries, err := match.ReadSuite(f, v, path)
	f.Close()
	if err != nil {
		return fmt.Errorf("%w: %w", err, errUsage)
	}
	ps, err := newPlayers("suite", *cfgPath, v, external.Budget{Think: *think, Nodes: int64(*nodes)})
	if err != nil {
		return err
	}
	defer ps.close()
	// Every worker gets its own players: an engine process searches one position at a time.
	workerPlayers := func(w int) ([]match.Player, error) {
		var out []match.Player
		for k, spec := range fs.Args()[1:] {
			p, err := ps.open(spec, uint64(1000*w+k))
			if err != nil {
				return nil, err
			}
			out = append(out, p)
		}
		return out, nil
	}
	total := len(entries)
	s := match.Suite{Entries: entries, Jobs: *jobs, Players: workerPlayers, Progress: func(done int) {
		if done%100 == 0 || done == total {
			fmt.Fprintf(stdout, "searched %d of %d\n", done, total)
		}
	}}
	began := time.Now()
	res, err := s.Run(ctx)
	if len(res.Names) > 0 {
		fmt.Fprintln(stdout, res)
		fmt.Fprintf(stdout, "%s in all\n", time.Since(began).Round(time.Second))
	}
	if *outPath != "" && len(res.Names) > 0 {
		if werr := writeSuiteMoves(*outPath, res); werr != nil && err == nil {
			err = werr
		}
	}
	return err
}

// writeSuiteMoves writes one line per searched position: its id, its best moves,
// then each player's move and 1 or 0 for found, separated by tabs.
func writeSuiteMoves(path string, res match.SuiteResult) error {
	var b strings.Builder
	b.WriteString("id\tbest")
	for _, n := range res.Names {
		fmt.Fprintf(&b, "\t%s\t%s found", n, n)
	}
	b.WriteString("\n")
	for i, e := range res.Entries {
		if !res.Done[i] {
			continue
		}
		best := make([]string, len(e.Best))
		for k, m := range e.Best {
			best[k] = e.Pos.UCI(m)
		}
		fmt.Fprintf(&b, "%s\t%s", e.ID, strings.Join(best, " "))
		for p := range res.Names {
			found := 0
			if res.Found(p, i) {
				found = 1
			}
			fmt.Fprintf(&b, "\t%s\t%d", e.Pos.UCI(res.Moves[p][i]), found)
		}
		b.WriteString("\n")
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		return fmt.Errorf("suite: --out: %w", err)
	}
	return nil
}
