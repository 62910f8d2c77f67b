package bot_test

import (
	"log/slog"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/bottest"
)

// damageGame overwrites game id's record in the closed data file at path with
// bytes that do not decode, as a damaged page or a faulty disk leaves them.
func damageGame(t *testing.T, path, id string) {
	t.Helper()
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Update(func(tx *bolt.Tx) error {
		return tx.Bucket([]byte("games")).Put([]byte(id), []byte(`{"v":1,"id":"`+id+`","variant":`))
	}); err != nil {
		t.Fatal(err)
	}
}

// logTo makes h's service log to a buffer, from its next open.
func logTo(h *bottest.Harness) *syncBuffer {
	var buf syncBuffer
	h.Config = func(c *bot.Config) { c.Logger = slog.New(slog.NewTextHandler(&buf, nil)) }
	return &buf
}

// One damaged game record does not cost the other games their time: after an
// outage longer than what their clocks had left, the intact games get the outage
// back and go on, and the damaged one is logged by id and skipped.
func TestOutageSkipsDamagedGame(t *testing.T) {
	h := bottest.New(t)
	first := h.Start("gothic", "days:1")
	bad := h.Start("gothic", "days:1")
	last := h.Start("gothic", "days:1")
	h.Resume()
	before := h.Game(first).Clock.Deadline
	logs := logTo(h)
	h.Close()
	damageGame(t, h.Path, bad)
	h.Open()
	h.Clock.Advance(2 * bottest.Day) // the games had one day left
	if err := h.Svc.Resume(t.Context(), h.Clock.Now()); err != nil {
		t.Errorf("Resume: %v", err)
	}
	h.Svc.Idle()
	// The scheduler cannot handle the damaged game (its error names it) but handles
	// the others.
	if _, err := h.Svc.Tick(t.Context()); err == nil || !strings.Contains(err.Error(), "game "+bad) {
		t.Errorf("Tick: %v, want the damaged game %s named", err, bad)
	}
	h.Svc.Idle()
	for _, id := range []string{first, last} {
		g := h.Game(id)
		if !g.Active() {
			t.Errorf("game %s lost its time to the outage: %v", id, g.Outcome)
			continue
		}
		if want := before.Add(2 * bottest.Day); !g.Clock.Deadline.Equal(want) {
			t.Errorf("game %s: deadline %v, want %v (moved by the outage)", id, g.Clock.Deadline, want)
		}
	}
	if !h.Svc.Connected() {
		t.Error("the service stays held after the outage")
	}
	if l := logs.String(); !strings.Contains(l, "game="+bad) || !strings.Contains(l, "damaged=1") {
		t.Errorf("the damaged game %s is not logged by id and counted:\n%s", bad, l)
	}
}
