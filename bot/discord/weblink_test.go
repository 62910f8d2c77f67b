package discord_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/discord"
	"github.com/missivechess/missive/bot/discord/discordtest"
	"github.com/missivechess/missive/bot/web"
)

// With the web pages on, a game's board message carries a link button (style 5,
// a url and no custom_id, as Discord requires) to the game's page, and /web
// answers a player privately with their own link; both open the page.
func TestWebLinkButtons(t *testing.T) {
	w, err := web.New(web.Options{Public: "https://missive.example.org"})
	if err != nil {
		t.Fatal(err)
	}
	e := startTuned(t, discordtest.New(t, discordtest.Config{}), discord.Options{}, nil, t.TempDir()+"/bot.db", nil, func(c *bot.Config) {
		c.Features = append(c.Features, w.Feature)
	})
	if err := w.Attach(context.Background(), e.svc); err != nil {
		t.Fatal(err)
	}
	thread := gothicGame(e)
	m := e.answer(e.srv.Command("alice", thread, "board"))
	link := linkButton(m, "Web page")
	if !strings.HasPrefix(link, "https://missive.example.org/g/") {
		t.Fatalf("the board's link button opens %q", link)
	}
	own := e.answer(e.srv.Command("alice", thread, "web"))
	if !own.Ephemeral || linkButton(own, "My page") == "" || !strings.Contains(text(own), "Your own page") {
		t.Fatalf("/web: ephemeral %v, %q", own.Ephemeral, text(own))
	}
	h := w.Handler()
	for _, l := range []string{link, linkButton(own, "My page")} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, l, nil))
		if rec.Code != http.StatusOK {
			t.Errorf("GET %s: %d", l, rec.Code)
		}
	}
}

// linkButton returns the url of m's link button labelled label, "" for none.
func linkButton(m *discordtest.Message, label string) string {
	var find func(cs []discordtest.Component) string
	find = func(cs []discordtest.Component) string {
		for _, c := range cs {
			if c.Label == label && c.Style == int(discordgo.LinkButton) && c.CustomID == "" {
				return c.URL
			}
			if u := find(c.Components); u != "" {
				return u
			}
		}
		return ""
	}
	return find(m.Components)
}
