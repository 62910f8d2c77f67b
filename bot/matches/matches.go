package matches

import (
	"context"
	"embed"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/bot/words"
	"github.com/missivechess/missive/engine/match"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/record"
	"github.com/missivechess/missive/storage"
)

//go:embed locales/*.yaml
var localeFiles embed.FS

// Catalogue is the engine matches' messages in every language (locales/).
var Catalogue = i18n.MustLoad("matches", localeFiles)

// CmdMatch is the name of /match.
const CmdMatch = "match"

// EventMatch is the kind of event an engine match is (bot.EventRef): the thread an
// adapter opens for a match's posts is recorded with the match.
const EventMatch bot.EventKind = "match"

// NoticeMatch is an engine match's news: a game's result, the final score.
const NoticeMatch bot.NoticeKind = "match"

// Match defaults and bounds.
const (
	DefaultMatchGames    = 10
	DefaultOpeningPlies  = 4
	MaxOpeningPlies      = 20
	DefaultMatchMaxPlies = 300
	minMatchMaxPlies     = 20
	maxMatchMaxPlies     = 2000
)

// feature is the engine matches of one service.
type feature struct{ svc *bot.Service }

// New returns the engine matches feature of s: /match, the matches' engine lane,
// the ply cap, an engine's failure reported, the result of each game and the next
// one started.
func New(s *bot.Service) bot.Feature {
	f := &feature{svc: s}
	return bot.Feature{
		Commands:     []bot.Command{f.matchCommand()},
		Lane:         matchLane,
		EngineMoved:  f.matchCap,
		EngineFailed: matchFailed,
		Threads:      map[bot.EventKind]func(*storage.Tx, string, string) error{EventMatch: setMatchThread},
		GameEnded:    f.matchGameEnded,
	}
}

// matchCommand is /match, for admins.
func (f *feature) matchCommand() bot.Command {
	return bot.Command{Handle: f.cmdMatch, Complete: map[string]bot.Completer{"first": f.svc.CompleteEngine, "second": f.svc.CompleteEngine}, Spec: f.matchSpec().Localize(Catalogue)}
}

// matchSpec describes /match in English (matchCommand localises it).
func (f *feature) matchSpec() bot.CommandSpec {
	variants := f.svc.VariantChoices()
	which := bot.OptionSpec{Name: "match", Description: "The match's number (needed only when several run here)", Type: bot.OptString, MaxLength: 20}
	return bot.CommandSpec{Name: CmdMatch, Admin: true, Contexts: []bot.Context{bot.ContextGuild}, Integrations: []bot.Integration{bot.IntegrationGuild},
		Description: "Engine matches (admins): start one in a thread, show its score, or stop it",
		Subcommands: []bot.CommandSpec{
			{Name: "start", Description: "Start an engine match in a thread of its own", Options: []bot.OptionSpec{
				{Name: "variant", Description: "The game", Type: bot.OptString, Required: true, Choices: variants},
				{Name: "first", Description: "The first engine: builtin, or a configured engine's name", Type: bot.OptString, Autocomplete: true, MaxLength: bot.MaxNameLen},
				bot.LevelOption("first_level", "The first engine's level, 1 to %d (built-in engine only)"),
				{Name: "second", Description: "The second engine (default builtin)", Type: bot.OptString, Autocomplete: true, MaxLength: bot.MaxNameLen},
				bot.LevelOption("second_level", "The second engine's level, 1 to %d (built-in engine only)"),
				{Name: "games", Description: fmt.Sprintf("How many games, colours alternating (default %d)", DefaultMatchGames), Type: bot.OptInteger, Min: 1, Max: storage.MaxMatchGames},
				{Name: "opening", Description: fmt.Sprintf("Random plies opening each pair of games (default %d)", DefaultOpeningPlies), Type: bot.OptInteger, Min: 0, Max: MaxOpeningPlies},
				{Name: "max_plies", Description: fmt.Sprintf("Adjudicate a draw after this many plies (default %d)", DefaultMatchMaxPlies), Type: bot.OptInteger, Min: minMatchMaxPlies, Max: maxMatchMaxPlies},
			}},
			{Name: "score", Description: "An engine match's score", Options: []bot.OptionSpec{which}},
			{Name: "stop", Description: "Stop an engine match", Options: []bot.OptionSpec{which}},
		}}
}

// cmdMatch runs /match.
func (f *feature) cmdMatch(ctx context.Context, req bot.Request) bot.Reply {
	switch strings.ToLower(req.Args.Get("action")) {
	case "", "start":
		return f.svc.Mutate(ctx, req, func(tx *bot.Tx) error { return f.matchStart(tx, req) })
	case "score":
		return f.svc.View(ctx, req, func(tx *bot.Tx) error {
			loc, err := asker(tx, req)
			if err != nil {
				return err
			}
			m, err := f.findMatch(tx.Tx, req)
			if err != nil {
				return err
			}
			t, err := f.tally(tx.Tx, m)
			if err != nil {
				return err
			}
			*tx.Reply() = bot.Reply{Title: matchTitle(loc, m), Text: t.report(loc, m)}
			return nil
		})
	case "stop":
		return f.svc.Mutate(ctx, req, func(tx *bot.Tx) error { return f.matchStop(tx, req) })
	}
	return bot.Refusal(f.svc.AskerLocalizer(ctx, Catalogue, req).T("match.action", nil))
}

// asker returns the localizer of the one who sent req.
func asker(tx *bot.Tx, req bot.Request) (*i18n.Localizer, error) {
	lang, err := bot.AskerLang(tx.Tx, req)
	return Catalogue.For(lang), err
}

// server returns the localizer of the posts in m's server.
func server(tx *bot.Tx, m *storage.Match, guildLocale string) (*i18n.Localizer, error) {
	return bot.ServerLocalizer(tx.Tx, Catalogue, m.Guild, guildLocale)
}

// mustAdmin is bot.MustAdminIn for verb, "start" or "stop" (the phrases
// match.admin.what.*: "start engine matches"), worded in the reader's language.
func mustAdmin(req bot.Request, verb string) error {
	return bot.MustAdminIn(req, func(l i18n.Lang) string { return Catalogue.For(l).T("match.admin.what."+verb, nil) })
}

// refusal is a refusal worded by message key in the language of whoever reads it
// (Service.Fail: the asker's).
func refusal(key string, data i18n.Data) error {
	return bot.RefuseIn(bot.ErrRefused, func(l i18n.Lang) string { return Catalogue.For(l).T(key, data) })
}

// reword says the refusal err again within the message key ("First engine: …"),
// both in the language of whoever reads it (bot.RewordIn), or is err itself when
// it is an internal failure.
func reword(err error, key string) error {
	return bot.RewordIn(err, func(l i18n.Lang, reason string) string {
		return Catalogue.For(l).T(key, i18n.Data{"Reason": reason})
	})
}

func (f *feature) matchStart(tx *bot.Tx, req bot.Request) error {
	loc, err := asker(tx, req)
	if err != nil {
		return err
	}
	if err := mustAdmin(req, "start"); err != nil {
		return err
	}
	if f.svc.Engine() == nil {
		return bot.Refuse(bot.ErrRefused, "%s", loc.T("match.noengine", nil))
	}
	v, err := f.svc.Registry().Lookup(req.Args.Get("variant"))
	if err != nil {
		return bot.Refuse(bot.ErrRefused, "%s", loc.T("match.variant", i18n.Data{"Keys": strings.Join(f.svc.Registry().Keys(), "|")}))
	}
	var seats [2]storage.Seat
	for i, who := range []string{"first", "second"} {
		level, err := bot.LevelArg(req, who+"_level") // 0: the engine's default level
		if err != nil {
			return reword(err, "match.engine."+who)
		}
		name := req.Args.Get(who)
		if name == "" {
			name = "builtin"
		}
		if seats[i], err = f.svc.Engine().Opponent(name, level, v.Key()); err != nil {
			return reword(err, "match.engine."+who)
		}
	}
	if seats[0].ID == seats[1].ID {
		return bot.Refuse(bot.ErrRefused, "%s", loc.T("match.same", i18n.Data{"Engine": words.Seat(seats[0])}))
	}
	games, err := bot.BoundedArg(req, "games", DefaultMatchGames, 1, storage.MaxMatchGames)
	if err != nil {
		return err
	}
	opening, err := bot.BoundedArg(req, "opening", DefaultOpeningPlies, 0, MaxOpeningPlies)
	if err != nil {
		return err
	}
	maxPlies, err := bot.BoundedArg(req, "max_plies", DefaultMatchMaxPlies, minMatchMaxPlies, maxMatchMaxPlies)
	if err != nil {
		return err
	}
	m := &storage.Match{Guild: req.Place.Guild, Channel: req.Place.Channel, Thread: req.Place.Thread,
		Name: words.Clip(fmt.Sprintf("%s vs %s", words.Seat(seats[0]), words.Seat(seats[1])), 80), Organizer: req.User.ID,
		Variant: v.Key(), Players: seats, Games: games, Seed: f.svc.Rand(), OpeningPlies: opening, MaxPlies: maxPlies,
		Status: storage.MatchRunning, StartedAt: f.svc.Now()}
	if err := tx.PutMatch(m); err != nil {
		return err
	}
	g, err := f.startMatchGame(tx, m)
	if err != nil {
		return err
	}
	_, placement := record.Round(g.Position)
	about := func(loc *i18n.Localizer) string {
		openings := loc.N("match.openings.random", opening, nil)
		if placement {
			openings = loc.T("match.openings.placement", nil)
		} else if opening == 0 {
			openings = loc.T("match.openings.usual", nil)
		}
		return loc.N("match.about", games, i18n.Data{"Title": matchTitle(loc, m), "Variant": f.variantName(loc, m.Variant),
			"Openings": openings, "MaxPlies": maxPlies})
	}
	post, err := server(tx, m, req.GuildLocale)
	if err != nil {
		return err
	}
	postMatch(tx, post, m, post.T("match.begins", i18n.Data{"ID": m.ID, "About": about(post)})+"\n"+nextGame(post, g), "begin", nil, nil)
	*tx.Reply() = bot.Reply{Title: matchTitle(loc, m), Text: loc.T("match.begun", i18n.Data{"ID": m.ID, "About": about(loc)})}
	return nil
}

// variantName is the display name of variant key in loc's language.
func (f *feature) variantName(loc *i18n.Localizer, key string) string {
	return f.svc.VariantNameIn(loc.Lang(), key)
}

// nextGame announces game g of a match: "Game 2: alice (white) – bob (black)."
func nextGame(loc *i18n.Localizer, g *storage.Game) string {
	w := words.In(loc.Lang())
	return loc.T("match.next", i18n.Data{"Round": g.Round, "White": w.Seated(g.Players[rules.White], rules.White),
		"Black": w.Seated(g.Players[rules.Black], rules.Black)})
}

// findMatch picks the match a request means (see bot.FindEvent); its refusals
// are worded in the reader's language.
func (f *feature) findMatch(tx *storage.Tx, req bot.Request) (*storage.Match, error) {
	return bot.FindEvent(tx, req, bot.EventFinder[*storage.Match]{Option: "match", Get: (*storage.Tx).Match, List: (*storage.Tx).GuildMatches,
		Info: func(m *storage.Match) bot.EventInfo {
			return bot.EventInfo{ID: m.ID, Name: m.Name, Guild: m.Guild, Thread: m.Thread}
		},
		NoSuch: func(_, id string) error { return refusal("match.nosuch", i18n.Data{"ID": words.ShownID(id)}) },
		NoneIn: func(l i18n.Lang) string { return Catalogue.For(l).T("match.none", nil) },
		SeveralIn: func(l i18n.Lang, list string) string {
			return Catalogue.For(l).T("match.several", i18n.Data{"List": list})
		}})
}

// matchTitle is a heading such as "Match 3 · Missive engine (level 2) vs fairymax".
func matchTitle(loc *i18n.Localizer, m *storage.Match) string {
	return loc.T("match.title", i18n.Data{"ID": m.ID, "Name": m.Name})
}

// startMatchGame creates the next game of m and records it in m.
func (f *feature) startMatchGame(tx *bot.Tx, m *storage.Match) (*storage.Game, error) {
	n := len(m.GameIDs) + 1
	white, black := match.Seats(n-1, m.Players[0], m.Players[1])
	v, err := f.svc.Registry().Lookup(m.Variant)
	if err != nil {
		return nil, err
	}
	// The game starts after the pair's opening; "" is the variant's usual start.
	start := ""
	o := match.NewOpening(v, m.Seed, (n-1)/2, m.OpeningPlies)
	if _, placement := o.Start.(rules.Simultaneous); placement || m.OpeningPlies > 0 {
		pos, err := o.Position()
		if err != nil {
			return nil, fmt.Errorf("matches: match opening: %w", err)
		}
		start = pos.String()
	}
	ge := tx.Fork()
	g, err := ge.CreateGame(bot.NewGame{Variant: m.Variant, White: white, Black: black,
		Place: bot.Place{Guild: m.Guild, Channel: m.Channel}, DaysPerMove: 1, Start: start, Match: m.ID, Round: n}, "", nil)
	if err != nil {
		return nil, err
	}
	tx.Merge(ge)
	m.GameIDs = append(m.GameIDs, g.ID)
	return g, tx.PutMatch(m)
}

// matchTally is a match's score from its first player's side and its finished games.
type matchTally struct {
	score match.Record
	games []*storage.Game // the decided games, in order
	live  *storage.Game   // the game in progress, if any
	think [2]thinkTime    // of m.Players[0] and [1], over the decided games
}

// thinkTime is how long a match player took for its moves: each from the entry
// before it (a game's first from the game's start), which is its engine's
// thinking plus the bot's own work of storing and showing a move.
type thinkTime struct {
	moves          int
	total, longest time.Duration
}

// add counts the moves the player id made in g, whose history is h.
func (t *thinkTime) add(g *storage.Game, h *record.History, id string) {
	for _, st := range h.Steps {
		if st.Simultaneous || g.Player(st.Side).ID != id {
			continue // the other player's, or a placement choice (made together, not in turn)
		}
		at, prev := g.Moves[st.Index].At, g.CreatedAt
		if st.Index > 0 {
			prev = g.Moves[st.Index-1].At
		}
		if at.IsZero() || prev.IsZero() || at.Before(prev) {
			continue
		}
		d := at.Sub(prev)
		t.moves++
		t.total += d
		t.longest = max(t.longest, d)
	}
}

// text says the average and longest time, such as "1.25 s on average, at most 2.00 s".
func (t thinkTime) text(loc *i18n.Localizer) string {
	avg := t.total / time.Duration(t.moves)
	return loc.T("match.think", i18n.Data{"Average": decimal(loc, avg.Seconds(), 2), "Longest": decimal(loc, t.longest.Seconds(), 2)})
}

// decimal writes x with prec decimals, with the decimal point of loc's language
// (a comma in every language Missive speaks but English).
func decimal(loc *i18n.Localizer, x float64, prec int) string {
	s := strconv.FormatFloat(x, 'f', prec, 64)
	if loc.Lang() != i18n.English {
		s = strings.Replace(s, ".", ",", 1)
	}
	return s
}

// tally reads the games of m.
func (f *feature) tally(tx *storage.Tx, m *storage.Match) (matchTally, error) {
	var t matchTally
	for _, id := range m.GameIDs {
		g, err := tx.Game(id)
		if err != nil {
			return t, err
		}
		switch {
		case g.Active():
			t.live = g
			continue
		case g.Outcome.Reason == rules.Aborted:
			continue
		}
		first := rules.White
		if g.Players[rules.White].ID != m.Players[0].ID {
			first = rules.Black
		}
		t.score.Add(g.Outcome, first)
		t.games = append(t.games, g)
		h, err := g.History(f.svc.Registry())
		if err != nil {
			return t, err
		}
		for i, p := range m.Players {
			t.think[i].add(g, h, p.ID)
		}
	}
	return t, nil
}

// result is the PGN result of o: "*" for an aborted game, which has none.
func result(o rules.Outcome) string {
	if o.Reason == rules.Aborted {
		return "*"
	}
	return o.Result()
}

// half writes a score with ½ for a half point, such as "2½".
func half(p float64) string {
	whole := math.Floor(p)
	switch {
	case p == whole:
		return strconv.Itoa(int(whole))
	case whole == 0:
		return "½"
	}
	return strconv.Itoa(int(whole)) + "½"
}

// scoreLine says the score, such as "Score: A 2½ – B 1½ (+2 =1 -1)".
func (t matchTally) scoreLine(loc *i18n.Localizer, m *storage.Match) string {
	a := t.score.Points()
	b := float64(t.score.Games()) - a
	return loc.T("match.score", i18n.Data{"First": words.Seat(m.Players[0]), "FirstPoints": half(a), "SecondPoints": half(b),
		"Second": words.Seat(m.Players[1]), "Wins": t.score.Wins, "Draws": t.score.Draws, "Losses": t.score.Losses})
}

// eloText writes the Elo difference of record r for people, first being the first
// player's name, as match.Record.EloText does in English.
func eloText(loc *i18n.Localizer, r match.Record, first string) string {
	e, err := r.Elo()
	switch {
	case err != nil:
		return loc.T("match.elo.unknown", nil)
	case math.IsInf(e.Diff, 0):
		did, bound := "won", match.EloDifference(math.Pow(0.025, 1/float64(r.Games()))) // match's sweep bound
		if e.Diff < 0 {
			did, bound = "lost", -bound
		}
		if bound*e.Diff <= 0 { // too few games for the bound to be on the winner's side
			return loc.T("match.elo."+did+".more", i18n.Data{"First": first})
		}
		return loc.T("match.elo."+did+".bound", i18n.Data{"First": first, "Bound": fmt.Sprintf("%+.0f", bound)})
	case r.Draws == r.Games():
		return loc.T("match.elo.drawn", nil)
	case math.IsInf(e.Margin, 0):
		return loc.T("match.elo.wide", i18n.Data{"Diff": fmt.Sprintf("%+.0f", e.Diff)})
	}
	return loc.T("match.elo.estimate", i18n.Data{"Diff": fmt.Sprintf("%+.0f", e.Diff), "Margin": fmt.Sprintf("%.0f", e.Margin),
		"LOS": decimal(loc, 100*e.LOS, 1)})
}

// report is the match's state for /match score and the final announcement, in
// loc's language.
func (t matchTally) report(loc *i18n.Localizer, m *storage.Match) string {
	w := words.In(loc.Lang())
	var b strings.Builder
	switch m.Status {
	case storage.MatchRunning:
		b.WriteString(loc.N("match.report.running", m.Games, i18n.Data{"Played": len(t.games)}))
		if t.live != nil {
			b.WriteString(loc.N("match.report.live", len(t.live.Moves), i18n.Data{"Game": t.live.ID, "Round": t.live.Round, "Games": m.Games}))
		}
		b.WriteString(".\n")
	case storage.MatchStopped:
		b.WriteString(loc.N("match.report.stopped", m.Games, i18n.Data{"Played": len(t.games)}) + "\n")
	default:
		if len(t.games) == 1 {
			b.WriteString(loc.T("match.report.one", nil) + "\n")
		} else {
			b.WriteString(loc.N("match.report.all", len(t.games), nil) + "\n")
		}
	}
	b.WriteString(t.scoreLine(loc, m))
	first := words.Seat(m.Players[0])
	if t.score.Games() > 0 {
		b.WriteString("\n" + loc.T("match.elo", i18n.Data{"First": first, "Elo": eloText(loc, t.score, first)}))
	}
	if t.think[0].moves > 0 && t.think[1].moves > 0 {
		b.WriteString("\n" + loc.T("match.time", i18n.Data{"First": first, "FirstTime": t.think[0].text(loc),
			"Second": words.Seat(m.Players[1]), "SecondTime": t.think[1].text(loc)}))
	}
	for _, g := range t.games {
		b.WriteString("\n" + loc.N("match.report.game", len(g.Moves), i18n.Data{"Round": g.Round, "White": words.Seat(g.Players[rules.White]),
			"Black": words.Seat(g.Players[rules.Black]), "Result": result(g.Outcome), "Outcome": w.Outcome(g.Players, g.Outcome)}))
	}
	return b.String()
}

// matchGameEnded runs inside the transaction that ends a game: for a game of a
// match, it posts the result and starts the next game, or ends the match after the
// last.
func (f *feature) matchGameEnded(end bot.GameEnd) error {
	tx, g := end.Tx, end.Game
	if g.Match == "" {
		return nil
	}
	m, err := tx.Match(g.Match)
	if err != nil || !m.Active() {
		return err // a stopped match posts its own summary
	}
	t, err := f.tally(tx.Tx, m)
	if err != nil {
		return err
	}
	loc, err := server(tx, m, "")
	if err != nil {
		return err
	}
	img, err := tx.BoardIn(loc.Lang(), g, rules.White, false) // described in the post's language
	if err != nil {
		return err
	}
	w := words.In(loc.Lang())
	text := loc.N("match.ended", len(g.Moves), i18n.Data{"Round": g.Round, "Games": m.Games,
		"White": w.Seated(g.Players[rules.White], rules.White), "Black": w.Seated(g.Players[rules.Black], rules.Black),
		"Result": result(g.Outcome), "Outcome": w.Outcome(g.Players, g.Outcome)}) + "\n" + t.scoreLine(loc, m)
	if len(m.GameIDs) < m.Games {
		next, err := f.startMatchGame(tx, m)
		if err != nil {
			return err
		}
		text += "\n" + nextGame(loc, next)
		postMatch(tx, loc, m, text, "game/"+g.ID, nil, img)
		return nil
	}
	postMatch(tx, loc, m, text, "game/"+g.ID, nil, img)
	m.Status, m.FinishedAt = storage.MatchFinished, f.svc.Now()
	if err := tx.PutMatch(m); err != nil {
		return err
	}
	return f.matchFinal(tx, loc, m, t, loc.T("match.over", nil))
}

// matchFinal posts the final score with the PGN of every decided game, in loc's
// language (the server's), head first.
func (f *feature) matchFinal(tx *bot.Tx, loc *i18n.Localizer, m *storage.Match, t matchTally, head string) error {
	var pgn strings.Builder
	for _, g := range t.games {
		p, err := f.svc.PGN(g)
		if err != nil {
			return err
		}
		pgn.WriteString(p)
		pgn.WriteString("\n")
	}
	var files []bot.File
	if pgn.Len() > 0 {
		files = []bot.File{{Name: fmt.Sprintf("match-%s.pgn", m.ID), ContentType: "application/x-chess-pgn", Data: []byte(pgn.String()),
			Alt: loc.N("match.pgn", len(t.games), i18n.Data{"ID": m.ID})}}
	}
	postMatch(tx, loc, m, head+"\n"+t.report(loc, m), "final", files, nil)
	return nil
}

func (f *feature) matchStop(tx *bot.Tx, req bot.Request) error {
	loc, err := asker(tx, req)
	if err != nil {
		return err
	}
	if err := mustAdmin(req, "stop"); err != nil {
		return err
	}
	m, err := f.findMatch(tx.Tx, req)
	if err != nil {
		return err
	}
	if !m.Active() {
		return bot.Refuse(bot.ErrRefused, "%s", loc.T("match.already", i18n.Data{"ID": m.ID}))
	}
	post, err := server(tx, m, req.GuildLocale)
	if err != nil {
		return err
	}
	m.Status, m.FinishedAt = storage.MatchStopped, f.svc.Now()
	if err := tx.PutMatch(m); err != nil {
		return err
	}
	t, err := f.tally(tx.Tx, m)
	if err != nil {
		return err
	}
	if g := t.live; g != nil {
		ge := tx.Fork()
		if err := ge.EndIn(g, rules.White, rules.Outcome{Status: rules.Drawn, Reason: rules.Aborted}, func(l i18n.Lang) string {
			return Catalogue.For(l).T("match.stopped.game", i18n.Data{"Name": req.User.Name})
		}, nil); err != nil {
			return err
		}
		tx.Merge(ge) // its notices, not its reply
		t.live = nil
	}
	head := func(loc *i18n.Localizer) string { return loc.T("match.stopped", i18n.Data{"Name": req.User.Name}) }
	if err := f.matchFinal(tx, post, m, t, head(post)); err != nil {
		return err
	}
	*tx.Reply() = bot.Reply{Title: matchTitle(loc, m), Text: head(loc) + "\n" + t.report(loc, m)}
	return nil
}

// postMatch tells the match's place something, with an attachment or a board;
// loc is the server's language, which the post is written in.
func postMatch(tx *bot.Tx, loc *i18n.Localizer, m *storage.Match, text, key string, files []bot.File, img *bot.Picture) {
	tx.Send(bot.Notification{Key: "match/" + m.ID + "/" + key, Kind: NoticeMatch, Channel: true,
		To:    bot.User{Name: loc.T("match.to", i18n.Data{"ID": m.ID})},
		Game:  &bot.GameRef{Place: bot.Place{Guild: m.Guild, Channel: m.Channel, Thread: m.Thread}},
		Event: &bot.EventRef{Kind: EventMatch, ID: m.ID, Name: matchTitle(loc, m)},
		Reply: bot.Reply{Title: matchTitle(loc, m), Text: text, Files: files}}, img)
}

// matchCap ends g, a match game just moved in, as a draw by adjudication when it
// has reached its match's ply cap.
func (f *feature) matchCap(tx *bot.Tx, g *storage.Game, side rules.Side) error {
	if g.Match == "" || !g.Active() {
		return nil
	}
	m, err := tx.Match(g.Match)
	if err != nil {
		return err
	}
	// Placement choices count too: engines that keep choosing the same cell would
	// otherwise never leave the placement phase.
	o, capped := match.Adjudicate(len(g.Moves), m.MaxPlies)
	if !capped {
		return nil
	}
	return tx.EndIn(g, side, o, func(l i18n.Lang) string { return Catalogue.For(l).N("match.cap", m.MaxPlies, nil) }, nil)
}

// setMatchThread records the thread an adapter opened for match id.
func setMatchThread(tx *storage.Tx, id, thread string) error {
	m, err := tx.Match(id)
	if err != nil || m.Thread != "" {
		return err
	}
	m.Thread = thread
	return tx.PutMatch(m)
}

// matchLane claims an engine match's games for the matches' own engine lane.
func matchLane(g *storage.Game) (bot.Lane, bool) {
	if g.Match == "" {
		return bot.Lane{}, false
	}
	return bot.Lane{Plies: maxMatchMaxPlies + 8}, true
}

// matchFailed reports in the match's place that g's engine lost it by failing.
func matchFailed(tx *bot.Tx, g *storage.Game, report string) error {
	if g.Match == "" {
		return nil
	}
	m, err := tx.Match(g.Match)
	if err != nil {
		return err
	}
	loc, err := server(tx, m, "")
	if err != nil {
		return err
	}
	postMatch(tx, loc, m, loc.T("match.failed", i18n.Data{"Round": g.Round, "Report": report}), "failed/"+g.ID, nil, nil)
	return nil
}
