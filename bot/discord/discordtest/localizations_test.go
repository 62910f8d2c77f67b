package discordtest

import (
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// Localised names follow the rules of names, their keys are Discord's locales, and
// a command's length counts the longest translation of each text: the fake
// refuses each as Discord would.
func TestCommandLocalizations(t *testing.T) {
	t.Parallel()
	rec := &recorder{TB: t}
	srv := New(rec, Config{})
	ds := open(t, srv)
	app, guild := srv.ApplicationID(), srv.Guild().ID
	loc := func(m map[discordgo.Locale]string) *map[discordgo.Locale]string { return &m }
	ok := []*discordgo.ApplicationCommand{{Name: "help", Description: "The commands",
		NameLocalizations:        loc(map[discordgo.Locale]string{"de": "hilfe", "ru": "помощь", "es-419": "ayuda"}),
		DescriptionLocalizations: loc(map[discordgo.Locale]string{"de": "Die Befehle"}),
		Options: []*discordgo.ApplicationCommandOption{{Type: discordgo.ApplicationCommandOptionString, Name: "command", Description: "One command",
			NameLocalizations: map[discordgo.Locale]string{"fr": "commande"},
			Choices: []*discordgo.ApplicationCommandOptionChoice{{Name: "Both", Value: "both",
				NameLocalizations: map[discordgo.Locale]string{"de": "Beide (Thread und Direktnachricht)"}}}}}}}
	if _, err := ds.ApplicationCommandBulkOverwrite(app, guild, ok); err != nil {
		t.Fatalf("valid localisations refused: %v; %q", err, rec.reported())
	}
	if len(rec.reported()) != 0 {
		t.Fatalf("valid localisations reported: %q", rec.reported())
	}
	for _, c := range []struct {
		name string
		cmd  *discordgo.ApplicationCommand
		want []string
	}{
		{"upper-case name", &discordgo.ApplicationCommand{Name: "help", Description: "x",
			NameLocalizations: loc(map[discordgo.Locale]string{"de": "Hilfe"})}, []string{`"/0/name_localizations/de"`, "not a valid command"}},
		{"space in an option name", &discordgo.ApplicationCommand{Name: "help", Description: "x",
			Options: []*discordgo.ApplicationCommandOption{{Type: discordgo.ApplicationCommandOptionString, Name: "command", Description: "y",
				NameLocalizations: map[discordgo.Locale]string{"fr": "la commande"}}}}, []string{`"/0/options/0/name_localizations/fr"`, "not a valid command"}},
		{"unknown locale", &discordgo.ApplicationCommand{Name: "help", Description: "x",
			NameLocalizations: loc(map[discordgo.Locale]string{"es": "ayuda"})}, []string{`"/0/name_localizations/es"`, "not one of Discord's locales"}},
		{"longest translation over 8000", longCommand(), []string{"Discord allows 8000"}},
	} {
		before := len(rec.reported())
		_, err := ds.ApplicationCommandBulkOverwrite(app, guild, []*discordgo.ApplicationCommand{c.cmd})
		if restCode(err) != discordgo.ErrCodeInvalidFormBody {
			t.Errorf("%s: %v, want 50035", c.name, err)
		}
		if !rec.mentionsAfter(before, c.want...) {
			t.Errorf("%s: not reported as %q: %q", c.name, c.want, rec.reported()[before:])
		}
	}
}

// longCommand is a command whose English fits in 8,000 characters (about 1,500)
// and whose longest translations do not (about 11,000): 25 options of 20-character
// names and descriptions, ten one-letter choices each, with German descriptions of
// 100 characters and German choice names of 32.
func longCommand() *discordgo.ApplicationCommand {
	c := &discordgo.ApplicationCommand{Name: "long", Description: "x"}
	for i := 0; i < 25; i++ {
		o := &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: "o" + strings.Repeat(string(rune('a'+i%26)), 19),
			Description: strings.Repeat("d", 20), DescriptionLocalizations: map[discordgo.Locale]string{"de": strings.Repeat("ä", 100)}}
		for j := 0; j < 10; j++ {
			o.Choices = append(o.Choices, &discordgo.ApplicationCommandOptionChoice{Name: "c", Value: string(rune('a' + j)),
				NameLocalizations: map[discordgo.Locale]string{"de": strings.Repeat("w", 32)}})
		}
		c.Options = append(c.Options, o)
	}
	return c
}

// Two commands, or two options of one command, that a client of one locale would
// see under one name are refused, and nothing is registered.
func TestLocalizedNamesUnique(t *testing.T) {
	t.Parallel()
	rec := &recorder{TB: t}
	srv := New(rec, Config{})
	ds := open(t, srv)
	app, guild := srv.ApplicationID(), srv.Guild().ID
	loc := func(m map[discordgo.Locale]string) *map[discordgo.Locale]string { return &m }
	for _, c := range []struct {
		name string
		cmds []*discordgo.ApplicationCommand
		want string
	}{
		{"two commands", []*discordgo.ApplicationCommand{
			{Name: "move", Description: "Move", NameLocalizations: loc(map[discordgo.Locale]string{"de": "zug"})},
			{Name: "history", Description: "History", NameLocalizations: loc(map[discordgo.Locale]string{"de": "zug"})},
		}, `both called "zug"`},
		{"a localised name and another's English", []*discordgo.ApplicationCommand{
			{Name: "move", Description: "Move", NameLocalizations: loc(map[discordgo.Locale]string{"de": "zug"})},
			{Name: "zug", Description: "Another"},
		}, `both called "zug"`},
		{"two options", []*discordgo.ApplicationCommand{{Name: "move", Description: "Move", Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionString, Name: "game", Description: "Game", NameLocalizations: map[discordgo.Locale]string{"fr": "coup"}},
			{Type: discordgo.ApplicationCommandOptionString, Name: "move", Description: "Move", NameLocalizations: map[discordgo.Locale]string{"fr": "coup"}},
		}}}, `both called "coup"`},
	} {
		before := len(rec.reported())
		_, err := ds.ApplicationCommandBulkOverwrite(app, guild, c.cmds)
		if restCode(err) != discordgo.ErrCodeInvalidFormBody {
			t.Errorf("%s: %v, want 50035", c.name, err)
		}
		if !rec.mentionsAfter(before, c.want) {
			t.Errorf("%s: not reported as %q: %q", c.name, c.want, rec.reported()[before:])
		}
	}
}
