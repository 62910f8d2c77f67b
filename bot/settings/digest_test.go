package settings_test

import (
	"strings"
	"testing"
	"time"

	"github.com/missivechess/missive/bot/bottest"
	"github.com/missivechess/missive/bot/settings"
)

// The daily digest comes once a day at the hour chosen, as a direct message listing
// the games waiting for the player's move, least time first; a restart does not send
// it again; nothing comes on a day with nothing waiting, nor when it is off.
func TestDailyDigest(t *testing.T) {
	h := bottest.New(t) // 3 March 2025, 12:00 UTC
	slow := h.Start("gothic", "days:5")
	fast := h.Start("keltic", "days:1")
	theirs := h.Start("gothic", "days:2")
	h.MoveAny(theirs, "alice") // bob to move there
	r := h.Ok("alice", "settings digest_hour:7")
	if !strings.Contains(r.PlainText(), "daily at 07:00 UTC") {
		t.Errorf("settings: %s", r.PlainText())
	}
	h.Refused("alice", "settings digest_hour:24", "from 0 to 23")
	h.Restart()
	h.Notes.Take()
	h.Clock.Advance(19*time.Hour - time.Minute) // 4 March 06:59
	h.Tick()
	if ns := bottest.NoticesOf(h.Notes.Take(), "alice", settings.NoticeDigest); len(ns) != 0 {
		t.Fatalf("a digest before its hour: %v", ns)
	}
	h.Clock.Advance(time.Minute)
	h.Tick()
	ns := bottest.NoticesOf(h.Notes.Take(), "alice", settings.NoticeDigest)
	if len(ns) != 1 || !ns[0].Direct {
		t.Fatalf("digests at 07:00: %v", ns)
	}
	text := ns[0].Reply.Text
	if !strings.HasPrefix(text, "2 games wait for your move") || !strings.Contains(text, "#"+fast+" Keltic") ||
		strings.Index(text, "#"+fast+" ") > strings.Index(text, "#"+slow+" ") || strings.Contains(text, "#"+theirs+" ") {
		t.Errorf("digest:\n%s", text)
	}
	if len(ns[0].Reply.Actions) != 2 || ns[0].Reply.Actions[0].Args["game"] != fast {
		t.Errorf("digest buttons %+v", ns[0].Reply.Actions)
	}
	if p := h.Player("alice"); p.DigestSent != "2025-03-04" || !p.DigestNext.Equal(time.Date(2025, 3, 5, 7, 0, 0, 0, time.UTC)) {
		t.Errorf("after sending: sent %q, next %v", p.DigestSent, p.DigestNext)
	}
	// Moving the hour later the same day, or a restart, brings no second digest.
	h.Ok("alice", "settings digest_hour:9")
	h.Restart()
	h.Clock.Advance(2 * time.Hour)
	h.Tick()
	if ns := bottest.NoticesOf(h.Notes.Take(), "alice", settings.NoticeDigest); len(ns) != 0 {
		t.Errorf("the digest came twice in a day: %v", ns)
	}
	h.Ok("alice", "settings digest_hour:7")
	// On 5 March one game waits for bob, who asks for a digest too; alice resigns
	// hers and gets none.
	for _, id := range []string{slow, fast} {
		h.Ok("alice", "resign game:"+id)
	}
	h.Ok("bob", "settings digest_hour:7")
	h.Notes.Take()
	h.Clock.Advance(bottest.Day)
	h.Tick()
	ns = h.Notes.Take()
	if got := bottest.NoticesOf(ns, "alice", settings.NoticeDigest); len(got) != 0 {
		t.Errorf("a digest with nothing waiting: %v", got)
	}
	if got := bottest.NoticesOf(ns, "bob", settings.NoticeDigest); len(got) != 1 || !strings.HasPrefix(got[0].Reply.Text, "1 game waits for your move") {
		t.Errorf("bob's digest: %v", got)
	}
	h.Ok("bob", "settings digest_hour:off")
	h.Clock.Advance(bottest.Day)
	h.Tick()
	if got := bottest.NoticesOf(h.Notes.Take(), "bob", settings.NoticeDigest); len(got) != 0 {
		t.Errorf("a digest after turning it off: %v", got)
	}
}
