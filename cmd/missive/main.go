package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"syscall"

	"github.com/missivechess/missive/rules"
)

// command is one subcommand of missive.
type command struct {
	summary string
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

// errUsage marks an error whose message already explains the right usage.
var errUsage = errors.New("see \"missive help\"")

func commands() map[string]command {
	return map[string]command{
		"backup":  {backupUsage, runBackup},
		"console": {consoleUsage, runConsole},
		"match":   {"play an engine match: match --variant V --games N -a builtin -b engine:NAME --engines engines.yaml --pgn out.pgn", runMatch},
		"tune":    {tuneUsage, runTune},
		"perft":   {"count legal move trees: perft --variant V [--fen F] --depth N [--divide]", runPerft},
		"render":  {renderUsage, runRender},
		"run":     {runUsage, runRun},
		"suite":   {suiteUsage, runSuite},
		"uci":     {"run the built-in engine as a UCI engine (option UCI_Variant: gothic, keltic, gochess, gess)", runUCI},
		"version": {versionUsage, runVersion},

		"bench-scale": {benchScaleUsage, runBenchScale},
	}
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, errorText(os.Args[1:], err))
		os.Exit(1)
	}
}

// refusal is a command's failure with the sentence its user reads (a
// rules.Sentencer), such as a data file another program holds.
type refusal struct {
	text  string
	cause error
}

func (r *refusal) Error() string    { return r.text + " (" + r.cause.Error() + ")" }
func (r *refusal) Unwrap() error    { return r.cause }
func (r *refusal) Sentence() string { return r.text }

// errorText is what missive prints for err, the failure of the command args: the
// sentence a refusal carries for the person who typed it (a rules.Sentencer: a
// move that cannot be played, a position that cannot be read), after the command's
// name; else the error itself, for whoever runs the program.
func errorText(args []string, err error) string {
	var se rules.Sentencer
	if !errors.As(err, &se) {
		return "missive: " + err.Error()
	}
	if _, ok := commands()[firstArg(args)]; ok {
		return "missive " + args[0] + ": " + se.Sentence()
	}
	return "missive: " + se.Sentence()
}

// firstArg returns args[0], or "" when there is none.
func firstArg(args []string) string {
	if len(args) == 0 {
		return ""
	}
	return args[0]
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	cmds := commands()
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(stdout, cmds)
		return nil
	}
	c, ok := cmds[args[0]]
	if !ok {
		usage(stderr, cmds)
		return fmt.Errorf("unknown command %q: %w", args[0], errUsage)
	}
	err := c.run(ctx, args[1:], stdout, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return nil // --help printed the command's options: not a failure
	}
	return err
}

func usage(w io.Writer, cmds map[string]command) {
	fmt.Fprintln(w, "usage: missive <command> [options]\n\ncommands:")
	names := make([]string, 0, len(cmds))
	width := 0 // the longest name: every summary starts in one column
	for n := range cmds {
		names = append(names, n)
		width = max(width, len(n))
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-*s %s\n", width, n, cmds[n].summary)
	}
}
