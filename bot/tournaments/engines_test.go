package tournaments_test

// The external engines of the tests: copies of those of bot's engine tests.

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/engine"
	"github.com/missivechess/missive/engine/external"
)

// xboardScript is an XBoard engine that announces features, notes each start in
// the file $STARTS when it is set, and answers every go with reply.
func xboardScript(features, reply string) string {
	return `#!/bin/sh
[ -n "$STARTS" ] && echo start >> "$STARTS"
while read -r line; do
	case "$line" in
	protover*) echo "feature ` + features + ` done=1" ;;
	ping*) echo "pong ${line#ping }" ;;
	go) echo "` + reply + `" ;;
	quit) exit 0 ;;
	esac
done
`
}

// checkEngines writes the test's XBoard engines to dir and returns their
// configurations: Good plays Gothic (e2e4); Missing's program is not there yet
// (write such a script to its Command to mend it); Lister lists only "normal"; NoSetboard
// cannot be given the placed start of a Go-Chess game.
func checkEngines(t *testing.T, dir string) []external.Config {
	t.Helper()
	write := func(name, features string) string {
		path := filepath.Join(dir, name+".sh")
		if err := os.WriteFile(path, []byte(xboardScript(features, "move e2e4")), 0o755); err != nil {
			t.Fatal(err)
		}
		return path
	}
	cfg := func(name, command, variant string) external.Config {
		return external.Config{Name: name, Command: command, Protocol: external.XBoard,
			Variants: map[string]string{variant: variant}, Think: 50 * time.Millisecond, Timeout: 2 * time.Second,
			Env: map[string]string{"STARTS": filepath.Join(dir, name+".starts")}}
	}
	return []external.Config{
		cfg("Good", write("good", "ping=1 setboard=1"), "gothic"),
		cfg("Missing", filepath.Join(dir, "missing.sh"), "gothic"),
		cfg("Lister", write("lister", `ping=1 setboard=1 variants="normal"`), "gothic"),
		cfg("NoSetboard", write("nosetboard", "ping=1 setboard=0"), "gochess"),
	}
}

// externalEngines returns the built-in engine and those of cfgs, as the bot has
// them; their processes end with the test.
func externalEngines(t *testing.T, cfgs []external.Config) bot.Engine {
	t.Helper()
	pool, err := external.NewPool(cfgs)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	return bot.NewEngine(engine.New(engine.Options{HashBits: 12, Seed: 1}), pool, cfgs)
}
