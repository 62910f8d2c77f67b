package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runRenderArgs(args ...string) (string, error) {
	var out, errOut bytes.Buffer
	err := run(context.Background(), append([]string{"render"}, args...), &out, &errOut)
	return out.String(), err
}

func TestRenderUsageErrors(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "b.png")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--variant", "gothic"}, "-o FILE"},
		{[]string{"--side", "red", "-o", out}, "unknown side"},
		{[]string{"--variant", "xiangqi", "-o", out}, "no variant"},
		{[]string{"-o", out, "e2e4"}, "quote the moves"},
		{[]string{"--width", "x", "-o", out}, "invalid value"},
	}
	for _, c := range cases {
		_, err := runRenderArgs(c.args...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("render %v: error %v, want one saying %q", c.args, err, c.want)
		}
	}
	if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a failed render left %s behind", out)
	}
}
