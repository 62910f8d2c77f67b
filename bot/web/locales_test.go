package web_test

import (
	"encoding/json"
	"fmt"
	"github.com/missivechess/missive/bot/bottest"
	"html"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/bot/i18n/i18ntest"
	"github.com/missivechess/missive/bot/web"
)

// The web pages' catalogue has every message in every language, with the
// English placeholders.
func TestCatalogue(t *testing.T) { i18ntest.Check(t, web.Catalogue) }

// The English catalogue's names, descriptions and choices of /web are the spec's
// own, and every language localises them.
func TestCatalogueMatchesSpecs(t *testing.T) {
	s := newSite(t, web.Options{})
	spec, ok := s.h.Svc.Spec(web.CmdWeb)
	if !ok {
		t.Fatal("no /web")
	}
	bottest.CheckSpec(t, web.Catalogue, spec)
}

var placeholders = regexp.MustCompile(`\{[a-z]+\}`)

// english finds English words a translated page must not show (not those German
// shares: Analyse, Engine, Link).
var english = regexp.MustCompile(`(?i)\b(the|your|you|move|moves|board|game|position|analysis|note|white|black|to|of|and|download|loading|flip|cancel|play|save|previous|next|first|last|start|saved|sending|best|line|new|placement|from|after|viewing|players?)\b`)

// fetch gets path of the site with the Accept-Language accept.
func (s *site) fetch(path, accept string) (int, string) {
	s.t.Helper()
	if strings.HasPrefix(path, "/") {
		path = s.srv.URL + path
	}
	req, err := http.NewRequest(http.MethodGet, path, nil)
	if err != nil {
		s.t.Fatal(err)
	}
	if accept != "" {
		req.Header.Set("Accept-Language", accept)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

var (
	tags      = regexp.MustCompile(`(?s)<script[^>]*>.*?</script>|<[^>]*>`)
	attrs     = regexp.MustCompile(`(?:title|aria-label|placeholder)="([^"]*)"`)
	textsElem = regexp.MustCompile(`(?s)<script type="application/json" id="texts">(.*?)</script>`)
	htmlLang  = regexp.MustCompile(`<html lang="([^"]*)">`)
)

// visible returns what a reader of page meets: its text, its titles, labels and
// placeholders, and the sentences its script writes.
func visible(t *testing.T, page string) (string, map[string]string) {
	t.Helper()
	var b strings.Builder
	b.WriteString(html.UnescapeString(tags.ReplaceAllString(page, " ")))
	for _, m := range attrs.FindAllStringSubmatch(page, -1) {
		b.WriteString(" " + html.UnescapeString(m[1]))
	}
	m := textsElem.FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("the page has no texts element:\n%s", page)
	}
	texts := map[string]string{}
	if err := json.Unmarshal([]byte(m[1]), &texts); err != nil {
		t.Fatalf("the page's texts: %v\n%s", err, m[1])
	}
	return b.String(), texts
}

// A page opened in German or Russian (the browser's Accept-Language) has its
// language in <html lang> and no English left in what it shows: its own text,
// the sentences its script writes, the game's title, status line and fields; a
// missing game is refused in it too. Without a language the browser asks for,
// a player's link speaks the player's language.
func TestPageInEachLanguage(t *testing.T) {
	s := newSite(t, web.Options{})
	id := s.h.Start("gothic", "")
	s.h.Play(id, "alice", "e4")
	own := s.w.PlayerLink(id, "bob")
	app := func() string { _, b := s.get("/assets/app.js"); return b }()
	used := regexp.MustCompile("tx\\('(js\\.[A-Za-z.]+)'").FindAllStringSubmatch(app, -1)
	for _, c := range []struct {
		accept string
		lang   i18n.Lang
	}{{"de-DE,de;q=0.9,en;q=0.5", i18n.German}, {"ru", i18n.Russian}, {"fr-CA", i18n.French}, {"es-419", i18n.Spanish}, {"pt", i18n.Portuguese}} {
		code, page := s.fetch(own, c.accept)
		if code != http.StatusOK {
			t.Fatalf("%s: %d %s", c.accept, code, page)
		}
		if m := htmlLang.FindStringSubmatch(page); m == nil || m[1] != string(c.lang) {
			t.Errorf("%s: <html lang> is %v", c.accept, m)
		}
		text, texts := visible(t, page)
		text = strings.ReplaceAll(text, "Missive", "")
		if w := english.FindAllString(text, -1); len(w) > 0 && c.lang != i18n.French && c.lang != i18n.Spanish && c.lang != i18n.Portuguese {
			t.Errorf("%s: the page shows English %q:\n%s", c.lang, w, text)
		}
		for _, u := range used {
			if _, ok := texts[u[1]]; !ok {
				t.Errorf("%s: the script writes %s, which the page does not send", c.lang, u[1])
			}
		}
		for k, v := range texts {
			if w := english.FindAllString(placeholders.ReplaceAllString(v, ""), -1); len(w) > 0 && (c.lang == i18n.German || c.lang == i18n.Russian) {
				t.Errorf("%s: the script's %s is English: %q", c.lang, k, v)
			}
		}
		code, body := s.fetch(api(own, ""), c.accept)
		var v struct {
			Title, Status, Name string
			Fields              []struct{ Name, Value string }
			Steps               []struct{ SAN string }
		}
		if err := json.Unmarshal([]byte(body), &v); code != http.StatusOK || err != nil {
			t.Fatalf("%s: the game: %d %v %s", c.lang, code, err, body)
		}
		shown := v.Title + " " + v.Status + " " + v.Name
		for _, f := range v.Fields {
			shown += " " + f.Name + " " + strings.ReplaceAll(f.Value, "Gothic Chess", "")
		}
		shown = strings.NewReplacer("Gothic Chess", "", "alice", "", "bob", "").Replace(shown)
		if w := english.FindAllString(shown, -1); len(w) > 0 && (c.lang == i18n.German || c.lang == i18n.Russian) {
			t.Errorf("%s: the game's words are English %q: %s", c.lang, w, shown)
		}
		if _, body := s.fetch(api("/g/999?t=x", ""), c.accept); strings.Contains(body, "There is no such game") {
			t.Errorf("%s: a missing game is refused in English: %s", c.lang, body)
		}
	}
	_, body := s.fetch(api(own, ""), "de")
	if !strings.Contains(body, `"title":"Partie `+id+` · Gothic Chess · alice gegen bob"`) || !strings.Contains(body, `bob (Schwarz) am Zug · Frist `) {
		t.Errorf("the German game: %s", body)
	}
	_, body = s.fetch(api(own, ""), "ru")
	if !strings.Contains(body, `"title":"Партия `+id+` · Готические шахматы · alice — bob"`) || !strings.Contains(body, `Ход: bob (чёрные) · срок `) {
		t.Errorf("the Russian game: %s", body)
	}
	// English stays as it was, for an English browser and for none.
	for _, accept := range []string{"", "en-GB,en", "ja"} {
		_, page := s.fetch(own, accept)
		if !strings.Contains(page, `<html lang="en">`) || !strings.Contains(page, "<title>Missive game</title>") || !strings.Contains(page, ">Download PGN<") {
			t.Errorf("%q: not the English page", accept)
		}
	}
	// The player's own language, when the browser asks for none Missive speaks.
	s.h.Ok("bob", "settings language:ru")
	if _, page := s.fetch(own, "ja"); !strings.Contains(page, `<html lang="ru">`) {
		t.Errorf("bob's page is not in bob's language")
	}
	if _, page := s.fetch(own+"&lang=de", "ru"); !strings.Contains(page, `<html lang="de">`) {
		t.Errorf("the page's lang parameter does not win")
	}
	if _, body := s.fetch(api(s.w.ViewLink(id), "/analysis"), "de"); !strings.Contains(body, "Eine Analyse wird nur für die Spieler gespeichert") {
		t.Errorf("a German refusal: %s", body)
	}
}

// /web answers a German and a Russian player in their language.
func TestWebCommandInEachLanguage(t *testing.T) {
	s := newSite(t, web.Options{})
	id := s.h.Start("gothic", "")
	ask := func(user, locale, line string) bot.Reply {
		s.h.Seq++
		return s.h.Run(bot.Request{ID: fmt.Sprintf("req-%d", s.h.Seq), User: bot.User{ID: user, Name: user}, Locale: locale}, line)
	}
	r := ask("alice", "de", "web game:"+id)
	if r.Title != "Partie "+id+" · Gothic Chess · alice gegen bob" || !strings.HasPrefix(r.Text, "Deine eigene Seite für Partie "+id) ||
		len(r.Actions) != 2 || r.Actions[0].Label != "Meine Seite" || r.Actions[1].Label != "Zuschauerseite" {
		t.Errorf("German /web: %+v", r)
	}
	r = ask("bob", "ru", "web game:"+id+" revoke:view")
	if !strings.HasPrefix(r.Text, "Старые ссылки зрителей на эту партию больше её не открывают") || !strings.Contains(r.Text, "Ваша личная страница партии "+id) {
		t.Errorf("Russian /web revoke: %s", r.Text)
	}
	if r := ask("carol", "ru", "web game:"+id+" revoke:mine"); !r.Refused || r.Text != "Отозвать ссылки на партию "+id+" могут только её игроки." {
		t.Errorf("Russian refusal: %+v", r)
	}
	if r := ask("carol", "de", "web game:"+id); !strings.HasPrefix(r.Text, "Die Seite von Partie "+id+": ") || r.Actions[0].Label != "Webseite" {
		t.Errorf("German viewer's /web: %+v", r)
	}
	if r := ask("carol", "de", "web game:"+id+" revoke:all"); !r.Refused || !strings.Contains(r.Text, "nicht all") {
		t.Errorf("German refusal of a value: %+v", r)
	}
}

// In a browser, a page in German and one in Russian show no English once the
// script has drawn the game: its text, the board's description, the seats and
// the status line; the confirmation of a move asks in the language.
func TestBrowserInEachLanguage(t *testing.T) {
	s := newSite(t, web.Options{})
	ctx := browser(t)
	id := s.h.Start("gothic", "")
	s.h.Play(id, "alice", "e4")
	for _, l := range []string{"de", "ru"} {
		tb := tab(t, ctx)
		run(t, tb, chromedp.Navigate(s.w.PlayerLink(id, "bob")+"&lang="+l), chromedp.WaitVisible(css(`#moves button[data-ply="1"]`)),
			chromedp.WaitVisible(css(cell("e7")+`.can`)))
		if got := get(t, tb, chromedp.Evaluate[string](`document.documentElement.lang`)); got != l {
			t.Errorf("%s: <html lang=%q>", l, got)
		}
		text := get(t, tb, chromedp.Evaluate[string](`document.body.innerText + ' ' + document.getElementById('board').getAttribute('aria-label') + ' ' + document.getElementById('boardtext').textContent + ' ' + document.title`))
		text = strings.NewReplacer("Missive", "", "Gothic Chess", "", "alice", "", "bob", "").Replace(text)
		if w := english.FindAllString(text, -1); len(w) > 0 {
			t.Errorf("%s: the page shows English %q:\n%s", l, w, text)
		}
		run(t, tb, chromedp.Click(css(cell("e7"))), chromedp.WaitVisible(css(cell("e5")+`.can`)), chromedp.Click(css(cell("e5"))),
			chromedp.WaitVisible(css(`#confirm-yes`)))
		want := map[string]string{"de": "e5 spielen?", "ru": "Сделать ход e5?"}[l]
		if got := get(t, tb, chromedp.Text(css(`#confirm-text`))); got != want {
			t.Errorf("%s: the confirmation asks %q, want %q", l, got, want)
		}
	}
}

// The link button under a board (Feature.ButtonsIn) is labelled in its reader's
// language: a German and a Russian player's /board, the Russian player's turn
// notice after the German's move, and English for everyone else.
func TestLinkButtonInTheReadersLanguage(t *testing.T) {
	s := newSite(t, web.Options{})
	s.h.Ok("alice", "settings language:de")
	s.h.Ok("bob", "settings language:ru notify:dm")
	id := s.h.Start("gothic", "")
	s.h.Ok("carol", "challenge variant:gothic opponent:dave")
	english := s.h.Ok("dave", "accept").Started.ID
	link := func(as []bot.Action) string {
		for _, a := range as {
			if a.URL == s.w.ViewLink(id) {
				return a.Label
			}
		}
		return ""
	}
	for user, want := range map[string]string{"alice": "Webseite", "bob": "Веб-страница"} {
		if got := link(s.h.Ok(user, "board game:"+id).Actions); got != want {
			t.Errorf("%s: the board's link button says %q, want %q", user, got, want)
		}
	}
	var en []string
	for _, a := range s.h.Ok("carol", "board game:"+english).Actions {
		if a.URL == s.w.ViewLink(english) {
			en = append(en, a.Label)
		}
	}
	if len(en) != 1 || en[0] != "Web page" {
		t.Errorf("the English link button says %q", en)
	}
	s.h.Notes.Take()
	s.h.Ok("alice", "move game:"+id+" move:e4")
	seen := false
	for _, n := range s.h.Notes.Take() {
		if n.To.ID == "bob" && len(n.Reply.Actions) > 0 {
			seen = true
			if got := link(n.Reply.Actions); got != "Веб-страница" {
				t.Errorf("bob's notice's link button says %q: %+v", got, n.Reply.Actions)
			}
		}
	}
	if !seen {
		t.Error("bob was not told with the board's buttons")
	}
	if f := s.w.Feature(s.h.Svc); f.ButtonsIn == nil || f.Buttons != nil {
		t.Error("the link button does not come through Feature.ButtonsIn")
	}
}

// The page's title, status line and fields are the bot's own in the page's
// language (bot.Service.GameTitleIn, StatusLineIn, GameFieldsIn): the time banks
// of a game, in German, Russian and English.
func TestPageGameWordsAreTheBots(t *testing.T) {
	s := newSite(t, web.Options{})
	id := s.h.Start("gothic", "bank:30+1.5/45")
	g := s.h.Game(id)
	for _, c := range []struct {
		accept string
		lang   i18n.Lang
		bank   string
	}{{"de", i18n.German, "Zeitkonto: 30 Tage"}, {"ru", i18n.Russian, ""}, {"", i18n.English, "time bank of 30 days + 1.5 days a move, up to 45 days"}} {
		_, body := s.fetch(api(s.w.ViewLink(id), ""), c.accept)
		var v struct {
			Title, Status string
			Fields        []struct{ Name, Value string }
		}
		if err := json.Unmarshal([]byte(body), &v); err != nil {
			t.Fatalf("%s: %v %s", c.lang, err, body)
		}
		var fields []string
		for _, f := range s.h.Svc.GameFieldsIn(c.lang, g) {
			fields = append(fields, f.Name+": "+f.Value)
		}
		var got []string
		for _, f := range v.Fields {
			got = append(got, f.Name+": "+f.Value)
		}
		if v.Title != s.h.Svc.GameTitleIn(c.lang, g) || v.Status != s.h.Svc.StatusLineIn(c.lang, g) || strings.Join(got, "\n") != strings.Join(fields, "\n") {
			t.Errorf("%s: the page's game is %q, %q, %q", c.lang, v.Title, v.Status, got)
		}
		if c.bank != "" && !strings.Contains(strings.Join(got, "\n"), c.bank) {
			t.Errorf("%s: the page's clock is not %q: %q", c.lang, c.bank, got)
		}
		if c.lang == i18n.German && (!strings.Contains(v.Status, "Zeitkonten: Weiß ") || !strings.Contains(strings.Join(got, "\n"), "1,5 Tage pro Zug")) {
			t.Errorf("the German page's banks: %q, %q", v.Status, got)
		}
		if c.lang == i18n.Russian && (!strings.Contains(v.Status, "запас: у белых ") || !strings.Contains(strings.Join(got, "\n"), "запас времени: ")) {
			t.Errorf("the Russian page's banks: %q, %q", v.Status, got)
		}
	}
}
