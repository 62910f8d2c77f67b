package i18n_test

import (
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/missivechess/missive/bot/i18n"
)

// files returns a catalogue's files: en's text, and the others' by language.
func files(t *testing.T, byLang map[string]string) *i18n.Catalogue {
	t.Helper()
	fsys := fstest.MapFS{}
	for l, text := range byLang {
		fsys["locales/active."+l+".yaml"] = &fstest.MapFile{Data: []byte(text)}
	}
	c, err := i18n.Load("demo", fsys)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// good is a complete catalogue: a plain message and a plural one in every language.
var good = map[string]string{
	"en":    "hello: \"Hello, {{.Name}}.\"\ngames:\n  one: \"{{.Count}} game\"\n  other: \"{{.Count}} games\"\n",
	"de":    "hello: \"Hallo, {{.Name}}.\"\ngames:\n  one: \"{{.Count}} Partie\"\n  other: \"{{.Count}} Partien\"\n",
	"fr":    "hello: \"Bonjour, {{.Name}}.\"\ngames:\n  one: \"{{.Count}} partie\"\n  many: \"{{.Count}} de parties\"\n  other: \"{{.Count}} parties\"\n",
	"es":    "hello: \"Hola, {{.Name}}.\"\ngames:\n  one: \"{{.Count}} partida\"\n  many: \"{{.Count}} de partidas\"\n  other: \"{{.Count}} partidas\"\n",
	"pt-BR": "hello: \"Olá, {{.Name}}.\"\ngames:\n  one: \"{{.Count}} partida\"\n  many: \"{{.Count}} de partidas\"\n  other: \"{{.Count}} partidas\"\n",
	"ru":    "hello: \"Здравствуйте, {{.Name}}.\"\ngames:\n  one: \"{{.Count}} партия\"\n  few: \"{{.Count}} партии\"\n  many: \"{{.Count}} партий\"\n  other: \"{{.Count}} партии\"\n",
}

func with(lang, text string) map[string]string {
	out := map[string]string{}
	for k, v := range good {
		out[k] = v
	}
	if text == "" {
		delete(out, lang)
	} else {
		out[lang] = text
	}
	return out
}

// withAll is good with extra added to every language, and the languages of byLang
// given their own text instead.
func withAll(extra string, byLang map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range good {
		out[k] = v + extra
		if t, ok := byLang[k]; ok {
			out[k] = v + t
		}
	}
	return out
}

func TestCompleteCatalogueHasNoProblems(t *testing.T) {
	if p := files(t, good).Problems(); p != nil {
		t.Fatalf("problems in a complete catalogue: %q", p)
	}
}

// Each kind of fault is found, and named.
func TestCatalogueProblems(t *testing.T) {
	for _, c := range []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"missing language", with("ru", ""), "no catalogue for ru"},
		{"missing key", with("de", "games:\n  one: \"{{.Count}} Partie\"\n  other: \"{{.Count}} Partien\"\n"), "de lacks hello"},
		{"extra key", with("fr", good["fr"]+"bye: \"Au revoir\"\n"), "fr has bye, which the English does not"},
		{"placeholder renamed", with("es", strings.Replace(good["es"], "{{.Name}}", "{{.Nombre}}", 1)), "es's hello has placeholders [Nombre], the English [Name]"},
		{"placeholder dropped", with("pt-BR", strings.Replace(good["pt-BR"], ", {{.Name}}", "", 1)), "pt-BR's hello has placeholders [], the English [Name]"},
		{"plural form missing", with("ru", strings.Replace(good["ru"], "  few: \"{{.Count}} партии\"\n", "", 1)), "ru's games with count 2"},
		{"unknown language", with("xx", "hello: \"x\"\n"), "active.xx.yaml is not a language Missive speaks"},
		{"command name Discord refuses", withAll("command.help.name: \"help\"\n", map[string]string{"de": "command.help.name: \"Hilfe anzeigen\"\n"}),
			`de's command.help.name "Hilfe anzeigen" is not a name Discord takes`},
		{"command description too long", withAll("command.help.desc: \"Help\"\n", map[string]string{"fr": "command.help.desc: \"" + strings.Repeat("é", 101) + "\"\n"}),
			"fr's command.help.desc has 101 characters"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := files(t, c.files).Problems()
			if !slices.ContainsFunc(p, func(s string) bool { return strings.Contains(s, c.want) }) {
				t.Errorf("problems %q lack %q", p, c.want)
			}
		})
	}
}

// The plural forms follow CLDR as the glossaries' examples give them (go-i18n's
// tables, CLDR 45+: French, Spanish and Portuguese have many for whole millions).
func TestPluralForms(t *testing.T) {
	c := files(t, good)
	for _, tc := range []struct {
		lang  i18n.Lang
		count any
		want  string
	}{
		{i18n.English, 1, "1 game"}, {i18n.English, 0, "0 games"}, {i18n.English, "1.5", "1.5 games"},
		{i18n.German, 1, "1 Partie"}, {i18n.German, 21, "21 Partien"},
		{i18n.French, 0, "0 partie"}, {i18n.French, "1.5", "1.5 partie"}, {i18n.French, 2, "2 parties"}, {i18n.French, 1000000, "1000000 de parties"},
		{i18n.Spanish, 1, "1 partida"}, {i18n.Spanish, 0, "0 partidas"},
		{i18n.Portuguese, 0, "0 partida"}, {i18n.Portuguese, 1, "1 partida"}, {i18n.Portuguese, 2, "2 partidas"},
		{i18n.Russian, 1, "1 партия"}, {i18n.Russian, 21, "21 партия"}, {i18n.Russian, 2, "2 партии"}, {i18n.Russian, 22, "22 партии"},
		{i18n.Russian, 5, "5 партий"}, {i18n.Russian, 11, "11 партий"}, {i18n.Russian, 0, "0 партий"}, {i18n.Russian, "1.5", "1.5 партии"},
	} {
		if got := c.For(tc.lang).N("games", tc.count, nil); got != tc.want {
			t.Errorf("%s with %v: %q, want %q", tc.lang, tc.count, got, tc.want)
		}
	}
}

// A language without a message reads it in English; Own says it has none.
func TestFallbackToEnglish(t *testing.T) {
	c := files(t, with("de", "games:\n  one: \"{{.Count}} Partie\"\n  other: \"{{.Count}} Partien\"\n"))
	if got := c.For(i18n.German).T("hello", i18n.Data{"Name": "Bob"}); got != "Hello, Bob." {
		t.Errorf("German without hello: %q", got)
	}
	if _, ok := c.For(i18n.German).Own("hello"); ok {
		t.Error("Own found a German hello")
	}
	if s, ok := c.For(i18n.Russian).Own("hello"); !ok || !strings.HasPrefix(s, "Здравствуйте") {
		t.Errorf("Own in Russian: %q %v", s, ok)
	}
	if got := c.For(i18n.French).T("nosuch", nil); got != "nosuch" {
		t.Errorf("an unknown message: %q", got)
	}
}

func TestParseDiscordLocales(t *testing.T) {
	for code, want := range map[string]i18n.Lang{
		"en-US": i18n.English, "en-GB": i18n.English, "de": i18n.German, "fr": i18n.French,
		"es-ES": i18n.Spanish, "es-419": i18n.Spanish, "pt-BR": i18n.Portuguese, "ru": i18n.Russian,
		"PT-br": i18n.Portuguese, "es": i18n.Spanish, "ja": i18n.English, "": i18n.English, "xx-YY": i18n.English,
	} {
		if got := i18n.Of(code); got != want {
			t.Errorf("Of(%q) = %q, want %q", code, got, want)
		}
	}
	if _, ok := i18n.Parse("ja"); ok {
		t.Error("Parse accepted ja")
	}
	for _, in := range []string{"de", "ES-419", "en-US"} {
		if l := i18n.MetricLabel(in); strings.ToLower(l) != strings.ToLower(in) {
			t.Errorf("MetricLabel(%q) = %q", in, l)
		}
	}
	if i18n.MetricLabel("x-evil\n") != "other" || i18n.MetricLabel("") != "none" {
		t.Error("MetricLabel lets an unknown code through")
	}
}
