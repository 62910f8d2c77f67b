package bot_test

import (
	"strings"
	"testing"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/bottest"
	"github.com/missivechess/missive/bot/i18n"
)

// The text board under a Gess board names the rings in its reader's language: a
// German and a Russian player's /board, the German player's notice of the
// game's start (drawn from the outbox's record); English as before.
func TestTextBoardInTheReadersLanguage(t *testing.T) {
	h := bottest.New(t)
	h.Config = func(c *bot.Config) { c.Renderer = bot.NewRenderer() }
	h.Restart()
	h.Ok("alice", "settings language:de notify:dm")
	h.Ok("bob", "settings language:ru")
	id := h.Start("gess", "")
	for user, want := range map[string]string{"alice": "\nRinge: Weiß l18; Schwarz l3\n", "bob": "\nкольца: белые l18; чёрные l3\n"} {
		if r := h.Ok(user, "board game:"+id); !strings.HasSuffix(r.Board, want) {
			t.Errorf("%s: the text board ends %q", user, r.Board[strings.LastIndex(r.Board[:len(r.Board)-1], "\n"):])
		}
	}
	h.Ok("carol", "challenge variant:gess opponent:dave")
	english := h.Ok("dave", "accept").Started.ID
	if r := h.Ok("carol", "board game:"+english); !strings.HasSuffix(r.Board, "\nrings: white l18; black l3\n") {
		t.Errorf("the English text board: %q", r.Board)
	}
	// The start's notice, drawn from the outbox's record.
	h.Notes.Take()
	h.Ok("alice", "challenge variant:gess opponent:bob")
	h.Ok("bob", "accept")
	told := false
	for _, n := range h.Notes.Take() {
		if n.To.ID == "alice" && n.Reply.Board != "" {
			told = true
			if !strings.HasSuffix(n.Reply.Board, "\nRinge: Weiß l18; Schwarz l3\n") {
				t.Errorf("alice's notice's text board ends %q", n.Reply.Board[len(n.Reply.Board)-40:])
			}
		}
	}
	if !told {
		t.Error("alice's notice has no text board")
	}
	if w := bot.TextWordsIn(i18n.French); w.Rings != "anneaux\u202f: Blancs {white}\u202f; Noirs {black}" || w.NoRings != "aucun" {
		t.Errorf("French text board words %+v", w)
	}
}
