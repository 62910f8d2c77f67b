package tournaments_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/bottest"
	"github.com/missivechess/missive/bot/challenges"
	"github.com/missivechess/missive/bot/play"
	"github.com/missivechess/missive/bot/tournaments"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/storage"
)

// active returns the games still being played.
func active(games []*storage.Game) []*storage.Game {
	var out []*storage.Game
	for _, g := range games {
		if g.Active() {
			out = append(out, g)
		}
	}
	return out
}

// noRematch fails when two games of a tournament share both players.
func noRematch(t *testing.T, games []*storage.Game) {
	t.Helper()
	seen := map[[2]string]bool{}
	for _, g := range games {
		p := []string{g.Players[0].ID, g.Players[1].ID}
		slices.Sort(p)
		if seen[[2]string(p)] {
			t.Fatalf("%s and %s were paired twice", p[0], p[1])
		}
		seen[[2]string(p)] = true
	}
}

// postsWith returns the tournament posts whose text contains want.
func postsWith(ns []bot.Notification, want string) int {
	n := 0
	for _, x := range ns {
		if x.Kind == tournaments.NoticeTournament && strings.Contains(x.Reply.Text, want) {
			n++
		}
	}
	return n
}

// A Swiss of five played to the end: byes, a result by resignation, a restart in the
// middle of a round, a timeout, a withdrawal, rounds paired as the last game of a
// round ends, and a final announcement.
func TestSwissTournament(t *testing.T) {
	h := bottest.New(t)
	players := []string{"alice", "bob", "carol", "dave", "erin"}
	r := h.Ok("alice", "tournament action:create name:Spring_Swiss variant:gothic format:swiss rounds:3 days:1")
	if !strings.Contains(r.PlainText(), "Tournament 1 is open") {
		t.Fatalf("create: %s", r.PlainText())
	}
	for _, p := range players {
		h.Ok(p, "tournament action:join")
	}
	h.Refused("dave", "tournament action:join", "already in tournament 1")
	h.Refused("bob", "tournament action:standings tournament:9", "no tournament 9")
	h.Ok("alice", "tournament action:start")
	h.Refused("alice", "tournament action:start", "already started")
	h.Refused("zoe", "tournament action:join", "already started")

	tr, games := h.Tournament("1")
	if tr.Status != storage.TournamentRunning || len(games) != 2 || tr.Rounds != 3 {
		t.Fatalf("round 1: status %s, %d games, %d rounds", tr.Status, len(games), tr.Rounds)
	}
	for _, g := range games {
		if !g.Rated || g.Round != 1 || g.Clock.DaysPerMove != 1 || g.Variant != "gothic" {
			t.Fatalf("game %s: %+v", g.ID, g)
		}
	}
	h.Refused(games[0].Players[0].ID, "abort game:"+games[0].ID, "tournament game and cannot be aborted")
	if !h.Game(games[0].ID).Active() {
		t.Fatal("a refused abort ended the game")
	}
	// Round 1: Black resigns the first game; then a restart; then White loses the
	// second on time.
	h.Ok(games[0].Players[1].ID, "resign game:"+games[0].ID)
	ns := h.Notes.Take()
	if postsWith(ns, "Game "+games[0].ID+" (round 1)") != 1 {
		t.Fatalf("no standings after the result: %+v", ns)
	}
	for _, n := range ns {
		if n.Kind == tournaments.NoticeTournament && strings.Contains(n.Reply.Text, "(round 1)") &&
			(len(n.Reply.Files) != 1 || !strings.Contains(n.Reply.Board, "Pts") || !strings.Contains(n.Reply.Files[0].Alt, "standings during round 1 of 3")) {
			t.Fatalf("the result's standings: %+v", n.Reply)
		}
	}
	h.Restart()
	if _, gs := h.Tournament("1"); len(gs) != 2 {
		t.Fatalf("after the restart: %d games", len(gs))
	}
	h.Clock.Advance(25 * time.Hour)
	h.Tick()
	tr, games = h.Tournament("1")
	if len(games) != 4 || len(active(games)) != 2 {
		t.Fatalf("round 2 not paired when round 1 ended: %d games, %d active", len(games), len(active(games)))
	}
	if postsWith(h.Notes.Take(), "Round 2 of 3") != 1 {
		t.Fatal("round 2 was not announced")
	}
	h.Restart() // in the middle of round 2: nothing is paired again
	h.Tick()
	if _, gs := h.Tournament("1"); len(gs) != 4 {
		t.Fatalf("after a restart in round 2: %d games", len(gs))
	}
	// Round 2: a player of a game not yet begun withdraws (a forfeit); the other game
	// ends by resignation after a move.
	round2 := active(games)
	quitter := round2[0].Players[0].ID
	h.Ok(quitter, "tournament action:leave")
	if g := h.Game(round2[0].ID); g.Active() {
		t.Fatal("the withdrawn player's game goes on")
	}
	h.Refused(quitter, "tournament action:leave", "not playing")
	g := round2[1]
	h.Ok(g.Players[0].ID, "move game:"+g.ID+" move:e2e4")
	h.Ok(g.Players[1].ID, "resign game:"+g.ID)
	tr, games = h.Tournament("1")
	third := active(games)
	if len(third) != 2 {
		t.Fatalf("round 3: %d active games of %d", len(third), len(games))
	}
	for _, g := range third {
		if g.Round != 3 || g.Players[0].ID == quitter || g.Players[1].ID == quitter {
			t.Fatalf("round 3 game %+v", g.Players)
		}
	}
	h.Notes.Take()
	for _, g := range third {
		h.Ok(g.Players[1].ID, "resign game:"+g.ID)
	}
	tr, games = h.Tournament("1")
	if tr.Status != storage.TournamentFinished || len(games) != 6 {
		t.Fatalf("at the end: %s with %d games", tr.Status, len(games))
	}
	noRematch(t, games)
	if postsWith(h.Notes.Take(), "The tournament is over") != 1 {
		t.Fatal("no final announcement")
	}
	st := h.Ok("bob", "tournament action:standings tournament:1").PlainText()
	if !strings.Contains(st, "Final standings") || !strings.Contains(st, "BH") || !strings.Contains(st, quitter+" (w/d)") {
		t.Fatalf("standings:\n%s", st)
	}
	info := h.Ok("bob", "tournament action:info tournament:1").PlainText()
	if !strings.Contains(info, "finished") || !strings.Contains(info, quitter+" (withdrew)") {
		t.Fatalf("info:\n%s", info)
	}
}

// A round robin starts all its games at once and ends when the last one does.
func TestRoundRobinTournament(t *testing.T) {
	h := bottest.New(t)
	h.Ok("alice", "tournament action:create variant:gothic format:double-round-robin rated:no days:2 max:3")
	for _, p := range []string{"alice", "bob", "carol"} {
		h.Ok(p, "tournament action:join")
	}
	h.Refused("dave", "tournament action:join", "full")
	h.Ok("bob", "tournament action:leave") // before the start: simply leaves
	h.Ok("dave", "tournament action:join")
	h.Ok("alice", "tournament action:start")
	tr, games := h.Tournament("1")
	if len(games) != 6 || len(active(games)) != 6 || tr.Rounds != 6 {
		t.Fatalf("double round robin of 3: %d games, %d rounds", len(games), tr.Rounds)
	}
	// carol moves in one game, then withdraws: that game counts as resigned, her
	// others are forfeited.
	var moved string
	for _, g := range games {
		if g.Players[0].ID == "carol" {
			moved = g.ID
			h.Ok("carol", "move game:"+g.ID+" move:e2e4")
			break
		}
	}
	h.Ok("carol", "tournament action:leave")
	for _, g := range games {
		if _, plays := g.SideOf("carol"); !plays {
			continue
		}
		o := h.Game(g.ID).Outcome
		if want := rules.Aborted; g.ID == moved {
			if o.Reason != rules.Resignation {
				t.Errorf("game %s with a move: %v", g.ID, o)
			}
		} else if o.Reason != want {
			t.Errorf("unplayed game %s: %v", g.ID, o)
		}
	}
	for _, g := range active(games) {
		if g.Rated {
			t.Fatal("a casual tournament's game is rated")
		}
		if h.Game(g.ID).Active() {
			h.Ok(g.Players[0].ID, "resign game:"+g.ID)
		}
	}
	tr, _ = h.Tournament("1")
	if tr.Status != storage.TournamentFinished {
		t.Fatalf("status %s", tr.Status)
	}
	r := h.Ok("bob", "tournament action:standings")
	if st := r.PlainText(); !strings.Contains(st, "SB") || !strings.Contains(st, "carol (w/d)") {
		t.Fatalf("standings:\n%s", st)
	}
	// By default a picture of the whole table, the text as its fallback.
	if len(r.Files) != 1 || r.Files[0].Name != "standings-1.png" || r.Files[0].ContentType != "image/png" ||
		!strings.HasPrefix(string(r.Files[0].Data), "TABLE ") || !strings.Contains(string(r.Files[0].Data), "carol (w/d)") ||
		!strings.Contains(r.Files[0].Alt, "final standings: 1. ") {
		t.Fatalf("standings picture: %+v", r.Files)
	}
	if r := h.Ok("bob", "tournament action:standings show:table"); len(r.Files) != 0 || !strings.Contains(r.Text, "```") || !strings.Contains(r.Text, "Sonneborn-Berger") {
		t.Fatalf("standings as text: %+v", r)
	}
	h.Refused("bob", "tournament action:standings show:chart", "show:image")
	if h.Rating("gothic", "alice") != nil {
		t.Fatal("a casual tournament was rated")
	}
}

// Creating and starting a tournament on a server needs the server-management
// permission; joining does not.
func TestTournamentAdminOnly(t *testing.T) {
	h := bottest.New(t)
	place := bot.Place{Guild: "g1", Channel: "c1", Thread: "th1"} // the tournament's thread; each game gets its own
	run := func(user, line string, admin bool) bot.Reply {
		f := strings.Fields(line)
		req := bot.Request{User: bot.User{ID: user, Name: user}, Place: place, Command: f[0], Args: bot.Args{}, Admin: admin}
		for _, kv := range f[1:] {
			k, v, _ := strings.Cut(kv, ":")
			req.Args[k] = v
		}
		defer h.Svc.Idle()
		return h.Svc.Handle(context.Background(), req)
	}
	if r := run("bob", "tournament action:create variant:gothic", false); !r.Refused || !strings.Contains(r.Text, "manage this server") {
		t.Fatalf("create by a member: %s", r.PlainText())
	}
	if r := run("alice", "tournament action:create variant:gothic", true); r.Refused {
		t.Fatal(r.Text)
	}
	run("bob", "tournament action:join", false)
	run("carol", "tournament action:join", false)
	if r := run("bob", "tournament action:start", false); !r.Refused {
		t.Fatal("a member started the tournament")
	}
	if r := run("alice", "tournament action:start", true); r.Refused {
		t.Fatal(r.Text)
	}
	spec, _ := h.Svc.Spec(tournaments.CmdTournament)
	if !slices.Equal(spec.AdminActions, []string{"create", "start"}) {
		t.Errorf("/tournament admin actions %v", spec.AdminActions)
	}
}

// When the last two games of a Swiss round end at the same moment, the next round is
// paired once.
func TestSwissConcurrentEnds(t *testing.T) {
	h := bottest.New(t)
	h.Ok("alice", "tournament action:create variant:gothic format:swiss") // rounds: set at the start
	for _, p := range []string{"alice", "bob", "carol", "dave"} {
		h.Ok(p, "tournament action:join")
	}
	h.Ok("alice", "tournament action:start")
	tr, games := h.Tournament("1")
	if len(games) != 2 || tr.Rounds != 3 {
		t.Fatalf("%d games in round 1 of %d", len(games), tr.Rounds)
	}
	var wg sync.WaitGroup
	for i, g := range games {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req := bot.Request{ID: fmt.Sprintf("c%d", i), User: bot.User{ID: g.Players[1].ID}, Command: play.CmdResign, Args: bot.Args{"game": g.ID}}
			if r := h.Svc.Handle(context.Background(), req); r.Refused {
				t.Error(r.Text)
			}
		}()
	}
	wg.Wait()
	h.Svc.Idle()
	_, games = h.Tournament("1")
	if len(games) != 4 || len(active(games)) != 2 {
		t.Fatalf("after round 1 ended concurrently: %d games, %d active", len(games), len(active(games)))
	}
	noRematch(t, games)
}

// finishRoundRobin plays tournament 1's games out: score names the winner of each
// pairing ("alice-bob": "alice"), "" for a draw.
func finishRoundRobin(h *bottest.Harness, score map[string]string) string {
	h.T.Helper()
	_, games := h.Tournament("1")
	h.Notes.Take()
	for _, g := range games {
		w, b := g.Players[0].ID, g.Players[1].ID
		winner, ok := score[w+"-"+b]
		if !ok {
			winner, ok = score[b+"-"+w]
		}
		if !ok {
			h.T.Fatalf("no result for %s-%s", w, b)
		}
		switch winner {
		case "":
			h.Ok(w, "draw game:"+g.ID)
			h.Ok(b, "draw game:"+g.ID)
		case w:
			h.Ok(b, "resign game:"+g.ID)
		default:
			h.Ok(w, "resign game:"+g.ID)
		}
	}
	if tr, _ := h.Tournament("1"); tr.Status != storage.TournamentFinished {
		h.T.Fatalf("status %s", tr.Status)
	}
	for _, n := range h.Notes.Take() {
		if n.Kind == tournaments.NoticeTournament && strings.Contains(n.Reply.Text, "The tournament is over") {
			return n.Reply.Text
		}
	}
	h.T.Fatal("no final announcement")
	return ""
}

// A tournament won on points names the winner; a tie on points names the tie-break
// that decided it; a tie on every tie-break says who shares first place.
func TestTournamentWinner(t *testing.T) {
	start := func(h *bottest.Harness, players ...string) {
		h.Ok(players[0], "tournament action:create variant:gothic format:round-robin rated:no days:2")
		for _, p := range players {
			h.Ok(p, "tournament action:join")
		}
		h.Ok(players[0], "tournament action:start")
	}
	t.Run("points", func(t *testing.T) {
		h := bottest.New(t)
		start(h, "alice", "bob", "carol")
		got := finishRoundRobin(h, map[string]string{"alice-bob": "alice", "alice-carol": "alice", "bob-carol": ""})
		if !strings.Contains(got, "alice wins with 2 points.") {
			t.Fatalf("final post: %s", got)
		}
	})
	t.Run("tie-break", func(t *testing.T) {
		// alice and bob both score 2; bob beat alice (2) and drew carol (1.5) and dave
		// (0.5): Sonneborn-Berger 3; alice beat carol and dave: 2.
		h := bottest.New(t)
		start(h, "alice", "bob", "carol", "dave")
		got := finishRoundRobin(h, map[string]string{"alice-bob": "bob", "alice-carol": "alice", "alice-dave": "alice",
			"bob-carol": "", "bob-dave": "", "carol-dave": "carol"})
		if !strings.Contains(got, "bob wins on the Sonneborn-Berger tie-break (3 to alice's 2), level on 2 points with alice.") {
			t.Fatalf("final post: %s", got)
		}
	})
	t.Run("shared", func(t *testing.T) {
		h := bottest.New(t)
		start(h, "alice", "bob")
		got := finishRoundRobin(h, map[string]string{"alice-bob": ""})
		if !strings.Contains(got, "alice and bob share first place with 0.5 points each, level on every tie-break too") || strings.Contains(got, "wins") {
			t.Fatalf("final post: %s", got)
		}
	})
}

// An external engine may be allowed into a tournament and entered at its configured
// strength; a level is for the built-in engine only.
func TestTournamentExternalEngine(t *testing.T) {
	dir := t.TempDir()
	cfgs := bottest.CheckEngines(t, dir)[:1] // Good
	eng := bottest.ExternalEngines(t, cfgs)
	h := bottest.New(t)
	h.Config = func(c *bot.Config) {
		c.Engine = eng
	}
	h.Restart()
	h.Ok("alice", "tournament action:create variant:gothic format:round-robin engines:good,builtin")
	h.Refused("alice", "tournament action:join engine:good level:3", "Levels are for the built-in engine only")
	h.Refused("alice", "tournament action:join engine:builtin level:9", "The engine's level must be a number from 1 to 8, not \"9\".")
	h.Refused("bob", "tournament action:join level:3", "A level is the strength of an engine you enter; you join without one. To enter the engine, name it: engine:builtin level:N.")
	h.Ok("alice", "tournament action:join engine:good")
	h.Ok("alice", "tournament action:join engine:builtin")
	tour, _ := h.Tournament("1")
	var ids []string
	for _, en := range tour.Entrants {
		ids = append(ids, en.Player.ID)
	}
	if want := []string{"engine:ext:Good", "engine:builtin:4"}; !slices.Equal(ids, want) {
		t.Errorf("entrants %v, want %v", ids, want)
	}
}

// A tournament that names an engine that does not exist is refused with the list.
func TestTournamentUnknownEngine(t *testing.T) {
	h := bottest.New(t)
	r := h.Refused("alice", "tournament action:create variant:gothic format:round-robin engines:stockfish", `There is no engine "stockfish"; the engines here are: builtin.`)
	if strings.Count(r.Text, "There is no engine") != 1 {
		t.Errorf("refusal %q says it twice", r.Text)
	}
}

// /tournament join's engine option suggests the engines the tournament admits that
// can play its game: named as configured, without one whose check failed, and
// nothing once the tournament has started or when several could be meant.
func TestTournamentEngineSuggestions(t *testing.T) {
	dir := t.TempDir()
	cfgs := bottest.CheckEngines(t, dir)[:2] // Good and Missing
	eng := bottest.ExternalEngines(t, cfgs)
	h := bottest.New(t)
	h.Config = func(c *bot.Config) {
		c.Engine = eng
	}
	h.Restart()
	suggested := func(args bot.Args) []string {
		var out []string
		for _, c := range h.Svc.Complete(t.Context(), bot.Request{User: bot.User{ID: "alice"}, Command: tournaments.CmdTournament, Args: args}, "engine", "") {
			out = append(out, c.Label+"="+c.Value)
		}
		return out
	}
	// /tournament create's engines option builds its list one engine at a time.
	lists := func(typed string, args bot.Args) []string {
		var out []string
		for _, c := range h.Svc.Complete(t.Context(), bot.Request{User: bot.User{ID: "alice"}, Command: tournaments.CmdTournament, Args: args}, "engines", typed) {
			out = append(out, c.Value)
		}
		return out
	}
	for _, c := range []struct {
		typed, variant string
		want           []string
	}{
		{"", "gothic", []string{"builtin", "good", "missing"}},
		{"", "keltic", []string{"builtin"}},
		{"go", "gothic", []string{"good"}},
		{"good,", "gothic", []string{"good,builtin", "good,missing"}},
		{"Good, mi", "", []string{"Good, missing"}},
		{"good,builtin,missing,", "gothic", nil},
	} {
		if got := lists(c.typed, bot.Args{"action": "create", "variant": c.variant}); !slices.Equal(got, c.want) {
			t.Errorf("engines typed %q for %q: suggested %v, want %v", c.typed, c.variant, got, c.want)
		}
	}
	h.Ok("alice", "tournament action:create variant:gothic format:round-robin engines:missing,good")
	if got, want := suggested(bot.Args{"action": "join"}), []string{"Missing=missing", "Good=good"}; !slices.Equal(got, want) {
		t.Errorf("engines suggested before the check: %v, want %v", got, want)
	}
	h.Svc.CheckEngines()
	h.Svc.Idle()
	if got, want := suggested(bot.Args{"action": "join"}), []string{"Good=good"}; !slices.Equal(got, want) {
		t.Errorf("engines suggested after Missing's check failed: %v, want %v", got, want)
	}
	// /challenge keeps its own suggestions for its engine option.
	var challenge []string
	for _, c := range h.Svc.Complete(t.Context(), bot.Request{User: bot.User{ID: "alice"}, Command: challenges.CmdChallenge, Args: bot.Args{"variant": "gothic"}}, "engine", "") {
		challenge = append(challenge, c.Value)
	}
	if want := []string{"builtin", "Good"}; !slices.Equal(challenge, want) {
		t.Errorf("/challenge suggests %v, want %v", challenge, want)
	}
	h.Ok("alice", "tournament action:create variant:keltic format:round-robin engines:builtin")
	if got := suggested(bot.Args{"action": "join"}); len(got) != 0 {
		t.Errorf("with two tournaments open and none named, suggested %v", got)
	}
	if got, want := suggested(bot.Args{"action": "join", "tournament": "2"}), []string{"builtin=builtin"}; !slices.Equal(got, want) {
		t.Errorf("engines suggested for tournament 2: %v, want %v", got, want)
	}
	h.Ok("alice", "tournament action:join tournament:1 engine:good")
	h.Ok("bob", "tournament action:join tournament:1")
	h.Ok("alice", "tournament action:start tournament:1")
	if got := suggested(bot.Args{"action": "join", "tournament": "1"}); len(got) != 0 {
		t.Errorf("a started tournament suggests %v", got)
	}
}
