package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/missivechess/missive/engine"
	"github.com/missivechess/missive/engine/tune"
	"github.com/missivechess/missive/rules/variants"
)

const tuneUsage = "fit the evaluation's weights to game results: tune --variant V --out engine/weights/V.txt games.pgn..."

func runTune(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("tune", flag.ContinueOnError)
	fs.SetOutput(stderr)
	variant := fs.String("variant", "gothic", "variant key: gothic, keltic or gochess")
	out := fs.String("out", "", "write the tuned weights to this file (engine/weights/VARIANT.txt for the engine)")
	from := fs.String("from", "current", "start from the engine's current weights or the hand-set prior: current or prior")
	epochs := fs.Int("epochs", 1000, "passes of Adam over the positions")
	rate := fs.Float64("rate", 1, "Adam's step size in centipawns")
	l2 := fs.Float64("l2", 1e-6, "pull of every weight towards its start (per centipawn squared)")
	skip := fs.Int("skip", 10, "skip the first plies of each game (random openings)")
	dropAdj := fs.Bool("drop-adjudicated", false, "skip games adjudicated at a ply cap")
	teacher := fs.String("teacher", "", "label positions too: builtin:depth=N or builtin:nodes=N (the score of this engine's search), or the path of Fairy-Stockfish (its static `eval`; Gothic only), or PATH:depth=N (the score of its search to depth N)")
	teachers := fs.Int("teachers", 1, "with --teacher: how many teachers label positions at once (one process or engine each)")
	lambda := fs.Float64("lambda", 0.5, "with --teacher: the weight of the game's result in each target (the teacher's win chance has the rest)")
	fit := fs.String("fit", "", "fit only the terms whose names start with one of these comma-separated prefixes (such as tempo,kingzone.), keeping the rest at their starting weights")
	augment := fs.Int("augment", 0, "with --teacher: also label up to this many positions one random move away from each position of a game")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("tune: %w", err)
	}
	if fs.NArg() == 0 {
		return fmt.Errorf("tune: name at least one PGN file: %w", errUsage)
	}
	if *from != "current" && *from != "prior" {
		return fmt.Errorf("tune: --from is current or prior, got %q: %w", *from, errUsage)
	}
	if *lambda < 0 || *lambda > 1 {
		return fmt.Errorf("tune: --lambda is from 0 to 1, got %v: %w", *lambda, errUsage)
	}
	frozen, err := frozenTerms(*fit)
	if err != nil {
		return err
	}
	reg := variants.Registry()
	var d tune.Data
	if *augment < 0 {
		return fmt.Errorf("tune: --augment is a count of 0 or more, got %d: %w", *augment, errUsage)
	}
	if *teachers < 1 {
		return fmt.Errorf("tune: --teachers is a count of 1 or more, got %d: %w", *teachers, errUsage)
	}
	if *augment > 0 && *teacher == "" {
		return fmt.Errorf("tune: --augment needs --teacher: the positions it adds were never played, so only a teacher can judge them: %w", errUsage)
	}
	var opts = tune.Options{SkipPlies: *skip, DropAdjudicated: *dropAdj, Augment: *augment}
	if *teacher != "" {
		for range *teachers {
			t, closeTeacher, err := startTeacher(ctx, *teacher, *variant)
			if err != nil {
				return err
			}
			defer closeTeacher()
			opts.Teachers = append(opts.Teachers, t)
		}
	}
	for _, path := range fs.Args() {
		f, err := os.Open(path)
		if err != nil {
			return fmt.Errorf("tune: %w", err)
		}
		err = tune.Load(ctx, f, reg, *variant, opts, &d)
		f.Close()
		if err != nil {
			return fmt.Errorf("tune: %s: %w", path, err)
		}
	}
	if len(d.Train) == 0 {
		return fmt.Errorf("%w (%s)", tune.ErrNoData, *variant)
	}
	current, prior, err := engine.WeightsFor(d.Start)
	if err != nil {
		return fmt.Errorf("tune: %w", err)
	}
	w := current
	if *from == "prior" {
		w = prior
	}
	fmt.Fprintf(stdout, "%s: %d games, %d quiet positions to train on, %d held out\n", *variant, d.Games, len(d.Train), len(d.HeldOut))
	if *teacher != "" {
		kt := tune.Blend(&d, *lambda)
		fmt.Fprintf(stdout, "targets: %.2f of the result, %.2f of the teacher's win chance (its K %.4f)\n", *lambda, 1-*lambda, kt)
	}
	k := tune.FitK(d.Train, w)
	before, beforeHeld := tune.Loss(d.Train, w, k), tune.Loss(d.HeldOut, w, k)
	fmt.Fprintf(stdout, "K %.4f; loss before: training %.5f, held out %.5f\n", k, before, beforeHeld)
	tuned, err := tune.Fit(ctx, d.Train, w, k, tune.FitOptions{Epochs: *epochs, Rate: *rate, L2: *l2, Frozen: frozen,
		Progress: func(epoch int, loss float64) {
			if epoch%500 == 0 {
				fmt.Fprintf(stderr, "epoch %d: training loss %.5f\n", epoch, loss)
			}
		}})
	if err != nil {
		return fmt.Errorf("tune: %w", err)
	}
	k2 := tune.FitK(d.Train, tuned)
	after, afterHeld := tune.Loss(d.Train, tuned, k2), tune.Loss(d.HeldOut, tuned, k2)
	fmt.Fprintf(stdout, "K %.4f; loss after: training %.5f, held out %.5f\n", k2, after, afterHeld)
	if *teacher != "" {
		fmt.Fprintf(stdout, "held-out correlation with the teacher's evaluation: %.3f before, %.3f after\n",
			tune.TeacherCorrelation(d.HeldOut, w), tune.TeacherCorrelation(d.HeldOut, tuned))
	}
	if *out == "" {
		return nil
	}
	comment := fmt.Sprintf("%s evaluation weights: name, middlegame, endgame (centipawns per unit).\n"+
		"Written by `missive tune` from %d games (%d quiet positions), %d epochs from the %s weights;\n"+
		"held-out logistic loss %.5f before, %.5f after (K %.3f). Sources: %s%s%s",
		*variant, d.Games, len(d.Train), *epochs, *from, beforeHeld, afterHeld, k2, strings.Join(baseNames(fs.Args()), ", "), taughtBy(*teacher, *lambda, *augment), fitted(*fit))
	f, err := os.Create(*out)
	if err != nil {
		return fmt.Errorf("tune: %w", err)
	}
	if err := tuned.Write(f, comment); err != nil {
		f.Close()
		return fmt.Errorf("tune: writing %s: %w", *out, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("tune: %w", err)
	}
	fmt.Fprintf(stdout, "wrote %s\n", *out)
	return nil
}

// startTeacher starts the teacher of spec: the built-in engine's search
// (builtin:depth=N, builtin:nodes=N or builtin:time=D), or the Fairy-Stockfish at
// that path, judging by its static evaluation or, as PATH:depth=N, by its search
// to depth N; stop ends it.
func startTeacher(ctx context.Context, spec, variant string) (teach tune.TeachFunc, stop func(), err error) {
	if kind, arg, _ := strings.Cut(spec, ":"); kind == "builtin" {
		if arg == "" {
			return nil, nil, fmt.Errorf("tune: --teacher builtin needs a limit for each search, as builtin:depth=6 or builtin:nodes=3000: %w", errUsage)
		}
		lim, err := builtinLimits("tune", spec, arg)
		if err != nil {
			return nil, nil, err
		}
		return tune.NewSearchTeacher(ctx, lim).Eval, func() {}, nil
	}
	if variant != "gothic" {
		return nil, nil, fmt.Errorf("tune: --teacher %s works for gothic only (Fairy-Stockfish plays none of our other games), not %s; builtin:depth=N teaches every variant: %w", spec, variant, errUsage)
	}
	path, depth := spec, 0
	if i := strings.LastIndex(spec, ":depth="); i >= 0 {
		n, err := strconv.Atoi(spec[i+len(":depth="):])
		if err != nil || n < 1 {
			return nil, nil, fmt.Errorf("tune: --teacher %s: the depth of the teacher's search is a number of 1 or more: %w", spec, errUsage)
		}
		path, depth = spec[:i], n
	}
	t, err := tune.StartTeacher(ctx, path, variant, depth)
	if err != nil {
		return nil, nil, fmt.Errorf("tune: %w", err)
	}
	return t.Eval, t.Close, nil
}

// baseNames returns the last element of each path, with its directory's name
// before it where two paths end alike.
func baseNames(paths []string) []string {
	seen := map[string]int{}
	for _, p := range paths {
		seen[filepath.Base(p)]++
	}
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = filepath.Base(p)
		if seen[out[i]] > 1 {
			out[i] = filepath.Join(filepath.Base(filepath.Dir(p)), out[i])
		}
	}
	return out
}

// taughtBy says how the targets were made, for the weights file's header.
func taughtBy(teacher string, lambda float64, augment int) string {
	if teacher == "" {
		return ""
	}
	judge := "the static evaluation of " + baseNames([]string{teacher})[0]
	if path, depth, ok := strings.Cut(teacher, ":depth="); ok && !strings.HasPrefix(teacher, "builtin:") {
		judge = fmt.Sprintf("the score of %s's search to depth %s", baseNames([]string{path})[0], depth)
	} else if strings.HasPrefix(teacher, "builtin:") {
		judge = "the score of this engine's search at " + teacher
	}
	s := fmt.Sprintf(";\ntargets %.2f result, %.2f %s", lambda, 1-lambda, judge)
	if augment > 0 {
		s += fmt.Sprintf(", with up to %d positions one random move away from each", augment)
	}
	return s
}

// frozenTerms returns the terms that --fit keeps at their starting weights: none
// when fit is empty, else every term whose name starts with none of fit's
// comma-separated prefixes. A prefix that names no term is refused.
func frozenTerms(fit string) (map[string]bool, error) {
	if fit == "" {
		return nil, nil
	}
	names := engine.EvalTerms()
	frozen := make(map[string]bool, len(names))
	for _, n := range names {
		frozen[n] = true
	}
	prefixes := 0
	for _, p := range strings.Split(fit, ",") {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		prefixes++
		matched := false
		for _, n := range names {
			if strings.HasPrefix(n, p) {
				frozen[n], matched = false, true
			}
		}
		if !matched {
			return nil, fmt.Errorf("tune: --fit %q: no term's name starts with %q (the names are those of the weights files, such as tempo, kingzone.knight, psq.pawn.): %w", fit, p, errUsage)
		}
	}
	if prefixes == 0 {
		return nil, fmt.Errorf("tune: --fit %q names no term: give the prefixes of the terms to fit, separated by commas, such as tempo,kingzone.: %w", fit, errUsage)
	}
	return frozen, nil
}

// fitted is the weights header's note of --fit.
func fitted(fit string) string {
	if fit == "" {
		return ""
	}
	return ";\nonly the terms starting with " + fit + " fitted, the rest kept"
}
