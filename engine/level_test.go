package engine

import (
	"errors"
	"testing"

	"github.com/missivechess/missive/rules"
)

func TestParseLevel(t *testing.T) {
	for _, text := range []string{"1", "4", " 8"} {
		if n, err := ParseLevel(text); err != nil || n < 1 || n > MaxLevel {
			t.Errorf("ParseLevel(%q) = %d, %v", text, n, err)
		}
	}
	for text, want := range map[string]string{
		"0":   `The engine's level must be a number from 1 to 8, not "0".`,
		"9":   `The engine's level must be a number from 1 to 8, not "9".`,
		"-1":  `The engine's level must be a number from 1 to 8, not "-1".`,
		"two": `The engine's level must be a number from 1 to 8, not "two".`,
	} {
		_, err := ParseLevel(text)
		var s rules.Sentencer
		var le *LevelError
		if !errors.As(err, &s) || s.Sentence() != want || !errors.As(err, &le) {
			t.Errorf("ParseLevel(%q): %v; want a *LevelError saying %q", text, err, want)
		}
	}
}
