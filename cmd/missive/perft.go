package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/variants"
)

func runPerft(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("perft", flag.ContinueOnError)
	fs.SetOutput(stderr)
	variant := fs.String("variant", "gothic", "variant key")
	fen := fs.String("fen", "", "start from this position text instead of the start position")
	depth := fs.Int("depth", 1, "depth in plies (1 or more)")
	divide := fs.Bool("divide", false, "print the count below each legal move")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("perft: %w", err)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("perft: unexpected argument %q: %w", fs.Arg(0), errUsage)
	}
	if *depth < 1 {
		return fmt.Errorf("perft: --depth must be 1 or more, got %d: %w", *depth, errUsage)
	}
	v, err := variants.Registry().Lookup(*variant)
	if err != nil {
		return fmt.Errorf("perft: %w", err)
	}
	pos := v.Start(0)
	if *fen != "" {
		if pos, err = v.ParsePosition(*fen); err != nil {
			return fmt.Errorf("perft: %w", err)
		}
	}
	if _, ok := pos.(rules.Simultaneous); ok {
		return fmt.Errorf("perft: this %s position is in its secret placement phase, where both sides choose at once and there is no move tree to count; give a play-phase position with --fen: %w", v.Name(), errUsage)
	}
	start := time.Now()
	var total uint64
	if *divide {
		for _, m := range pos.LegalMoves() {
			if err := ctx.Err(); err != nil {
				return err
			}
			next, err := pos.Play(m)
			if err != nil {
				return fmt.Errorf("perft: legal move %s refused: %w", pos.UCI(m), err)
			}
			n := rules.Perft(next, *depth-1)
			total += n
			fmt.Fprintf(stdout, "%s: %d\n", pos.UCI(m), n)
		}
		fmt.Fprintln(stdout)
	} else {
		total = rules.Perft(pos, *depth)
	}
	elapsed := time.Since(start)
	fmt.Fprintf(stdout, "Nodes searched: %d\n", total)
	fmt.Fprintf(stderr, "time %v, %.0f nodes/s\n", elapsed.Round(time.Millisecond), float64(total)/elapsed.Seconds())
	return nil
}
