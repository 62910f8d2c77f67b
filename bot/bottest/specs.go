package bottest

import (
	"testing"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/bot/words"
)

// CheckSpec compares a command's spec with its feature's catalogue c, subcommands
// and all: the English names, descriptions and choices are the spec's own, every
// one is localised in every language, and no language gives two options of the
// command one name, or an option another option's English name.
func CheckSpec(t testing.TB, c *i18n.Catalogue, spec bot.CommandSpec) {
	t.Helper()
	en := c.For(i18n.English)
	same := func(key, want string) {
		t.Helper()
		if got := en.T(key, nil); got != want {
			t.Errorf("%s: the catalogue says %q, the spec %q", key, got, want)
		}
	}
	localised := func(what string, names, descs bot.Texts) {
		t.Helper()
		if len(names) != len(i18n.Langs)-1 || len(descs) != len(i18n.Langs)-1 {
			t.Errorf("%s is not localised in every language: %v %v", what, names, descs)
		}
	}
	var walk func(key string, sc bot.CommandSpec)
	options := map[i18n.Lang]map[string]string{} // a language's option names: local name -> English name
	english := map[string]bool{}
	walk = func(key string, sc bot.CommandSpec) {
		same(key+".name", sc.Name)
		same(key+".desc", sc.Description)
		localised(key, sc.NameIn, sc.DescriptionIn)
		for _, o := range sc.Options {
			ok := key + ".option." + o.Name
			same(ok+".name", o.Name)
			same(ok+".desc", o.Description)
			localised(ok, o.NameIn, o.DescriptionIn)
			english[o.Name] = true
			for l, n := range o.NameIn {
				if options[l] == nil {
					options[l] = map[string]string{}
				}
				if other, ok := options[l][n]; ok && other != o.Name {
					t.Errorf("%s: %s names both %s and %s %q", spec.Name, l, other, o.Name, n)
				}
				options[l][n] = o.Name
			}
			for _, ch := range o.Choices {
				if o.Name == "variant" && !words.Catalogue.Has("variant."+ch.Value) {
					continue // a test's toy variant
				}
				same(ok+".choice."+ch.Value, ch.Name)
				if len(ch.NameIn) != len(i18n.Langs)-1 {
					t.Errorf("%s choice %s is not localised in every language: %v", ok, ch.Value, ch.NameIn)
				}
			}
		}
		for _, sub := range sc.Subcommands {
			walk(key+"."+sub.Name, sub)
		}
	}
	walk("command."+spec.Name, spec)
	for l, names := range options {
		for n, en := range names {
			if english[n] && n != en {
				t.Errorf("%s: %s names option %s %q, another option's English name", spec.Name, l, en, n)
			}
		}
	}
}
