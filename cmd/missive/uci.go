package main

import (
	"context"
	"io"
	"os"

	"github.com/missivechess/missive/engine/uciserver"
	"github.com/missivechess/missive/rules/variants"
)

// runUCI speaks UCI on standard input and output (UCI_Variant picks the game).
func runUCI(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return uciserver.Serve(ctx, variants.Registry(), os.Stdin, stdout)
}
