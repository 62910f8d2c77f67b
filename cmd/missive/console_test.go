package main

import (
	"bytes"
	"context"
	"image/png"
	"os"
	"path/filepath"
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
	old := stdin
	stdin = strings.NewReader(script)
	defer func() { stdin = old }()
	var out, errOut bytes.Buffer
	if err := run(context.Background(), []string{"console", "--data", data}, &out, &errOut); err != nil {
		t.Fatalf("%v\n%s", err, errOut.String())
	}
	text := out.String()
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
	if errOut.Len() > 0 {
		t.Errorf("stderr: %s", errOut.String())
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
	stdin = strings.NewReader("/games\n")
	out.Reset()
	if err := run(context.Background(), []string{"console", "--data", data}, &out, &errOut); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "#1 Gothic Chess: alice (white) wins by checkmate") {
		t.Errorf("second start:\n%s", out.String())
	}
	if err := run(context.Background(), []string{"console", "extra"}, &out, &errOut); err == nil {
		t.Error("an extra argument was accepted")
	}
}
