package console

import (
	"strings"
	"testing"
)

// Whatever a refusal echoes of a line (a game's number, a command's name, an
// option's value, a player's name) reaches the terminal with its control
// characters escaped and shortened: no escape sequence typed, or read from a
// script, is sent to the terminal.
func TestRefusalsNeutraliseEchoedInput(t *testing.T) {
	t.Parallel()
	s := newSession(t)
	const esc = "\x1b[2J\x1b[31m"
	long := strings.Repeat("x", 200)
	out := s.run(strings.Join([]string{
		"/board game:" + esc,
		"/fro" + esc + "b",
		"/help fro" + esc,
		"/challenge gothic bob color:" + esc,
		"/challenge gothic bob rated:" + esc,
		"/challenge gothic " + esc + "bob",
		"/wait " + esc,
		"/board a b " + esc,
		"/tournament " + esc,
		"/board game:" + long,
		"resign game:" + esc,
		"/match action:score match:" + esc,
		"/accept challenge:" + esc,
		"/settings reminders:" + esc,
		"/draw action:" + long,
		"/match variant:keltic first_level:1 games:" + esc,
	}, "\n") + "\n")
	if strings.ContainsAny(out, "\x1b\u202e") {
		t.Fatalf("an escape sequence reached the terminal:\n%q", out)
	}
	expect(t, out,
		`There is no game "\x1b[2J\x1b[31m" here.`,
		`There is no command /"fro\x1b[2j\x1b[31mb"`, // command names are read in lower case
		`There is no command /"fro\x1b[2j\x1b[31m"`,
		`not "\x1b[2J\x1b[31m"`,
		`Rated must be true or false, not "\x1b[2J\x1b[31m".`,
		`A player's name holds no control characters; "\x1b[2j\x1b[31mbob" does.`,
		`"\x1b[2J\x1b[31m" is not a duration`,
		`"\x1b[2J\x1b[31m" fits none of the options of /board left`,
		`/tournament has no "\x1b[2J\x1b[31m"`,
		`There is no game "`+strings.Repeat("x", 32)+`…" here.`,
		`Resign game "\x1b[2J\x1b[31m"?`,
		`There is no match "\x1b[2J\x1b[31m" here.`,
		`There is no challenge #"\x1b[2J\x1b[31m" here`,
		`(or none); "\x1b[2J\x1b[31m" is not.`,
		`[refused] action must be one of offer, accept, decline, not "`+strings.Repeat("x", 32)+`…"`,
		`games must be a whole number, not "\x1b[2J\x1b[31m".`,
	)
	if strings.Contains(out, long) {
		t.Errorf("a long id was echoed whole:\n%s", out)
	}
}

// safe escapes control characters and text-turning characters, and keeps the rest.
func TestSafe(t *testing.T) {
	for in, want := range map[string]string{
		"plain\ttext\nline": "plain\ttext\nline",
		"a\x1b[2Jb":         `a\x1b[2Jb`,
		"cr\r":              `cr\r`,
		"turn\u202eed":      `turn\u202eed`,
		"é ♞ 日本":            "é ♞ 日本",
	} {
		if got := safe(in); got != want {
			t.Errorf("safe(%q) = %q, want %q", in, got, want)
		}
	}
}
