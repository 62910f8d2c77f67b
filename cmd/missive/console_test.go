package main

import (
	"bytes"
	"context"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// missive console as a person uses it: a script on standard input, the replies on
// standard output, the files in the folder it names.
func TestConsoleCommand(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "sub", "console.db")
	script := `/challenge variant:gothic opponent:bob color:white
/as bob
/accept
/as alice
Cf3
/as bob
d5
/as alice
Ah3
/as bob
Nd7
/as alice
Ae6#
/pgn
`
	text, stderr := consoleSession(t, data, script)
	files := filepath.Join(dir, "sub", "files")
	for _, want := range []string{
		"Missive console. Data file: " + data, "Pictures and PGN files go to: " + files,
		"Game 1 begins: alice (white) vs bob (black).", "alice (white) played Ae6#.",
		"Game over: alice (white) wins by checkmate.", `[Site "Missive console"]`, "1. Cf3 d5 2. Ah3 Nd7 3. Ae6# 1-0",
		"[picture] " + filepath.Join(files, "game-1-5-white.png"),
	} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q:\n%s", want, text)
		}
	}
	if stderr != "" {
		t.Errorf("stderr: %s", stderr)
	}
	f, err := os.Open(filepath.Join(files, "game-1-5-white.png"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := png.Decode(f); err != nil {
		t.Fatal(err)
	}

	// A second start finds the finished game in the same file.
	if text, _ = consoleSession(t, data, "/games\n"); !strings.Contains(text, "#1 Gothic Chess: alice (white) wins by checkmate") {
		t.Errorf("second start:\n%s", text)
	}
	var out, errOut bytes.Buffer
	if err := run(context.Background(), []string{"console", "extra"}, &out, &errOut); err == nil {
		t.Error("an extra argument was accepted")
	}
}

// The console's clock keeps its /wait across a restart on the same data file.
func TestConsoleClockKept(t *testing.T) {
	data := filepath.Join(t.TempDir(), "console.db")
	session := func(script string) string {
		t.Helper()
		out, _ := consoleSession(t, data, script)
		return out
	}
	first := session("/challenge variant:gothic opponent:bob color:white days:3\n/as bob\n/accept\n/wait 2d\n/games\n/as alice\n")
	left := regexp.MustCompile(`#1 Gothic Chess vs alice .* (1d 0h|23h 5\dm) left`) // 3 days less 2 (and the seconds the test takes)
	if !left.MatchString(first) {
		t.Fatalf("after /wait 2d:\n%s", first)
	}
	second := session("/as bob\n/games\n")
	if !left.MatchString(second) {
		t.Fatalf("after a restart the clock went back:\n%s", second)
	}
}

// missive backup copies a console's data file and says how many games it holds.
func TestBackupCommand(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "console.db")
	consoleSession(t, data, "/challenge gothic bob\n/as bob\n/accept\n")
	var out, errOut bytes.Buffer
	copyPath := filepath.Join(dir, "copy.db")
	if err := run(context.Background(), []string{"backup", "--data", data, "-o", copyPath}, &out, &errOut); err != nil {
		t.Fatalf("%v\n%s", err, errOut.String())
	}
	if want := "backup: wrote " + copyPath + " ("; !strings.Contains(out.String(), want) || !strings.Contains(out.String(), ", 1 game), taken from the data file") {
		t.Fatalf("backup said: %s", out.String())
	}
}

// backup --help names the --data default once, in words ($MISSIVE_DATA, else
// missive.db), and without --data the backup reads exactly that file.
func TestBackupDefaultData(t *testing.T) {
	var out, errOut bytes.Buffer
	if err := run(context.Background(), []string{"backup", "--help"}, &out, &errOut); err != nil {
		t.Fatal(err)
	}
	help := errOut.String()
	if n := strings.Count(help, "default"); n != 1 || !strings.Contains(help, "$MISSIVE_DATA, else missive.db") {
		t.Errorf("backup --help says %q %d times:\n%s", "default", n, help)
	}

	dir := t.TempDir()
	t.Chdir(dir)
	t.Setenv("MISSIVE_DATA", "")
	err := run(context.Background(), []string{"backup", "-o", "copy.db"}, &out, &errOut)
	if err == nil || !strings.Contains(err.Error(), "missive.db") {
		t.Fatalf("backup without --data in a folder without missive.db: %v, want an error naming missive.db", err)
	}

	data := filepath.Join(dir, "console.db")
	consoleSession(t, data, "/challenge gothic bob\n")
	t.Setenv("MISSIVE_DATA", data)
	out.Reset()
	if err := run(context.Background(), []string{"backup", "-o", "copy.db"}, &out, &errOut); err != nil {
		t.Fatalf("backup with $MISSIVE_DATA: %v\n%s", err, errOut.String())
	}
	if !strings.Contains(out.String(), "backup: wrote copy.db (") {
		t.Errorf("backup said: %s", out.String())
	}
}

// consoleSession runs missive console on data with script as its input and returns
// what it printed on standard output and standard error.
func consoleSession(t *testing.T, data, script string) (stdout, stderr string) {
	t.Helper()
	old := stdin
	stdin = strings.NewReader(script)
	defer func() { stdin = old }()
	var out, errOut bytes.Buffer
	if err := run(context.Background(), []string{"console", "--data", data}, &out, &errOut); err != nil {
		t.Fatalf("%v\n%s", err, errOut.String())
	}
	return out.String(), errOut.String()
}

// The console plays external engines from an engines file: one that plays answers a
// challenge's first move, and one whose program is missing is refused once checked.
func TestConsoleExternalEngines(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "mover.sh")
	const mover = `#!/bin/sh
while read -r line; do
	case "$line" in
	protover*) echo "feature ping=1 setboard=1 done=1" ;;
	ping*) echo "pong ${line#ping }" ;;
	go) echo "move e2e4" ;;
	quit) exit 0 ;;
	esac
done
`
	if err := os.WriteFile(script, []byte(mover), 0o755); err != nil {
		t.Fatal(err)
	}
	engines := filepath.Join(dir, "engines.yaml")
	yaml := "engines:\n" +
		"  - {name: Mover, command: " + script + ", protocol: xboard, variants: {gothic: gothic}, think: 50ms}\n" +
		"  - {name: Gone, command: " + filepath.Join(dir, "gone") + ", protocol: xboard, variants: {gothic: gothic}}\n"
	if err := os.WriteFile(engines, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	old := stdin
	stdin = strings.NewReader("/challenge variant:gothic engine:mover color:black\n/wait 1m\n/challenge variant:gothic engine:gone\n")
	defer func() { stdin = old }()
	var out, errOut bytes.Buffer
	if err := run(context.Background(), []string{"console", "--data", filepath.Join(dir, "c.db"), "--engines", engines}, &out, &errOut); err != nil {
		t.Fatalf("%v\n%s", err, errOut.String())
	}
	for _, want := range []string{"Mover (white) played e4.", "The engine Gone cannot play gothic at the moment"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	if !strings.Contains(errOut.String(), "engine=Gone variant=gothic") {
		t.Errorf("the missing engine was not logged:\n%s", errOut.String())
	}
	if err := run(context.Background(), []string{"console", "--data", filepath.Join(dir, "c.db"), "--engines", filepath.Join(dir, "none.yaml")}, &out, &errOut); err == nil {
		t.Error("a missing engines file was accepted")
	}
}
