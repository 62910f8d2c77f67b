package main

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// mustSay fails unless out matches each pattern; what names the step.
func mustSay(t *testing.T, what, out string, patterns ...string) {
	t.Helper()
	for _, p := range patterns {
		if !regexp.MustCompile(p).MatchString(out) {
			t.Fatalf("%s: no %q in:\n%s", what, p, out)
		}
	}
}

// mustNotSay fails when out contains text.
func mustNotSay(t *testing.T, what, out, text string) {
	t.Helper()
	if strings.Contains(out, text) {
		t.Fatalf("%s: %q in:\n%s", what, text, out)
	}
}

// A time bank runs down while a player thinks, gains a day a move up to its cap, is
// kept across a restart, and runs out (the game says so), all through the console's
// /wait.
func TestConsoleTimeBank(t *testing.T) {
	data := filepath.Join(t.TempDir(), "console.db")
	out, _ := consoleSession(t, data, "/challenge variant:gothic opponent:bob color:white bank:5+1/6\n/as bob\n/accept\n")
	mustSay(t, "the game begins", out, `time bank of 5 days \+ 1 day a move, up to 6 days`, `banks: white 5d 0h, black 5d 0h`)

	// alice thinks 2 days: 5 - 2 + 1 = 4; bob 1 day: 5 - 1 + 1 = 5.
	out, _ = consoleSession(t, data, "/wait 2d\n/move e4\n/as bob\n/wait 1d\n/move e5\n")
	mustSay(t, "after two moves", out, `played e4\.\n.*banks: white 4d 0h, black 5d 0h`, `played e5\.\n.*banks: white 4d 0h, black 5d 0h`)

	// Quick moves fill the banks: alice 5 then 6; bob 6, and 6 again at the cap.
	out, _ = consoleSession(t, data, "/move d4\n/as bob\n/move d5\n/as alice\n/move Nc3\n/as bob\n/move Nc6\n/as alice\n/games\n")
	mustSay(t, "the banks fill up to their cap", out,
		`played d4\.\n.*banks: white 5d 0h, black 5d 0h`, `played d5\.\n.*banks: white 5d 0h, black 6d 0h`,
		`played Nc3\.\n.*banks: white 6d 0h, black 6d 0h`, `played Nc6\.\n.*banks: white 6d 0h, black 6d 0h`,
		`#1 Gothic Chess vs bob \(you: white\) · \*?\*?your move\*?\*? · 6d 0h left`)

	// alice's 6 days run down across a restart, and then out.
	out, _ = consoleSession(t, data, "/wait 5d\n/games\n")
	mustSay(t, "five days later", out, `#1 Gothic Chess vs bob .* 1d 0h left`)
	mustNotSay(t, "five days later", out, "ran out of time")
	mustNotSay(t, "five days later", out, "offline")
	out, _ = consoleSession(t, data, "/games\n/wait 23h\n/games\n")
	mustSay(t, "after a restart", out, `#1 Gothic Chess vs bob .* 1d 0h left`, `#1 Gothic Chess vs bob .* 1h 0m left`)
	mustNotSay(t, "23 hours later", out, "ran out of time")
	out, _ = consoleSession(t, data, "/wait 2h\n/games\n")
	mustSay(t, "the bank runs out", out, `alice \(white\) ran out of time\.`, `Game over: bob \(black\) wins on time\.`,
		`Recently finished: #1 Gothic Chess: bob \(black\) wins on time`)
}

// Leave freezes a player's clock through a restart, runs out by itself after its
// days, and the clock then runs from where it stood; /moretime adds a day to it.
func TestConsoleLeave(t *testing.T) {
	data := filepath.Join(t.TempDir(), "console.db")
	out, _ := consoleSession(t, data, "/challenge variant:gothic opponent:bob color:white days:1\n/as bob\n/accept\n/as alice\n/leave start days:3\n/wait 2d\n/leave status\n/games\n")
	mustSay(t, "leave starts", out, `Your leave runs until .* \(3 days\)\. Your clocks are frozen in every game meanwhile \(game 1\)`,
		`>> to bob .*\n.*\nalice is on leave until .*: their clock in game 1 is frozen meanwhile\.`,
		`You are on leave until .* \(1d 0h left\)`,
		`#1 Gothic Chess vs bob .* clock frozen by leave \((1d 0h|23h 5\dm) left when it runs again\)`)
	mustNotSay(t, "two days into a leave, in a 1-day game", out, "ran out of time")

	out, _ = consoleSession(t, data, "/leave status\n/wait 1d\n/leave status\n/board\n")
	mustSay(t, "after a restart", out, `You are on leave until .* \(1d 0h left\)`,
		`Your leave has ended; your clock runs again in game 1\.`, `alice is back from leave: the clock in game 1 runs again`,
		`You are not on leave\.\nLeave in \d+: 3 days taken of 30 days, 27 days left`,
		`alice \(white\) to move · deadline .* \(1d 0h left\)`) // the day she had when leave began
	mustNotSay(t, "leave over", out, "ran out of time")

	out, _ = consoleSession(t, data, "/wait 12h\n/games\n/as bob\n/moretime\n/as alice\n/games\n/wait 1d\n/games\n")
	mustSay(t, "after the leave", out, `#1 Gothic Chess vs bob .* 12h 0m left`,
		`bob gave alice one more day in game 1: alice's deadline is now .*\(bob may give 4 days more in this game\.\)\n\(@alice\)`,
		`#1 Gothic Chess vs bob .* 1d 12h left`, `#1 Gothic Chess vs bob .* 12h 0m left`)
	mustNotSay(t, "after more time", out, "ran out of time")
	out, _ = consoleSession(t, data, "/wait 13h\n")
	mustSay(t, "the extra day runs out", out, `alice \(white\) ran out of time\.`)
}
