package discord_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/missivechess/missive/bot/discord"
	"github.com/missivechess/missive/bot/discord/discordtest"
	"github.com/missivechess/missive/bot/i18n/i18ntest"
)

// buttonFor returns the custom id of m's button that runs command.
func buttonFor(t testing.TB, m *discordtest.Message, command string) string {
	t.Helper()
	var find func(cs []discordtest.Component) string
	find = func(cs []discordtest.Component) string {
		for _, c := range cs {
			if strings.Contains(c.CustomID, "|"+command+"|") {
				return c.CustomID
			}
			if id := find(c.Components); id != "" {
				return id
			}
		}
		return ""
	}
	id := find(m.Components)
	if id == "" {
		t.Fatalf("no /%s button in %q", command, text(m))
	}
	return id
}

// everything returns the texts a member reads in m: its content, embeds and the
// labels of its buttons and menus.
func everything(m *discordtest.Message) []string {
	out := strings.Split(text(m), "\n")
	var labels func(cs []discordtest.Component)
	labels = func(cs []discordtest.Component) {
		for _, c := range cs {
			if c.Label != "" {
				out = append(out, c.Label)
			}
			labels(c.Components)
		}
	}
	labels(m.Components)
	return out
}

// Two members of a server of each language Missive speaks, whose clients speak it
// too, play a whole Gothic game through Discord, from the challenge to the mate:
// nothing the bot posts, answers or sends them (the challenge, its buttons, the
// game's thread, the moves' answers, refusals, direct messages) has English left.
func TestGameInEachLanguage(t *testing.T) {
	t.Parallel()
	for _, locale := range []string{"de", "fr", "es-ES", "pt-BR", "ru"} {
		t.Run(locale, func(t *testing.T) {
			g := discordtest.DefaultGuild()
			g.Locale = locale
			g.Members = append(g.Members,
				discordtest.Member{User: discordtest.User{Username: "ivan", GlobalName: "Ivan", Locale: locale}},
				discordtest.Member{User: discordtest.User{Username: "olga", GlobalName: "Olga", Locale: locale}})
			e := start(t, discord.Options{}, discordtest.Config{Guilds: []discordtest.Guild{g}})
			var read []*discordtest.Message
			ch := e.answer(e.srv.Command("ivan", "general", "challenge", discordtest.Opt{Name: "variant", Value: "gothic"},
				discordtest.Opt{Name: "opponent", Value: "olga"}, discordtest.Opt{Name: "color", Value: "white"}))
			read = append(read, ch)
			in := e.srv.Click("olga", ch.ID, buttonFor(t, ch, "accept"))
			if _, err := e.srv.WaitCallback(e.ctx, in); err != nil {
				t.Fatal(err)
			}
			var thread string
			if err := e.srv.Wait(e.ctx, func() bool {
				for _, c := range e.srv.Threads(e.srv.Channel("general").ID) {
					thread = c.ID
					return len(e.srv.Messages(thread)) > 0
				}
				return false
			}); err != nil {
				t.Fatalf("no game thread: %v", err)
			}
			for _, mv := range [][2]string{{"ivan", "Cf3"}, {"olga", "d5"}, {"ivan", "Ah3"}, {"olga", "e2e5"}, {"olga", "Nd7"}, {"ivan", "Ae6#"}} {
				read = append(read, e.answer(e.srv.Command(mv[0], thread, "move", discordtest.Opt{Name: "move", Value: mv[1]})))
			}
			read = append(read, e.answer(e.srv.Command("ivan", thread, "board")), e.answer(e.srv.Command("olga", "general", "games")))
			if err := e.srv.Wait(e.ctx, func() bool {
				return slices.ContainsFunc(e.srv.Messages(thread), func(m *discordtest.Message) bool { return strings.Contains(text(m), "Ae6#") })
			}); err != nil {
				t.Logf("waiting for the game's end in the thread: %v", err)
			}
			e.svc.Idle()
			for _, c := range []string{e.srv.Channel("general").ID, thread, e.srv.DMChannel("ivan"), e.srv.DMChannel("olga")} {
				read = append(read, e.srv.Messages(c)...)
			}
			var left []string
			for _, m := range read {
				for _, line := range everything(m) {
					if w := i18ntest.EnglishLeft(line); len(w) > 0 {
						left = append(left, fmt.Sprintf("%q in: %s", w, line))
					}
				}
			}
			if len(read) < 10 {
				t.Errorf("only %d messages read", len(read))
			}
			if len(left) > 0 {
				t.Errorf("%d lines with English in %s:\n%s", len(left), locale, strings.Join(left, "\n"))
			}
		})
	}
}
