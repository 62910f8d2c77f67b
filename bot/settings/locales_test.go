package settings_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/bottest"
	"github.com/missivechess/missive/bot/i18n/i18ntest"
	"github.com/missivechess/missive/bot/settings"
)

// The settings' catalogue has every message in every language, with the English
// placeholders.
func TestCatalogue(t *testing.T) { i18ntest.Check(t, settings.Catalogue) }

// The English catalogue's names, descriptions and choices of /settings and /leave
// are the specs' own, so that the translations translate what Discord shows in
// English; and each is localised in every language (the languages' own names read
// the same in every language, as Discord's language menu has them).
func TestCatalogueMatchesSpecs(t *testing.T) {
	h := bottest.New(t)
	for _, name := range []string{settings.CmdSettings, settings.CmdLeave} {
		spec, ok := h.Svc.Spec(name)
		if !ok {
			t.Fatalf("no /%s", name)
		}
		bottest.CheckSpec(t, settings.Catalogue, spec)
	}
}

// ask runs line for user with their client in locale.
func ask(h *bottest.Harness, user, locale, line string) bot.Reply {
	h.Seq++
	return h.Run(bot.Request{ID: fmt.Sprintf("req-%d", h.Seq), User: bot.User{ID: user, Name: user}, Locale: locale}, line)
}

// /settings answers a German and a Russian player in their languages, refusals
// too, and names its options as their clients show them; the English is the
// English.
func TestSettingsInEachLanguage(t *testing.T) {
	h := bottest.New(t)
	r := ask(h, "carol", "de", "settings")
	if r.Title != "Deine Einstellungen" || !strings.HasPrefix(r.Text, "Ändere sie mit /einstellungen benachrichtigung:<mention|dm|both> design:<name> erinnerungen:<stunden> übersicht_stunde:<0-23|off> sprache:<auto|en|de|fr|es|pt-BR|ru> (") ||
		!settings.HasField(r, "Benachrichtigungen", "Erwähnung (Standard)") || !settings.HasField(r, "Erinnerungen", "24 Std., 2 Std. vor der Frist (Standard)") ||
		!settings.HasField(r, "Tagesübersicht", "aus") || !settings.HasField(r, "Sprache", "auto: Deutsch") {
		t.Errorf("German settings: %s\n%s\n%+v", r.Title, r.Text, r.Fields)
	}
	r = ask(h, "dave", "ru", "settings notify:dm reminders:12 digest_hour:7")
	if r.Title != "Ваши настройки" || r.Text != "Сохранено." || !settings.HasField(r, "Уведомления", "личное сообщение") ||
		!settings.HasField(r, "Напоминания", "за 12 ч до срока") || !settings.HasField(r, "Ежедневная сводка", "ежедневно в 07:00 UTC") {
		t.Errorf("Russian settings: %s\n%s\n%+v", r.Title, r.Text, r.Fields)
	}
	if r := ask(h, "dave", "ru", "settings notify:loud"); !r.Refused || r.Text != `Опция уведомления принимает mention, dm или both, а не "loud".` {
		t.Errorf("Russian refusal: %+v", r)
	}
	if r := ask(h, "carol", "de", "settings server_language:de"); !r.Refused || !strings.Contains(r.Text, "/einstellungen serversprache:<sprache>") {
		t.Errorf("German refusal: %+v", r)
	}
	r = h.Ok("erin", "settings")
	if r.Title != "Your settings" || !strings.HasPrefix(r.Text, "Change them with /settings notify:<mention|dm|both>") || !settings.HasField(r, "Notifications", "mention (default)") {
		t.Errorf("English settings: %s\n%s\n%+v", r.Title, r.Text, r.Fields)
	}
}

// A German player's leave is answered in German and told to a Russian opponent in
// Russian, its end too; a Russian player's daily digest is in Russian.
func TestLeaveAndDigestInEachLanguage(t *testing.T) {
	h := bottest.New(t) // 3 March 2025, 12:00 UTC
	id := h.Start("gothic", "days:2")
	h.Ok("bob", "settings language:ru notify:dm")
	h.Notes.Take()
	r := ask(h, "alice", "de", "leave action:start days:5")
	if r.Title != "Urlaub" || !strings.HasPrefix(r.Text, "Dein Urlaub dauert bis Sa., 8. März 12:00 UTC (5 Tage). Deine Uhren stehen so lange in allen Partien still (Partie "+id+");") ||
		!strings.Contains(r.Text, "\nUrlaub 2025: bisher genommen weniger als eine Stunde (dieser Urlaub begann heute), übrig 30 Tage, Kontingent 30 Tage") {
		t.Errorf("German leave: %s\n%s", r.Title, r.Text)
	}
	ns := bottest.NoticesOf(h.Notes.Take(), "bob", settings.NoticeLeave)
	if len(ns) != 1 || ns[0].Reply.Title != "Отпуск" || !strings.HasPrefix(ns[0].Reply.Text, "alice: отпуск до сб, 8 мар. 12:00 UTC; в партии "+id+" часы всё это время стоят.") {
		t.Errorf("bob was told %+v", ns)
	}
	if r := ask(h, "alice", "de", "leave action:start days:2"); !r.Refused || !strings.HasPrefix(r.Text, "Du bist schon im Urlaub, bis ") {
		t.Errorf("German refusal: %+v", r)
	}
	h.Clock.Advance(2 * bottest.Day)
	if r := ask(h, "alice", "de", "leave"); !strings.HasPrefix(r.Text, "Du bist im Urlaub bis Sa., 8. März 12:00 UTC (noch 3 T. 0 Std.)") ||
		!strings.Contains(r.Text, "bisher genommen 2 Tage (dieser Urlaub begann Mo., 3. März 12:00 UTC), übrig 28 Tage") {
		t.Errorf("German status: %s", r.Text)
	}
	h.Notes.Take()
	r = ask(h, "alice", "de", "leave action:end")
	if !strings.HasPrefix(r.Text, "Willkommen zurück: dein Urlaub ist beendet; deine Uhr läuft wieder in Partie "+id+".") {
		t.Errorf("German end: %s", r.Text)
	}
	if ns := bottest.NoticesOf(h.Notes.Take(), "bob", settings.NoticeLeave); len(ns) != 1 || !strings.HasPrefix(ns[0].Reply.Text, "alice: отпуск окончен, часы в партии "+id+" снова идут (срок ") {
		t.Errorf("bob was told %+v", ns)
	}

	// bob's digest, once it is his move.
	h.MoveAny(id, "alice")
	h.Ok("bob", "settings digest_hour:7")
	h.Notes.Take()
	h.Clock.Advance(24 * time.Hour)
	h.Tick()
	ns = bottest.NoticesOf(h.Notes.Take(), "bob", settings.NoticeDigest)
	if len(ns) != 1 || ns[0].Reply.Title != "Ваша ежедневная сводка" ||
		!strings.HasPrefix(ns[0].Reply.Text, "Вашего хода ждёт 1 партия, сначала те, где меньше времени:\n№ "+id+" Готические шахматы против alice · осталось ") ||
		ns[0].Reply.Actions[0].Label != "Партия "+id {
		t.Errorf("bob's digest: %+v", ns)
	}
}

// An amount of leave is written in the clock's words of the reader's language
// (bot/clock): days, hours, and both; English reads as before.
func TestLeaveAmountsInEachLanguage(t *testing.T) {
	h := bottest.New(t) // 3 March 2025, 12:00 UTC
	cases := []struct{ player, locale, want string }{
		{"alice", "de", "Urlaub 2025: bisher genommen 2 Tage 5 Stunden (dieser Urlaub begann Mo., 3. März 12:00 UTC), übrig 27 Tage 19 Stunden, Kontingent 30 Tage (je Kalenderjahr, UTC)."},
		{"bob", "ru", "Отпуск в 2025 году: пока использовано — 2 дня 5 часов (этот отпуск начался пн, 3 мар. 12:00 UTC), осталось — 27 дней 19 часов, годовой лимит — 30 дней (по календарному году, UTC)."},
		{"carol", "", "Leave in 2025: 2 days 5 hours taken of 30 days so far (this leave started Mon 3 Mar 12:00 UTC), 27 days 19 hours left (the allowance is per calendar year, UTC)."},
	}
	for _, c := range cases {
		ask(h, c.player, c.locale, "leave action:start days:5")
	}
	h.Clock.Advance(2*bottest.Day + 5*time.Hour)
	for _, c := range cases {
		if r := ask(h, c.player, c.locale, "leave"); !strings.Contains(r.Text, c.want) {
			t.Errorf("%s's leave in %q: %s\nwant %s", c.player, c.locale, r.Text, c.want)
		}
	}
}
