package tournaments_test

import (
	"bytes"
	"fmt"
	"image/png"
	"strings"
	"testing"
	"time"

	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/sfnt"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/bottest"
	"github.com/missivechess/missive/bot/clock"
	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/bot/i18n/i18ntest"
	"github.com/missivechess/missive/bot/tournament"
	"github.com/missivechess/missive/bot/tournaments"
	"github.com/missivechess/missive/render"
	"github.com/missivechess/missive/storage"
)

// The tournaments' catalogue has every message in every language, with the
// English placeholders and the plural forms each language needs.
func TestCatalogue(t *testing.T) { i18ntest.Check(t, tournaments.Catalogue) }

// The English catalogue's names, descriptions and choices of /tournament are the
// spec's own, so that the translations translate what Discord shows in English;
// every name is localised in every language, and no option's name in a language
// is the name of another option of the command (in that language or in English).
func TestCatalogueMatchesSpecs(t *testing.T) {
	h := bottest.New(t)
	spec, ok := h.Svc.Spec(tournaments.CmdTournament)
	if !ok {
		t.Fatal("no /tournament")
	}
	bottest.CheckSpec(t, tournaments.Catalogue, spec)
}

// do runs line as user in a server (g1, whose own language is ru), from a client
// in locale, as an admin when admin is set.
func do(h *bottest.Harness, user, locale string, admin bool, line string) bot.Reply {
	h.T.Helper()
	h.Seq++
	return h.Run(bot.Request{ID: fmt.Sprintf("req-%d", h.Seq), User: bot.User{ID: user, Name: user}, Locale: locale, GuildLocale: "ru",
		Place: bot.Place{Guild: "g1", Channel: "c1"}, Context: bot.ContextGuild, Admin: admin}, line)
}

// wants fails unless text has every one of want.
func wants(t *testing.T, what, text string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("%s does not say %q:\n%s", what, w, text)
		}
	}
}

// news returns the text of the tournament posts in ns, with the board under it
// and the pictures' data and descriptions.
func news(ns []bot.Notification) string {
	var b strings.Builder
	for _, n := range ns {
		if n.Kind != tournaments.NoticeTournament {
			continue
		}
		b.WriteString(">> " + n.To.Name + "\n" + n.Reply.Text + "\n" + n.Reply.Board + "\n")
		for _, f := range n.Reply.Files {
			b.WriteString(f.Alt + "\n" + string(f.Data) + "\n")
		}
	}
	return b.String()
}

// German and Russian players read the replies to their /tournament in their own
// languages, and everyone reads the tournament's news in the server's language
// (Russian here): the start, the results, the standings (text and the picture's
// title, headers and notes), a withdrawal, the final announcement.
func TestTournamentInTheReadersLanguages(t *testing.T) {
	h := bottest.New(t)
	r := do(h, "alice", "de", true, "tournament action:create name:Pokal variant:gothic days:1")
	wants(t, "German create", r.PlainText(), "Turnier 1 ist offen: Tritt mit /turnier beitreten turnier:1 bei.", "Bedenkzeit", "1 Tag pro Zug", "Rundenturnier", "noch niemand")
	wants(t, "German join", do(h, "alice", "de", false, "tournament action:join").Text, "alice ist Turnier 1 beigetreten (1 Spieler).")
	wants(t, "Russian join", do(h, "bob", "ru", false, "tournament action:join").Text, "bob теперь участвует в турнире 1 (2 участника).")
	wants(t, "Russian join", do(h, "carol", "ru", false, "tournament action:join").Text, "(3 участника)")
	if r := do(h, "bob", "de", false, "tournament action:join"); !r.Refused || r.Text != "bob spielt schon in Turnier 1 mit." {
		t.Errorf("German refusal: %+v", r)
	}
	if r := do(h, "bob", "ru", false, "tournament action:start"); !r.Refused || r.Text != "Только участники, которым можно управлять этим сервером, могут начать турнир." {
		t.Errorf("Russian refusal to start: %+v", r)
	}
	wants(t, "Russian standings before the start", do(h, "bob", "ru", false, "tournament action:standings").Text, "Турнир 1 ещё не начался (записались 3 участника).")
	h.Notes.Take()

	wants(t, "German start", do(h, "alice", "de", true, "tournament action:start").Text, "Turnier 1 hat mit 3 Spielern begonnen")
	wants(t, "the start's news", news(h.Notes.Take()), ">> турнира 1", "Все партии начались.", "Тур 1: ")

	r = do(h, "bob", "ru", false, "tournament action:standings")
	if len(r.Files) != 1 {
		t.Fatalf("Russian standings: %+v", r)
	}
	wants(t, "Russian standings", r.Text+"\n"+r.Board+"\n"+r.Files[0].Alt+"\n"+string(r.Files[0].Data),
		"Таблица: жеребьёвка проведена для 3 из 3 туров", "Участник", "Очки", "Берг.", "Дополнительные показатели: Берг. — коэффициент Бергера",
		"TABLE Pokal: таблица, решено партий: 0 из 3", "Pokal: таблица, решено партий: 0 из 3: 1. alice 0")
	r = do(h, "alice", "de", false, "tournament action:standings show:table")
	wants(t, "German standings", r.Text, "Tabellenstand: 3 von 3 Runden gepaart", "Spieler", "Pkt.", "Partien", "Feinwertung: SB = Sonneborn-Berger-Wertung; Siege = Anzahl der Siege.")
	wants(t, "German info", do(h, "alice", "de", false, "tournament action:info").PlainText(), "Turnier 1 · Pokal", "Status: läuft", "Spieler (3): alice, bob, carol")

	_, games := h.Tournament("1")
	g := active(games)[0]
	h.Ok(g.Players[1].ID, "resign game:"+g.ID)
	wants(t, "a result's news", news(h.Notes.Take()), "Партия "+g.ID+" (1-й тур): ", "победа "+g.Players[0].ID+" (белые)", "TABLE Pokal: таблица, решено партий: 1 из 3")

	wants(t, "a Russian withdrawal", do(h, "carol", "ru", false, "tournament action:leave").Text, "carol: выход из турнира 1; несыгранные партии засчитываются как неявка.")
	ns := h.Notes.Take()
	wants(t, "the withdrawal's news", news(ns), "carol: выход из турнира; несыгранные партии засчитываются как неявка.", "carol (выбытие)")

	// The last game ends on time, with no request: the news are in the server's
	// language all the same.
	h.Clock.Advance(25 * time.Hour)
	h.Tick()
	wants(t, "the final news", news(h.Notes.Take()), "Турнир окончен: ", "Поздравляем!", "итоговая таблица")
	wants(t, "German final standings", do(h, "alice", "de", false, "tournament action:standings").Text, "Endstand.")
}

// Every letter of a Russian standings picture is in the picture's fonts (Go
// Regular for the cells and the note, Go Bold for the title and the headers),
// so none is drawn as a missing glyph, and the picture draws.
func TestRussianStandingsPictureHasEveryGlyph(t *testing.T) {
	ids := []tournament.PlayerID{"a", "b", "c", "d"}
	pt, err := tournament.New(tournament.RoundRobin, ids, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range pt.Games[:3] {
		res := tournament.Draw
		if g.Round == 1 {
			res = tournament.WhiteWins
		}
		if pt, err = pt.Record(g.Round, g.White, g.Black, res); err != nil {
			t.Fatal(err)
		}
	}
	if pt, _, err = pt.Withdraw("d"); err != nil {
		t.Fatal(err)
	}
	tr := &storage.Tournament{ID: "1", Name: "Кубок клуба", Status: storage.TournamentRunning, Entrants: []storage.Entrant{
		{Player: storage.Seat{ID: "a", Name: "Аня"}}, {Player: storage.Seat{ID: "b", Name: "Борис"}},
		{Player: storage.Seat{ID: "c", Name: "Вера"}}, {Player: storage.Seat{ID: "d", Name: "Гоша"}, Withdrawn: true}}}
	tbl := tournaments.Standings(i18n.Russian, tr, pt)
	if !strings.Contains(tbl.Title, "Кубок клуба: таблица") || !strings.Contains(tbl.Note, "коэффициент Бергера") || tbl.Columns[1].Header != "Участник" {
		t.Fatalf("not Russian: %+v", tbl)
	}
	if !strings.Contains(tbl.Text(0), "½") {
		t.Errorf("no half point in the table:\n%s", tbl.Text(0))
	}
	regular, err := sfnt.Parse(goregular.TTF)
	if err != nil {
		t.Fatal(err)
	}
	bold, err := sfnt.Parse(gobold.TTF)
	if err != nil {
		t.Fatal(err)
	}
	var buf sfnt.Buffer
	covered := func(f *sfnt.Font, what, s string) {
		for _, r := range s {
			if x, err := f.GlyphIndex(&buf, r); err != nil || x == 0 {
				t.Errorf("%s %q: the font has no %q (U+%04X)", what, s, r, r)
			}
		}
	}
	covered(bold, "title", tbl.Title)
	rt := render.Table{Title: tbl.Title, Note: tbl.Note}
	for _, c := range tbl.Columns {
		covered(bold, "header", c.Header)
		rt.Columns = append(rt.Columns, render.Column{Header: c.Header})
	}
	for _, row := range tbl.Rows {
		for _, c := range row.Cells {
			covered(regular, "cell", c)
		}
		rt.Rows = append(rt.Rows, render.Row{Cells: row.Cells, Muted: row.Muted})
	}
	covered(regular, "note", tbl.Note)
	var png bytes.Buffer
	if err := render.New().TablePNG(&png, rt, render.TableOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := pngDecode(png.Bytes()); err != nil {
		t.Fatal(err)
	}
}

func pngDecode(b []byte) (any, error) { return png.Decode(bytes.NewReader(b)) }

// The English news read as before: the pairings with each player's side once, to
// "tournament 1".
func TestEnglishNewsAsBefore(t *testing.T) {
	h := bottest.New(t)
	h.Ok("alice", "tournament action:create name:Cup variant:gothic days:1")
	h.Ok("alice", "tournament action:join")
	h.Ok("bob", "tournament action:join")
	h.Notes.Take()
	if r := h.Ok("alice", "tournament action:start"); r.Text != "Tournament 1 has begun with 2 players; the games are starting now." {
		t.Errorf("start: %q", r.Text)
	}
	got := news(h.Notes.Take())
	if want := ">> tournament 1\nAll games have started.\nRound 1: alice (white) – bob (black)\n"; !strings.HasPrefix(got, want) {
		t.Errorf("news:\n%s\nwant:\n%s", got, want)
	}
	r := h.Ok("bob", "tournament action:standings show:table")
	if want := "Standings after 1 of 1 rounds paired, 1 game in progress.\n```\n#  Player  Pts  Games  +  =  -  SB  WIN\n"; !strings.HasPrefix(r.Text, want) ||
		!strings.HasSuffix(r.Text, "```\nTie-breaks: SB = Sonneborn-Berger; WIN = Wins.") {
		t.Errorf("standings:\n%s", r.Text)
	}
	if r := h.Ok("bob", "tournament action:info"); r.Fields[3].Value != "1 day per move" || r.Fields[1].Value != "round robin" || r.Fields[6].Value != "running" {
		t.Errorf("info: %+v", r.Fields)
	}
}

// /tournament info names a tournament's clock as the kernel does (clock.Text in
// English, bot.ClockTextIn elsewhere), with each language's plurals and decimal
// comma.
func TestClockText(t *testing.T) {
	h := bottest.New(t)
	for i, c := range []struct {
		days int
		bank string
		de   string // a part of the German
	}{
		{1, "", "1 Tag pro Zug"}, {3, "", "3 Tage pro Zug"},
		{0, "30+1/45", "Zeitkonto"}, {0, "1.5+1/3", "1,5 Tag"}, {0, "5+0.5/15", "12 Stunden pro Zug"},
	} {
		line := fmt.Sprintf("tournament action:create variant:gothic days:%d", c.days)
		var bank *storage.TimeBank
		if c.bank != "" {
			line = "tournament action:create variant:gothic bank:" + c.bank
			var err error
			if bank, err = clock.ParseBank(c.bank); err != nil {
				t.Fatal(err)
			}
		}
		do(h, "alice", "en-US", true, line)
		id := fmt.Sprint(i + 1)
		field := func(locale string) string {
			r := do(h, "bob", locale, false, "tournament action:info tournament:"+id)
			if len(r.Fields) < 4 {
				t.Fatalf("info in %s: %+v", locale, r)
			}
			return r.Fields[3].Value
		}
		if got, want := field("en-US"), clock.Text(c.days, bank); got != want {
			t.Errorf("English %d %s: %q, want %q", c.days, c.bank, got, want)
		}
		if got := field("de"); !strings.Contains(got, c.de) || got != bot.ClockTextIn(i18n.German, c.days, bank) {
			t.Errorf("German %d %s: %q, want the kernel's, with %q", c.days, c.bank, got, c.de)
		}
		if got, want := field("ru"), bot.ClockTextIn(i18n.Russian, c.days, bank); got != want {
			t.Errorf("Russian %d %s: %q, want %q", c.days, c.bank, got, want)
		}
	}
}

// Local play (the console) has no server: the news are in the organizer's
// language, those a game's end posts too.
func TestLocalNewsInTheOrganizersLanguage(t *testing.T) {
	h := bottest.New(t)
	h.Ok("alice", "settings language:de")
	h.Ok("alice", "tournament action:create variant:gothic days:1")
	h.Ok("alice", "tournament action:join")
	h.Ok("bob", "tournament action:join")
	h.Notes.Take()
	if r := h.Ok("bob", "tournament action:start"); r.Text != "Tournament 1 has begun with 2 players; the games are starting now." {
		t.Errorf("bob's reply is not in his language (English): %q", r.Text)
	}
	wants(t, "the start's news", news(h.Notes.Take()), ">> Turnier 1", "Alle Partien haben begonnen.", "Runde 1: alice (Weiß) – bob (Schwarz)")
	h.Clock.Advance(25 * time.Hour)
	h.Tick()
	wants(t, "the news of a timeout", news(h.Notes.Take()), "Partie 1 (1. Runde): ", "Das Turnier ist beendet: bob gewinnt mit 1 Punkt.", "TABLE Gothic Chess: Rundenturnier: Endstand")
}
