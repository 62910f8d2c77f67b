package bot

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/missivechess/missive/bot/words"
	"github.com/missivechess/missive/engine/match"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/record"
	"github.com/missivechess/missive/storage"
)

// Engine matches.
//
// The match itself (the seeded openings, the colours, the score and the Elo
// estimate with its wording) is engine/match's, shared with "missive match"; this
// file keeps what is the bot's: stored games, the match's thread and its posts.
//
// /match (admins) runs an engine-versus-engine match in a thread of its own: the two
// engines play the games one after another as ordinary stored games (unrated, a
// day per move so that the scheduler retries an engine after a restart), colours
// alternating, each pair of games from the same seeded random opening (Go-Chess:
// the same blocked cells). Each result is posted with the final board and the
// running score; the last with the score, the Elo difference and its 95% margin,
// and the PGN of every game attached. The match record (storage.Match) and the next
// game are written in the transaction that ends a game, so a restart loses nothing
// and starts no game twice. A game that reaches the ply cap is drawn by
// adjudication; an engine that fails to move loses that game.

// NoticeMatch is an engine match's news: a game's result, the final score.
const NoticeMatch NoticeKind = "match"

// Match defaults and bounds.
const (
	DefaultMatchGames    = 10
	DefaultOpeningPlies  = 4
	MaxOpeningPlies      = 20
	DefaultMatchMaxPlies = 300
	minMatchMaxPlies     = 20
	maxMatchMaxPlies     = 2000
)

// matchCommand is /match, for admins.
func (s *Service) matchCommand() Command {
	return Command{Handle: s.cmdMatch, Complete: map[string]Completer{"first": s.completeEngine, "second": s.completeEngine}, Spec: s.matchSpec()}
}

// matchSpec describes /match.
func (s *Service) matchSpec() CommandSpec {
	variants := s.variantChoices()
	which := OptionSpec{Name: "match", Description: "The match's number (needed only when several run here)", Type: OptString, MaxLength: 20}
	return CommandSpec{Name: CmdMatch, Admin: true, Contexts: []Context{ContextGuild}, Integrations: []Integration{IntegrationGuild},
		Description: "Engine matches (admins): start one in a thread, show its score, or stop it",
		Subcommands: []CommandSpec{
			{Name: "start", Description: "Start an engine match in a thread of its own", Options: []OptionSpec{
				{Name: "variant", Description: "The game", Type: OptString, Required: true, Choices: variants},
				{Name: "first", Description: "The first engine: builtin, or a configured engine's name", Type: OptString, Autocomplete: true, MaxLength: MaxNameLen},
				{Name: "first_level", Description: "The first engine's level, 1 to 8 (built-in engine only)", Type: OptInteger, Min: 1, Max: 8},
				{Name: "second", Description: "The second engine (default builtin)", Type: OptString, Autocomplete: true, MaxLength: MaxNameLen},
				{Name: "second_level", Description: "The second engine's level, 1 to 8 (built-in engine only)", Type: OptInteger, Min: 1, Max: 8},
				{Name: "games", Description: fmt.Sprintf("How many games, colours alternating (default %d)", DefaultMatchGames), Type: OptInteger, Min: 1, Max: storage.MaxMatchGames},
				{Name: "opening", Description: fmt.Sprintf("Random plies opening each pair of games (default %d)", DefaultOpeningPlies), Type: OptInteger, Min: 0, Max: MaxOpeningPlies},
				{Name: "max_plies", Description: fmt.Sprintf("Adjudicate a draw after this many plies (default %d)", DefaultMatchMaxPlies), Type: OptInteger, Min: minMatchMaxPlies, Max: maxMatchMaxPlies},
			}},
			{Name: "score", Description: "An engine match's score", Options: []OptionSpec{which}},
			{Name: "stop", Description: "Stop an engine match", Options: []OptionSpec{which}},
		}}
}

// cmdMatch runs /match.
func (s *Service) cmdMatch(ctx context.Context, req Request) Reply {
	switch strings.ToLower(req.Args.Get("action")) {
	case "", "start":
		return s.mutate(ctx, req, func(tx *storage.Tx, e *effects) error { return s.matchStart(tx, e, req) })
	case "score":
		return s.view(ctx, req, func(tx *storage.Tx, e *effects) error {
			m, err := s.findMatch(tx, req)
			if err != nil {
				return err
			}
			t, err := s.tally(tx, m)
			if err != nil {
				return err
			}
			e.reply = Reply{Title: matchTitle(m), Text: t.report(m)}
			return nil
		})
	case "stop":
		return s.mutate(ctx, req, func(tx *storage.Tx, e *effects) error { return s.matchStop(tx, e, req) })
	}
	return Refusal("Say what to do: /match start, /match score or /match stop.")
}

func (s *Service) matchStart(tx *storage.Tx, e *effects, req Request) error {
	if err := MustAdmin(req, "start engine matches"); err != nil {
		return err
	}
	if s.engine == nil {
		return Refuse(ErrRefused, "No engine is set up here, so there is nobody to play a match.")
	}
	v, err := s.reg.Lookup(req.Args.Get("variant"))
	if err != nil {
		return Refuse(ErrRefused, "Name the game: variant:%s.", strings.Join(s.reg.Keys(), "|"))
	}
	var seats [2]storage.Seat
	for i, who := range []string{"first", "second"} {
		title := strings.ToUpper(who[:1]) + who[1:]
		level, err := LevelArg(req, who+"_level") // 0: the engine's default level
		if err != nil {
			return Reword(err, "%s engine: ", title)
		}
		name := req.Args.Get(who)
		if name == "" {
			name = "builtin"
		}
		if seats[i], err = s.engine.Opponent(name, level, v.Key()); err != nil {
			return Reword(err, "%s engine: ", title)
		}
	}
	if seats[0].ID == seats[1].ID {
		return Refuse(ErrRefused, "Both sides would be %s; choose two different engines or levels (first_level, second_level).", words.Seat(seats[0]))
	}
	games, err := BoundedArg(req, "games", DefaultMatchGames, 1, storage.MaxMatchGames)
	if err != nil {
		return err
	}
	opening, err := BoundedArg(req, "opening", DefaultOpeningPlies, 0, MaxOpeningPlies)
	if err != nil {
		return err
	}
	maxPlies, err := BoundedArg(req, "max_plies", DefaultMatchMaxPlies, minMatchMaxPlies, maxMatchMaxPlies)
	if err != nil {
		return err
	}
	m := &storage.Match{Guild: req.Place.Guild, Channel: req.Place.Channel, Thread: req.Place.Thread,
		Name: words.Clip(fmt.Sprintf("%s vs %s", words.Seat(seats[0]), words.Seat(seats[1])), 80), Organizer: req.User.ID,
		Variant: v.Key(), Players: seats, Games: games, Seed: s.rand(), OpeningPlies: opening, MaxPlies: maxPlies,
		Status: storage.MatchRunning, StartedAt: s.Now()}
	if err := tx.PutMatch(m); err != nil {
		return err
	}
	g, err := s.startMatchGame(tx, e, m)
	if err != nil {
		return err
	}
	openings := fmt.Sprintf("each pair of games opens with the same %s", plies(opening)+" of random moves")
	if _, ok := inRound(g.Position); ok {
		openings = "each pair of games is played on the same board, after a placement phase"
	} else if opening == 0 {
		openings = "every game starts from the usual position"
	}
	about := fmt.Sprintf("%s, %s of %s; colours alternate and %s; a game still going at ply %d is drawn by adjudication.",
		matchTitle(m), words.Plural(games, "game"), s.variantName(m.Variant), openings, maxPlies)
	s.postMatch(e, m, fmt.Sprintf("Match %s begins: %s\nGame 1: %s (white) – %s (black).", m.ID, about,
		words.Seat(g.Players[rules.White]), words.Seat(g.Players[rules.Black])), "begin", nil, nil)
	e.reply = Reply{Title: matchTitle(m), Text: fmt.Sprintf("Match %s has begun: %s Results are posted in the match's thread; /match score shows the score, /match stop ends it.", m.ID, about)}
	return nil
}

// findMatch picks the match a request means (see findEvent).
func (s *Service) findMatch(tx *storage.Tx, req Request) (*storage.Match, error) {
	return FindEvent(tx, req, EventFinder[*storage.Match]{Option: "match", Get: (*storage.Tx).Match, List: (*storage.Tx).GuildMatches,
		Info:    func(m *storage.Match) EventInfo { return EventInfo{m.ID, m.Name, m.Guild, m.Thread} },
		NoSuch:  func(_, id string) error { return Refuse(ErrRefused, "There is no match %s on this server.", id) },
		None:    "No engine match has been played here; an admin can start one with /match.",
		Several: "Several matches run here: %s. Name one with match:NUMBER."})
}

// matchTitle is a heading such as "Match 3 · Missive engine (level 2) vs fairymax".
func matchTitle(m *storage.Match) string { return fmt.Sprintf("Match %s · %s", m.ID, m.Name) }

// startMatchGame creates the next game of m and records it in m.
func (s *Service) startMatchGame(tx *storage.Tx, e *effects, m *storage.Match) (*storage.Game, error) {
	n := len(m.GameIDs) + 1
	white, black := match.Seats(n-1, m.Players[0], m.Players[1])
	v, err := s.reg.Lookup(m.Variant)
	if err != nil {
		return nil, err
	}
	// The game starts after the pair's opening; "" is the variant's usual start.
	start := ""
	o := match.NewOpening(v, m.Seed, (n-1)/2, m.OpeningPlies)
	if _, placement := o.Start.(rules.Simultaneous); placement || m.OpeningPlies > 0 {
		pos, err := o.Position()
		if err != nil {
			return nil, fmt.Errorf("bot: match opening: %w", err)
		}
		start = pos.String()
	}
	var ge effects
	g, err := s.createGame(tx, &ge, NewGame{Variant: m.Variant, White: white, Black: black,
		Place: Place{Guild: m.Guild, Channel: m.Channel}, DaysPerMove: 1, Start: start, Match: m.ID, Round: n}, "", nil)
	if err != nil {
		return nil, err
	}
	merge(e, &ge)
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
func (s *Service) tally(tx *storage.Tx, m *storage.Match) (matchTally, error) {
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
		h, err := g.History(s.reg)
		if err != nil {
			return t, err
		}
		for i, p := range m.Players {
			t.think[i].add(g, h, p.ID)
		}
	}
	return t, nil
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
			result(g.Outcome), DescribeOutcome(g), plies(len(g.Moves)))
	}
	return b.String()
}

// matchGameEnded runs inside the transaction that ends a game: for a game of a
// match, it posts the result and starts the next game, or ends the match after the
// last.
func (s *Service) matchGameEnded(end GameEnd) error {
	tx, e, g := end.Tx.Tx, end.Tx.e, end.Game
	if g.Match == "" {
		return nil
	}
	m, err := tx.Match(g.Match)
	if err != nil || !m.Active() {
		return err // a stopped match posts its own summary
	}
	t, err := s.tally(tx, m)
	if err != nil {
		return err
	}
	img, err := s.boardImage(tx, g, rules.White, false)
	if err != nil {
		return err
	}
	text := fmt.Sprintf("Game %d of %d: %s (white) – %s (black) %s: %s after %s.\n%s", g.Round, m.Games,
		words.Seat(g.Players[rules.White]), words.Seat(g.Players[rules.Black]), result(g.Outcome), DescribeOutcome(g),
		plies(len(g.Moves)), t.scoreLine(m))
	if len(m.GameIDs) < m.Games {
		next, err := s.startMatchGame(tx, e, m)
		if err != nil {
			return err
		}
		text += fmt.Sprintf("\nGame %d: %s (white) – %s (black).", next.Round, words.Seat(next.Players[rules.White]), words.Seat(next.Players[rules.Black]))
		s.postMatch(e, m, text, "game/"+g.ID, nil, img)
		return nil
	}
	s.postMatch(e, m, text, "game/"+g.ID, nil, img)
	m.Status, m.FinishedAt = storage.MatchFinished, s.Now()
	if err := tx.PutMatch(m); err != nil {
		return err
	}
	return s.matchFinal(e, m, t, "The match is over.")
}

// matchFinal posts the final score with the PGN of every decided game.
func (s *Service) matchFinal(e *effects, m *storage.Match, t matchTally, head string) error {
	var pgn strings.Builder
	for _, g := range t.games {
		p, err := s.pgn(g)
		if err != nil {
			return err
		}
		pgn.WriteString(p)
		pgn.WriteString("\n")
	}
	var files []File
	if pgn.Len() > 0 {
		files = []File{{Name: fmt.Sprintf("match-%s.pgn", m.ID), ContentType: "application/x-chess-pgn", Data: []byte(pgn.String()),
			Alt: fmt.Sprintf("PGN of the %s of match %s", words.Plural(len(t.games), "game"), m.ID)}}
	}
	s.postMatch(e, m, head+"\n"+t.report(m), "final", files, nil)
	return nil
}

func (s *Service) matchStop(tx *storage.Tx, e *effects, req Request) error {
	if err := MustAdmin(req, "stop engine matches"); err != nil {
		return err
	}
	m, err := s.findMatch(tx, req)
	if err != nil {
		return err
	}
	if !m.Active() {
		return Refuse(ErrRefused, "Match %s is already over.", m.ID)
	}
	m.Status, m.FinishedAt = storage.MatchStopped, s.Now()
	if err := tx.PutMatch(m); err != nil {
		return err
	}
	t, err := s.tally(tx, m)
	if err != nil {
		return err
	}
	if g := t.live; g != nil {
		var ge effects
		if err := s.end(tx, &ge, g, rules.White, rules.Outcome{Status: rules.Drawn, Reason: rules.Aborted},
			fmt.Sprintf("%s stopped the match; this game has no result.", req.User.Name), nil); err != nil {
			return err
		}
		ge.reply = Reply{}
		merge(e, &ge)
		t.live = nil
	}
	head := fmt.Sprintf("%s stopped the match.", req.User.Name)
	if err := s.matchFinal(e, m, t, head); err != nil {
		return err
	}
	e.reply = Reply{Title: matchTitle(m), Text: head + "\n" + t.report(m)}
	return nil
}

// postMatch tells the match's place something, with an attachment or a board.
func (s *Service) postMatch(e *effects, m *storage.Match, text, key string, files []File, img *Picture) {
	e.notes = append(e.notes, note{image: img, n: Notification{Key: "match/" + m.ID + "/" + key, Kind: NoticeMatch, Channel: true,
		To:    User{Name: "match " + m.ID},
		Game:  &GameRef{Place: Place{Guild: m.Guild, Channel: m.Channel, Thread: m.Thread}},
		Event: &EventRef{Kind: EventMatch, ID: m.ID, Name: matchTitle(m)},
		Reply: Reply{Title: matchTitle(m), Text: text, Files: files}}})
}

// matchCap ends g, a match game just moved in, as a draw by adjudication when it
// has reached its match's ply cap.
func (s *Service) matchCap(tx *storage.Tx, e *effects, g *storage.Game, side rules.Side) error {
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
	return s.end(tx, e, g, side, o,
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
func matchLane(g *storage.Game) (Lane, bool) {
	if g.Match == "" {
		return Lane{}, false
	}
	return Lane{Plies: maxMatchMaxPlies + 8}, true
}

// matchFailed reports in the match's place that g's engine lost it by failing.
func (s *Service) matchFailed(tx *Tx, g *storage.Game, report string) error {
	if g.Match == "" {
		return nil
	}
	m, err := tx.Match(g.Match)
	if err != nil {
		return err
	}
	s.postMatch(tx.e, m, fmt.Sprintf("Game %d: %s", g.Round, report), "failed/"+g.ID, nil, nil)
	return nil
}
