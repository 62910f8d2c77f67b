package bot_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/bottest"
)

// commandRE finds a command named in a sentence: a slash starting a word, followed
// by a lowercase name ("/move", "(/games)", "`/accept challenge:1`"), not a path
// or a fraction such as "image/png" or "1/172800".
var commandRE = regexp.MustCompile(`(?:^|[\s(\x60"'“])/([a-z][a-z_]*)\b`)

// keyRE is a literal that is a part of a key, not a sentence.
var keyRE = regexp.MustCompile(`^/[a-z]+$`)

// namedCommands returns the commands named in the string literals of the service's
// source files (not its tests) and in the English of its message catalogue
// (locales/active.en.yaml, whose commands every language names alike), with where
// each is named.
func namedCommands(t *testing.T, dir string) map[string][]string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	if data, err := os.ReadFile(filepath.Join(dir, "locales", "active.en.yaml")); err == nil {
		for i, line := range strings.Split(string(data), "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "#") || strings.Contains(line, "command.") {
				continue // a comment; a command's own name or description
			}
			for _, m := range commandRE.FindAllStringSubmatch(line, -1) {
				out[m[1]] = append(out[m[1]], fmt.Sprintf("%s:%d", filepath.Join(dir, "locales", "active.en.yaml"), i+1))
			}
		}
	}
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(file, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil {
				return true
			}
			if keyRE.MatchString(s) {
				return true // a notification key's part, such as "/over"
			}
			for _, m := range commandRE.FindAllStringSubmatch(s, -1) {
				out[m[1]] = append(out[m[1]], fset.Position(lit.Pos()).String())
			}
			return true
		})
	}
	return out
}

// Every sentence the service and its features (every package below bot but the
// adapters and the tests' harness) can write that names a command names one that
// is registered, so that a player is never sent to a command that does not exist.
func TestSentencesNameRegisteredCommands(t *testing.T) {
	h := bottest.New(t)
	named := namedCommands(t, ".")
	dirs, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range dirs {
		switch dir.Name() {
		case "console", "discord", "web", "bottest": // the adapters' own commands and paths, the tests'
			continue
		}
		if !dir.IsDir() {
			continue
		}
		for name, where := range namedCommands(t, dir.Name()) {
			named[name] = append(named[name], where...)
		}
	}
	if len(named) < 10 {
		t.Fatalf("only %d commands named in the source; is the pattern right? %v", len(named), named)
	}
	for name, where := range named {
		if spec, ok := h.Svc.Spec(name); !ok || spec.Button {
			t.Errorf("/%s is named at %s but is not a registered command", name, strings.Join(where, ", "))
		}
	}
	// And the replies of a short session, features' texts included.
	h.Ok("alice", "challenge variant:gothic opponent:bob")
	replies := []bot.Reply{h.Do("carol", "accept challenge:1"), h.Do("bob", "cancel challenge:1"), h.Ok("bob", "accept"),
		h.Do("carol", "board"), h.Do("carol", "resign"), h.Ok("alice", "help"), h.Do("alice", "nothing")}
	for _, n := range h.Notes.Take() {
		replies = append(replies, n.Reply)
	}
	for _, r := range replies {
		for _, m := range commandRE.FindAllStringSubmatch(r.PlainText(), -1) {
			if spec, ok := h.Svc.Spec(m[1]); !ok || spec.Button {
				t.Errorf("/%s is named in %q but is not a command", m[1], r.PlainText())
			}
		}
	}
}
