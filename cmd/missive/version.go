package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"runtime/debug"
	"strings"
)

const versionUsage = "print the module version and the VCS revision the binary was built from: version"

// readBuildInfo is debug.ReadBuildInfo; tests replace it.
var readBuildInfo = debug.ReadBuildInfo

// runVersion prints what the go command recorded in the binary: the main module's path
// and version, the VCS revision, its time and whether the tree had changes not
// committed, and the Go version.
func runVersion(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("version", flag.ContinueOnError)
	fs.SetOutput(stderr)
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("version: %w", err)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("version: unexpected argument %q; usage: %s: %w", fs.Arg(0), versionUsage, errUsage)
	}
	info, ok := readBuildInfo()
	if !ok {
		return fmt.Errorf("version: this binary carries no build information")
	}
	fmt.Fprint(stdout, versionText(info))
	return nil
}

// versionText formats the build information, one "name: value" line each.
func versionText(info *debug.BuildInfo) string {
	var b strings.Builder
	version := info.Main.Version
	if version == "" {
		version = "(unknown)"
	}
	fmt.Fprintf(&b, "missive %s\n", version)
	fmt.Fprintf(&b, "module: %s\n", info.Main.Path)
	settings := map[string]string{}
	for _, s := range info.Settings {
		settings[s.Key] = s.Value
	}
	if rev := settings["vcs.revision"]; rev != "" {
		fmt.Fprintf(&b, "revision: %s", rev)
		if vcs, when := settings["vcs"], settings["vcs.time"]; vcs != "" || when != "" {
			fmt.Fprintf(&b, " (%s)", strings.TrimSpace(vcs+" "+when))
		}
		b.WriteString("\n")
		switch settings["vcs.modified"] {
		case "true":
			b.WriteString("modified: yes, built from a tree with changes not committed\n")
		case "false":
			b.WriteString("modified: no\n")
		default:
			b.WriteString("modified: unknown\n")
		}
	} else {
		b.WriteString("revision: unknown (built without version control information: outside a git checkout, or with -buildvcs=false)\n")
	}
	fmt.Fprintf(&b, "go: %s\n", info.GoVersion)
	return b.String()
}
