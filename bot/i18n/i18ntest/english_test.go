package i18ntest

import (
	"slices"
	"testing"
)

// EnglishLeft finds English prose and leaves names, commands, options and notation.
func TestEnglishLeft(t *testing.T) {
	for line, want := range map[string][]string{
		"alice (white) played Be3.":                       {"white", "played"},
		"Nh6 5. Be3) 3. Ae6# 1-0":                         nil,
		"Tippe /move game:2 move:e4, oder `/help`":        nil,
		"Die Partie ist vorbei; Missive engine (level 1)": nil,
		"Le coup est joué, the end":                       {"the"},
	} {
		if got := EnglishLeft(line); !slices.Equal(got, want) {
			t.Errorf("EnglishLeft(%q) = %q, want %q", line, got, want)
		}
	}
}
