package bot

import (
	"fmt"
	"strings"
	"testing"

	"github.com/missivechess/missive/storage"
)

// openPerPlayer counts the games in progress of each player.
func openPerPlayer(games []*storage.Game) map[string]int {
	n := map[string]int{}
	for _, g := range active(games) {
		n[g.Players[0].ID]++
		n[g.Players[1].ID]++
	}
	return n
}

// A round robin larger than the window starts each player's first games only; the
// next starts (with its clock) as one ends, until every pairing is played once.
func TestRoundRobinPaced(t *testing.T) {
	h := newHarness(t)
	var players []string
	for i := range 8 {
		players = append(players, fmt.Sprintf("p%d", i))
	}
	h.ok(players[0], "tournament action:create variant:gothic format:round-robin rated:no days:2")
	for _, p := range players {
		h.ok(p, "tournament action:join")
	}
	h.ok(players[0], "tournament action:start")
	news := ""
	for _, n := range h.notes.take() {
		if n.Kind == NoticeTournament {
			news += n.Reply.Text
		}
	}
	if !strings.Contains(news, fmt.Sprintf("up to %d games at a time", DefaultEventGames)) {
		t.Errorf("the start news does not explain the pacing: %q", news)
	}
	_, games := h.tournament("1")
	if len(games) == 0 || len(games) >= 28 {
		t.Fatalf("a round robin of 8 started %d of its 28 games at once", len(games))
	}
	for p, n := range openPerPlayer(games) {
		if n > DefaultEventGames {
			t.Fatalf("%s has %d games at once", p, n)
		}
	}
	for _, g := range games {
		if g.Clock.Deadline.IsZero() {
			t.Fatalf("started game %s has no clock", g.ID)
		}
	}
	// Resign games one by one: new ones start, never beyond the window, and the
	// event ends after all 28 pairings.
	for range 100 {
		tr, games := h.tournament("1")
		if tr.Status == storage.TournamentFinished {
			break
		}
		open := active(games)
		if len(open) == 0 {
			t.Fatalf("tournament stalled after %d games", len(games))
		}
		before := len(games)
		h.ok(open[0].Players[0].ID, "resign game:"+open[0].ID)
		_, games = h.tournament("1")
		for p, n := range openPerPlayer(games) {
			if n > DefaultEventGames {
				t.Fatalf("%s has %d games at once", p, n)
			}
		}
		if len(games) < before {
			t.Fatal("games vanished")
		}
	}
	tr, games := h.tournament("1")
	if tr.Status != storage.TournamentFinished || len(games) != 28 {
		t.Fatalf("status %s after %d games, want finished after 28", tr.Status, len(games))
	}
	noRematch(t, games)
}
