package discord

import (
	"testing"

	"github.com/bwmarrin/discordgo"
)

func TestMentionCommands(t *testing.T) {
	ids := idsOf([]*discordgo.ApplicationCommand{
		{ID: "11", Name: "move"},
		{ID: "12", Name: "accept"},
		{ID: "13", Name: "help"},
		{ID: "14", Name: "tournament", Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionSubCommand, Name: "create"},
			{Type: discordgo.ApplicationCommandOptionSubCommand, Name: "join"},
		}},
		{Name: "unregistered"}, // no id: not mentioned
	})
	for in, want := range map[string]string{
		"Make a move with /move.":                         "Make a move with </move:11>.",
		"Accept with /accept challenge:3.":                "Accept with </accept:12> challenge:3.",
		"/help lists them; (/move) too":                   "</help:13> lists them; (</move:11>) too",
		"Join with /tournament join.":                     "Join with </tournament join:14>.",
		"Say /tournament action:create name:x":            "Say </tournament create:14> name:x",
		"Say what to do: /tournament.":                    "Say what to do: /tournament.",
		"There is no /frobnicate, nor /unregistered.":     "There is no /frobnicate, nor /unregistered.",
		"PGN is image/png and 1/172800, https://x.y/move": "PGN is image/png and 1/172800, https://x.y/move",
		"Type `/move e2e4` or /move.":                     "Type `/move e2e4` or </move:11>.",
		"```\n/move inside a block\n``` then /move":       "```\n/move inside a block\n``` then </move:11>",
	} {
		if got := mentionCommands(in, ids); got != want {
			t.Errorf("mentionCommands(%q)\n got %q\nwant %q", in, got, want)
		}
	}
	if got := mentionCommands("/movement is not /move", ids); got != "/movement is not </move:11>" {
		t.Errorf("a longer word was taken for a command: %q", got)
	}
	if got := mentionCommands("/move", nil); got != "/move" {
		t.Errorf("without ids: %q", got)
	}
}
