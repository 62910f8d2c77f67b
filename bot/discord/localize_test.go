package discord

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/discord/discordtest"
	"github.com/missivechess/missive/bot/features"
	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/rules/variants"
	"github.com/missivechess/missive/storage"
)

// Every command of the bot registers within Discord's limits, checked by the fake
// against Discord's API description and rules, with a demonstration localisation
// in each language Missive speaks: each name with a suffix of its language (a
// longer name), each description and choice a third longer than the English, the
// German long words of a real translation. What a real catalogue translates (the
// guide's) is kept.
func TestAllCommandsRegisterLocalised(t *testing.T) {
	srv := discordtest.New(t, discordtest.Config{}) // a refusal fails t
	reg := variants.Registry()
	st, err := storage.Open(filepath.Join(t.TempDir(), "bot.db"), reg, &storage.Options{NoSync: true, NoBackupSocket: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	svc, err := bot.New(features.With(bot.Config{Store: st, Registry: reg, Renderer: bot.NewRenderer()}, features.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	var specs []bot.CommandSpec
	for _, c := range svc.Commands() {
		specs = append(specs, demoLocalize(c))
	}
	ds := srv.NewSession()
	if _, err := bulkOverwriteCommands(ds, srv.ApplicationID(), "", ApplicationCommands(specs)); err != nil {
		t.Fatalf("the localised commands were refused: %v\n%s", err, strings.Join(srv.Failures(), "\n"))
	}
	got := srv.Commands("")
	if len(got) == 0 {
		t.Fatal("nothing registered")
	}
	raw, _ := json.Marshal(got[0].Raw)
	for _, loc := range []string{"de", "fr", "es-ES", "es-419", "pt-BR", "ru"} {
		if !strings.Contains(string(raw), `"`+loc+`"`) {
			t.Errorf("the first command has no %s localisation: %s", loc, raw)
		}
	}
}

// demoLocalize gives c, its options, choices and subcommands a demonstration text in
// each language its catalogue does not translate.
func demoLocalize(c bot.CommandSpec) bot.CommandSpec {
	c.NameIn, c.DescriptionIn = demoName(c.NameIn, c.Name), demoText(c.DescriptionIn, c.Description)
	for i, o := range c.Options {
		o.NameIn, o.DescriptionIn = demoName(o.NameIn, o.Name), demoText(o.DescriptionIn, o.Description)
		for j, ch := range o.Choices {
			ch.NameIn = demoText(ch.NameIn, ch.Name)
			o.Choices[j] = ch
		}
		c.Options[i] = o
	}
	for i, sc := range c.Subcommands {
		c.Subcommands[i] = demoLocalize(sc)
	}
	return c
}

func demoName(t bot.Texts, name string) bot.Texts {
	out := bot.Texts{}
	for _, l := range i18n.Langs[1:] {
		s := name + "-" + strings.ToLower(string(l))
		if r := []rune(s); len(r) > 32 {
			s = string(r[:32])
		}
		out[l] = t.In(l, s)
	}
	return out
}

func demoText(t bot.Texts, text string) bot.Texts {
	out := bot.Texts{}
	for _, l := range i18n.Langs[1:] {
		n := len([]rune(text))
		s := text + " " + strings.Repeat("ü", n/3)
		if r := []rune(s); len(r) > 100 {
			s = string(r[:100])
		}
		out[l] = t.In(l, s)
	}
	return out
}
