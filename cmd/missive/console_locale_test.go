package main

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
)

// A --locale Missive does not speak is refused with the locales it does, before the
// data file is opened.
func TestConsoleRefusesUnknownLocale(t *testing.T) {
	err := runConsole(context.Background(), []string{"--locale", "tlh", "--data", t.TempDir() + "/c.db"}, io.Discard, io.Discard)
	if err == nil || !errors.Is(err, errUsage) || !strings.Contains(err.Error(), `"tlh" is not a language Missive speaks`) || !strings.Contains(err.Error(), "pt-BR") {
		t.Errorf("--locale tlh: %v", err)
	}
}
