package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/variants"
	"github.com/missivechess/missive/storage"
)

const backupUsage = "copy the data file safely, even while the bot runs: backup -o FILE [--data PATH]"

// defaultDataPath is the data file used when --data is not given: $MISSIVE_DATA, or
// missive.db in the current folder.
func defaultDataPath() string {
	if p := os.Getenv("MISSIVE_DATA"); p != "" {
		return p
	}
	return storage.DefaultFile
}

// runBackup writes a consistent copy of the data file. While the bot runs it gets the
// snapshot from the bot over the socket next to the data file; otherwise it opens the
// file read-only. The copy is verified before it replaces FILE.
func runBackup(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("backup", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "", "write the backup to this `file` (replaced atomically)")
	// The default is resolved after parsing, so that --help names it once, in words,
	// instead of flag's own "(default ...)" after ours.
	data := fs.String("data", "", "the data `file` to back up (default: $MISSIVE_DATA, else "+storage.DefaultFile+
		" in the current folder; not the console's, which is "+filepath.Join(defaultDataDir(), "console.db")+")")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	if *data == "" {
		*data = defaultDataPath()
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("backup: unexpected argument %q; usage: %s: %w", fs.Arg(0), backupUsage, errUsage)
	}
	if *out == "" {
		return fmt.Errorf("backup: say where to write the copy with -o FILE: %w", errUsage)
	}
	info, err := storage.BackupFile(ctx, variants.Registry(), *data, *out)
	if err != nil {
		return sentenceError{"backup", err}
	}
	source := "from the data file (no bot had it open)"
	if info.Live {
		source = "from the running bot"
	}
	games := fmt.Sprintf("%d games", info.Games)
	if info.Games == 1 {
		games = "1 game"
	}
	fmt.Fprintf(stdout, "backup: wrote %s (%d bytes, schema %d, %s), taken %s and verified\n",
		info.Path, info.Bytes, info.Schema, games, source)
	if info.RolledBack != "" {
		fmt.Fprintf(stdout, "backup: note: %s\n", info.RolledBack)
	}
	return nil
}

// sentenceError shows err as the sentence it carries (rules.SentenceOf), after the
// name of the command, with any character that does not print (echoed from a path)
// replaced, and matches what err matches.
type sentenceError struct {
	command string
	err     error
}

func (e sentenceError) Error() string {
	return e.command + ": " + strings.Map(func(r rune) rune {
		if unicode.IsPrint(r) {
			return r
		}
		return unicode.ReplacementChar
	}, rules.SentenceOf(e.err))
}
func (e sentenceError) Unwrap() error { return e.err }
