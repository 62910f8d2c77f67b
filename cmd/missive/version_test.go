package main

import (
	"bytes"
	"context"
	"runtime/debug"
	"strings"
	"testing"
)

// missive version prints what the go command stamped into the binary: the module
// version, the VCS revision and whether the tree was modified.
func TestVersionCommand(t *testing.T) {
	const rev = "4e793ed0123456789abcdef0123456789abcdef0"
	build := func(settings ...debug.BuildSetting) *debug.BuildInfo {
		return &debug.BuildInfo{
			GoVersion: "go1.26.8",
			Main:      debug.Module{Path: "github.com/missivechess/missive", Version: "v0.0.0-20260718003855-4e793ed01234+dirty"},
			Settings:  settings,
		}
	}
	cases := []struct {
		name string
		info *debug.BuildInfo
		want []string
	}{
		{"modified tree", build(
			debug.BuildSetting{Key: "vcs", Value: "git"},
			debug.BuildSetting{Key: "vcs.revision", Value: rev},
			debug.BuildSetting{Key: "vcs.time", Value: "2026-07-18T00:38:55Z"},
			debug.BuildSetting{Key: "vcs.modified", Value: "true"},
		), []string{
			"missive v0.0.0-20260718003855-4e793ed01234+dirty\n",
			"module: github.com/missivechess/missive\n",
			"revision: " + rev + " (git 2026-07-18T00:38:55Z)\n",
			"modified: yes",
			"go: go1.26.8\n",
		}},
		{"clean tree", build(
			debug.BuildSetting{Key: "vcs", Value: "git"},
			debug.BuildSetting{Key: "vcs.revision", Value: rev},
			debug.BuildSetting{Key: "vcs.modified", Value: "false"},
		), []string{"revision: " + rev + " (git)\n", "modified: no\n"}},
		{"no version control", build(), []string{"revision: unknown (built without version control information", "go: go1.26.8\n"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			old := readBuildInfo
			readBuildInfo = func() (*debug.BuildInfo, bool) { return c.info, true }
			defer func() { readBuildInfo = old }()
			var out, errOut bytes.Buffer
			if err := run(context.Background(), []string{"version"}, &out, &errOut); err != nil {
				t.Fatalf("%v\n%s", err, errOut.String())
			}
			for _, w := range c.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("missive version printed\n%s\nwant %q", out.String(), w)
				}
			}
			if c.name != "modified tree" && strings.Contains(out.String(), "modified: yes") {
				t.Errorf("missive version says modified:\n%s", out.String())
			}
		})
	}
}

// The test binary's own build information names this module and the Go version.
func TestVersionOfThisBinary(t *testing.T) {
	var out, errOut bytes.Buffer
	if err := run(context.Background(), []string{"version"}, &out, &errOut); err != nil {
		t.Fatalf("%v\n%s", err, errOut.String())
	}
	info, _ := debug.ReadBuildInfo()
	for _, w := range []string{"module: github.com/missivechess/missive\n", "go: " + info.GoVersion + "\n"} {
		if !strings.Contains(out.String(), w) {
			t.Errorf("missive version printed\n%s\nwant %q", out.String(), w)
		}
	}
	if err := run(context.Background(), []string{"version", "extra"}, &out, &errOut); err == nil {
		t.Error("missive version extra succeeded")
	}
}
