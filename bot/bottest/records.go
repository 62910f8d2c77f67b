package bottest

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/engine"
	"github.com/missivechess/missive/engine/external"
	"github.com/missivechess/missive/storage"
)

// Tournament loads tournament id and its games.
func (h *Harness) Tournament(id string) (*storage.Tournament, []*storage.Game) {
	h.T.Helper()
	var t *storage.Tournament
	var games []*storage.Game
	h.view(func(tx *storage.Tx) (err error) {
		if t, err = tx.Tournament(id); err != nil {
			return err
		}
		sums, err := tx.TournamentGames(id)
		for _, s := range sums {
			g, err := tx.Game(s.ID)
			if err != nil {
				return err
			}
			games = append(games, g)
		}
		return err
	})
	return t, games
}

// Match loads engine match id and its games.
func (h *Harness) Match(id string) (*storage.Match, []*storage.Game) {
	h.T.Helper()
	var m *storage.Match
	var games []*storage.Game
	h.view(func(tx *storage.Tx) (err error) {
		if m, err = tx.Match(id); err != nil {
			return err
		}
		for _, gid := range m.GameIDs {
			g, err := tx.Game(gid)
			if err != nil {
				return err
			}
			games = append(games, g)
		}
		return nil
	})
	return m, games
}

// NoticeTexts returns the texts of the notifications of kind among ns, and their
// files by name.
func NoticeTexts(ns []bot.Notification, kind bot.NoticeKind) (texts []string, files map[string][]byte) {
	files = map[string][]byte{}
	for _, n := range ns {
		if n.Kind != kind {
			continue
		}
		texts = append(texts, n.Reply.Text)
		for _, f := range n.Reply.Files {
			files[f.Name] = f.Data
		}
	}
	return texts, files
}

// XBoardScript is an XBoard engine that announces features, notes each start in
// the file $STARTS when it is set, and answers every go with reply.
func XBoardScript(features, reply string) string {
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

// CheckEngines writes the tests' XBoard engines to dir and returns their
// configurations: Good plays Gothic (e2e4); Missing's program is not there yet
// (write such a script to its Command to mend it); Lister lists only "normal";
// NoSetboard cannot be given the placed start of a Go-Chess game.
func CheckEngines(t *testing.T, dir string) []external.Config {
	t.Helper()
	write := func(name, features string) string {
		path := filepath.Join(dir, name+".sh")
		if err := os.WriteFile(path, []byte(XBoardScript(features, "move e2e4")), 0o755); err != nil {
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

// ExternalEngines is the service's engine adapter over the built-in engine and
// the external engines cfgs (closed when the test ends).
func ExternalEngines(t *testing.T, cfgs []external.Config) bot.Engine {
	t.Helper()
	pool, err := external.NewPool(cfgs)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	return bot.NewEngine(engine.New(engine.Options{HashBits: 12, Seed: 1}), pool, cfgs)
}
