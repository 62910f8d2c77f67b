package guide_test

import (
	"strings"
	"testing"
	"time"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/bottest"
	"github.com/missivechess/missive/bot/guide"
)

func TestRulesCards(t *testing.T) {
	h := bottest.New(t)
	for _, v := range variantsOnly(h) {
		r := h.Ok("alice", "rules variant:"+v)
		text := r.PlainText()
		if len(text) < 500 {
			t.Errorf("%s card too short: %s", v, text)
		}
	}
	want := map[string][]string{
		"gothic":  {"Chancellor", "Archbishop", "castling", "K+N+N v K", "could not mate you by any series of legal moves", "where no placing of those four is checkmate"},
		"keltic":  {"sideways", "d7, e7, f7", "K v K and K+N v K only"},
		"gochess": {"House rule", "nearer", "drawn (house rule: both out of time)", "other cell colour", "one cell colour"},
		"gess":    {"ring", "House rule: draw by agreement", "threefold", "m3-m6"},
	}
	for v, words := range want {
		text := h.Ok("bob", "rules variant:"+v).PlainText()
		for _, w := range words {
			if !strings.Contains(text, w) {
				t.Errorf("%s card lacks %q", v, w)
			}
		}
	}
	h.Refused("alice", "rules variant:xiangqi", "Which game?")
}

// variantsOnly lists the real variants of the harness (not the toy).
func variantsOnly(h *bottest.Harness) []string {
	var out []string
	for _, k := range h.Reg.Keys() {
		if k != "toyplace" {
			out = append(out, k)
		}
	}
	return out
}

// Every game's /rules card states the fair-clock rule with the grace in force.
func TestOutageRuleOnCards(t *testing.T) {
	h := bottest.New(t)
	if bot.OutageGrace != 5*time.Minute || !strings.Contains(guide.OutageRule, "more than 5 minutes") {
		t.Fatalf("the card's rule %q does not match OutageGrace %v", guide.OutageRule, bot.OutageGrace)
	}
	for _, v := range []string{"gothic", "keltic", "gochess", "gess"} {
		r := h.Ok("alice", "rules variant:"+v)
		found := false
		for _, f := range r.Fields {
			found = found || strings.Contains(f.Value, guide.OutageRule)
		}
		if !found {
			t.Errorf("the %s card lacks the fair-clock rule: %+v", v, r.Fields)
		}
	}
}
