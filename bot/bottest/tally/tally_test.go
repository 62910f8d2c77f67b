package tally_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/bottest"
	"github.com/missivechess/missive/bot/bottest/tally"
)

// A feature in a package of its own plugs in through Config.Features: its command
// is dispatched, listed, completed and private as its spec says; its end-of-game
// hooks run inside the ending transaction (an error undoes the end) and after the
// commit; the notices it queues reach the players once the end commits.
func TestFeaturePlugsIn(t *testing.T) {
	f := tally.New()
	h := bottest.New(t, f.Feature)
	specs := h.Svc.Commands()
	if last := specs[len(specs)-1]; last.Name != tally.CmdTally || !last.Private {
		t.Fatalf("the feature's command is not listed last, or not private: %+v", last)
	}
	if spec, ok := h.Svc.Spec(tally.CmdTally); !ok || spec.Usage() != "/tally [style:<string>]" {
		t.Fatalf("spec %+v %v", spec, ok)
	}
	if got := h.Svc.Complete(t.Context(), bot.Request{User: bot.User{ID: "alice"}, Command: tally.CmdTally}, "style", "lo"); len(got) != 1 || got[0].Value != "long" {
		t.Fatalf("completion %+v", got)
	}
	if r := h.Ok("alice", tally.CmdTally); r.Text != "" {
		t.Fatalf("before any game ended: %q", r.Text)
	}

	id := h.Start("gothic", "")
	f.FailOn(id)
	if r := h.Do("bob", "resign"); !r.Refused || !h.Game(id).Active() {
		t.Fatalf("a failing in-transaction hook did not undo the resignation: %+v", r)
	}
	if len(f.After()) != 0 || f.Count(t.Context(), "alice") != 0 {
		t.Fatalf("an undone end ran the after hook or kept the count: %v", f.After())
	}
	if got := bottest.NoticesOf(h.Notes.Take(), "alice", tally.NoticeTally); len(got) != 0 {
		t.Fatalf("an undone end notified: %+v", got)
	}
	f.FailOn("")
	h.Ok("bob", "resign")
	ns := h.Notes.Take()
	for _, u := range []string{"alice", "bob"} {
		got := bottest.NoticesOf(ns, u, tally.NoticeTally)
		if len(got) != 1 || !got[0].Direct || !strings.Contains(got[0].Reply.Text, "Game "+id+" is over: you have 1 finished game.") {
			t.Errorf("%s was told %+v", u, got)
		}
	}
	id2 := h.Start("keltic", "")
	h.Ok("alice", "abort")
	ns = h.Notes.Take()
	if want := []string{id + ": |", id2 + ": ||"}; !slices.Equal(f.After(), want) {
		t.Fatalf("after-commit hook saw %v, want %v", f.After(), want)
	}
	if r := h.Ok("bob", tally.CmdTally); r.Text != "||" || !r.Private {
		t.Fatalf("tally %+v", r)
	}
	for _, u := range []string{"alice", "bob"} {
		got := bottest.NoticesOf(ns, u, tally.NoticeTally)
		if len(got) != 1 || !got[0].Direct || !strings.Contains(got[0].Reply.Text, "Game "+id2+" is over: you have 2 finished games.") {
			t.Errorf("%s was told %+v", u, got)
		}
	}
}
