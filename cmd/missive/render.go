package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/missivechess/missive/render"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/record"
	"github.com/missivechess/missive/rules/variants"
)

const renderUsage = "draw a board: render --variant V [--fen F] [--moves \"e2e4 e7e5\"] [--side white|black] [--theme T] [--gif] [--text] -o board.png"

func runRender(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("render", flag.ContinueOnError)
	fs.SetOutput(stderr)
	variant := fs.String("variant", "gothic", "variant key")
	fen := fs.String("fen", "", "start from this position text instead of the start position")
	seed := fs.Uint64("seed", 0, "seed of the start position (Go-Chess's blocked cells)")
	moves := fs.String("moves", "", "moves to play from the start, separated by spaces; the last one is highlighted")
	side := fs.String("side", "white", "the side seen at the bottom: white or black")
	theme := fs.String("theme", render.DefaultTheme, "colour theme: "+strings.Join(render.Themes(), ", "))
	width := fs.Int("width", render.DefaultWidth, fmt.Sprintf("picture width in pixels (%d to %d)", render.MinWidth, render.MaxWidth))
	arrows := fs.String("arrows", "", "hint arrows such as \"g1h3,e2e4\" (from and to squares)")
	gif := fs.Bool("gif", false, "write an animated GIF of the game instead of a PNG of the last position")
	delay := fs.Duration("delay", render.DefaultDelay, "with --gif: how long each move shows")
	text := fs.Bool("text", false, "print the board as text instead of drawing it")
	out := fs.String("o", "", "file to write (\"-\" for standard output)")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("render: %w", err)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("render: unexpected argument %q (quote the moves: --moves \"e2e4 e7e5\"): %w", fs.Arg(0), errUsage)
	}
	if *out == "" && !*text {
		return fmt.Errorf("render: say where to write the picture with -o FILE, or print a text board with --text: %w", errUsage)
	}
	viewer, err := rules.ParseSide(*side)
	if err != nil {
		return fmt.Errorf("render: --side: %w", err)
	}
	v, err := variants.Registry().Lookup(*variant)
	if err != nil {
		return fmt.Errorf("render: %w", err)
	}
	start := v.Start(*seed)
	if *fen != "" {
		if start, err = v.ParsePosition(*fen); err != nil {
			return fmt.Errorf("render: --fen: %w", err)
		}
	}
	pos, played := start, []rules.Move(nil)
	var rec record.Record // the moves read as a game's record reads them
	for i, text := range strings.Fields(*moves) {
		m, next, err := rec.Play(pos, pos.Turn(), text, time.Time{})
		if err != nil {
			return fmt.Errorf("render: move %d %q: %w", i+1, text, err)
		}
		pos, played = next, append(played, m)
	}
	opts := render.Options{Viewer: viewer, Theme: *theme, Width: *width}
	if len(played) > 0 {
		opts.LastMove = &played[len(played)-1]
	}
	if opts.Arrows, err = parseArrows(v.Dims(), *arrows); err != nil {
		return err
	}
	if *text {
		s, err := render.Text(pos, viewer)
		if err != nil {
			return err
		}
		_, err = io.WriteString(stdout, s)
		return err
	}
	var buf bytes.Buffer
	if *gif {
		err = render.GIF(&buf, start, played, render.GIFOptions{Options: opts, Delay: *delay})
	} else {
		err = render.PNG(&buf, pos, opts)
	}
	if err != nil {
		return err
	}
	return writeOutput(*out, buf.Bytes(), stdout)
}

// parseArrows reads comma-separated pairs of squares such as "g1h3,e2e4".
func parseArrows(d rules.Dims, text string) ([]render.Arrow, error) {
	var out []render.Arrow
	for _, a := range strings.Split(text, ",") {
		a = strings.TrimSpace(a)
		if a == "" {
			continue
		}
		from, n := d.ScanSquare(a)
		to, k := d.ScanSquare(a[n:])
		if n == 0 || k == 0 || n+k != len(a) {
			return nil, fmt.Errorf("render: --arrows: %q is not two squares of this %dx%d board such as \"b1c3\": %w", a, d.Files, d.Ranks, errUsage)
		}
		out = append(out, render.Arrow{From: from, To: to})
	}
	return out, nil
}

// writeOutput writes data to path through a temporary file, so that a failure
// leaves no half-written picture; "-" means stdout.
func writeOutput(path string, data []byte, stdout io.Writer) error {
	if path == "-" {
		_, err := stdout.Write(data)
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".missive-render-*")
	if err != nil {
		return fmt.Errorf("render: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("render: write %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("render: write %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("render: %w", err)
	}
	return nil
}
