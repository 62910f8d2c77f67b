package external

import (
	"slices"
	"strings"
	"testing"
)

// TestXBoardFeaturesRead: the handshake's feature lines are read as the protocol
// writes them, quoted values with spaces and "=" included, and only done=1 ends it.
func TestXBoardFeaturesRead(t *testing.T) {
	var f xboardFeatures
	lines := []string{
		`feature myname="Fairy-Max 5.0b"`,
		`feature memory=1 exclude=1`,
		`feature setboard=0 xedit=1 ping=1 done=0`,
		`feature variants="normal,nocastle,capablanca,gothic"`,
		`feature option="Resign Threshold -spin 800 200 1200" usermove=1`,
		`tellics say feature done=1`,
	}
	for _, l := range lines {
		if f.read(l) {
			t.Fatalf("%q ended the handshake", l)
		}
	}
	if !f.read("feature done=1") {
		t.Fatal("done=1 did not end the handshake")
	}
	want := xboardFeatures{ping: true, usermove: true, variants: []string{"normal", "nocastle", "capablanca", "gothic"}}
	if f.ping != want.ping || f.setboard || f.usermove != want.usermove || !slices.Equal(f.variants, want.variants) {
		t.Fatalf("read %+v, want %+v", f, want)
	}
}

// FuzzXBoardFeatures: any line is read without panicking, and a line ends the
// handshake only when it announces done=1.
func FuzzXBoardFeatures(f *testing.F) {
	for _, s := range []string{`feature done=1`, `feature a="b c" done=1`, `feature x="unterminated`, `feature =1`, `feature done`, `move e2e4`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		var x xboardFeatures
		if x.read(line) && !strings.Contains(line, "done=1") {
			t.Fatalf("%q ended the handshake without done=1", line)
		}
	})
}

// TestHarmlessError: an engine's error about a command that does not touch the
// game is no refusal of it; any other error is.
func TestHarmlessError(t *testing.T) {
	for line, want := range map[string]bool{
		"Error (unkown command): nopost":                  true, // Fairy-Stockfish's spelling
		"Error (unknown command): accepted ping":          true,
		"Error (unknown command): easy":                   true,
		"Error (unknown command): variant":                false,
		"Error (command not legal now): setboard 10/10 w": false,
		"Error (unknown command): option Hash=16":         false,
		"Error (unknown command): nopostal":               false,
		"Error (unknown command): otim 50":                true,
		"Error: nopost":                                   true,
		"Error":                                           false,
	} {
		if got := harmlessError(line); got != want {
			t.Errorf("harmlessError(%q) = %v, want %v", line, got, want)
		}
	}
}
