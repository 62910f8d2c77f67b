package storage_test

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/missivechess/missive/bot/tournament"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/storage"
)

func TestRecordRoundTrips(t *testing.T) {
	s, clock, _ := openTemp(t)
	now := clock.Now()
	player := &storage.Player{ID: "111", Name: "Alice", Notify: storage.NotifyBoth, Theme: "walnut", ReminderHours: []int{24, 2}}
	quiet := &storage.Player{ID: "112", ReminderHours: []int{}}
	challenge := &storage.Challenge{Guild: "900", Channel: "901", Challenger: storage.Seat{ID: "111", Name: "Alice"},
		Opponent: storage.Seat{ID: "engine:builtin:3", Name: "Missive 3"}, Variant: "walk", Color: storage.ColorRandom,
		DaysPerMove: 3, Rated: true, Start: "e1 e8 w 0", ExpiresAt: now.Add(48 * time.Hour), Tournament: "4"}
	tournament := &storage.Tournament{Guild: "900", Channel: "901", Thread: "905", Name: "Spring Swiss", Organizer: "111",
		Variant: "walk", Format: storage.Swiss, Rounds: 5, DaysPerMove: 2, Rated: true, MaxPlayers: 12,
		Engines: []string{"engine:builtin:5"}, Status: storage.TournamentRunning,
		Entrants: []storage.Entrant{
			{Player: storage.Seat{ID: "111", Name: "Alice"}, JoinedAt: now},
			{Player: storage.Seat{ID: "112", Name: "Bob"}, JoinedAt: now, Withdrawn: true, WithdrawnAt: now.Add(time.Hour)},
			{Player: storage.Seat{ID: "113", Name: "Cy"}, JoinedAt: now},
		},
		Pairing:   json.RawMessage(`{"format":"swiss","rounds":5,"players":["111","112","113"],"games":[{"round":1,"white":"111","black":"112","result":"+-"},{"round":1,"white":"113"}]}`),
		StartedAt: now}
	rating := &storage.Rating{Guild: "900", Variant: "walk", Player: "111", Rating: 1612.5, RD: 87.25,
		Volatility: 0.06, Games: 9, Last: now, Wins: 5, Draws: 1, Losses: 3}
	update(t, s, func(tx *storage.Tx) error {
		return errors.Join(tx.PutPlayer(player), tx.PutPlayer(quiet), tx.PutChallenge(challenge),
			tx.PutTournament(tournament), tx.PutRating(rating))
	})
	if challenge.ID != "1" || tournament.ID != "1" || challenge.Status != storage.ChallengeOpen {
		t.Fatalf("ids %q %q, status %q", challenge.ID, tournament.ID, challenge.Status)
	}
	for _, r := range []*storage.Stamp{&player.Stamp, &challenge.Stamp, &tournament.Stamp, &rating.Stamp} {
		if r.Version != 1 || !r.CreatedAt.Equal(now) || !r.UpdatedAt.Equal(now) {
			t.Errorf("stamp %+v", *r)
		}
	}
	view(t, s, func(tx *storage.Tx) error {
		check := func(name string, got any, err error, want any) {
			t.Helper()
			if err != nil {
				t.Errorf("%s: %v", name, err)
			} else if !reflect.DeepEqual(got, want) {
				t.Errorf("%s round trip:\n got %+v\nwant %+v", name, got, want)
			}
		}
		p, err := tx.Player("111")
		check("player", p, err, player)
		q, err := tx.Player("112")
		check("player with no reminders", q, err, quiet)
		if q != nil && (q.ReminderHours == nil || len(q.ReminderHours) != 0) {
			t.Errorf("an empty reminder list read back as %#v", q.ReminderHours)
		}
		c, err := tx.Challenge("1")
		check("challenge", c, err, challenge)
		tt, err := tx.Tournament("1")
		check("tournament", tt, err, tournament)
		r, err := tx.Rating("900", "walk", "111")
		check("rating", r, err, rating)
		return nil
	})
	mustVerify(t, s)
}

func TestRecordValidation(t *testing.T) {
	s, _, _ := openTemp(t)
	ctx := context.Background()
	for name, put := range map[string]func(tx *storage.Tx) error{
		"player without id":  func(tx *storage.Tx) error { return tx.PutPlayer(&storage.Player{}) },
		"bad notify style":   func(tx *storage.Tx) error { return tx.PutPlayer(&storage.Player{ID: "1", Notify: "pigeon"}) },
		"reminder too early": func(tx *storage.Tx) error { return tx.PutPlayer(&storage.Player{ID: "1", ReminderHours: []int{400}}) },
		"challenge colour": func(tx *storage.Tx) error {
			return tx.PutChallenge(&storage.Challenge{Challenger: storage.Seat{ID: "1"}, Variant: "walk", Color: "green"})
		},
		"tournament format": func(tx *storage.Tx) error {
			return tx.PutTournament(&storage.Tournament{Variant: "walk", Format: "knockout"})
		},
		"pairing state": func(tx *storage.Tx) error {
			return tx.PutTournament(&storage.Tournament{Variant: "walk", Format: storage.RoundRobin, Pairing: json.RawMessage(`{"games":[`)})
		},
		"rating without player": func(tx *storage.Tx) error { return tx.PutRating(&storage.Rating{Variant: "walk"}) },
	} {
		if err := s.Update(ctx, put); !errors.Is(err, storage.ErrInvalid) {
			t.Errorf("%s: %v, want ErrInvalid", name, err)
		}
	}
	update(t, s, func(tx *storage.Tx) error { return tx.PutPlayer(&storage.Player{ID: "1"}) })
	err := s.Update(ctx, func(tx *storage.Tx) error { return tx.PutPlayer(&storage.Player{ID: "1"}) })
	if !errors.Is(err, storage.ErrExists) {
		t.Errorf("creating a player twice: %v", err)
	}
	err = s.Update(ctx, func(tx *storage.Tx) error {
		return tx.PutPlayer(&storage.Player{ID: "2", Stamp: storage.Stamp{Version: 3}})
	})
	if !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("updating a missing player: %v", err)
	}
	err = s.View(ctx, func(tx *storage.Tx) error { return tx.PutPlayer(&storage.Player{ID: "3"}) })
	if !errors.Is(err, storage.ErrReadOnly) {
		t.Errorf("writing in View: %v", err)
	}
}

// ids returns the ids of games.
func ids(gs []*storage.GameSummary) []string {
	var out []string
	for _, g := range gs {
		out = append(out, g.ID)
	}
	return out
}

func TestGameIndexes(t *testing.T) {
	s, clock, _ := openTemp(t)
	ctx := context.Background()
	t0 := clock.Now()
	mk := func(white, black, thread, tournament string, deadline time.Duration) *storage.Game {
		clock.Advance(time.Minute)
		g := newGame("walk", white, black)
		g.Thread, g.Tournament = thread, tournament
		if deadline != 0 {
			g.Clock.DaysPerMove = 1
			g.Clock.SetDeadline(t0.Add(deadline))
		}
		return create(t, s, g)
	}
	g1 := mk("alice", "bob", "t1", "", 30*time.Hour)
	g2 := mk("alice", "carol", "t2", "T", 10*time.Hour)
	g3 := mk("bob", "carol", "", "T", 20*time.Hour)
	g4 := mk("alice", "alice", "t4", "", 0) // a local game against oneself, no clock
	mustVerify(t, s)

	view(t, s, func(tx *storage.Tx) error {
		if gs, _ := tx.PlayerActiveGames("alice"); !slices.Equal(ids(gs), []string{g1.ID, g2.ID, g4.ID}) {
			t.Errorf("alice's games %v", ids(gs))
		}
		if gs, _ := tx.PlayerActiveGames("carol"); !slices.Equal(ids(gs), []string{g2.ID, g3.ID}) {
			t.Errorf("carol's games %v", ids(gs))
		}
		if gs, _ := tx.PlayerActiveGames("nobody"); len(gs) != 0 {
			t.Errorf("nobody's games %v", ids(gs))
		}
		if g, err := tx.GameByThread("t2"); err != nil || g.ID != g2.ID || g.Position == nil {
			t.Errorf("game by thread t2: %v %v", g, err)
		}
		if _, err := tx.GameByThread("t3"); !errors.Is(err, storage.ErrNotFound) {
			t.Errorf("game by unknown thread: %v", err)
		}
		due, _ := tx.DueGames(t0.Add(25*time.Hour), 0)
		if len(due) != 2 || due[0].Game != g2.ID || due[1].Game != g3.ID || !due[0].At.Equal(t0.Add(10*time.Hour)) {
			t.Errorf("due games %+v", due)
		}
		if due, _ := tx.DueGames(t0.Add(100*time.Hour), 1); len(due) != 1 {
			t.Errorf("limit: %+v", due)
		}
		if next, ok, _ := tx.NextDue(); !ok || next.Game != g2.ID {
			t.Errorf("next due %+v %v", next, ok)
		}
		if gs, _ := tx.TournamentGames("T"); !slices.Equal(ids(gs), []string{g2.ID, g3.ID}) {
			t.Errorf("tournament games %v", ids(gs))
		}
		var active []string
		tx.ActiveGames(func(g *storage.GameSummary) error { active = append(active, g.ID); return nil })
		if len(active) != 4 {
			t.Errorf("active games %v", active)
		}
		return nil
	})

	// A thread belongs to one game.
	g5 := newGame("walk", "dan", "eve")
	g5.Thread = "t1"
	if err := s.CreateGame(ctx, g5); !errors.Is(err, storage.ErrExists) {
		t.Errorf("second game in thread t1: %v", err)
	}

	// Updates move the entries: a reminder wake, a new thread, a tournament, a result.
	clock.Advance(time.Hour)
	if _, err := s.UpdateGame(ctx, g1.ID, func(g *storage.Game) error {
		g.Clock.Wake = t0.Add(5 * time.Hour)
		g.Thread = "t1b"
		g.Tournament = "T"
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	clock.Advance(time.Hour)
	end2 := clock.Now()
	if _, err := s.UpdateGame(ctx, g2.ID, func(g *storage.Game) error {
		g.Outcome = rules.Win(rules.Black, rules.Resignation)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	clock.Advance(time.Hour)
	if _, err := s.UpdateGame(ctx, g3.ID, func(g *storage.Game) error {
		g.Outcome = rules.Draw(rules.Agreement)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	mustVerify(t, s)
	view(t, s, func(tx *storage.Tx) error {
		if gs, _ := tx.PlayerActiveGames("alice"); !slices.Equal(ids(gs), []string{g1.ID, g4.ID}) {
			t.Errorf("alice's active games after g2 ended: %v", ids(gs))
		}
		if gs, _ := tx.PlayerFinishedGames("carol", 0); !slices.Equal(ids(gs), []string{g3.ID, g2.ID}) {
			t.Errorf("carol's finished games, newest first: %v", ids(gs))
		} else if !gs[1].EndedAt.Equal(end2) {
			t.Errorf("g2 ended at %v, want %v", gs[1].EndedAt, end2)
		}
		if gs, _ := tx.PlayerFinishedGames("carol", 1); !slices.Equal(ids(gs), []string{g3.ID}) {
			t.Errorf("carol's last finished game: %v", ids(gs))
		}
		if _, err := tx.GameByThread("t1"); !errors.Is(err, storage.ErrNotFound) {
			t.Errorf("old thread still indexed: %v", err)
		}
		if g, _ := tx.GameByThread("t1b"); g == nil || g.ID != g1.ID {
			t.Error("new thread not indexed")
		}
		due, _ := tx.DueGames(t0.Add(100*time.Hour), 0)
		if len(due) != 1 || due[0].Game != g1.ID || !due[0].At.Equal(t0.Add(5*time.Hour)) {
			t.Errorf("due after updates (finished games leave, wake comes first): %+v", due)
		}
		gs, _ := tx.TournamentGames("T")
		if !slices.Equal(ids(gs), []string{g1.ID, g2.ID, g3.ID}) {
			t.Errorf("tournament games %v", ids(gs))
		}
		for _, sum := range gs { // summaries say what the records say
			g, err := tx.GameRecord(sum.ID)
			if err != nil || !reflect.DeepEqual(sum, g.Summary()) {
				t.Errorf("summary of game %s:\n got %+v\nwant %+v (%v)", sum.ID, sum, g.Summary(), err)
			}
		}
		if gs[1].Outcome != rules.Win(rules.Black, rules.Resignation) || gs[1].Active() || gs[1].ToMove != nil ||
			gs[0].Plies != 0 || !gs[0].Deadline.Equal(t0.Add(30*time.Hour)) || len(gs[0].ToMove) != 1 {
			t.Errorf("summaries %+v %+v", gs[0], gs[1])
		}
		return nil
	})
	// SetDeadline resets the wake and the reminders.
	if g, err := s.UpdateGame(ctx, g1.ID, func(g *storage.Game) error {
		g.Clock.MarkSent("alice", 2)
		g.Clock.SetDeadline(t0.Add(50 * time.Hour))
		return nil
	}); err != nil || !g.Clock.Wake.IsZero() || len(g.Clock.Sent) != 0 {
		t.Errorf("SetDeadline: %+v %v", g.Clock, err)
	}

	// Deletes remove every entry.
	update(t, s, func(tx *storage.Tx) error { return errors.Join(tx.DeleteGame(g1.ID), tx.DeleteGame(g2.ID)) })
	mustVerify(t, s)
	view(t, s, func(tx *storage.Tx) error {
		if gs, _ := tx.PlayerActiveGames("alice"); !slices.Equal(ids(gs), []string{g4.ID}) {
			t.Errorf("alice's games after deletes %v", ids(gs))
		}
		if gs, _ := tx.PlayerFinishedGames("bob", 0); !slices.Equal(ids(gs), []string{g3.ID}) {
			t.Errorf("bob's finished games after deletes %v", ids(gs))
		}
		if _, ok, _ := tx.NextDue(); ok {
			t.Error("a deleted game is still due")
		}
		if _, err := tx.Game(g1.ID); !errors.Is(err, storage.ErrNotFound) {
			t.Errorf("deleted game: %v", err)
		}
		return nil
	})
	if err := s.Update(ctx, func(tx *storage.Tx) error { return tx.DeleteGame(g1.ID) }); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("deleting twice: %v", err)
	}
	// The freed thread can be taken by a new game.
	g5.Thread = "t1b"
	create(t, s, g5)
	mustVerify(t, s)
}

func TestChallengeAndTournamentIndexes(t *testing.T) {
	s, clock, _ := openTemp(t)
	ctx := context.Background()
	t0 := clock.Now()
	mk := func(guild, from, to string, expires time.Duration) *storage.Challenge {
		clock.Advance(time.Minute)
		c := &storage.Challenge{Guild: guild, Challenger: storage.Seat{ID: from}, Opponent: storage.Seat{ID: to},
			Variant: "walk", Color: storage.ColorWhite, DaysPerMove: 3}
		if expires != 0 {
			c.ExpiresAt = t0.Add(expires)
		}
		update(t, s, func(tx *storage.Tx) error { return tx.PutChallenge(c) })
		return c
	}
	c1 := mk("G", "alice", "", time.Hour)
	c2 := mk("G", "bob", "alice", 3*time.Hour)
	c3 := mk("H", "carol", "bob", 0)
	chIDs := func(cs []*storage.Challenge) []string {
		var out []string
		for _, c := range cs {
			out = append(out, c.ID)
		}
		return out
	}
	check := func(step string, guildG, alice, bob, expired []string) {
		t.Helper()
		mustVerify(t, s)
		view(t, s, func(tx *storage.Tx) error {
			if cs, _ := tx.OpenChallenges("G"); !slices.Equal(chIDs(cs), guildG) {
				t.Errorf("%s: open in G %v, want %v", step, chIDs(cs), guildG)
			}
			if cs, _ := tx.PlayerChallenges("alice"); !slices.Equal(chIDs(cs), alice) {
				t.Errorf("%s: alice's %v, want %v", step, chIDs(cs), alice)
			}
			if cs, _ := tx.PlayerChallenges("bob"); !slices.Equal(chIDs(cs), bob) {
				t.Errorf("%s: bob's %v, want %v", step, chIDs(cs), bob)
			}
			if cs, _ := tx.ExpiredChallenges(t0.Add(2 * time.Hour)); !slices.Equal(chIDs(cs), expired) {
				t.Errorf("%s: expired %v, want %v", step, chIDs(cs), expired)
			}
			return nil
		})
	}
	check("created", []string{c1.ID, c2.ID}, []string{c1.ID, c2.ID}, []string{c2.ID, c3.ID}, []string{c1.ID})
	c1.Status = storage.ChallengeExpired
	c3.Status, c3.Game = storage.ChallengeAccepted, "12"
	update(t, s, func(tx *storage.Tx) error { return errors.Join(tx.PutChallenge(c1), tx.PutChallenge(c3)) })
	check("expired and accepted", []string{c2.ID}, []string{c2.ID}, []string{c2.ID}, nil)
	update(t, s, func(tx *storage.Tx) error { return tx.DeleteChallenge(c2.ID) })
	check("deleted", nil, nil, nil, nil)

	// Tournaments by guild, open/running apart from finished.
	tt := []*storage.Tournament{
		{Guild: "G", Name: "a", Variant: "walk", Format: storage.DoubleRoundRobin},
		{Guild: "G", Name: "b", Variant: "walk", Format: storage.Swiss, Rounds: 4, Status: storage.TournamentRunning},
		{Guild: "H", Name: "c", Variant: "walk", Format: storage.Swiss},
	}
	update(t, s, func(tx *storage.Tx) error {
		return errors.Join(tx.PutTournament(tt[0]), tx.PutTournament(tt[1]), tx.PutTournament(tt[2]))
	})
	names := func(active bool) []string {
		var out []string
		view(t, s, func(tx *storage.Tx) error {
			ts, err := tx.GuildTournaments("G", active)
			for _, x := range ts {
				out = append(out, x.Name)
			}
			return err
		})
		return out
	}
	if got := names(true); !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("active tournaments %v", got)
	}
	tt[1].Status = storage.TournamentFinished
	update(t, s, func(tx *storage.Tx) error { return tx.PutTournament(tt[1]) })
	if a, f := names(true), names(false); !slices.Equal(a, []string{"a"}) || !slices.Equal(f, []string{"b"}) {
		t.Errorf("after finishing b: active %v finished %v", a, f)
	}
	update(t, s, func(tx *storage.Tx) error { return tx.DeleteTournament(tt[0].ID) })
	if a := names(true); len(a) != 0 {
		t.Errorf("after deleting a: %v", a)
	}
	mustVerify(t, s)

	// Ratings: a leaderboard per guild and variant, highest first.
	update(t, s, func(tx *storage.Tx) error {
		return errors.Join(
			tx.PutRating(&storage.Rating{Guild: "G", Variant: "walk", Player: "a", Rating: 1500}),
			tx.PutRating(&storage.Rating{Guild: "G", Variant: "walk", Player: "b", Rating: 1700}),
			tx.PutRating(&storage.Rating{Guild: "G", Variant: "walkplace", Player: "c", Rating: 1900}),
			tx.PutRating(&storage.Rating{Guild: "H", Variant: "walk", Player: "d", Rating: 2000}))
	})
	view(t, s, func(tx *storage.Tx) error {
		rs, err := tx.Ratings("G", "walk")
		if err != nil || len(rs) != 2 || rs[0].Player != "b" || rs[1].Player != "a" {
			t.Errorf("leaderboard %+v %v", rs, err)
		}
		return nil
	})
	_ = ctx
}

// TestTournamentPairingStateFits stores the pairing state of package bot/tournament
// mid-event, with games created for its pairings, and reads both back.
func TestTournamentPairingStateFits(t *testing.T) {
	s, _, _ := openTemp(t)
	players := []tournament.PlayerID{"a", "b", "c", "d", "e"}
	state, err := tournament.New(tournament.Swiss, players, 2)
	if err != nil {
		t.Fatal(err)
	}
	state, paired, err := state.NextRound()
	if err != nil {
		t.Fatal(err)
	}
	pairing, err := json.Marshal(state)
	if err != nil {
		t.Fatal(err)
	}
	tt := &storage.Tournament{Guild: "G", Name: "Swiss", Variant: "walk", Format: storage.TournamentFormat(state.Format),
		Rounds: state.Rounds, Status: storage.TournamentRunning, Pairing: pairing}
	update(t, s, func(tx *storage.Tx) error {
		if err := tx.PutTournament(tt); err != nil {
			return err
		}
		for _, p := range paired { // the round's games, created in the same transaction
			if p.IsBye() {
				continue
			}
			g := newGame("walk", string(p.White), string(p.Black))
			g.Tournament, g.Round = tt.ID, p.Round
			if err := tx.PutGame(g); err != nil {
				return err
			}
		}
		return nil
	})
	view(t, s, func(tx *storage.Tx) error {
		got, err := tx.Tournament(tt.ID)
		if err != nil {
			return err
		}
		var back tournament.Tournament
		if err := json.Unmarshal(got.Pairing, &back); err != nil {
			return err
		}
		if err := back.Validate(); err != nil || !reflect.DeepEqual(back, state) {
			t.Errorf("pairing state read back as %+v (%v), want %+v", back, err, state)
		}
		games, err := tx.TournamentGames(tt.ID)
		if err != nil {
			return err
		}
		if len(games) != 2 { // five players: two games and a bye
			t.Errorf("%d tournament games, want 2", len(games))
		}
		for _, g := range games {
			if g.Round != 1 || g.Tournament != tt.ID {
				t.Errorf("game %+v", g)
			}
		}
		return nil
	})
	mustVerify(t, s)
}
