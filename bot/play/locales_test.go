package play_test

import (
	"strings"
	"testing"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/bottest"
	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/bot/i18n/i18ntest"
	"github.com/missivechess/missive/bot/play"
)

// The play feature's catalogue has every message in every language, with the
// English placeholders and the plural forms each language needs.
func TestCatalogue(t *testing.T) { i18ntest.Check(t, play.Catalogue) }

// The English catalogue's names and descriptions of the feature's commands, their
// subcommands, options and choices are the specs' own, so that the translations
// translate what Discord shows in English; and every language localises them all.
func TestCatalogueMatchesSpecs(t *testing.T) {
	h := bottest.New(t)
	en := play.Catalogue.For(i18n.English)
	var check func(key string, spec bot.CommandSpec)
	localised := func(what string, in bot.Texts) {
		t.Helper()
		if len(in) != len(i18n.Langs)-1 {
			t.Errorf("%s is not localised in every language: %v", what, in)
		}
	}
	check = func(key string, spec bot.CommandSpec) {
		if got := en.T(key+".name", nil); got != spec.Name {
			t.Errorf("%s: the catalogue names it %q, the spec %q", key, got, spec.Name)
		}
		if got := en.T(key+".desc", nil); got != spec.Description {
			t.Errorf("%s: the catalogue says %q, the spec %q", key, got, spec.Description)
		}
		localised(key+".name", spec.NameIn)
		localised(key+".desc", spec.DescriptionIn)
		for _, o := range spec.Options {
			ok := key + ".option." + o.Name
			if got := en.T(ok+".name", nil); got != o.Name {
				t.Errorf("%s: the catalogue names it %q, the spec %q", ok, got, o.Name)
			}
			if got := en.T(ok+".desc", nil); got != o.Description {
				t.Errorf("%s: the catalogue says %q, the spec %q", ok, got, o.Description)
			}
			localised(ok+".name", o.NameIn)
			localised(ok+".desc", o.DescriptionIn)
			for _, c := range o.Choices {
				if got := en.T(ok+".choice."+c.Value, nil); got != c.Name {
					t.Errorf("%s choice %s: the catalogue says %q, the spec %q", ok, c.Value, got, c.Name)
				}
				localised(ok+".choice."+c.Value, c.NameIn)
			}
		}
		// In each language a command's option names are its own: no two alike, and
		// none that is another option's English name.
		for _, l := range i18n.Langs[1:] {
			seen := map[string]string{}
			for _, o := range spec.Options {
				name := o.NameIn.In(l, o.Name)
				if other, ok := seen[name]; ok {
					t.Errorf("%s in %s: options %s and %s are both named %q", key, l, other, o.Name, name)
				}
				seen[name] = o.Name
				for _, p := range spec.Options {
					if p.Name != o.Name && p.Name == name {
						t.Errorf("%s in %s: option %s is named %q, the English name of option %s", key, l, o.Name, name, p.Name)
					}
				}
			}
		}
		for _, sc := range spec.Subcommands {
			check(key+"."+sc.Name, sc)
		}
	}
	for _, name := range []string{play.CmdMove, play.CmdPlace, play.CmdResign, play.CmdDraw, play.CmdTakeback,
		play.CmdMoreTime, play.CmdAbort, play.CmdConditional} {
		spec, ok := h.Svc.Spec(name)
		if !ok {
			t.Fatalf("no /%s", name)
		}
		check("command."+name, spec)
	}
}

// noticeTo returns the one notification of kind to user among ns.
func noticeTo(t *testing.T, ns []bot.Notification, user string, kind bot.NoticeKind) bot.Notification {
	t.Helper()
	found := bottest.NoticesOf(ns, user, kind)
	if len(found) != 1 {
		t.Fatalf("%d notices of kind %s to %s among %+v", len(found), kind, user, ns)
	}
	return found[0]
}

// labels returns the labels of a reply's buttons.
func labels(r bot.Reply) string {
	var out []string
	for _, a := range r.Actions {
		out = append(out, a.Label)
	}
	return strings.Join(out, " | ")
}

// wants fails t when text lacks any of the sentences.
func wants(t *testing.T, what, text string, sentences ...string) {
	t.Helper()
	for _, s := range sentences {
		if !strings.Contains(text, s) {
			t.Errorf("%s does not say %q:\n%s", what, s, text)
		}
	}
}

// A German player (alice) and a Russian one (bob) each read the replies to their
// own commands, and the notices of what the other did, in their own language:
// draw offers and their answers, moves, more time, takebacks, refusals,
// conditional moves, resigning; with the buttons under the board labelled in it.
func TestEachPlayerInTheirLanguage(t *testing.T) {
	h := bottest.New(t)
	id := h.Start("gothic", "")
	h.Ok("alice", "settings language:de notify:dm")
	h.Ok("bob", "settings language:ru notify:dm")
	h.Notes.Take()

	r := h.Ok("alice", "draw")
	wants(t, "alice's offer", r.Text, "alice bietet in Partie "+id+" Remis an.")
	wants(t, "alice's offer's buttons", labels(r), "Remis annehmen | Ablehnen")
	n := noticeTo(t, h.Notes.Take(), "bob", play.NoticeDrawOffer)
	wants(t, "bob's notice of the offer", n.Reply.Text, "alice предлагает ничью в партии "+id+".")
	wants(t, "bob's notice's buttons", labels(n.Reply), "Принять ничью | Отклонить ничью | Сдаться")

	r = h.Ok("bob", "draw action:decline")
	wants(t, "bob's decline", r.Text, "bob отклоняет предложение ничьей от alice; партия продолжается.")
	n = noticeTo(t, h.Notes.Take(), "alice", bot.NoticeInfo)
	wants(t, "alice's notice of the decline", n.Reply.Text, "bob hat das Remisangebot von alice abgelehnt; die Partie geht weiter.")
	wants(t, "alice's notice's buttons", labels(n.Reply), "Ziehen | Remis anbieten | Aufgeben")
	if n.Reply.Actions[2].Confirm != "Partie "+id+" aufgeben?" {
		t.Errorf("the resign button asks alice %q", n.Reply.Actions[2].Confirm)
	}

	r = h.Ok("alice", "move move:e2e4")
	wants(t, "alice's move's buttons", labels(r), "Ziehen | Remis anbieten | Aufgeben")
	n = noticeTo(t, h.Notes.Take(), "bob", bot.NoticeTurn)
	wants(t, "bob's turn notice's buttons", labels(n.Reply), "Сделать ход | Предложить ничью | Сдаться")

	h.Refused("alice", "move", "Gib einen Zug an, zum Beispiel /zug Nf3 oder /zug g1f3.")
	h.Refused("bob", "conditional action:add line:e7e5", "Сейчас ваш ход в партии "+id+";")

	r = h.Ok("alice", "moretime")
	wants(t, "alice's more time", r.Text, "alice hat bob in Partie "+id+" einen Tag Bedenkzeit geschenkt", "noch 4 Tage schenken.")
	n = noticeTo(t, h.Notes.Take(), "bob", bot.NoticeInfo)
	wants(t, "bob's notice of more time", n.Reply.Text, "alice добавляет вам один день в партии "+id+":")

	r = h.Ok("bob", "move move:e7e5")
	h.Notes.Take()
	r = h.Ok("alice", "takeback")
	wants(t, "alice's takeback request", r.Text, "alice bittet darum, den letzten eigenen Zug in Partie "+id+" zurückzunehmen.")
	wants(t, "alice's request's buttons", labels(r), "Zurücknahme erlauben | Ablehnen")
	n = noticeTo(t, h.Notes.Take(), "bob", play.NoticeTakeback)
	wants(t, "bob's notice of the request", n.Reply.Text, "alice просит вернуть свой последний ход в партии "+id+".")
	r = h.Ok("bob", "takeback")
	wants(t, "bob's takeback", r.Text, "bob соглашается: возвращено 2 хода.")
	n = noticeTo(t, h.Notes.Take(), "alice", bot.NoticeTurn)
	wants(t, "alice's notice of the takeback", n.Reply.Text, "bob ist einverstanden: 2 Züge zurückgenommen.")

	h.Ok("alice", "move move:e2e4")
	r = h.Ok("alice", "conditional action:add line:e7e5_Nc3")
	wants(t, "alice's conditional line", r.Text, "Bedingte Zugfolge in Partie "+id+" hinzugefügt: auf 1... e5 folgt 2. Nc3.",
		"Deine bedingten Zugfolgen in Partie "+id+" (nur du siehst sie):")
	h.Notes.Take()
	r = h.Ok("bob", "move move:e7e5")
	wants(t, "bob's move with alice's conditional reply", r.Text, "У alice был заранее подготовлен условный ответ.")
	n = noticeTo(t, h.Notes.Take(), "alice", bot.NoticeInfo)
	wants(t, "alice's notice of her conditional reply", n.Reply.Text, "Deine bedingte Antwort **Nc3** wurde sofort gespielt.")

	h.Refused("alice", "abort", "Partie "+id+" kann nicht mehr abgebrochen werden")
	r = h.Ok("alice", "resign")
	wants(t, "alice's resignation", r.Text, "alice (Weiß) hat aufgegeben.")
	n = noticeTo(t, h.Notes.Take(), "bob", bot.NoticeGameOver)
	wants(t, "bob's notice of the resignation", n.Reply.Text, "alice (белые) сдаёт партию.")
}

// Counts take the plural form their language gives them: a Russian player told of
// one move taken back, of five days given in a game, of a cleared line; and a
// player with no conditional lines is told so in a sentence of its own.
func TestPluralsInRussian(t *testing.T) {
	h := bottest.New(t)
	id := h.Start("gothic", "")
	h.Ok("alice", "settings language:ru")
	h.Ok("bob", "settings language:ru")
	h.Play(id, "alice", "e2e4")
	h.Ok("alice", "takeback")
	wants(t, "one move taken back", h.Ok("bob", "takeback").Text, "bob соглашается: возвращён 1 ход.")
	h.Play(id, "alice", "e2e4")
	for range 5 {
		h.Ok("alice", "moretime")
	}
	h.Refused("alice", "moretime", "Вы уже добавили 5 дней в партии "+id)
	wants(t, "no lines", h.Ok("alice", "conditional action:clear").Text, "В партии "+id+" у вас не было условных ходов; ничего не удалено.")
	h.Ok("alice", "conditional action:add line:e7e5_Nc3")
	h.Ok("alice", "conditional action:add line:d7d5_Nc3")
	wants(t, "two lines cleared", h.Ok("alice", "conditional action:clear").Text, "Удалены 2 цепочки условных ходов в партии "+id+".")
	h.Refused("alice", "conditional action:add line:e7e5_Nc3_d7d6", "Ваша цепочка заканчивается ходом соперника \"d7d6\"")
}

// An engine's answer to a draw offer is in the offerer's language, with the pawns
// and the move from which it agrees in the language's words.
func TestEngineAnswersDrawInGerman(t *testing.T) {
	h := bottest.New(t)
	h.Ok("alice", "settings language:de")
	id := h.Ok("alice", "challenge variant:gothic engine:builtin color:white").Started.ID
	h.Ok("alice", "move move:e2e4")
	r := h.Ok("alice", "draw")
	wants(t, "the engine's refusal", r.Text, "Missive engine (level ",
		"lehnt das Remis ab und spielt weiter. Die Engine nimmt Remis an, wenn sie um einen Bauern oder mehr zurückliegt, oder in ausgeglichener Stellung ab dem 30. Zug.")
	h.Engine.Draws = true
	r = h.Ok("alice", "draw")
	wants(t, "the engine's acceptance", r.Text, "hat das Remisangebot von alice angenommen.")
	if g := h.Game(id); g.Active() {
		t.Fatal("the draw was not agreed")
	}
}

// A French player who gives a day from a time bank reads it in French, with the
// French typography (a narrow no-break space before the colon); the English
// opponent's notice stays English. (bob says he reads English: in local play, as
// here, a player who never said reads the asker's language.)
func TestMoreTimeFromABankInFrench(t *testing.T) {
	h := bottest.New(t)
	id := h.Start("gothic", "bank:30+1/45")
	h.Ok("alice", "settings language:fr")
	h.Ok("bob", "settings language:en notify:dm")
	h.Notes.Take()
	r := h.Ok("alice", "moretime")
	wants(t, "alice's reply", r.Text, "alice a donné un jour de plus à bob dans la partie "+id+"\u202f: la réserve de temps de bob est désormais de 31 j 0 h.",
		"(alice peut encore donner 4 jours dans cette partie.)")
	n := noticeTo(t, h.Notes.Take(), "bob", bot.NoticeInfo)
	wants(t, "bob's notice", n.Reply.Text, "alice gave you one more day in game "+id+": your time bank is now 31d 0h.")
}
