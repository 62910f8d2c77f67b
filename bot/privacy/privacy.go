package privacy

import (
	"context"
	"crypto/rand"
	"embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/bot/words"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/storage"
)

//go:embed locales/*.yaml
var localeFiles embed.FS

// Catalogue is the privacy feature's messages in every language (locales/).
var Catalogue = i18n.MustLoad("privacy", localeFiles)

// CmdPrivacy is /privacy.
const CmdPrivacy = "privacy"

// FormerPlayer is the name a deleted player's games show in their seat.
const FormerPlayer = "a former player"

// FormerPrefix starts the id of a deleted player's seat.
const FormerPrefix = storage.FormerPrefix

// feature is the privacy feature: /privacy show and /privacy delete.
type feature struct {
	svc *bot.Service
}

// New returns the privacy feature of s: the command /privacy.
func New(s *bot.Service) bot.Feature {
	f := &feature{svc: s}
	return bot.Feature{Commands: []bot.Command{{Handle: f.cmd, Spec: Spec().Localize(Catalogue)}}}
}

// Spec describes /privacy in English (New localises it).
func Spec() bot.CommandSpec {
	return bot.CommandSpec{Name: CmdPrivacy, Private: true,
		Description: "What Missive keeps about you, and deleting it",
		Subcommands: []bot.CommandSpec{
			{Name: "show", Description: "Everything Missive keeps about you, as a summary and a file"},
			{Name: "delete", Description: "Delete what Missive keeps about you (your finished games stay, without your name)", Options: []bot.OptionSpec{
				{Name: "confirm", Description: "yes: delete now (otherwise a button asks first)", Type: bot.OptString, MaxLength: 3},
			}},
		}}
}

// cmd runs /privacy.
func (f *feature) cmd(ctx context.Context, req bot.Request) bot.Reply {
	switch a := strings.ToLower(req.Args.Get("action")); a {
	case "", "show":
		return f.svc.View(ctx, req, func(tx *bot.Tx) error { return f.show(tx, req) })
	case "delete":
		if !strings.EqualFold(req.Args.Get("confirm"), "yes") {
			return f.svc.View(ctx, req, func(tx *bot.Tx) error { return f.ask(tx, req) })
		}
		return f.svc.Mutate(ctx, req, func(tx *bot.Tx) error { return f.erase(tx, req) })
	default:
		return bot.Refusal(f.svc.AskerLocalizer(ctx, Catalogue, req).T("privacy.action", i18n.Data{"Action": rules.Echo(a)}))
	}
}

// export is the file /privacy show gives: what the store keeps about a player.
type export struct {
	Player      *storage.Player                  `json:"settings,omitempty"`
	Ratings     []*storage.Rating                `json:"ratings,omitempty"`
	Games       []exportGame                     `json:"games,omitempty"`
	Conditional map[string][]storage.Conditional `json:"conditional_moves,omitempty"`
	Challenges  []*storage.Challenge             `json:"challenges,omitempty"`
	Tournaments []exportTournament               `json:"tournaments,omitempty"`
	Notices     []exportNotice                   `json:"notices_queued,omitempty"`
	Reviews     []*storage.ReviewRequest         `json:"reviews_asked,omitempty"`
}

type exportGame struct {
	ID       string `json:"id"`
	Variant  string `json:"variant"`
	Side     string `json:"your_side"`
	Opponent string `json:"opponent"`
	Moves    int    `json:"moves"`
	Outcome  string `json:"outcome"`
	Rated    bool   `json:"rated"`
}

type exportTournament struct {
	ID     string                   `json:"id"`
	Name   string                   `json:"name"`
	Status storage.TournamentStatus `json:"status"`
	You    *storage.Entrant         `json:"entry,omitempty"`
}

// exportNotice is a notice still to deliver: the player's own in full, another
// player's that names them only by who it is for.
type exportNotice struct {
	Queued string          `json:"queued"`
	Body   json.RawMessage `json:"notice,omitempty"`
	Other  bool            `json:"to_someone_else,omitempty"`
}

// addressedTo reports whether a notice's body is for user id.
func addressedTo(e *storage.OutboxEntry, id string) bool {
	var body struct{ To bot.User }
	_ = json.Unmarshal(e.Body, &body) // unreadable: not shown as the player's
	return body.To.ID == id || strings.HasSuffix(e.Dest, ":"+id)
}

// show answers /privacy show: a summary, and a file with everything.
func (f *feature) show(tx *bot.Tx, req bot.Request) error {
	d, err := tx.PlayerData(req.User.ID)
	if err != nil {
		return err
	}
	x := export{Player: d.Player, Ratings: d.Ratings, Conditional: d.Conditional, Challenges: d.Challenges, Reviews: d.Reviews}
	if len(x.Conditional) == 0 {
		x.Conditional = nil
	}
	active := 0
	for _, s := range d.Games {
		side, _ := s.SideOf(req.User.ID)
		x.Games = append(x.Games, exportGame{ID: s.ID, Variant: s.Variant, Side: side.String(), Opponent: words.Seat(s.Players[side.Other()]),
			Moves: s.Plies, Outcome: s.Outcome.String(), Rated: s.Rated})
		if s.Active() {
			active++
		}
	}
	for _, t := range d.Tournaments {
		et := exportTournament{ID: t.ID, Name: t.Name, Status: t.Status}
		for i, e := range t.Entrants {
			if e.Player.ID == req.User.ID {
				et.You = &t.Entrants[i]
			}
		}
		x.Tournaments = append(x.Tournaments, et)
	}
	others := 0
	for _, e := range d.Notices {
		n := exportNotice{Queued: e.Queued.UTC().Format("2006-01-02T15:04:05Z")}
		if addressedTo(e, req.User.ID) {
			n.Body = e.Body
		} else {
			n.Other = true
			others++
		}
		x.Notices = append(x.Notices, n)
	}
	data, err := json.MarshalIndent(x, "", "  ")
	if err != nil {
		return fmt.Errorf("privacy: writing player %s's data: %w", req.User.ID, err)
	}
	loc, err := asker(tx, req)
	if err != nil {
		return err
	}
	var b strings.Builder
	b.WriteString(loc.T("privacy.show.head", nil) + "\n")
	settings := "privacy.show.settings.none"
	if d.Player != nil {
		settings = "privacy.show.settings.some"
	}
	b.WriteString(loc.T(settings, nil) + "\n")
	b.WriteString(loc.T("privacy.show.ratings", i18n.Data{"Ratings": len(d.Ratings)}) + "\n")
	b.WriteString(loc.N("privacy.show.games", conditionalLines(d), i18n.Data{"Games": len(d.Games), "Active": active}) + "\n")
	b.WriteString(loc.T("privacy.show.counts", i18n.Data{"Challenges": len(d.Challenges), "Tournaments": len(d.Tournaments)}) + "\n")
	b.WriteString(loc.T("privacy.show.notices", i18n.Data{"Mine": len(d.Notices) - others, "Others": others}) + "\n")
	b.WriteString(loc.T("privacy.show.reviews", i18n.Data{"Reviews": len(d.Reviews)}) + "\n")
	b.WriteString(loc.T("privacy.show.foot", nil))
	*tx.Reply() = bot.Reply{Private: true, Title: loc.T("privacy.show.title", nil), Text: b.String(),
		Files: []bot.File{{Name: "missive-data.json", ContentType: "application/json", Data: data}}}
	return nil
}

// asker returns the localizer of the one who sent req.
func asker(tx *bot.Tx, req bot.Request) (*i18n.Localizer, error) {
	lang, err := bot.AskerLang(tx.Tx, req)
	return Catalogue.For(lang), err
}

// conditionalLines counts the conditional lines in d.
func conditionalLines(d *storage.PlayerData) int {
	n := 0
	for _, cs := range d.Conditional {
		n += len(cs)
	}
	return n
}

// blockers returns why the player's data cannot be deleted now: their games in
// progress and the open or running tournaments they play in.
func blockers(loc *i18n.Localizer, d *storage.PlayerData, id string) error {
	var games, tours []string
	for _, s := range d.Games {
		if s.Active() {
			games = append(games, s.ID)
		}
	}
	for _, t := range d.Tournaments {
		for _, e := range t.Entrants {
			if e.Player.ID == id && !e.Withdrawn && t.Active() {
				tours = append(tours, t.ID)
			}
		}
	}
	var why []string
	if len(games) > 0 {
		why = append(why, loc.N("privacy.blocked.games", len(games), i18n.Data{"Games": strings.Join(games, ", ")}))
	}
	if len(tours) > 0 {
		why = append(why, loc.T("privacy.blocked.tournaments", i18n.Data{"Tournaments": strings.Join(tours, ", ")}))
	}
	if len(why) == 0 {
		return nil
	}
	return bot.Refuse(bot.ErrRefused, "%s", loc.T("privacy.blocked", i18n.Data{"Reasons": strings.Join(why, "; ")}))
}

// ask answers /privacy delete before its confirmation: what would go, and the
// button that deletes it.
func (f *feature) ask(tx *bot.Tx, req bot.Request) error {
	d, err := tx.PlayerData(req.User.ID)
	if err != nil {
		return err
	}
	loc, err := asker(tx, req)
	if err != nil {
		return err
	}
	if err := blockers(loc, d, req.User.ID); err != nil {
		return err
	}
	text := loc.T("privacy.ask.text", i18n.Data{
		"Ratings":    loc.N("privacy.count.ratings", len(d.Ratings), nil),
		"Challenges": loc.N("privacy.count.challenges", len(d.Challenges), nil),
		"Lines":      loc.N("privacy.count.lines", conditionalLines(d), nil),
		"Notices":    loc.N("privacy.count.notices", len(d.Notices), nil),
		"Games":      loc.N("privacy.count.finished", len(d.Games), nil),
		"Former":     FormerPlayer})
	*tx.Reply() = bot.Reply{Private: true, Title: loc.T("privacy.ask.title", nil), Text: text, Actions: []bot.Action{{
		Label: loc.T("privacy.ask.button", nil), Style: bot.StyleDanger, Command: CmdPrivacy,
		Args: bot.Args{"action": "delete", "confirm": "yes"}}}}
	return nil
}

// erase deletes the player's data (confirmed).
func (f *feature) erase(tx *bot.Tx, req bot.Request) error {
	d, err := tx.PlayerData(req.User.ID)
	if err != nil {
		return err
	}
	loc, err := asker(tx, req)
	if err != nil {
		return err
	}
	if err := blockers(loc, d, req.User.ID); err != nil {
		return err
	}
	var b [8]byte
	_, _ = rand.Read(b[:]) // never fails (crypto/rand's documentation)
	as := storage.Seat{ID: FormerPrefix + hex.EncodeToString(b[:]), Name: FormerPlayer}
	mine := func(e *storage.OutboxEntry) bool { return addressedTo(e, req.User.ID) }
	if _, err := tx.ErasePlayer(req.User.ID, as, mine); err != nil {
		return err
	}
	notices := 0
	for _, e := range d.Notices {
		if mine(e) {
			notices++
		}
	}
	*tx.Reply() = bot.Reply{Private: true, Title: loc.T("privacy.erased.title", nil),
		Text: loc.T("privacy.erased.text", i18n.Data{
			"Ratings":    loc.N("privacy.count.ratings", len(d.Ratings), nil),
			"Challenges": loc.N("privacy.count.challenges", len(d.Challenges), nil),
			"Notices":    loc.N("privacy.count.notices", notices, nil),
			"Games":      loc.N("privacy.count.games", len(d.Games), nil),
			"Former":     FormerPlayer})}
	return nil
}
