package discord

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/i18n"
)

func TestMessageRespectsDiscordLimits(t *testing.T) {
	r := bot.Reply{Title: "Standings", Text: strings.Repeat("a", 4000)}
	for i := range 25 {
		r.Fields = append(r.Fields, bot.Field{Name: fmt.Sprint("Player ", i), Value: strings.Repeat("b", 1000)})
	}
	for i := range 30 {
		r.Actions = append(r.Actions, bot.Action{Label: fmt.Sprint("B", i), Command: "board", Args: bot.Args{"game": fmt.Sprint(i)}})
	}
	r.Choice = &bot.Choice{Command: "move", Arg: "move", Options: []bot.ChoiceOption{{Label: "e4", Value: "e4"}}}
	m := message(r)
	if n := embedLength(m.embeds[0]); n > maxEmbedTotal {
		t.Errorf("embed of %d characters", n)
	}
	if e := m.embeds[0]; !strings.HasSuffix(e.Description, shortened[1:]) || len(e.Fields) == 0 || len(e.Fields) == 25 {
		t.Errorf("shortened embed: %d fields, description ends %q", len(e.Fields), e.Description[max(0, len(e.Description)-80):])
	}
	if len(m.components) != maxActionRows {
		t.Fatalf("%d action rows", len(m.components))
	}
	if _, ok := m.components[4].(discordgo.ActionsRow).Components[0].(discordgo.SelectMenu); !ok {
		t.Errorf("the select menu lost its row: %+v", m.components[4])
	}
	// A short reply is left alone.
	if m := message(bot.Reply{Title: "t", Text: "short"}); m.embeds[0].Description != "short" {
		t.Errorf("short description changed: %q", m.embeds[0].Description)
	}
}

func TestClassify(t *testing.T) {
	rest := func(status, code int) error {
		return &discordgo.RESTError{Response: &http.Response{StatusCode: status}, Message: &discordgo.APIErrorMessage{Code: code}}
	}
	for _, c := range []struct {
		err       error
		kind      FailureKind
		transient bool
	}{
		{rest(429, 0), FailRateLimited, true},
		{&discordgo.RateLimitError{RateLimit: &discordgo.RateLimit{TooManyRequests: &discordgo.TooManyRequests{}}}, FailRateLimited, true},
		{rest(500, 0), FailServer, true},
		{rest(503, 0), FailServer, true},
		{fmt.Errorf("wrapped: %w", errors.New("connection reset by peer")), FailNetwork, true},
		{rest(404, 10003), FailUnknownChannel, false},
		{rest(403, 50001), FailMissingAccess, false},
		{rest(403, 50013), FailMissingPermissions, false},
		{rest(403, 50007), FailDMClosed, false},
		{rest(400, 50083), FailThreadArchived, false},
		{rest(400, 160005), FailThreadLocked, false},
		{rest(400, 160006), FailThreadCap, false},
		{rest(400, 40058), FailForumChannel, false},
		{rest(404, 10062), FailInteractionExpired, false},
		{rest(401, 50027), FailInteractionExpired, false},
		{rest(400, 50035), FailRefused, false},
		{fmt.Errorf("posting: %w", errForum), FailForumChannel, false},
	} {
		kind, transient := Classify(c.err)
		if kind != c.kind || transient != c.transient || Transient(c.err) != c.transient {
			t.Errorf("Classify(%v) = %s, %v; want %s, %v", c.err, kind, transient, c.kind, c.transient)
		}
	}
}

// A message cut to fit says so in the language it is written in (Reply.Lang);
// English, or no language, keeps the English note.
func TestShortenedInTheMessagesLanguage(t *testing.T) {
	long := bot.Reply{Title: "Tabelle", Text: strings.Repeat("ä", 4000)}
	for i := range 25 {
		long.Fields = append(long.Fields, bot.Field{Name: fmt.Sprint("Spieler ", i), Value: strings.Repeat("b", 1000)})
	}
	for l, want := range map[i18n.Lang]string{
		"":           shortened[1:],
		i18n.English: shortened[1:],
		i18n.German:  "… (gekürzt: Discord zeigt höchstens 6.000 Zeichen in einer Nachricht)",
		i18n.Russian: "… (сокращено: Discord показывает не больше 6000 символов в одном сообщении)",
	} {
		r := long
		r.Lang = l
		e := message(r).embeds[0]
		if n := embedLength(e); n > maxEmbedTotal {
			t.Errorf("%q: embed of %d characters", l, n)
		}
		if !strings.HasSuffix(e.Description, "\n"+want) {
			t.Errorf("%q: the description ends %q", l, e.Description[max(0, len(e.Description)-120):])
		}
	}
	if got := catalogue.For(i18n.English).T("shortened", nil); "\n"+got != shortened {
		t.Errorf("the catalogue's English %q is not the adapter's %q", got, shortened)
	}
}
