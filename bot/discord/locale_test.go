package discord_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/missivechess/missive/bot/discord"
	"github.com/missivechess/missive/bot/discord/discordtest"
)

// An interaction from a German client (bob's, in the fake's default server) is
// answered in German; one from an English client in English; and /help registers
// with its German, Spanish (both locales) and Russian names.
func TestInteractionInGerman(t *testing.T) {
	e := start(t, discord.Options{}, discordtest.Config{})
	cb, err := e.srv.WaitCallback(e.ctx, e.srv.Command("bob", "general", "help"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(cb.Data)
	for _, want := range []string{"So wird gespielt", "Züge schreibst du in englischer Notation", "Fernschach in Gothic Chess"} {
		if !strings.Contains(text, want) {
			t.Errorf("bob's /help lacks %q: %s", want, text)
		}
	}
	if strings.Contains(text, "How to play") || !cb.Ephemeral {
		t.Errorf("bob's /help is English or public: %s", text)
	}
	cb, err = e.srv.WaitCallback(e.ctx, e.srv.Command("alice", "general", "help"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(cb.Data), "How to play") {
		t.Errorf("alice's (en-US) /help is not English: %s", cb.Data)
	}
	for _, c := range e.srv.Commands("") {
		if c.Name != "help" {
			continue
		}
		var raw struct {
			Names map[string]string `json:"name_localizations"`
		}
		if err := json.Unmarshal(c.Raw, &raw); err != nil {
			t.Fatal(err)
		}
		if raw.Names["de"] != "hilfe" || raw.Names["es-ES"] != "ayuda" || raw.Names["es-419"] != "ayuda" || raw.Names["ru"] != "помощь" {
			t.Errorf("/help's localised names: %v", raw.Names)
		}
		return
	}
	t.Errorf("no /help registered: %+v", e.srv.Commands(""))
}
