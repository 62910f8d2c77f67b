package features_test

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/bottest"
	_ "github.com/missivechess/missive/bot/console" // its catalogue too
	_ "github.com/missivechess/missive/bot/discord" // its catalogue too
	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/bot/i18n/i18ntest"
	"github.com/missivechess/missive/bot/web"
)

// consoleOnly are the console's own commands (bot/console), which sentences of the
// console may name.
var consoleOnly = []string{"as", "whoami", "wait", "quit", "exit", "yes", "no"}

// mentionOf finds a command a sentence names, with the words after it.
var mentionOf = regexp.MustCompile(`(?:^|[\s(«„“"'\x60*_\[])/([a-z][a-z_-]*)((?: [a-z_-]+(?::[^\s,;)]*)?)*)`)

// Every command, subcommand and option a sentence of any catalogue names, in any
// language, is one the service has: the sentence names it in English and the
// reader's language writes it as their clients show it (i18n.Commands), so a name
// that does not exist would send a player to nothing.
func TestSentencesNameCommandsThatExist(t *testing.T) {
	w, err := web.New(web.Options{Public: "https://missive.example.org"}) // its /web command too
	if err != nil {
		t.Fatal(err)
	}
	h := bottest.New(t, w.Feature)
	checked := 0
	for _, c := range i18n.Catalogues() {
		for _, l := range i18n.Langs {
			for id, texts := range c.Messages(l) {
				if strings.HasPrefix(id, "command.") {
					continue
				}
				for _, text := range texts {
					for _, m := range mentionOf.FindAllStringSubmatch(text, -1) {
						checked++
						if p := mentionProblem(h.Svc, c.Name(), m[1], strings.Fields(m[2])); p != "" {
							t.Errorf("%s %s %s: %s in %q", c.Name(), l, id, p, text)
						}
					}
				}
			}
		}
	}
	if checked < 50 {
		t.Fatalf("only %d command mentions found", checked)
	}
}

// mentionProblem says what in a mention of /cmd with the words after it the
// service does not have; "" when it has all of it.
func mentionProblem(svc *bot.Service, catalogue, cmd string, words []string) string {
	spec, ok := svc.Spec(cmd)
	if !ok {
		if catalogue == "console" && slices.Contains(consoleOnly, cmd) {
			return ""
		}
		return "/" + cmd + " is no command"
	}
	options := spec.Options
	for i, w := range words {
		name, _, isOpt := strings.Cut(w, ":")
		if !isOpt {
			if i == 0 && len(spec.Subcommands) > 0 {
				j := slices.IndexFunc(spec.Subcommands, func(s bot.CommandSpec) bool { return s.Name == w })
				if j >= 0 {
					options = spec.Subcommands[j].Options
					continue
				}
			}
			return "" // prose after the mention
		}
		if name == bot.SubcommandArg && len(spec.Subcommands) > 0 {
			continue
		}
		if !slices.ContainsFunc(options, func(o bot.OptionSpec) bool { return o.Name == name }) {
			return "/" + cmd + " has no option " + name
		}
	}
	return ""
}

// Every catalogue of the program (each feature's, the kernel's, the rules', the
// words', the console's) has every message in every language, with the English
// placeholders and plural forms, within Discord's limits; and there are as many as
// the packages that speak to players.
func TestEveryCatalogue(t *testing.T) {
	cats := i18n.Catalogues()
	names := map[string]bool{}
	for _, c := range cats {
		names[c.Name()] = true
		i18ntest.Check(t, c)
	}
	for _, want := range []string{"bot", "rules", "words", "clock", "guide", "views", "play", "challenges", "settings",
		"tournaments", "ratings", "matches", "review", "privacy", "web", "console", "discord"} {
		if !names[want] {
			t.Errorf("no catalogue %q among %v", want, names)
		}
	}
}

// Every command Missive registers (the web page's too) is localised in every
// language from its feature's catalogue, whose English is the spec's own
// (bottest.CheckSpec).
func TestEveryCommandLocalised(t *testing.T) {
	w, err := web.New(web.Options{Public: "https://missive.example.org"})
	if err != nil {
		t.Fatal(err)
	}
	h := bottest.New(t, w.Feature)
	for _, spec := range h.Svc.Commands() {
		if spec.Button {
			continue
		}
		i := slices.IndexFunc(i18n.Catalogues(), func(c *i18n.Catalogue) bool { return c.Has("command." + spec.Name + ".name") })
		if i < 0 {
			t.Errorf("/%s is in no catalogue", spec.Name)
			continue
		}
		bottest.CheckSpec(t, i18n.Catalogues()[i], spec)
	}
}
