package bot_test

import (
	"strings"
	"testing"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/bottest"
	"github.com/missivechess/missive/bot/tournaments"
	"github.com/missivechess/missive/storage"
)

// A name a player gives is refused at the door with a sentence when it is longer
// than the limit, and accepted up to it; nothing is stored when it is refused.
func TestNameLimits(t *testing.T) {
	h := bottest.New(t)
	for _, n := range []int{bot.MaxNameLen + 1, 100, 250} {
		long := strings.Repeat("x", n)
		r := h.Refused("alice", "challenge variant:gothic opponent:"+long, "A player's name has at most 32 characters")
		if strings.Contains(r.Text, long) {
			t.Fatalf("the refusal repeats the whole name: %s", r.Text)
		}
	}
	h.Refused("alice", "profile player:"+strings.Repeat("x", 250), "A player's name has at most 32 characters")
	// Ids a player types are not repeated back in full either.
	for _, line := range []string{"board game:", "accept challenge:", "tournament action:info tournament:", "settings theme:"} {
		if r := h.Refused("alice", line+strings.Repeat("9", 250), "There is no"); strings.Contains(r.Text, strings.Repeat("9", 40)) {
			t.Errorf("%s: the refusal repeats the whole text: %s", line, r.Text)
		}
	}
	h.Refused("alice", "board game:77", "There is no game 77 here.")

	r := h.Ok("alice", "challenge variant:gothic opponent:"+strings.Repeat("é", bot.MaxNameLen))
	if !strings.Contains(r.Text, strings.Repeat("é", bot.MaxNameLen)) {
		t.Fatalf("challenge: %s", r.Text)
	}

	h.Refused("alice", "tournament action:create variant:gothic name:"+strings.Repeat("n", tournaments.MaxNameLen+1),
		"A tournament's name has at most 80 characters")
	h.Refused("alice", "tournament action:info tournament:1", "no tournament 1")
	name := strings.Repeat("n", tournaments.MaxNameLen)
	h.Ok("alice", "tournament action:create variant:gothic name:"+name)
	tr, _ := h.Tournament("1")
	if tr.Name != name || tr.Status != storage.TournamentOpen {
		t.Fatalf("tournament: %q, %s", tr.Name, tr.Status)
	}
}
