package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
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
