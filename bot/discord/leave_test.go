package discord_test

import (
	"strings"
	"testing"

	"github.com/missivechess/missive/bot/discord"
	"github.com/missivechess/missive/bot/discord/discordtest"
)

// A player's /leave start and /leave end in a server reach the opponent in the
// game's thread, and the player's own answer is private.
func TestLeaveNotices(t *testing.T) {
	e := start(t, discord.Options{}, discordtest.Config{})
	thread := gothicGame(e)
	told := func(what string) string {
		t.Helper()
		var got string
		if err := e.srv.Wait(e.ctx, func() bool {
			for _, m := range e.srv.Messages(thread) {
				if s := text(m); strings.Contains(s, what) {
					got = s
					return true
				}
			}
			return false
		}); err != nil {
			var all []string
			for _, m := range e.srv.Messages(thread) {
				all = append(all, text(m))
			}
			t.Fatalf("no %q in the game's thread: %v\n%s", what, err, strings.Join(all, "\n---\n"))
		}
		return got
	}

	own := e.answer(e.srv.Command("alice", "general", "leave start", discordtest.Opt{Name: "days", Value: 2}))
	if !own.Ephemeral || !strings.Contains(text(own), "Your leave runs until") || !strings.Contains(text(own), "(2 days)") {
		t.Fatalf("/leave start answered (ephemeral %v): %q", own.Ephemeral, text(own))
	}
	if s := told("Alice is on leave until"); !strings.Contains(s, "their clock in game 1 is frozen meanwhile") {
		t.Errorf("bob was told: %q", s)
	}

	status := e.answer(e.srv.Command("alice", "general", "leave status"))
	if !status.Ephemeral || !strings.Contains(text(status), "You are on leave until") {
		t.Errorf("/leave status answered (ephemeral %v): %q", status.Ephemeral, text(status))
	}

	back := e.answer(e.srv.Command("alice", "general", "leave end"))
	if !back.Ephemeral || !strings.Contains(text(back), "Welcome back: your leave has ended") {
		t.Fatalf("/leave end answered (ephemeral %v): %q", back.Ephemeral, text(back))
	}
	if s := told("Alice is back from leave"); !strings.Contains(s, "the clock in game 1 runs again") {
		t.Errorf("bob was told: %q", s)
	}
}
