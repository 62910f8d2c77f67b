package console

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/bot/i18n/i18ntest"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/storage"
)

// englishLeft returns the English words of line, beyond names and notation.
func englishLeft(line string) []string { return i18ntest.EnglishLeft(line) }

// languageScripts are whole sessions of the play tests, as a player of any
// language types them: a game of each of the four games to its end, reminders
// and a loss on time, the engine's hint, a review and a tournament.
func languageScripts(s *session) map[string]func() string {
	return map[string]func() string{
		"gothic": func() string {
			return s.run(`
/challenge variant:gothic opponent:bob color:white days:2
/as bob
/accept
/as alice
Cf3
/as bob
/move e7e5 game:9
/move d5
/as alice
/move Ah3
/as bob
/move move:Nd7
/as carol
/move game:1 move:e2e4
/as bob
/move Qd7
/as alice
/move e2e5
/move Ae6#
/history
/games
`)
		},
		"keltic": func() string {
			return s.run("/as alice\n/challenge keltic bob white\n/as bob\n/accept\n/as alice\nNc4\n/as bob\ndxc4\n/as alice\nKd2\n/as bob\ncxd3\n/as alice\nKxd3\n/as bob\nQd5#\n")
		},
		"gess": func() string {
			return s.run("/as alice\n/challenge gess bob white\n/as bob\n/accept\n/rules gess\ne3-e5\n/as alice\nl18xl15\n/as bob\ne6xl13\n")
		},
		"gochess": func() string {
			var out strings.Builder
			out.WriteString(s.run("/as alice\n/challenge gochess bob white\n/as bob\n/accept\n"))
			id := fmt.Sprint(len(s.gamesOf("alice")))
			for rounds := 0; rounds < 60; rounds++ {
				g := s.game(id)
				sim, ok := g.Position.(rules.Simultaneous)
				if !ok || len(sim.Awaiting()) == 0 {
					break
				}
				d := g.Position.Variant().Dims()
				a, b := sim.LegalMovesFor(rules.White), sim.LegalMovesFor(rules.Black)
				out.WriteString(s.run("/as alice\n/place " + d.Name(a[0].To) + " game:" + id + "\n/as bob\n/place " + d.Name(b[len(b)-1].To) + " game:" + id + "\n"))
			}
			g := s.game(id)
			first := map[rules.Side]string{rules.White: "alice", rules.Black: "bob"}[g.ToMove[0]]
			out.WriteString(s.run("/as " + first + "\n/move " + g.Position.UCI(g.Position.LegalMoves()[0]) + " game:" + id + "\n/history game:" + id + "\n/as alice\n/resign game:" + id + "\n/yes\n"))
			return out.String()
		},
		"clock": func() string {
			return s.run("/as alice\n/settings notify:dm\n/challenge gothic bob white 1\n/as bob\n/accept\n/as alice\ne2e4\n/wait 21h\n/wait 1h\n/wait 30m\n/wait 2h\n")
		},
		"engine and review": func() string {
			return s.run("/as dave\n/challenge gothic engine:builtin level:1 color:white\ne2e4\n/hint\n/resign\n/yes\n/review\n")
		},
		"tournament": func() string {
			return s.run(`
/as alice
/tournament create name:"Club Cup" variant:gothic format:round-robin days:1 rated:yes engines:builtin
/tournament join
/tournament join engine:builtin level:1
/as bob
/tournament join
/as carol
/tournament join
/tournament info
/as alice
/tournament start
/tournament standings
/as carol
/tournament leave
/wait 3d
/as alice
/tournament standings
/tournament info
/leaderboard variant:gothic
/profile player:bob
`)
		},
	}
}

// gamesOf lists the games player id plays or played.
func (s *session) gamesOf(id string) []string {
	var ids []string
	for i := 1; ; i++ {
		if _, err := s.tryGame(fmt.Sprint(i)); err != nil {
			return ids
		}
		ids = append(ids, fmt.Sprint(i))
	}
}

// A player of each language Missive speaks plays a whole game of each of the four
// games, with reminders, a review and a tournament, in the console with --locale,
// and reads no English: every line of what the console prints has no English word
// beyond names and notation. In English the same check finds English in every
// session, so that it can fail.
func TestSessionsInEachLanguage(t *testing.T) {
	t.Parallel()
	for _, locale := range []string{"en-US", "de", "fr", "es-ES", "es-419", "pt-BR", "ru"} {
		t.Run(locale, func(t *testing.T) {
			t.Parallel()
			s := newSession(t)
			s.con.locale = locale
			for _, name := range []string{"gothic", "keltic", "gess", "gochess", "clock", "engine and review", "tournament"} {
				out := languageScripts(s)[name]()
				var left []string
				for _, line := range strings.Split(out, "\n") {
					if w := englishLeft(line); len(w) > 0 {
						left = append(left, fmt.Sprintf("%q in: %s", w, line))
					}
				}
				if i18n.Of(locale) == i18n.English {
					if len(left) < 3 {
						t.Errorf("%s: the check finds too little English in English:\n%s", name, out)
					}
					continue
				}
				if len(left) > 0 {
					t.Errorf("%s in %s: %d lines with English:\n%s", name, locale, len(left), strings.Join(left, "\n"))
				}
			}
		})
	}
}

// tryGame loads game id, or says why not.
func (s *session) tryGame(id string) (*storage.Game, error) {
	var g *storage.Game
	err := s.store.View(context.Background(), func(tx *storage.Tx) (err error) {
		g, err = tx.Game(id)
		return err
	})
	return g, err
}

// localized returns a script's lines as a player of language l types them: each
// command, subcommand and option as l's clients name them (i18n.Commands), a move
// typed without a slash with its game option so named, and yes in l.
func localized(l i18n.Lang, script string) string {
	var out []string
	for _, line := range strings.Split(strings.TrimSpace(script), "\n") {
		switch {
		case line == "yes" || line == "no":
			line = strings.Fields(catalogue.For(l).T("confirm."+line, nil))[0]
		case strings.HasPrefix(line, "/"):
			line = i18n.Commands(l, line)
		case strings.Contains(line, " "): // a move and its game
			line = strings.SplitN(i18n.Commands(l, "/move "+line), " ", 2)[1]
		default: // a command's name
			line = strings.TrimPrefix(i18n.Commands(l, "/"+line), "/")
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n") + "\n"
}

// A German console takes the commands as German names them as well as in English:
// the command (/zug as /move), its subcommand (/turnier erstellen), its options
// (partie:2 as game:2), the console's own (/als, /warten), a command typed without
// its slash, and ja and nein; whatever the names, both scripts print the same. The
// names the catalogues give now are checked to be German.
func TestLocalizedCommandNames(t *testing.T) {
	t.Parallel()
	script := `
/challenge variant:gothic opponent:bob color:white days:2
/as bob
/accept
/as alice
/move game:1 move:e2e4
abort
yes
/challenge variant:gothic opponent:bob color:white days:2
/as bob
/accept
/as alice
e2e4 game:2
/as bob
e7e5 game:2
board
resign
no
/rules variant:gess
/help move
/wait 1h
/tournament create name:Cup variant:gothic format:round-robin days:1
/tournament join
/whoami
`
	german := localized(i18n.German, script)
	for _, want := range []string{"/als bob", "/regeln variante:gess", "/hilfe ", "/warten 1h", "\nja\n", "\nnein\n"} {
		if !strings.Contains(german, want) {
			t.Errorf("the German script lacks %q:\n%s", want, german)
		}
	}
	run := func(script string) string {
		s := newSession(t)
		s.con.locale = "de"
		return s.run(script)
	}
	en, de := run(script), run(german)
	if en != de {
		t.Errorf("typed in German:\n%s\nthe console printed\n%s\nnot, as in English,\n%s", german, de, en)
	}
	for _, want := range []string{"Du bist jetzt bob.", "Die Uhr rückt um 1h vor", "Deine Partie abbrechen (ohne Ergebnis)?", "Deine Partie aufgeben?", "Nicht ausgeführt", "Gess"} {
		if !strings.Contains(de, want) {
			t.Errorf("the German session lacks %q:\n%s", want, de)
		}
	}
	if strings.Contains(de, "[abgelehnt]") {
		t.Errorf("a German command was refused:\n%s", de)
	}
}

// The console's first lines are in its language, the commands they name as that
// language names them; English as before.
func TestWelcomeInEachLanguage(t *testing.T) {
	s := newSession(t)
	if got := s.con.Welcome("d.db", "files"); got != "Missive console. Data file: d.db\nPictures and PGN files go to: files\nYou are alice; /as NAME plays as someone else, /help lists the commands, /quit leaves.\n" {
		t.Errorf("English welcome: %q", got)
	}
	for _, locale := range []string{"de", "fr", "es-419", "pt-BR", "ru"} {
		s.con.locale = locale
		got := s.con.Welcome("d.db", "files")
		for _, line := range strings.Split(got, "\n") {
			if w := englishLeft(line); len(w) > 0 {
				t.Errorf("%s: English %q in %q", locale, w, line)
			}
		}
		if want := i18n.Commands(i18n.Of(locale), "/help"); !strings.Contains(got, want) || want == "/help" {
			t.Errorf("%s: the welcome does not name %s: %q", locale, want, got)
		}
	}
}
