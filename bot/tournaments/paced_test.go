package tournaments_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/bottest"
	"github.com/missivechess/missive/bot/tournaments"
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
	h := bottest.New(t)
	var players []string
	for i := range 8 {
		players = append(players, fmt.Sprintf("p%d", i))
	}
	h.Ok(players[0], "tournament action:create variant:gothic format:round-robin rated:no days:2")
	for _, p := range players {
		h.Ok(p, "tournament action:join")
	}
	h.Ok(players[0], "tournament action:start")
	news := ""
	for _, n := range h.Notes.Take() {
		if n.Kind == tournaments.NoticeTournament {
			news += n.Reply.Text
		}
	}
	if !strings.Contains(news, fmt.Sprintf("up to %d games at a time", tournaments.DefaultEventGames)) {
		t.Errorf("the start news does not explain the pacing: %q", news)
	}
	_, games := h.Tournament("1")
	if len(games) == 0 || len(games) >= 28 {
		t.Fatalf("a round robin of 8 started %d of its 28 games at once", len(games))
	}
	for p, n := range openPerPlayer(games) {
		if n > tournaments.DefaultEventGames {
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
		tr, games := h.Tournament("1")
		if tr.Status == storage.TournamentFinished {
			break
		}
		open := active(games)
		if len(open) == 0 {
			t.Fatalf("tournament stalled after %d games", len(games))
		}
		before := len(games)
		h.Ok(open[0].Players[0].ID, "resign game:"+open[0].ID)
		_, games = h.Tournament("1")
		for p, n := range openPerPlayer(games) {
			if n > tournaments.DefaultEventGames {
				t.Fatalf("%s has %d games at once", p, n)
			}
		}
		if len(games) < before {
			t.Fatal("games vanished")
		}
	}
	tr, games := h.Tournament("1")
	if tr.Status != storage.TournamentFinished || len(games) != 28 {
		t.Fatalf("status %s after %d games, want finished after 28", tr.Status, len(games))
	}
	noRematch(t, games)
}

// A round robin in a server with as many games in progress as the server's cap
// waits: its games start as games end there, tournament games or not.
func TestRoundRobinServerCap(t *testing.T) {
	h := bottest.New(t)
	h.Options.Tournaments.GuildGames = 3
	h.Restart()
	place := bot.Place{Guild: "g1", Channel: "c1"}
	run := func(user, line string) bot.Reply {
		t.Helper()
		f := strings.Fields(line)
		req := bot.Request{User: bot.User{ID: user, Name: user}, Place: place, Command: f[0], Args: bot.Args{}, Admin: true}
		for _, kv := range f[1:] {
			k, v, _ := strings.Cut(kv, ":")
			req.Args[k] = v
		}
		r := h.Svc.Handle(t.Context(), req)
		h.Svc.Idle()
		if r.Refused {
			t.Fatalf("%s: %s: refused: %s", user, line, r.Text)
		}
		return r
	}
	// A casual game in the server takes one of the three places.
	run("x", "challenge variant:gothic opponent:y")
	run("y", "accept")
	run("p0", "tournament action:create variant:gothic format:round-robin rated:no days:2")
	for i := range 6 {
		run(fmt.Sprintf("p%d", i), "tournament action:join")
	}
	run("p0", "tournament action:start")
	_, games := h.Tournament("1")
	if len(games) != 2 {
		t.Fatalf("%d tournament games started beside a casual game under a cap of 3", len(games))
	}
	// The casual game ends: a tournament game takes its place.
	run("x", "resign game:1")
	if _, games = h.Tournament("1"); len(games) != 3 || len(active(games)) != 3 {
		t.Fatalf("after the casual game ended: %d games, %d in progress", len(games), len(active(games)))
	}
	for range 30 {
		tr, games := h.Tournament("1")
		if tr.Status == storage.TournamentFinished {
			break
		}
		open := active(games)
		if len(open) == 0 || len(open) > 3 {
			t.Fatalf("%d games in progress under a cap of 3", len(open))
		}
		run(open[0].Players[0].ID, "resign game:"+open[0].ID)
	}
	tr, games := h.Tournament("1")
	if tr.Status != storage.TournamentFinished || len(games) != 15 {
		t.Fatalf("status %s after %d games, want finished after 15", tr.Status, len(games))
	}
	noRematch(t, games)
}
