package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/missivechess/missive/rules/variants"
	"github.com/missivechess/missive/storage"
)

// Every command answers --help (and -h) with its options and succeeds; a wrong flag
// still fails.
func TestHelpFlags(t *testing.T) {
	for name := range commands() {
		for _, flag := range []string{"--help", "-h"} {
			var out, errOut bytes.Buffer
			if err := run(context.Background(), []string{name, flag}, &out, &errOut); err != nil {
				t.Errorf("missive %s %s: %v", name, flag, err)
			}
			if help := out.String() + errOut.String(); !strings.Contains(help, "sage") {
				t.Errorf("missive %s %s printed no usage: %q", name, flag, help)
			}
		}
		var out, errOut bytes.Buffer
		if err := run(context.Background(), []string{name, "--no-such-flag"}, &out, &errOut); err == nil {
			t.Errorf("missive %s --no-such-flag succeeded", name)
		}
	}
}

// missive help lists every command with its summary starting in one column, however
// long a command's name.
func TestUsageColumns(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), []string{"help"}, &out, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	cmds := commands()
	col, listed := -1, 0
	for _, line := range strings.Split(out.String(), "\n") {
		name, _, ok := strings.Cut(strings.TrimPrefix(line, "  "), " ")
		if !strings.HasPrefix(line, "  ") || !ok || cmds[name].summary == "" {
			continue
		}
		at := strings.Index(line, cmds[name].summary)
		if col < 0 {
			col = at
		}
		if at != col {
			t.Errorf("the summary of %s starts at column %d, the first one's at %d:\n%s", name, at, col, out.String())
		}
		listed++
	}
	if listed != len(cmds) {
		t.Errorf("%d of %d commands listed:\n%s", listed, len(cmds), out.String())
	}
}

// A failure prints the sentence a refusal carries, after the command's name, not
// the packages' prefixes of the error's text; a second console on a data file in
// use is told what holds it.
func TestErrorText(t *testing.T) {
	var out, errOut bytes.Buffer
	args := []string{"render", "--variant", "gothic", "--moves", "e2e4 e7e5 e2e5", "--text"}
	err := run(context.Background(), args, &out, &errOut)
	if err == nil {
		t.Fatal("an illegal move was drawn")
	}
	got := errorText(args, err)
	if !strings.HasPrefix(got, `missive render: You cannot play "e2e5"`) || strings.Contains(got, "rules:") || strings.Contains(got, "render: move") {
		t.Errorf("render's error prints as %q", got)
	}
	if got := errorText([]string{"frobnicate"}, run(context.Background(), []string{"frobnicate"}, &out, &errOut)); !strings.HasPrefix(got, `missive: unknown command "frobnicate"`) {
		t.Errorf("an unknown command prints as %q", got)
	}

	data := filepath.Join(t.TempDir(), "console.db")
	st, err := storage.Open(data, variants.Registry(), &storage.Options{NoBackupSocket: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	args = []string{"console", "--data", data}
	got = errorText(args, run(context.Background(), args, &out, &errOut))
	if want := "missive console: The data file " + data + " is in use by another Missive program: the bot, or a console started before this one."; !strings.HasPrefix(got, want) {
		t.Errorf("a second console prints %q, want %q", got, want)
	}
}
