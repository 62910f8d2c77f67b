package console

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/missivechess/missive/bot/i18n"
)

// englishWords are words of English prose that none of the other languages uses: a
// line of the guide's /help in another language with one of them has English left.
var englishWords = []string{"the", "and", "your", "you", "with", "how", "play", "games", "game", "opponent", "lists", "shows",
	"while", "after", "such", "each", "there", "is", "are", "of", "to", "moves", "written", "commands", "explains"}

// notation strips what is not prose from a line: commands (/move), options typed
// name:value, code in backticks.
var notation = regexp.MustCompile("`[^`]*`|/[^\\s,;.()]+|\\S+:\\S+")

// englishIn returns the English words of text, beyond names and notation.
func englishIn(text string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(notation.ReplaceAllString(text, " "), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r > 127 && r != '\u202f')
	}) {
		if slices.Contains(englishWords, strings.ToLower(w)) {
			out = append(out, w)
		}
	}
	return out
}

// howToPlay is the heading of /help's guide to play in each language.
var howToPlay = map[i18n.Lang]string{i18n.German: "So wird gespielt", i18n.French: "Comment jouer", i18n.Spanish: "Cómo jugar",
	i18n.Portuguese: "Como jogar", i18n.Russian: "Как играть"}

// /help, asked in the console with --locale in each language Missive speaks, has no
// English sentence left in what the guide and the console say: its title, its guide
// to play, the notation sentence, the descriptions of its own commands, and the
// console's own commands and lines. (The descriptions of the other packages'
// commands are English until their catalogues exist: docs/i18n/README.md.) In
// English the same check finds the English, so that it can fail.
func TestHelpInEachLanguage(t *testing.T) {
	s := newSession(t)
	guideCmds := map[string]bool{"help": true, "rules": true}
	for _, locale := range []string{"en-US", "de", "fr", "es-ES", "es-419", "pt-BR", "ru"} {
		s.con.locale = locale
		out := s.line("/help")
		lang := i18n.Of(locale)
		guideText, consoleText, ok := strings.Cut(out, catalogue.For(lang).T("help.options", nil))
		if !ok {
			t.Fatalf("%s: /help without the console's lines:\n%s", locale, out)
		}
		var english []string
		for _, line := range strings.Split(guideText+consoleText, "\n") {
			if name, _, isCmd := strings.Cut(strings.TrimPrefix(line, "/"), ":"); strings.HasPrefix(line, "/") && isCmd && !guideCmds[name] {
				continue // another package's command: translated with its catalogue
			}
			english = append(english, englishIn(line)...)
		}
		if lang == i18n.English {
			if len(english) < 20 {
				t.Errorf("the check finds too little English in English: %q", english)
			}
			continue
		}
		if len(english) > 0 {
			t.Errorf("%s: English left in /help: %q\n%s", locale, english, guideText)
		}
		// The guide in the language, with the sentence that notation stays English.
		for _, want := range []string{howToPlay[lang], "exd5"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s: /help lacks %q:\n%s", locale, want, out)
			}
		}
	}
}
