package web

import (
	"embed"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"golang.org/x/text/language"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/bot/words"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/storage"
)

// The pages speak the viewer's language: the one the page asks for (its lang
// parameter, which the page's script sends with each call), else the browser's
// (Accept-Language), else that of the player a personal link was made for, else
// that of the game's server, else English. What the page's script writes comes
// with the page (game.html's texts element); what the server words (the status
// line, refusals) is worded in the request's language.

//go:embed locales/*.yaml
var localeFiles embed.FS

// Catalogue is the web pages' messages in every language (locales/).
var Catalogue = i18n.MustLoad("web", localeFiles)

// matcher matches a browser's languages against those Missive speaks.
var matcher = func() language.Matcher {
	tags := make([]language.Tag, len(i18n.Langs))
	for i, l := range i18n.Langs {
		tags[i] = language.Make(string(l))
	}
	return language.NewMatcher(tags)
}()

// askedLang returns the language r asks for: its lang parameter, else the best
// of its Accept-Language that Missive speaks; false when it names none.
func askedLang(r *http.Request) (i18n.Lang, bool) {
	if l, ok := i18n.Parse(r.URL.Query().Get("lang")); ok {
		return l, true
	}
	h := r.Header.Get("Accept-Language")
	if h == "" {
		return "", false
	}
	tags, _, err := language.ParseAcceptLanguage(h)
	if err != nil || len(tags) == 0 {
		return "", false
	}
	_, i, conf := matcher.Match(tags...)
	if conf == language.No {
		return "", false
	}
	return i18n.Langs[i], true
}

// requestLang is askedLang, English when r asks for no language Missive speaks.
func requestLang(r *http.Request) i18n.Lang {
	if l, ok := askedLang(r); ok {
		return l
	}
	return i18n.English
}

// linkLang returns the language of a page opened with tok on g when the browser
// asks for none Missive speaks: a personal link's player's, else the server's.
func linkLang(tx *storage.Tx, tok Token, g *storage.Game) (i18n.Lang, error) {
	if tok.Kind == KindPlayer {
		p, err := bot.Settings(tx, tok.Player)
		if err != nil {
			return i18n.English, err
		}
		if l, ok := i18n.Parse(p.Lang); ok {
			return l, nil
		}
		if l, ok := i18n.Parse(p.Locale); ok {
			return l, nil
		}
	}
	return bot.ServerLang(tx, g.Guild, "")
}

// jsKeys are the messages the page's script writes (the js.* keys of the
// catalogue), sent with the page.
var jsKeys = []string{"js.start", "js.analysisAfter", "js.analysisFrom", "js.after", "js.tomove.white", "js.tomove.black",
	"js.tomove.white.check", "js.tomove.black.check", "js.follows", "js.legend", "js.placement", "js.thestart",
	"js.seat.white", "js.seat.black", "js.seat.white.you", "js.seat.black.you", "js.list.start", "js.list.placement",
	"js.viewing", "js.note", "js.from", "js.fromMove", "js.saved", "js.play", "js.place", "js.choose", "js.sending",
	"js.status", "js.thinking", "js.best", "js.line", "js.new",
	"js.class.best", "js.class.good", "js.class.inaccuracy", "js.class.mistake", "js.class.blunder"}

// scriptTexts returns the script's sentences in l, and the names of the pieces
// by their letter ("piece.N": "knight").
func scriptTexts(l i18n.Lang) map[string]string {
	loc, w := Catalogue.For(l), words.In(l)
	out := make(map[string]string, len(jsKeys)+len(rules.PieceKinds)+1)
	for _, k := range jsKeys {
		out[k] = loc.T(k, nil)
	}
	for _, k := range rules.PieceKinds {
		out["piece."+string(k.Letter())] = w.Piece(k)
	}
	out["piece"] = w.Piece(rules.NoPiece)
	return out
}

// overText says how a position ended, as the rules say it in English.
func overText(l i18n.Lang, o rules.Outcome) string {
	key := ""
	switch o.Status {
	case rules.Won:
		key = "page.over." + o.Winner.String() + "." + string(o.Reason)
	case rules.Drawn:
		key = "page.over.drawn." + string(o.Reason)
	}
	if l == i18n.English || key == "" || !Catalogue.Has(key) {
		return o.String()
	}
	return Catalogue.For(l).T(key, nil)
}

// decimal writes x with prec decimals and the decimal point of l (a comma in
// every language Missive speaks but English).
func decimal(l i18n.Lang, x float64, prec int) string {
	s := strconv.FormatFloat(x, 'f', prec, 64)
	if l != i18n.English {
		s = strings.Replace(s, ".", ",", 1)
	}
	return s
}

// describeEval words an engine's evaluation for the side to move.
func describeEval(l i18n.Lang, h bot.Hint, side rules.Side) string {
	loc := Catalogue.For(l)
	switch {
	case !h.Scored:
		return ""
	case h.MateIn > 0:
		return loc.N("page.eval.mates."+side.String(), h.MateIn, nil)
	case h.MateIn < 0:
		return loc.N("page.eval.mated."+side.String(), -h.MateIn, nil)
	}
	white := h.Pawns
	if side == rules.Black {
		white = -white
	}
	score := fmt.Sprintf("%+.2f", white)
	if l != i18n.English {
		score = strings.Replace(score, ".", ",", 1)
	}
	return loc.T("page.eval.score", i18n.Data{"Score": score})
}

// gameFields are the fields describing g in l, the bot's own (GameFieldsIn).
func gameFields(l i18n.Lang, svc *bot.Service, g *storage.Game) []fieldJSON {
	var out []fieldJSON
	for _, fl := range svc.GameFieldsIn(l, g) {
		out = append(out, fieldJSON{Name: fl.Name, Value: fl.Value})
	}
	return out
}
