package tournaments

import (
	"cmp"
	"context"
	"fmt"
	"math/bits"
	"slices"
	"strings"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/clock"
	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/bot/tournament"
	"github.com/missivechess/missive/bot/words"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/storage"
)

// CmdTournament is the name of /tournament.
const CmdTournament = "tournament"

// NoticeTournament is a tournament's news posted in its place: a new round,
// standings after a result, the final announcement.
const NoticeTournament bot.NoticeKind = "tournament"

// MaxNameLen is the most characters of a tournament's name.
const MaxNameLen = 80

// DefaultEventGames is how many games of a round robin a player plays at once
// unless Options.EventGames says otherwise.
const DefaultEventGames = 4

// DefaultGuildGames is how many games may be in progress in one server before round
// robins wait to start more, unless Options.GuildGames says otherwise.
const DefaultGuildGames = 500

// EventTournament is the kind of event a tournament is (bot.EventRef): the thread
// an adapter opens for its news is recorded by the feature's Threads hook.
const EventTournament bot.EventKind = "tournament"

// Options bound how many games the tournaments start at once.
type Options struct {
	// EventGames is how many games of a round robin a player plays at once (default
	// 4): the next starts when one ends, so a large event opens a bounded number of
	// threads and no clock runs for a game not yet started.
	EventGames int
	// GuildGames is how many games may be in progress in one server before a round
	// robin waits to start more (default 500, half of Discord's 1,000 active threads
	// a server, as each game has a thread and other threads need room too).
	GuildGames int
}

// feature is the tournaments feature of one service.
type feature struct {
	svc  *bot.Service
	opts Options
}

// New returns the tournaments feature of s: /tournament, and what a tournament
// game's end changes (the result, the standings, the next games), in that order
// after the ratings and before the engine matches.
func New(s *bot.Service, opts Options) bot.Feature {
	if opts.EventGames <= 0 {
		opts.EventGames = DefaultEventGames
	}
	if opts.GuildGames <= 0 {
		opts.GuildGames = DefaultGuildGames
	}
	f := &feature{svc: s, opts: opts}
	return bot.Feature{
		Commands:  []bot.Command{f.tournamentCommand()},
		GameEnded: f.gameEnded,
		Threads:   map[bot.EventKind]func(*storage.Tx, string, string) error{EventTournament: setTournamentThread},
	}
}

// gameEnded runs inside the transaction that ends a game: the tournament's
// result and next round (tournamentGameEnded), then the games of the server's
// round robins that wait for room (openWaitingGames).
func (f *feature) gameEnded(end bot.GameEnd) error {
	if err := f.tournamentGameEnded(end); err != nil {
		return err
	}
	return f.openWaitingGames(end)
}

// tournamentCommand is /tournament; create and start need the server-management
// permission, which the service checks again (Request.Admin).
func (f *feature) tournamentCommand() bot.Command {
	return bot.Command{Handle: f.cmdTournament, Spec: f.tournamentSpec().Localize(Catalogue), Complete: map[string]bot.Completer{"bank": bot.CompleteBank, "engine": f.completeTournamentEngine, "engines": f.completeEngineList}}
}

// completeEngineList suggests, for /tournament create's list of engines, the list
// typed so far with one more engine that /challenge's engine option would offer.
func (f *feature) completeEngineList(tx *storage.Tx, req bot.Request, add func(label, value string) bool) {
	typed := req.Args.Get("engines")
	cut := strings.LastIndexAny(typed, ", ") + 1 // the names before it are complete
	listed := strings.FieldsFunc(strings.ToLower(typed[:cut]), func(r rune) bool { return r == ',' || r == ' ' })
	f.svc.CompleteEngine(tx, req, func(_, name string) bool {
		if slices.Contains(listed, strings.ToLower(name)) {
			return true
		}
		list := typed[:cut] + strings.ToLower(name)
		return add(list, list)
	})
}

// completeTournamentEngine suggests, for /tournament join, the engines the
// tournament admits that can play its game at the moment; nothing when the
// tournament is not open or cannot be told from the others.
func (f *feature) completeTournamentEngine(tx *storage.Tx, req bot.Request, add func(label, value string) bool) {
	t, err := f.findTournament(tx, req)
	if err != nil || t.Status != storage.TournamentOpen {
		return
	}
	shown := map[string]string{}
	for _, name := range f.svc.EngineNames() {
		shown[strings.ToLower(name)] = name
	}
	for _, name := range t.Engines {
		if _, err := f.svc.Engine().Opponent(name, 0, t.Variant); err != nil {
			continue
		}
		if !add(cmp.Or(shown[name], name), name) {
			break
		}
	}
}

// tournamentSpec describes /tournament.
func (f *feature) tournamentSpec() bot.CommandSpec {
	variants := f.svc.VariantChoices()
	which := bot.OptionSpec{Name: "tournament", Description: "The tournament's number (needed only when several run here)", Type: bot.OptString, MaxLength: 20}
	return bot.CommandSpec{Name: CmdTournament, Contexts: []bot.Context{bot.ContextGuild}, Integrations: []bot.Integration{bot.IntegrationGuild},
		Description:  "Correspondence tournaments: create, join, leave, start, standings, info",
		AdminActions: []string{"create", "start"},
		Subcommands: []bot.CommandSpec{
			{Name: "create", Description: "Open a tournament for players to join (admins)", Options: []bot.OptionSpec{
				{Name: "variant", Description: "The game", Type: bot.OptString, Required: true, Choices: variants},
				{Name: "name", Description: "The tournament's name", Type: bot.OptString, MaxLength: MaxNameLen},
				{Name: "format", Description: "How players are paired (default: round robin)", Type: bot.OptString, Choices: []bot.OptionChoice{
					{Name: "Round robin", Value: "round-robin"}, {Name: "Double round robin", Value: "double-round-robin"}, {Name: "Swiss", Value: "swiss"}}},
				{Name: "rounds", Description: "Rounds of a Swiss (default: enough for a winner)", Type: bot.OptInteger, Min: 1, Max: tournament.SwissRoundLimit},
				bot.DaysOption(),
				bot.BankOption(),
				{Name: "allow_leave", Description: "May players' leave (/leave) freeze their clocks in its games (default: yes)", Type: bot.OptBoolean},
				{Name: "rated", Description: "Rated games (default: yes)", Type: bot.OptBoolean},
				{Name: "max", Description: "Most players (default: no limit)", Type: bot.OptInteger, Min: tournament.MinPlayers, Max: tournament.MaxPlayers},
				{Name: "engines", Description: "Engines that may enter, such as builtin (default: none)", Type: bot.OptString, MaxLength: 200, Autocomplete: true},
			}},
			{Name: "join", Description: "Join a tournament that has not started", Options: []bot.OptionSpec{
				which,
				{Name: "engine", Description: "Enter this engine instead of yourself (admins)", Type: bot.OptString, MaxLength: bot.MaxNameLen, Autocomplete: true},
				bot.LevelOption("level", "The engine's level, 1 to %d"),
			}},
			{Name: "leave", Description: "Leave a tournament, or withdraw from one under way", Options: []bot.OptionSpec{which}},
			{Name: "start", Description: "Start a tournament and pair its first round (admins)", Options: []bot.OptionSpec{which}},
			{Name: "standings", Description: "A tournament's standings", Options: []bot.OptionSpec{
				which,
				{Name: "show", Description: "A picture of the whole table (default) or text", Type: bot.OptString, Choices: []bot.OptionChoice{
					{Name: "Picture", Value: "image"}, {Name: "Text table", Value: "table"}}},
			}},
			{Name: "info", Description: "A tournament's settings and players", Options: []bot.OptionSpec{which}},
		}}
}

// cmdTournament runs /tournament.
func (f *feature) cmdTournament(ctx context.Context, req bot.Request) bot.Reply {
	switch strings.ToLower(req.Args.Get("action")) {
	case "create":
		return f.svc.Mutate(ctx, req, func(tx *bot.Tx) error { return f.tournamentCreate(tx, req) })
	case "join":
		return f.svc.Mutate(ctx, req, func(tx *bot.Tx) error { return f.tournamentJoin(tx, req) })
	case "leave":
		return f.svc.Mutate(ctx, req, func(tx *bot.Tx) error { return f.tournamentLeave(tx, req) })
	case "start":
		return f.svc.Mutate(ctx, req, func(tx *bot.Tx) error { return f.tournamentStart(tx, req) })
	case "standings":
		return f.svc.View(ctx, req, func(tx *bot.Tx) error {
			sp, err := askerSpeech(tx.Tx, req)
			if err != nil {
				return err
			}
			t, err := f.findTournament(tx.Tx, req)
			if err != nil {
				return err
			}
			r, pic, err := f.standingsReply(sp, t, strings.ToLower(req.Args.Get("show")))
			tx.SetReply(r, pic)
			return err
		})
	case "info":
		return f.svc.View(ctx, req, func(tx *bot.Tx) error {
			sp, err := askerSpeech(tx.Tx, req)
			if err != nil {
				return err
			}
			t, err := f.findTournament(tx.Tx, req)
			if err != nil {
				return err
			}
			*tx.Reply() = f.infoReply(sp, t)
			return nil
		})
	}
	return bot.Refusal(f.svc.AskerLocalizer(ctx, Catalogue, req).T("what", nil))
}

// findTournament picks the tournament a request means (see bot.FindEvent); its
// refusals are worded in the reader's language.
func (f *feature) findTournament(tx *storage.Tx, req bot.Request) (*storage.Tournament, error) {
	return bot.FindEvent(tx, req, bot.EventFinder[*storage.Tournament]{Option: "tournament", Get: (*storage.Tx).Tournament, List: (*storage.Tx).GuildTournaments,
		Info: func(t *storage.Tournament) bot.EventInfo {
			return bot.EventInfo{ID: t.ID, Name: t.Name, Guild: t.Guild, Thread: t.Thread}
		},
		NoSuch: func(raw, _ string) error {
			return refusal("find.nosuch", func(speech) i18n.Data { return i18n.Data{"ID": words.ShownID(raw)} })
		},
		NoneIn: func(l i18n.Lang) string { return speak(l).T("find.none", nil) },
		SeveralIn: func(l i18n.Lang, list string) string {
			return speak(l).T("find.several", i18n.Data{"List": list})
		}})
}

func (f *feature) tournamentCreate(tx *bot.Tx, req bot.Request) error {
	sp, err := askerSpeech(tx.Tx, req)
	if err != nil {
		return err
	}
	if err := mustAdmin(req, "create"); err != nil {
		return err
	}
	v, err := f.svc.Registry().Lookup(req.Args.Get("variant"))
	if err != nil {
		return sp.refuse("create.variant", i18n.Data{"Keys": strings.Join(f.svc.Registry().Keys(), "|")})
	}
	format := tournament.RoundRobin
	if raw := req.Args.Get("format"); raw != "" {
		if format, err = tournament.ParseFormat(raw); err != nil {
			return sp.refuse("create.format", i18n.Data{"Format": sp.quote(raw)})
		}
	}
	rounds, err := bot.IntArg(req, "rounds", 0)
	if err != nil {
		return err
	}
	if rounds > tournament.SwissRoundLimit {
		return sp.refuse("create.rounds", i18n.Data{"Most": tournament.SwissRoundLimit})
	}
	days, bank, err := bot.ClockArgs(req, clock.DefaultDays)
	if err != nil {
		return err
	}
	allowLeave, ok := bot.ParseBool(cmp.Or(req.Args.Get("allow_leave"), "yes"))
	if !ok {
		return sp.refuse("create.allowleave", nil)
	}
	rated, ok := bot.ParseBool(cmp.Or(req.Args.Get("rated"), "yes"))
	if !ok {
		return sp.refuse("create.rated", nil)
	}
	most, err := bot.IntArg(req, "max", 0)
	if err != nil {
		return err
	}
	if most == 1 || most > tournament.MaxPlayers {
		return sp.refuse("create.max", i18n.Data{"Min": tournament.MinPlayers, "Max": tournament.MaxPlayers})
	}
	var engines []string
	for _, n := range strings.FieldsFunc(strings.ToLower(req.Args.Get("engines")), func(r rune) bool { return r == ',' || r == ' ' }) {
		if n == "none" {
			continue
		}
		if f.svc.Engine() == nil {
			return sp.refuse("create.noengine", nil)
		}
		if _, err := f.svc.Engine().Opponent(n, 0, v.Key()); err != nil {
			return err // says which engines exist, or why this one cannot enter
		}
		engines = append(engines, n)
	}
	name := strings.TrimSpace(req.Args.Get("name"))
	if msg := sp.w.NameTooLong(sp.T("create.namewhat", nil), name, MaxNameLen); msg != "" {
		return bot.Refuse(bot.ErrRefused, "%s", msg)
	}
	if name == "" { // named in the server's language, as its news are (local play: the asker's)
		news := sp
		if req.Place.Guild != "" || req.GuildLocale != "" {
			if news, err = newsSpeech(tx, req.Place.Guild, req.GuildLocale, req.User.ID); err != nil {
				return err
			}
		}
		name = news.T("create.name."+string(format), i18n.Data{"Variant": f.svc.VariantNameIn(news.Lang(), v.Key())})
	}
	t := &storage.Tournament{Guild: req.Place.Guild, Channel: req.Place.Channel, Thread: req.Place.Thread, Name: name,
		Organizer: req.User.ID, Variant: v.Key(), Format: storage.TournamentFormat(format), Rounds: rounds, DaysPerMove: days,
		Bank: bank, NoLeave: !allowLeave, Rated: rated, MaxPlayers: most, Engines: engines, Status: storage.TournamentOpen}
	if err := tx.PutTournament(t); err != nil {
		return err
	}
	r := f.infoReply(sp, t)
	r.Text = sp.T("create.open", i18n.Data{"ID": t.ID}) + "\n" + r.Text
	*tx.Reply() = r
	return nil
}

func (f *feature) tournamentJoin(tx *bot.Tx, req bot.Request) error {
	sp, err := askerSpeech(tx.Tx, req)
	if err != nil {
		return err
	}
	t, err := f.findTournament(tx.Tx, req)
	if err != nil {
		return err
	}
	if t.Status != storage.TournamentOpen {
		return sp.refuse("join.started", i18n.Data{"ID": t.ID})
	}
	seat := storage.Seat{ID: req.User.ID, Name: req.User.Name}
	if req.Args.Has("level") && req.Args.Get("engine") == "" {
		return sp.refuse("join.level", nil)
	}
	if name := strings.ToLower(req.Args.Get("engine")); name != "" {
		if err := mustAdmin(req, "engine"); err != nil {
			return err
		}
		if !slices.Contains(t.Engines, name) {
			return sp.refuse("join.engine", i18n.Data{"Engine": sp.quote(name), "ID": t.ID, "Allowed": cmp.Or(strings.Join(t.Engines, ", "), sp.T("info.none", nil))})
		}
		level, err := bot.LevelArg(req, "level") // 0: the engine's default
		if err != nil {
			return err
		}
		if seat, err = f.svc.Engine().Opponent(name, level, t.Variant); err != nil {
			return err // worded in the asker's language by the kernel
		}
	}
	if slices.ContainsFunc(t.Entrants, func(en storage.Entrant) bool { return en.Player.ID == seat.ID }) {
		return sp.refuse("join.already", i18n.Data{"Player": words.Seat(seat), "ID": t.ID})
	}
	if t.MaxPlayers > 0 && len(t.Entrants) >= t.MaxPlayers || len(t.Entrants) >= tournament.MaxPlayers {
		return bot.Refuse(bot.ErrRefused, "%s", sp.N("join.full", len(t.Entrants), i18n.Data{"ID": t.ID}))
	}
	t.Entrants = append(t.Entrants, storage.Entrant{Player: seat, JoinedAt: f.svc.Now()})
	if err := tx.PutTournament(t); err != nil {
		return err
	}
	*tx.Reply() = bot.Reply{Title: t.Name, Text: sp.N("join.joined", len(t.Entrants), i18n.Data{"Player": words.Seat(seat), "ID": t.ID})}
	return nil
}

func (f *feature) tournamentLeave(tx *bot.Tx, req bot.Request) error {
	sp, err := askerSpeech(tx.Tx, req)
	if err != nil {
		return err
	}
	t, err := f.findTournament(tx.Tx, req)
	if err != nil {
		return err
	}
	i := slices.IndexFunc(t.Entrants, func(en storage.Entrant) bool { return en.Player.ID == req.User.ID })
	if i < 0 || t.Entrants[i].Withdrawn {
		return sp.refuse("leave.notin", i18n.Data{"ID": t.ID})
	}
	if t.Status == storage.TournamentOpen {
		t.Entrants = slices.Delete(t.Entrants, i, i+1)
		*tx.Reply() = bot.Reply{Title: t.Name, Text: sp.T("leave.left", i18n.Data{"Player": req.User.Name, "ID": t.ID})}
		return tx.PutTournament(t)
	}
	if t.Status != storage.TournamentRunning {
		return sp.refuse("leave.over", i18n.Data{"ID": t.ID})
	}
	return f.withdraw(tx, t, i, req, sp)
}

// withdraw takes a player out of a running tournament: a game in progress with moves
// played counts as resigned, the games not yet played are forfeited.
//
// The reply is in sp, the asker's language; the news in the server's; what the
// games' ends say, in each reader's (the thread's in the server's, a direct
// message in its player's).
func (f *feature) withdraw(tx *bot.Tx, t *storage.Tournament, i int, req bot.Request, sp speech) error {
	player := t.Entrants[i].Player
	pt, err := pairing(t)
	if err != nil {
		return err
	}
	news, err := newsSpeech(tx, t.Guild, req.GuildLocale, t.Organizer)
	if err != nil {
		return err
	}
	games, err := tx.TournamentGames(t.ID)
	if err != nil {
		return err
	}
	type ending struct {
		g    *storage.Game
		side rules.Side
		o    rules.Outcome
		text bot.Phrase
	}
	var ends []ending
	for _, sum := range games {
		g, err := tx.Game(sum.ID)
		if err != nil {
			return err
		}
		side, ok := g.SideOf(player.ID)
		if !ok || !g.Active() {
			continue
		}
		if len(g.Moves) == 0 { // forfeited below by Withdraw
			winner := words.Seat(g.Player(side.Other()))
			ends = append(ends, ending{g, side, rules.Outcome{Status: rules.Drawn, Reason: rules.Aborted}, func(l i18n.Lang) string {
				return speak(l).T("withdraw.forfeit", i18n.Data{"Player": words.Seat(player), "Winner": winner})
			}})
			continue
		}
		o := rules.Win(side.Other(), rules.Resignation)
		g.Outcome = o
		if pt, err = pt.Record(g.Round, tournament.PlayerID(g.Players[rules.White].ID), tournament.PlayerID(g.Players[rules.Black].ID), tournamentResult(g)); err != nil {
			return err
		}
		g.Outcome = rules.OngoingOutcome
		ends = append(ends, ending{g, side, o, func(l i18n.Lang) string {
			return speak(l).T("withdraw.resigned", i18n.Data{"Player": words.Seat(player)})
		}})
	}
	if pt, _, err = pt.Withdraw(tournament.PlayerID(player.ID)); err != nil {
		return err
	}
	t.Entrants[i].Withdrawn, t.Entrants[i].WithdrawnAt = true, f.svc.Now()
	if err := setPairing(t, pt); err != nil {
		return err
	}
	if err := tx.PutTournament(t); err != nil {
		return err
	}
	// Every game of the player is decided in the pairing state now, so ending the
	// stored games records nothing twice.
	for _, en := range ends {
		ge := tx.Fork()
		if err := ge.EndIn(en.g, en.side, en.o, en.text, nil); err != nil {
			return err
		}
		tx.Merge(ge)
	}
	if t, err = tx.Tournament(t.ID); err != nil {
		return err
	}
	f.postStandings(tx, news, t, pt, news.T("withdraw.news", i18n.Data{"Player": words.Seat(player)}), "withdraw/"+t.ID+"/"+player.ID)
	if err := f.advance(tx, t, req.GuildLocale); err != nil {
		return err
	}
	*tx.Reply() = bot.Reply{Title: t.Name, Text: sp.T("withdraw.reply", i18n.Data{"Player": words.Seat(player), "ID": t.ID})}
	return nil
}

func (f *feature) tournamentStart(tx *bot.Tx, req bot.Request) error {
	sp, err := askerSpeech(tx.Tx, req)
	if err != nil {
		return err
	}
	if err := mustAdmin(req, "start"); err != nil {
		return err
	}
	t, err := f.findTournament(tx.Tx, req)
	if err != nil {
		return err
	}
	if t.Status != storage.TournamentOpen {
		return sp.refuse("start.started", i18n.Data{"ID": t.ID})
	}
	if len(t.Entrants) < tournament.MinPlayers {
		return sp.refuse("start.few", i18n.Data{"ID": t.ID, "Min": tournament.MinPlayers, "Count": len(t.Entrants)})
	}
	// Seed by rating on this server, then by joining order.
	type seeded struct {
		id     string
		rating float64
	}
	seeds := make([]seeded, len(t.Entrants))
	for i, en := range t.Entrants {
		seeds[i] = seeded{id: en.Player.ID}
		if r, err := tx.Rating(t.Guild, t.Variant, en.Player.ID); err == nil {
			seeds[i].rating = r.Rating
		}
	}
	slices.SortStableFunc(seeds, func(a, b seeded) int { return cmp.Compare(b.rating, a.rating) })
	ids := make([]tournament.PlayerID, len(seeds))
	for i, sd := range seeds {
		ids[i] = tournament.PlayerID(sd.id)
	}
	rounds := t.Rounds
	if t.Format == storage.Swiss {
		most := tournament.MaxSwissRounds(len(ids))
		if rounds == 0 { // enough to find a winner, and one more
			rounds = min(most, bits.Len(uint(len(ids)-1))+1)
		}
		if rounds > most {
			return bot.Refuse(bot.ErrRefused, "%s", sp.N("start.swissrounds", len(ids), i18n.Data{"Most": most, "Rounds": rounds}))
		}
	}
	pt, err := tournament.New(tournament.Format(t.Format), ids, rounds)
	if err != nil {
		return fmt.Errorf("tournaments: starting tournament %s: %w", t.ID, err) // its settings were checked above
	}
	t.Rounds, t.Status, t.StartedAt = pt.Rounds, storage.TournamentRunning, f.svc.Now()
	if err := setPairing(t, pt); err != nil {
		return err
	}
	if err := tx.PutTournament(t); err != nil {
		return err
	}
	if pt.Format != tournament.Swiss {
		opened, err := f.openRoundRobin(tx, t, pt)
		if err != nil {
			return err
		}
		news, err := newsSpeech(tx, t.Guild, req.GuildLocale, t.Organizer)
		if err != nil {
			return err
		}
		switch {
		case len(opened) == len(pt.Games):
			f.post(tx, news, t, news.T("start.all", nil)+"\n"+f.pairingText(news, t, pt.Games), "round/"+t.ID+"/all")
		case len(opened) == 0:
			f.post(tx, news, t, news.N("start.full", f.opts.GuildGames, nil), "round/"+t.ID+"/first")
		default:
			f.post(tx, news, t, news.N("start.paced", f.opts.EventGames, nil)+"\n"+f.pairingText(news, t, opened), "round/"+t.ID+"/first")
		}
	}
	if err := f.advance(tx, t, req.GuildLocale); err != nil {
		return err
	}
	*tx.Reply() = bot.Reply{Title: t.Name, Text: sp.N("start.begun", len(ids), i18n.Data{"ID": t.ID})}
	return nil
}

// setTournamentThread records the thread an adapter opened for tournament id.
func setTournamentThread(tx *storage.Tx, id, thread string) error {
	t, err := tx.Tournament(id)
	if err != nil || t.Thread != "" {
		return err
	}
	t.Thread = thread
	return tx.PutTournament(t)
}
