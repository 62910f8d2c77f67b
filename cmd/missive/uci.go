package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/missivechess/missive/engine/uciserver"
	"github.com/missivechess/missive/rules/variants"
)

// runUCI speaks UCI on standard input and output (UCI_Variant picks the game).
func runUCI(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("uci", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: missive uci (then UCI commands on standard input; option UCI_Variant picks the game)")
	}
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("uci: %w", err)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("uci: unexpected argument %q: %w", fs.Arg(0), errUsage)
	}
	return uciserver.Serve(ctx, variants.Registry(), os.Stdin, stdout)
}
