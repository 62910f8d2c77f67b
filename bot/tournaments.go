package bot

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/bits"
	"slices"
	"strconv"
	"strings"

	"github.com/missivechess/missive/bot/clock"
	"github.com/missivechess/missive/bot/tournament"
	"github.com/missivechess/missive/bot/words"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/storage"
)

// NoticeTournament is a tournament's news posted in its place: a new round,
// standings after a result, the final announcement.
const NoticeTournament NoticeKind = "tournament"

// tournamentCommand is /tournament; create and start need the server-management
// permission, which the service checks again (Request.Admin).
func (s *Service) tournamentCommand() Command {
	return Command{Handle: s.cmdTournament, Spec: s.tournamentSpec(), Complete: map[string]Completer{"bank": CompleteBank, "engine": s.completeTournamentEngine, "engines": s.completeEngineList}}
}

// completeEngineList suggests, for /tournament create's list of engines, the list
// typed so far with one more engine that /challenge's engine option would offer.
func (s *Service) completeEngineList(tx *storage.Tx, req Request, add func(label, value string) bool) {
	typed := req.Args.Get("engines")
	cut := strings.LastIndexAny(typed, ", ") + 1 // the names before it are complete
	listed := strings.FieldsFunc(strings.ToLower(typed[:cut]), func(r rune) bool { return r == ',' || r == ' ' })
	s.CompleteEngine(tx, req, func(_, name string) bool {
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
func (s *Service) completeTournamentEngine(tx *storage.Tx, req Request, add func(label, value string) bool) {
	t, err := s.findTournament(tx, req)
	if err != nil || t.Status != storage.TournamentOpen {
		return
	}
	shown := map[string]string{}
	for _, name := range s.EngineNames() {
		shown[strings.ToLower(name)] = name
	}
	for _, name := range t.Engines {
		if _, err := s.engine.Opponent(name, 0, t.Variant); err != nil {
			continue
		}
		if !add(cmp.Or(shown[name], name), name) {
			break
		}
	}
}

// tournamentSpec describes /tournament.
func (s *Service) tournamentSpec() CommandSpec {
	variants, days := s.VariantChoices(), DaysChoices()
	which := OptionSpec{Name: "tournament", Description: "The tournament's number (needed only when several run here)", Type: OptString, MaxLength: 20}
	return CommandSpec{Name: CmdTournament, Contexts: []Context{ContextGuild}, Integrations: []Integration{IntegrationGuild},
		Description:  "Correspondence tournaments: create, join, leave, start, standings, info",
		AdminActions: []string{"create", "start"},
		Subcommands: []CommandSpec{
			{Name: "create", Description: "Open a tournament for players to join (admins)", Options: []OptionSpec{
				{Name: "variant", Description: "The game", Type: OptString, Required: true, Choices: variants},
				{Name: "name", Description: "The tournament's name", Type: OptString, MaxLength: MaxTournamentNameLen},
				{Name: "format", Description: "How players are paired (default: round robin)", Type: OptString, Choices: []OptionChoice{
					{"Round robin", "round-robin"}, {"Double round robin", "double-round-robin"}, {"Swiss", "swiss"}}},
				{Name: "rounds", Description: "Rounds of a Swiss (default: enough for a winner)", Type: OptInteger, Min: 1, Max: tournament.SwissRoundLimit},
				{Name: "days", Description: "Days per move (default 3)", Type: OptInteger, Choices: days},
				BankOption(),
				{Name: "allow_leave", Description: "May players' leave (/leave) freeze their clocks in its games (default: yes)", Type: OptBoolean},
				{Name: "rated", Description: "Rated games (default: yes)", Type: OptBoolean},
				{Name: "max", Description: "Most players (default: no limit)", Type: OptInteger, Min: tournament.MinPlayers, Max: tournament.MaxPlayers},
				{Name: "engines", Description: "Engines that may enter, such as builtin (default: none)", Type: OptString, MaxLength: 200, Autocomplete: true},
			}},
			{Name: "join", Description: "Join a tournament that has not started", Options: []OptionSpec{
				which,
				{Name: "engine", Description: "Enter this engine instead of yourself (admins)", Type: OptString, MaxLength: MaxNameLen, Autocomplete: true},
				{Name: "level", Description: "The engine's level, 1 to 8", Type: OptInteger, Min: 1, Max: 8},
			}},
			{Name: "leave", Description: "Leave a tournament, or withdraw from one under way", Options: []OptionSpec{which}},
			{Name: "start", Description: "Start a tournament and pair its first round (admins)", Options: []OptionSpec{which}},
			{Name: "standings", Description: "A tournament's standings", Options: []OptionSpec{
				which,
				{Name: "show", Description: "A picture of the whole table (default) or text", Type: OptString, Choices: []OptionChoice{
					{"Picture", "image"}, {"Text table", "table"}}},
			}},
			{Name: "info", Description: "A tournament's settings and players", Options: []OptionSpec{which}},
		}}
}

// cmdTournament runs /tournament.
func (s *Service) cmdTournament(ctx context.Context, req Request) Reply {
	switch strings.ToLower(req.Args.Get("action")) {
	case "create":
		return s.mutate(ctx, req, func(tx *storage.Tx, e *effects) error { return s.tournamentCreate(tx, e, req) })
	case "join":
		return s.mutate(ctx, req, func(tx *storage.Tx, e *effects) error { return s.tournamentJoin(tx, e, req) })
	case "leave":
		return s.mutate(ctx, req, func(tx *storage.Tx, e *effects) error { return s.tournamentLeave(tx, e, req) })
	case "start":
		return s.mutate(ctx, req, func(tx *storage.Tx, e *effects) error { return s.tournamentStart(tx, e, req) })
	case "standings":
		return s.view(ctx, req, func(tx *storage.Tx, e *effects) error {
			t, err := s.findTournament(tx, req)
			if err != nil {
				return err
			}
			e.reply, e.image, err = s.standingsReply(t, strings.ToLower(req.Args.Get("show")))
			return err
		})
	case "info":
		return s.view(ctx, req, func(tx *storage.Tx, e *effects) error {
			t, err := s.findTournament(tx, req)
			if err != nil {
				return err
			}
			e.reply = s.infoReply(t)
			return nil
		})
	}
	return Refusal("Say what to do: /tournament create, /tournament join, /tournament leave, /tournament start, /tournament standings or /tournament info.")
}

// findTournament picks the tournament a request means (see findEvent).
func (s *Service) findTournament(tx *storage.Tx, req Request) (*storage.Tournament, error) {
	return FindEvent(tx, req, EventFinder[*storage.Tournament]{Option: "tournament", Get: (*storage.Tx).Tournament, List: (*storage.Tx).GuildTournaments,
		Info: func(t *storage.Tournament) EventInfo { return EventInfo{t.ID, t.Name, t.Guild, t.Thread} },
		NoSuch: func(raw, _ string) error {
			return Refuse(ErrRefused, "There is no tournament %s on this server; /tournament info lists them.", words.ShownID(raw))
		},
		None:    "No tournament is open or running here; an admin can create one with /tournament create.",
		Several: "Several tournaments run here: %s. Name one with tournament:NUMBER."})
}

func (s *Service) tournamentCreate(tx *storage.Tx, e *effects, req Request) error {
	if err := MustAdmin(req, "create a tournament"); err != nil {
		return err
	}
	v, err := s.reg.Lookup(req.Args.Get("variant"))
	if err != nil {
		return Refuse(ErrRefused, "Name the game: variant:%s.", strings.Join(s.reg.Keys(), "|"))
	}
	format := tournament.RoundRobin
	if f := req.Args.Get("format"); f != "" {
		if format, err = tournament.ParseFormat(f); err != nil {
			return Refuse(ErrRefused, "The format must be round-robin, double-round-robin or swiss, not %q.", f)
		}
	}
	rounds, err := IntArg(req, "rounds", 0)
	if err != nil {
		return err
	}
	if rounds > tournament.SwissRoundLimit {
		return Refuse(ErrRefused, "A Swiss can have at most %d rounds.", tournament.SwissRoundLimit)
	}
	days, bank, err := ClockArgs(req, clock.DefaultDays)
	if err != nil {
		return err
	}
	allowLeave, ok := ParseBool(cmp.Or(req.Args.Get("allow_leave"), "yes"))
	if !ok {
		return Refuse(ErrRefused, "allow_leave must be yes or no.")
	}
	rated, ok := ParseBool(cmp.Or(req.Args.Get("rated"), "yes"))
	if !ok {
		return Refuse(ErrRefused, "rated must be yes or no.")
	}
	most, err := IntArg(req, "max", 0)
	if err != nil {
		return err
	}
	if most == 1 || most > tournament.MaxPlayers {
		return Refuse(ErrRefused, "A tournament takes %d to %d players.", tournament.MinPlayers, tournament.MaxPlayers)
	}
	var engines []string
	for _, n := range strings.FieldsFunc(strings.ToLower(req.Args.Get("engines")), func(r rune) bool { return r == ',' || r == ' ' }) {
		if n == "none" {
			continue
		}
		if s.engine == nil {
			return Refuse(ErrRefused, "No engine is set up here, so no engine can enter.")
		}
		if _, err := s.engine.Opponent(n, 0, v.Key()); err != nil {
			return err // says which engines exist, or why this one cannot enter
		}
		engines = append(engines, n)
	}
	name := strings.TrimSpace(req.Args.Get("name"))
	if msg := words.NameTooLong("A tournament's name", name, MaxTournamentNameLen); msg != "" {
		return Refuse(ErrRefused, "%s", msg)
	}
	if name == "" {
		name = v.Name() + " " + strings.ReplaceAll(string(format), "-", " ")
	}
	t := &storage.Tournament{Guild: req.Place.Guild, Channel: req.Place.Channel, Thread: req.Place.Thread, Name: name,
		Organizer: req.User.ID, Variant: v.Key(), Format: storage.TournamentFormat(format), Rounds: rounds, DaysPerMove: days,
		Bank: bank, NoLeave: !allowLeave, Rated: rated, MaxPlayers: most, Engines: engines, Status: storage.TournamentOpen}
	if err := tx.PutTournament(t); err != nil {
		return err
	}
	e.reply = s.infoReply(t)
	e.reply.Text = fmt.Sprintf("Tournament %s is open: join with /tournament join tournament:%s.\n", t.ID, t.ID) + e.reply.Text
	return nil
}

func (s *Service) tournamentJoin(tx *storage.Tx, e *effects, req Request) error {
	t, err := s.findTournament(tx, req)
	if err != nil {
		return err
	}
	if t.Status != storage.TournamentOpen {
		return Refuse(ErrRefused, "Tournament %s has already started; it takes no more players.", t.ID)
	}
	seat := storage.Seat{ID: req.User.ID, Name: req.User.Name}
	if req.Args.Has("level") && req.Args.Get("engine") == "" {
		return Refuse(ErrRefused, "A level is the strength of an engine you enter; you join without one. To enter the engine, name it: engine:builtin level:N.")
	}
	if name := strings.ToLower(req.Args.Get("engine")); name != "" {
		if err := MustAdmin(req, "enter an engine in a tournament"); err != nil {
			return err
		}
		if !slices.Contains(t.Engines, name) {
			return Refuse(ErrRefused, "Engine %q may not enter tournament %s (allowed: %s).", name, t.ID, cmp.Or(strings.Join(t.Engines, ", "), "none"))
		}
		level, err := LevelArg(req, "level") // 0: the engine's default
		if err != nil {
			return err
		}
		if seat, err = s.engine.Opponent(name, level, t.Variant); err != nil {
			return Reword(err, "")
		}
	}
	if slices.ContainsFunc(t.Entrants, func(en storage.Entrant) bool { return en.Player.ID == seat.ID }) {
		return Refuse(ErrRefused, "%s is already in tournament %s.", words.Seat(seat), t.ID)
	}
	if t.MaxPlayers > 0 && len(t.Entrants) >= t.MaxPlayers || len(t.Entrants) >= tournament.MaxPlayers {
		return Refuse(ErrRefused, "Tournament %s is full (%d players).", t.ID, len(t.Entrants))
	}
	t.Entrants = append(t.Entrants, storage.Entrant{Player: seat, JoinedAt: s.Now()})
	if err := tx.PutTournament(t); err != nil {
		return err
	}
	e.reply = Reply{Title: t.Name, Text: fmt.Sprintf("%s joined tournament %s (%s).", words.Seat(seat), t.ID, words.Plural(len(t.Entrants), "player"))}
	return nil
}

func (s *Service) tournamentLeave(tx *storage.Tx, e *effects, req Request) error {
	t, err := s.findTournament(tx, req)
	if err != nil {
		return err
	}
	i := slices.IndexFunc(t.Entrants, func(en storage.Entrant) bool { return en.Player.ID == req.User.ID })
	if i < 0 || t.Entrants[i].Withdrawn {
		return Refuse(ErrRefused, "You are not playing in tournament %s.", t.ID)
	}
	if t.Status == storage.TournamentOpen {
		t.Entrants = slices.Delete(t.Entrants, i, i+1)
		e.reply = Reply{Title: t.Name, Text: fmt.Sprintf("%s left tournament %s.", req.User.Name, t.ID)}
		return tx.PutTournament(t)
	}
	if t.Status != storage.TournamentRunning {
		return Refuse(ErrRefused, "Tournament %s is over.", t.ID)
	}
	return s.withdraw(tx, e, t, i, req)
}

// withdraw takes a player out of a running tournament: a game in progress with moves
// played counts as resigned, the games not yet played are forfeited.
func (s *Service) withdraw(tx *storage.Tx, e *effects, t *storage.Tournament, i int, req Request) error {
	player := t.Entrants[i].Player
	pt, err := pairing(t)
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
		text string
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
			ends = append(ends, ending{g, side, rules.Outcome{Status: rules.Drawn, Reason: rules.Aborted},
				fmt.Sprintf("%s withdrew from the tournament before this game began; %s wins it by forfeit.", words.Seat(player), words.Seat(g.Player(side.Other())))})
			continue
		}
		o := rules.Win(side.Other(), rules.Resignation)
		g.Outcome = o
		if pt, err = pt.Record(g.Round, tournament.PlayerID(g.Players[rules.White].ID), tournament.PlayerID(g.Players[rules.Black].ID), tournamentResult(g)); err != nil {
			return err
		}
		g.Outcome = rules.OngoingOutcome
		ends = append(ends, ending{g, side, o, fmt.Sprintf("%s withdrew from the tournament and resigned.", words.Seat(player))})
	}
	if pt, _, err = pt.Withdraw(tournament.PlayerID(player.ID)); err != nil {
		return err
	}
	t.Entrants[i].Withdrawn, t.Entrants[i].WithdrawnAt = true, s.Now()
	if err := setPairing(t, pt); err != nil {
		return err
	}
	if err := tx.PutTournament(t); err != nil {
		return err
	}
	// Every game of the player is decided in the pairing state now, so ending the
	// stored games records nothing twice.
	for _, en := range ends {
		var ge effects
		if err := s.end(tx, &ge, en.g, en.side, en.o, en.text, nil); err != nil {
			return err
		}
		merge(e, &ge)
	}
	if t, err = tx.Tournament(t.ID); err != nil {
		return err
	}
	s.postStandings(e, t, pt, fmt.Sprintf("%s withdrew; the games not played are forfeited.", words.Seat(player)), "withdraw/"+t.ID+"/"+player.ID)
	if err := s.advance(tx, e, t); err != nil {
		return err
	}
	e.reply = Reply{Title: t.Name, Text: fmt.Sprintf("%s withdrew from tournament %s; the games not played are forfeited.", words.Seat(player), t.ID)}
	return nil
}

func (s *Service) tournamentStart(tx *storage.Tx, e *effects, req Request) error {
	if err := MustAdmin(req, "start a tournament"); err != nil {
		return err
	}
	t, err := s.findTournament(tx, req)
	if err != nil {
		return err
	}
	if t.Status != storage.TournamentOpen {
		return Refuse(ErrRefused, "Tournament %s has already started.", t.ID)
	}
	if len(t.Entrants) < tournament.MinPlayers {
		return Refuse(ErrRefused, "Tournament %s needs at least %d players to start; it has %d.", t.ID, tournament.MinPlayers, len(t.Entrants))
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
			return Refuse(ErrRefused, "A Swiss of %d players can have at most %d rounds without rematches, not %d; wait for more players.", len(ids), most, rounds)
		}
	}
	pt, err := tournament.New(tournament.Format(t.Format), ids, rounds)
	if err != nil {
		return fmt.Errorf("bot: starting tournament %s: %w", t.ID, err) // its settings were checked above
	}
	t.Rounds, t.Status, t.StartedAt = pt.Rounds, storage.TournamentRunning, s.Now()
	if err := setPairing(t, pt); err != nil {
		return err
	}
	if err := tx.PutTournament(t); err != nil {
		return err
	}
	if pt.Format != tournament.Swiss {
		opened, err := s.openRoundRobin(tx, e, t, pt)
		if err != nil {
			return err
		}
		switch {
		case len(opened) == len(pt.Games):
			s.post(e, t, "All games have started.\n"+s.pairingText(t, pt.Games), "round/"+t.ID+"/all")
		case len(opened) == 0:
			s.post(e, t, fmt.Sprintf("This server already has %d games in progress, as many as Missive starts at once here; the games start as others end.",
				s.limits.GuildGames), "round/"+t.ID+"/first")
		default:
			s.post(e, t, fmt.Sprintf("Each player plays up to %d games at a time; the next starts when one ends (its clock starts then). These games have started:\n%s",
				s.limits.EventGames, s.pairingText(t, opened)), "round/"+t.ID+"/first")
		}
	}
	if err := s.advance(tx, e, t); err != nil {
		return err
	}
	e.reply = Reply{Title: t.Name, Text: fmt.Sprintf("Tournament %s has begun with %s; the games are starting now.", t.ID, words.Plural(len(ids), "player"))}
	return nil
}

// pairing reads the pairing state of a started tournament.
func pairing(t *storage.Tournament) (tournament.Tournament, error) {
	var pt tournament.Tournament
	if err := json.Unmarshal(t.Pairing, &pt); err != nil {
		return pt, fmt.Errorf("bot: tournament %s: pairing state: %w", t.ID, err)
	}
	return pt, pt.Validate()
}

func setPairing(t *storage.Tournament, pt tournament.Tournament) error {
	raw, err := json.Marshal(pt)
	t.Pairing = raw
	return err
}

// advance starts the games of t that are due and have none yet (a round robin's
// whole schedule, a Swiss's next round once the last one is over), or ends t when
// every game is decided. It runs in the transaction that changed t, so a round is
// created exactly once.
func (s *Service) advance(tx *storage.Tx, e *effects, t *storage.Tournament) error {
	if t.Status != storage.TournamentRunning {
		return nil
	}
	pt, err := pairing(t)
	if err != nil {
		return err
	}
	if pt.Format != tournament.Swiss {
		if _, err := s.openRoundRobin(tx, e, t, pt); err != nil {
			return err
		}
	}
	if pt.Format == tournament.Swiss && len(pt.Pending()) == 0 && pt.Round() < pt.Rounds {
		next, games, err := pt.NextRound()
		if errors.Is(err, tournament.ErrNoPairing) {
			pt.Rounds = pt.Round() // too few players left: the tournament ends here
		} else if err != nil {
			return err
		} else {
			pt = next
			if err := setPairing(t, pt); err != nil {
				return err
			}
			if err := tx.PutTournament(t); err != nil {
				return err
			}
			if err := s.startRound(tx, e, t, games); err != nil {
				return err
			}
			s.post(e, t, fmt.Sprintf("Round %d of %d has been paired.\n%s", pt.Round(), pt.Rounds, s.pairingText(t, games)), fmt.Sprintf("round/%s/%d", t.ID, pt.Round()))
		}
	}
	if pt.Finished() || (len(pt.Pending()) == 0 && pt.Round() >= pt.Rounds) {
		t.Status, t.FinishedAt = storage.TournamentFinished, s.Now()
		if err := setPairing(t, pt); err != nil {
			return err
		}
		if err := tx.PutTournament(t); err != nil {
			return err
		}
		s.postStandings(e, t, pt, "The tournament is over"+s.winnerText(t, pt), "final/"+t.ID)
	}
	return nil
}

// startRound creates the games of the pairings (byes aside) in the tournament's
// channel; each gets its own thread, as any game does (a thread holds one game).
//
// A Swiss round starts all its games at once, whatever Limits.GuildGames: the next
// round is paired only when every game of this one is over, so holding some back would
// hold up every player, and a round has at most half the players' games (50 for 100
// players), where a round robin's whole schedule runs to 4,950. Where the server has
// no room for their threads (Discord's 160006), the adapter plays those games in the
// channel, says why once, and gives each game its thread with a later post once
// threads are archived; its thread-creation pace delays first notices, not commands.
func (s *Service) startRound(tx *storage.Tx, e *effects, t *storage.Tournament, games []tournament.Game) error {
	for _, pg := range games {
		if pg.IsBye() || pg.Result.Decided() {
			continue
		}
		var ge effects
		_, err := s.createGame(tx, &ge, NewGame{Variant: t.Variant, White: s.entrantSeat(t, pg.White), Black: s.entrantSeat(t, pg.Black),
			Place: Place{Guild: t.Guild, Channel: t.Channel}, DaysPerMove: t.DaysPerMove, Bank: t.Bank, NoLeave: t.NoLeave,
			Rated: t.Rated, Tournament: t.ID, Round: pg.Round}, "", nil)
		if err != nil {
			return err
		}
		merge(e, &ge)
	}
	return nil
}

// DefaultEventGames is how many games of a round robin a player plays at once
// unless Limits.EventGames says otherwise.
const DefaultEventGames = 4

// DefaultGuildGames is how many games may be in progress in one server before round
// robins wait to start more, unless Limits.GuildGames says otherwise.
const DefaultGuildGames = 500

// openWaitingGames runs inside the transaction that ends a game in a server: the
// room it frees may start games of the server's round robins that wait for the
// server's cap (Limits.GuildGames).
func (s *Service) openWaitingGames(end GameEnd) error {
	if end.Game.Guild == "" {
		return nil
	}
	ts, err := end.Tx.GuildTournaments(end.Game.Guild, true)
	if err != nil {
		return err
	}
	for _, t := range ts {
		if t.Status != storage.TournamentRunning || t.Format == storage.Swiss {
			continue
		}
		pt, err := pairing(t)
		if err != nil {
			return err
		}
		if _, err := s.openRoundRobin(end.Tx.Tx, end.Tx.e, t, pt); err != nil {
			return err
		}
	}
	return nil
}

// guildGames counts the games in progress in guild.
func guildGames(tx *storage.Tx, guild string) (int, error) {
	n := 0
	err := tx.ActiveGames(func(g *storage.GameSummary) error {
		if g.Guild == guild {
			n++
		}
		return nil
	})
	return n, err
}

// openRoundRobin starts the games of round robin t that are due: in schedule
// order, each undecided pairing without a game yet whose two players both have
// fewer than Limits.EventGames games of t in progress, while the server has fewer
// than Limits.GuildGames games in progress. It returns the pairings started.
//
// A large round robin is played a few games per player at a time rather than all
// at once: 24 players would otherwise open 276 threads in one channel at once (100
// players 4,950, beyond Discord's 1,000 active threads a server), flooding the
// channel and Discord's thread-creation limits, and would hand each player more
// simultaneous deadlines than correspondence play expects. Games not yet started
// have no clock, so waiting for one costs nobody time; small events (each player
// with at most Limits.EventGames games) still start every game at once.
func (s *Service) openRoundRobin(tx *storage.Tx, e *effects, t *storage.Tournament, pt tournament.Tournament) ([]tournament.Game, error) {
	sums, err := tx.TournamentGames(t.ID)
	if err != nil {
		return nil, err
	}
	type pairKey struct {
		round        int
		white, black string
	}
	made := map[pairKey]bool{}
	playing := map[string]int{}
	for _, g := range sums {
		made[pairKey{g.Round, g.Players[rules.White].ID, g.Players[rules.Black].ID}] = true
		if !g.Outcome.IsOver() {
			playing[g.Players[rules.White].ID]++
			playing[g.Players[rules.Black].ID]++
		}
	}
	room := s.limits.GuildGames
	if t.Guild != "" {
		n, err := guildGames(tx, t.Guild)
		if err != nil {
			return nil, err
		}
		room -= n
	}
	var opened []tournament.Game
	for _, pg := range pt.Games {
		if room <= 0 {
			break
		}
		w, b := string(pg.White), string(pg.Black)
		if pg.IsBye() || pg.Result.Decided() || made[pairKey{pg.Round, w, b}] ||
			playing[w] >= s.limits.EventGames || playing[b] >= s.limits.EventGames {
			continue
		}
		if err := s.startRound(tx, e, t, []tournament.Game{pg}); err != nil {
			return nil, err
		}
		playing[w]++
		playing[b]++
		room--
		opened = append(opened, pg)
	}
	return opened, nil
}

func (s *Service) entrantSeat(t *storage.Tournament, id tournament.PlayerID) storage.Seat {
	for _, en := range t.Entrants {
		if en.Player.ID == string(id) {
			return en.Player
		}
	}
	return storage.Seat{ID: string(id)}
}

func (s *Service) entrantName(t *storage.Tournament, id tournament.PlayerID) string {
	return words.Seat(s.entrantSeat(t, id))
}

// pairingText lists pairings as "1. alice – bob".
func (s *Service) pairingText(t *storage.Tournament, games []tournament.Game) string {
	var b strings.Builder
	for _, g := range games {
		if g.IsBye() {
			fmt.Fprintf(&b, "Round %d: %s has a bye (1 point)\n", g.Round, s.entrantName(t, g.White))
			continue
		}
		fmt.Fprintf(&b, "Round %d: %s (white) – %s (black)\n", g.Round, s.entrantName(t, g.White), s.entrantName(t, g.Black))
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// post tells the tournament's place something.
func (s *Service) post(e *effects, t *storage.Tournament, text, key string) {
	e.notes = append(e.notes, note{n: Notification{Key: "tournament/" + key, Kind: NoticeTournament, Channel: true,
		To:    User{Name: "tournament " + t.ID},
		Game:  &GameRef{Place: Place{Guild: t.Guild, Channel: t.Channel, Thread: t.Thread}},
		Event: &EventRef{Kind: EventTournament, ID: t.ID, Name: t.Name},
		Reply: Reply{Title: t.Name, Text: text}}})
}

// tournamentResult is the result of a finished tournament game as the pairing
// state records it (a game is aborted only when a withdrawal has forfeited it).
func tournamentResult(g *storage.Game) tournament.Result {
	switch {
	case g.Outcome.Reason == rules.Aborted:
		return tournament.DoubleForfeit
	case g.Outcome.Status == rules.Drawn:
		return tournament.Draw
	case g.Outcome.Winner == rules.White:
		return tournament.WhiteWins
	}
	return tournament.BlackWins
}

// tournamentGameEnded runs inside the transaction that ends a game: for a
// tournament game, it records the result, posts the standings and starts the next
// round when it is due.
func (s *Service) tournamentGameEnded(end GameEnd) error {
	tx, e, g := end.Tx.Tx, end.Tx.e, end.Game
	if g.Tournament == "" {
		return nil
	}
	t, err := tx.Tournament(g.Tournament)
	if err != nil || t.Status != storage.TournamentRunning {
		return err
	}
	pt, err := pairing(t)
	if err != nil {
		return err
	}
	w, b := tournament.PlayerID(g.Players[rules.White].ID), tournament.PlayerID(g.Players[rules.Black].ID)
	if g.Outcome.Reason == rules.Aborted && slices.ContainsFunc(pt.Pending(), func(p tournament.Game) bool {
		return p.Round == g.Round && p.White == w && p.Black == b
	}) {
		return Refuse(ErrRefused, "Game %s is a tournament game and cannot be aborted; play it, offer a draw, or resign.", g.ID)
	}
	next, err := pt.Record(g.Round, w, b, tournamentResult(g))
	if errors.Is(err, tournament.ErrAlreadyDecided) {
		return nil // forfeited by a withdrawal
	}
	if err != nil {
		return err
	}
	if err := setPairing(t, next); err != nil {
		return err
	}
	if err := tx.PutTournament(t); err != nil {
		return err
	}
	s.postStandings(e, t, next, fmt.Sprintf("Game %s (round %d): %s", g.ID, g.Round, DescribeOutcome(g)), "result/"+g.ID)
	return s.advance(tx, e, t)
}

func points(p float64) string { return strconv.FormatFloat(p, 'f', -1, 64) }

// pointsText writes "1 point", "1.5 points".
func pointsText(p float64) string {
	if p == 1 {
		return "1 point"
	}
	return points(p) + " points"
}

// winnerText says who won the finished tournament t after pt: ": alice wins with 2
// points. Congratulations!", naming the tie-break that decided a tie on points, or
// everyone who shares first place; "." when nobody played.
func (s *Service) winnerText(t *storage.Tournament, pt tournament.Tournament) string {
	fp := pt.Format.Top(pt.Standings())
	if len(fp.Level) == 0 {
		return "."
	}
	first := fp.Level[0]
	name := func(st tournament.Standing) string { return s.entrantName(t, st.Player) }
	switch {
	case fp.Shared > 1:
		names := make([]string, fp.Shared)
		for i, st := range fp.Level[:fp.Shared] {
			names[i] = name(st)
		}
		return fmt.Sprintf(": %s share first place with %s each, level on every tie-break too (%s is listed first as the better seed). Congratulations!",
			words.And(names), pointsText(first.Points), names[0])
	case len(fp.Level) > 1:
		k := slices.Index(pt.Format.Tiebreaks(), fp.Decider)
		second := fp.Level[1]
		others := make([]string, len(fp.Level)-1)
		for i, st := range fp.Level[1:] {
			others[i] = name(st)
		}
		return fmt.Sprintf(": %s wins on the %s tie-break (%s to %s's %s), level on %s with %s. Congratulations!",
			name(first), fp.Decider.Name(), points(first.Tiebreaks[k]), name(second), points(second.Tiebreaks[k]),
			pointsText(first.Points), words.And(others))
	}
	return fmt.Sprintf(": %s wins with %s. Congratulations!", name(first), pointsText(first.Points))
}

// textRows is the most standings rows shown as text: a Discord message holds
// 4,096 characters, and the picture shows every player.
const textRows = 40

// standings lays out the standings of t after pt as a Table titled title, with
// the format's tie-breaks and their legend.
func (s *Service) standings(t *storage.Tournament, pt tournament.Tournament, title string) Table {
	tbs := pt.Format.Tiebreaks()
	tbl := Table{Title: title, Columns: []Column{{Header: "#", Right: true}, {Header: "Player", Max: 26},
		{Header: "Pts", Right: true}, {Header: "Games", Right: true}, {Header: "+", Right: true}, {Header: "=", Right: true}, {Header: "-", Right: true}}}
	names := make([]string, len(tbs))
	for i, tb := range tbs {
		tbl.Columns = append(tbl.Columns, Column{Header: string(tb), Right: true})
		names[i] = string(tb) + " = " + tb.Name()
	}
	for _, st := range pt.Standings() {
		name := s.entrantName(t, st.Player)
		if st.Withdrawn {
			name += " (w/d)"
		}
		cells := []string{strconv.Itoa(st.Rank), name, points(st.Points), strconv.Itoa(st.Played + st.Unplayed),
			strconv.Itoa(st.Wins), strconv.Itoa(st.Draws), strconv.Itoa(st.Losses)}
		for _, v := range st.Tiebreaks {
			cells = append(cells, points(v))
		}
		tbl.Rows = append(tbl.Rows, TableRow{Cells: cells, Muted: st.Withdrawn})
	}
	tbl.Note = "Tie-breaks: " + strings.Join(names, "; ") + "."
	return tbl
}

// standingsText draws tbl as monospace text of at most textRows rows, with its
// legend: the fallback under a picture, and the whole reply of
// /tournament show:table.
func standingsText(tbl Table, fence bool) string {
	text := tbl.Text(textRows)
	if fence {
		text = "```\n" + text + "```\n"
	}
	if left := len(tbl.Rows) - textRows; left > 0 {
		text += fmt.Sprintf("… and %s; the picture (show:image) has everyone.\n", words.Plural(left, "more player"))
	}
	return text + tbl.Note
}

// standingsTitle names the moment of the standings: final; in or after a
// Swiss round; for a round robin, whose games all run at once, by the games
// decided.
func standingsTitle(t *storage.Tournament, pt tournament.Tournament) string {
	pending := len(pt.Pending())
	switch {
	case t.Status == storage.TournamentFinished:
		return t.Name + ": final standings"
	case pt.Format != tournament.Swiss:
		return fmt.Sprintf("%s: standings, %d of %d games decided", t.Name, len(pt.Games)-pending, len(pt.Games))
	case pending > 0:
		return fmt.Sprintf("%s: standings during round %d of %d", t.Name, pt.Round(), pt.Rounds)
	}
	return fmt.Sprintf("%s: standings after round %d of %d", t.Name, pt.Round(), pt.Rounds)
}

// standingsPicture is the picture job for tbl, with the text as its fallback.
func standingsPicture(t *storage.Tournament, tbl Table) *Picture {
	var top []string
	for i, r := range tbl.Rows {
		if i == 10 {
			top = append(top, "…")
			break
		}
		top = append(top, fmt.Sprintf("%s. %s %s", r.Cells[0], r.Cells[1], r.Cells[2]))
	}
	return &Picture{table: &tbl, tableText: standingsText(tbl, false), name: "standings-" + t.ID + ".png",
		alt: tbl.Title + ": " + cmp.Or(strings.Join(top, ", "), "no players")}
}

// postStandings posts text with the standings after pt in the tournament's place.
func (s *Service) postStandings(e *effects, t *storage.Tournament, pt tournament.Tournament, text, key string) {
	s.post(e, t, text, key)
	e.notes[len(e.notes)-1].image = standingsPicture(t, s.standings(t, pt, standingsTitle(t, pt)))
}

// standingsReply is /tournament standings: a picture of the whole table with
// the text as its fallback, or (show:table) the text alone.
func (s *Service) standingsReply(t *storage.Tournament, show string) (Reply, *Picture, error) {
	if show != "" && show != "image" && show != "table" {
		return Reply{}, nil, Refuse(ErrRefused, "There is no standings view %q; use show:image (a picture of the whole table) or show:table (text).", show)
	}
	if len(t.Pairing) == 0 {
		return Reply{Title: t.Name, Text: fmt.Sprintf("Tournament %s has not started yet (%s entered).", t.ID, words.Plural(len(t.Entrants), "player"))}, nil, nil
	}
	pt, err := pairing(t)
	if err != nil {
		return Reply{}, nil, err
	}
	head := fmt.Sprintf("Standings after %d of %d rounds paired, %s in progress.", pt.Round(), pt.Rounds, words.Plural(len(pt.Pending()), "game"))
	if t.Status == storage.TournamentFinished {
		head = "Final standings."
	}
	tbl := s.standings(t, pt, standingsTitle(t, pt))
	if show == "table" {
		return Reply{Title: t.Name, Text: head + "\n" + standingsText(tbl, true)}, nil, nil
	}
	return Reply{Title: t.Name, Text: head}, standingsPicture(t, tbl), nil
}

// infoReply is /tournament info.
func (s *Service) infoReply(t *storage.Tournament) Reply {
	rated := "casual"
	if t.Rated {
		rated = "rated"
	}
	most := "no limit"
	if t.MaxPlayers > 0 {
		most = strconv.Itoa(t.MaxPlayers)
	}
	rounds := "one per opponent"
	if t.Format == storage.Swiss {
		rounds = cmp.Or(strconv.Itoa(t.Rounds), "set at the start")
		if t.Rounds == 0 {
			rounds = "set at the start"
		}
	} else if t.Rounds > 0 {
		rounds = strconv.Itoa(t.Rounds)
	}
	var names []string
	for _, en := range t.Entrants {
		n := words.Seat(en.Player)
		if en.Withdrawn {
			n += " (withdrew)"
		}
		names = append(names, n)
	}
	return Reply{Title: fmt.Sprintf("Tournament %s · %s", t.ID, t.Name), Fields: []Field{
		{Name: "Game", Value: s.VariantName(t.Variant), Inline: true},
		{Name: "Format", Value: strings.ReplaceAll(string(t.Format), "-", " "), Inline: true},
		{Name: "Rounds", Value: rounds, Inline: true},
		{Name: "Clock", Value: clock.Text(t.DaysPerMove, t.Bank), Inline: true},
		{Name: "Leave", Value: leaveText(t.NoLeave), Inline: true},
		{Name: "Games", Value: rated, Inline: true},
		{Name: "Status", Value: string(t.Status), Inline: true},
		{Name: "Maximum players", Value: most, Inline: true},
		{Name: "Engines allowed", Value: cmp.Or(strings.Join(t.Engines, ", "), "none"), Inline: true},
		{Name: fmt.Sprintf("Players (%d)", len(t.Entrants)), Value: cmp.Or(strings.Join(names, ", "), "nobody yet")},
	}}
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
