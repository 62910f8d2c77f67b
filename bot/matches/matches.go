package matches

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/words"
	"github.com/missivechess/missive/engine/match"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/record"
	"github.com/missivechess/missive/storage"
)

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
	return bot.Command{Handle: f.cmdMatch, Complete: map[string]bot.Completer{"first": f.svc.CompleteEngine, "second": f.svc.CompleteEngine}, Spec: f.matchSpec()}
}

// matchSpec describes /match.
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
			m, err := f.findMatch(tx.Tx, req)
			if err != nil {
				return err
			}
			t, err := f.tally(tx.Tx, m)
			if err != nil {
				return err
			}
			*tx.Reply() = bot.Reply{Title: matchTitle(m), Text: t.report(m)}
			return nil
		})
	case "stop":
		return f.svc.Mutate(ctx, req, func(tx *bot.Tx) error { return f.matchStop(tx, req) })
	}
	return bot.Refusal("Say what to do: /match start, /match score or /match stop.")
}

func (f *feature) matchStart(tx *bot.Tx, req bot.Request) error {
	if err := bot.MustAdmin(req, "start engine matches"); err != nil {
		return err
	}
	if f.svc.Engine() == nil {
		return bot.Refuse(bot.ErrRefused, "No engine is set up here, so there is nobody to play a match.")
	}
	v, err := f.svc.Registry().Lookup(req.Args.Get("variant"))
	if err != nil {
		return bot.Refuse(bot.ErrRefused, "Name the game: variant:%s.", strings.Join(f.svc.Registry().Keys(), "|"))
	}
	var seats [2]storage.Seat
	for i, who := range []string{"first", "second"} {
		title := strings.ToUpper(who[:1]) + who[1:]
		level, err := bot.LevelArg(req, who+"_level") // 0: the engine's default level
		if err != nil {
			return bot.Reword(err, "%s engine: ", title)
		}
		name := req.Args.Get(who)
		if name == "" {
			name = "builtin"
		}
		if seats[i], err = f.svc.Engine().Opponent(name, level, v.Key()); err != nil {
			return bot.Reword(err, "%s engine: ", title)
		}
	}
	if seats[0].ID == seats[1].ID {
		return bot.Refuse(bot.ErrRefused, "Both sides would be %s; choose two different engines or levels (first_level, second_level).", words.Seat(seats[0]))
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
	openings := fmt.Sprintf("each pair of games opens with the same %s", plies(opening)+" of random moves")
	if _, ok := record.Round(g.Position); ok {
		openings = "each pair of games is played on the same board, after a placement phase"
	} else if opening == 0 {
		openings = "every game starts from the usual position"
	}
	about := fmt.Sprintf("%s, %s of %s; colours alternate and %s; a game still going at ply %d is drawn by adjudication.",
		matchTitle(m), words.Plural(games, "game"), f.svc.VariantName(m.Variant), openings, maxPlies)
	postMatch(tx, m, fmt.Sprintf("Match %s begins: %s\nGame 1: %s (white) – %s (black).", m.ID, about,
		words.Seat(g.Players[rules.White]), words.Seat(g.Players[rules.Black])), "begin", nil, nil)
	*tx.Reply() = bot.Reply{Title: matchTitle(m), Text: fmt.Sprintf("Match %s has begun: %s Results are posted in the match's thread; /match score shows the score, /match stop ends it.", m.ID, about)}
	return nil
}

// findMatch picks the match a request means (see bot.FindEvent).
func (f *feature) findMatch(tx *storage.Tx, req bot.Request) (*storage.Match, error) {
	return bot.FindEvent(tx, req, bot.EventFinder[*storage.Match]{Option: "match", Get: (*storage.Tx).Match, List: (*storage.Tx).GuildMatches,
		Info: func(m *storage.Match) bot.EventInfo {
			return bot.EventInfo{ID: m.ID, Name: m.Name, Guild: m.Guild, Thread: m.Thread}
		},
		NoSuch: func(_, id string) error {
			return bot.Refuse(bot.ErrRefused, "There is no match %s here.", words.ShownID(id))
		},
		None:    "No engine match has been played here; an admin can start one with /match.",
		Several: "Several matches run here: %s. Name one with match:NUMBER."})
}

// matchTitle is a heading such as "Match 3 · Missive engine (level 2) vs fairymax".
func matchTitle(m *storage.Match) string { return fmt.Sprintf("Match %s · %s", m.ID, m.Name) }

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
func (t thinkTime) text() string {
	avg := t.total / time.Duration(t.moves)
	return fmt.Sprintf("%.2f s on average, at most %.2f s", avg.Seconds(), t.longest.Seconds())
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

// plies writes a count of plies, such as "1 ply" or "40 plies".
func plies(n int) string {
	if n == 1 {
		return "1 ply"
	}
	return strconv.Itoa(n) + " plies"
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
func (t matchTally) scoreLine(m *storage.Match) string {
	a := t.score.Points()
	b := float64(t.score.Games()) - a
	return fmt.Sprintf("Score: %s %s – %s %s (+%d =%d -%d for %s).", words.Seat(m.Players[0]), half(a), half(b), words.Seat(m.Players[1]),
		t.score.Wins, t.score.Draws, t.score.Losses, words.Seat(m.Players[0]))
}

// report is the match's state for /match score and the final announcement.
func (t matchTally) report(m *storage.Match) string {
	var b strings.Builder
	switch m.Status {
	case storage.MatchRunning:
		fmt.Fprintf(&b, "%d of %d games played", len(t.games), m.Games)
		if t.live != nil {
			fmt.Fprintf(&b, "; game %s (%d of %d) is in progress, %s", t.live.ID, t.live.Round, m.Games, plies(len(t.live.Moves)))
		}
		b.WriteString(".\n")
	case storage.MatchStopped:
		fmt.Fprintf(&b, "Stopped after %d of %d games.\n", len(t.games), m.Games)
	default:
		if len(t.games) == 1 {
			b.WriteString("The one game is played.\n")
		} else {
			fmt.Fprintf(&b, "All %d games played.\n", len(t.games))
		}
	}
	b.WriteString(t.scoreLine(m))
	if t.score.Games() > 0 {
		fmt.Fprintf(&b, "\nElo difference for %s: %s.", words.Seat(m.Players[0]), t.score.EloText(words.Seat(m.Players[0])))
	}
	if t.think[0].moves > 0 && t.think[1].moves > 0 {
		fmt.Fprintf(&b, "\nTime a move: %s %s; %s %s.", words.Seat(m.Players[0]), t.think[0].text(), words.Seat(m.Players[1]), t.think[1].text())
	}
	for _, g := range t.games {
		fmt.Fprintf(&b, "\nGame %d: %s – %s %s (%s, %s)", g.Round, words.Seat(g.Players[rules.White]), words.Seat(g.Players[rules.Black]),
			result(g.Outcome), bot.DescribeOutcome(g), plies(len(g.Moves)))
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
	img, err := tx.Board(g, rules.White, false)
	if err != nil {
		return err
	}
	text := fmt.Sprintf("Game %d of %d: %s (white) – %s (black) %s: %s after %s.\n%s", g.Round, m.Games,
		words.Seat(g.Players[rules.White]), words.Seat(g.Players[rules.Black]), result(g.Outcome), bot.DescribeOutcome(g),
		plies(len(g.Moves)), t.scoreLine(m))
	if len(m.GameIDs) < m.Games {
		next, err := f.startMatchGame(tx, m)
		if err != nil {
			return err
		}
		text += fmt.Sprintf("\nGame %d: %s (white) – %s (black).", next.Round, words.Seat(next.Players[rules.White]), words.Seat(next.Players[rules.Black]))
		postMatch(tx, m, text, "game/"+g.ID, nil, img)
		return nil
	}
	postMatch(tx, m, text, "game/"+g.ID, nil, img)
	m.Status, m.FinishedAt = storage.MatchFinished, f.svc.Now()
	if err := tx.PutMatch(m); err != nil {
		return err
	}
	return f.matchFinal(tx, m, t, "The match is over.")
}

// matchFinal posts the final score with the PGN of every decided game.
func (f *feature) matchFinal(tx *bot.Tx, m *storage.Match, t matchTally, head string) error {
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
			Alt: fmt.Sprintf("PGN of the %s of match %s", words.Plural(len(t.games), "game"), m.ID)}}
	}
	postMatch(tx, m, head+"\n"+t.report(m), "final", files, nil)
	return nil
}

func (f *feature) matchStop(tx *bot.Tx, req bot.Request) error {
	if err := bot.MustAdmin(req, "stop engine matches"); err != nil {
		return err
	}
	m, err := f.findMatch(tx.Tx, req)
	if err != nil {
		return err
	}
	if !m.Active() {
		return bot.Refuse(bot.ErrRefused, "Match %s is already over.", m.ID)
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
		if err := ge.End(g, rules.White, rules.Outcome{Status: rules.Drawn, Reason: rules.Aborted},
			fmt.Sprintf("%s stopped the match; this game has no result.", req.User.Name), nil); err != nil {
			return err
		}
		tx.Merge(ge) // its notices, not its reply
		t.live = nil
	}
	head := fmt.Sprintf("%s stopped the match.", req.User.Name)
	if err := f.matchFinal(tx, m, t, head); err != nil {
		return err
	}
	*tx.Reply() = bot.Reply{Title: matchTitle(m), Text: head + "\n" + t.report(m)}
	return nil
}

// postMatch tells the match's place something, with an attachment or a board.
func postMatch(tx *bot.Tx, m *storage.Match, text, key string, files []bot.File, img *bot.Picture) {
	tx.Send(bot.Notification{Key: "match/" + m.ID + "/" + key, Kind: NoticeMatch, Channel: true,
		To:    bot.User{Name: "match " + m.ID},
		Game:  &bot.GameRef{Place: bot.Place{Guild: m.Guild, Channel: m.Channel, Thread: m.Thread}},
		Event: &bot.EventRef{Kind: EventMatch, ID: m.ID, Name: matchTitle(m)},
		Reply: bot.Reply{Title: matchTitle(m), Text: text, Files: files}}, img)
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
	return tx.End(g, side, o,
		fmt.Sprintf("The game reached the match's cap of %d plies and is drawn by adjudication.", m.MaxPlies), nil)
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
	postMatch(tx, m, fmt.Sprintf("Game %d: %s", g.Round, report), "failed/"+g.ID, nil, nil)
	return nil
}
