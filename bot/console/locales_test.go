package console

import (
	"strings"
	"testing"

	"github.com/missivechess/missive/bot/i18n/i18ntest"
)

// The console's catalogue has every line in every language, with the English
// placeholders.
func TestCatalogue(t *testing.T) { i18ntest.Check(t, catalogue) }

// consoleScript has the console say its own lines: who you are, the clock, its
// refusals, /help of its commands, a button line, a notification's header, a file,
// a question and its answer, a private reply.
const consoleScript = `/as bob
/whoami
/wait 1h
/wait x
/as
/help wait
/nosuch
foo bar
/move "x
/challenge variant:gothic opponent:alice color:white
/as alice
/accept
resign
no
/games
/as bob
/move e2e4
/wait 50h
`

// A German and a Russian console print their own lines in German and Russian, and
// none in English; the English console prints them as before.
func TestConsoleLinesInGermanAndRussian(t *testing.T) {
	english := []string{"You are now", "You are bob", "The clock moves on", "[refused]", "Say who you are", "is not a duration",
		"There is no command", "I cannot read", "a quote is not closed", "Buttons:", ">> to ", "[picture]", "Resign your game?",
		"Not done:", "[only you see this]", "Move the clock on"}
	for _, c := range []struct {
		locale string
		want   []string
	}{
		{"en-US", english},
		{"de", []string{"Du bist jetzt bob.", "Du bist bob.", "Die Uhr rückt um 1h vor, auf Mo., 3. März 13:00 UTC.", `[abgelehnt] "x" ist keine Dauer wie 3d, 25h oder 90m`,
			"[abgelehnt] Sag mit /als NAME, wer du bist", "/warten 3d\n  Stellt die Uhr", "[abgelehnt] Es gibt keinen Befehl /nosuch; /hilfe zeigt alle.",
			`[abgelehnt] Ich kann "foo bar" nicht lesen`, "[abgelehnt] ein Anführungszeichen ist nicht geschlossen", "Knöpfe: ", ">> an alice (Erwähnung, Erinnerung):",
			"[Bild] <dir>/files/", "Deine Partie aufgeben? Antworte mit ja", "Nicht ausgeführt: /", "[nur für dich sichtbar] "}},
		{"ru", []string{"Теперь вы — bob.", "Вы — bob.", "Часы переведены вперёд на 1h", `[отказано] "x" — не длительность`,
			"[отказано] Скажите, кто вы, командой /как ИМЯ", "/ждать 3d\n  Переводит часы", "[отказано] Команды /nosuch нет; /помощь покажет все.",
			`[отказано] Не удаётся прочитать "foo bar"`, "[отказано] кавычка не закрыта", "Кнопки: ", ">> для alice (упоминание, напоминание):",
			"[изображение] <dir>/files/", "Сдаться в вашей партии? Ответьте «да»", "Не выполнено: /", "[видно только вам] "}},
	} {
		s := newSession(t)
		s.con.locale = c.locale
		out := s.run(consoleScript)
		for _, want := range c.want {
			if !strings.Contains(out, want) {
				t.Errorf("%s: the console does not say %q:\n%s", c.locale, want, out)
			}
		}
		if c.locale == "en-US" {
			continue
		}
		for _, en := range english {
			if strings.Contains(out, en) {
				t.Errorf("%s: the console says %q in English:\n%s", c.locale, en, out)
			}
		}
	}
}
