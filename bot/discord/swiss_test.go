package discord_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/missivechess/missive/bot/discord"
	"github.com/missivechess/missive/bot/discord/discordtest"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/storage"
)

// A large Swiss round starts under Discord's limits: /tournament start answers before
// the games' threads exist; the server never has more active threads than its cap;
// the games beyond it are played in the channel, which is told why once; and every
// player's first notice arrives exactly once, in the game's thread or, for a game
// without one, in the channel.
func TestSwissRoundUnderThreadCap(t *testing.T) {
	const players, maxThreads = 40, 8
	guild := discordtest.DefaultGuild()
	var names []string
	for i := range players {
		name := fmt.Sprintf("p%02d", i)
		names = append(names, name)
		guild.Members = append(guild.Members, discordtest.Member{User: discordtest.User{Username: name}})
	}
	e := start(t, discord.Options{}, discordtest.Config{Guilds: []discordtest.Guild{guild}})
	ok := func(in *discordtest.Interaction) *discordtest.Message {
		t.Helper()
		m := e.answer(in)
		if m.Ephemeral {
			t.Fatalf("refused: %q", m.Content)
		}
		return m
	}
	ok(e.srv.Command("carol", "games", "tournament create", discordtest.Opt{Name: "name", Value: "Big Swiss"},
		discordtest.Opt{Name: "variant", Value: "gothic"}, discordtest.Opt{Name: "format", Value: "swiss"}))
	for _, p := range names {
		ok(e.srv.Command(p, "games", "tournament join"))
	}
	e.svc.Idle()
	e.srv.SetMaxActiveThreads(maxThreads)
	e.srv.SetThreadCreateLimit(discordtest.RateLimit{Limit: 10, Window: time.Second})

	t0 := time.Now()
	ok(e.srv.Command("carol", "games", "tournament start"))
	answered := time.Since(t0)
	var games []*storage.GameSummary
	if err := e.st.View(e.ctx, func(tx *storage.Tx) error {
		var err error
		games, err = tx.TournamentGames("1")
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if len(games) != players/2 {
		t.Fatalf("%d games in round 1, want %d", len(games), players/2)
	}
	e.svc.Idle()
	delivered := time.Since(t0)
	t.Logf("/tournament start answered in %v; the first notices of %d games delivered in %v; %d 429s",
		answered, len(games), delivered, e.srv.RateLimited())
	if answered > delivered/2 {
		t.Errorf("/tournament start answered in %v, the notices took %v: it waited for them", answered, delivered)
	}

	channel := e.srv.Channel("games").ID
	threads := 0
	for _, ch := range e.srv.Guild().Channels {
		threads += len(e.srv.Threads(ch.ID))
	}
	if threads > maxThreads {
		t.Errorf("%d active threads, the server's cap is %d", threads, maxThreads)
	}
	if f := e.b.Failures(); f[discord.FailThreadCap] == 0 {
		t.Errorf("no 160006 met: failures %v", f)
	}
	told := 0
	for _, m := range e.srv.Messages(channel) {
		if strings.Contains(m.Content, "limit of active threads") {
			told++
		}
	}
	if told != 1 {
		t.Errorf("the channel was told %d times that the server has its maximum of threads, want once", told)
	}
	// Each player's first notice of their game: once, in one place per game.
	inChannel := 0
	for _, g := range games {
		begins := fmt.Sprintf("Game %s begins:", g.ID)
		var where []string
		for _, seat := range []storage.Seat{g.Players[rules.White], g.Players[rules.Black]} {
			n := 0
			for _, c := range places(e) {
				for _, m := range e.srv.Messages(c) {
					if m.InteractionID == "" && !m.Deleted && slices.Contains(m.Mentions, seat.ID) && strings.Contains(text(m), begins) {
						n++
						where = append(where, c)
					}
				}
			}
			if n != 1 {
				t.Errorf("game %s: %s's first notice posted %d times", g.ID, seat.Name, n)
			}
		}
		if len(where) == 2 && where[0] != where[1] {
			t.Errorf("game %s: its first notices in %v, want one place", g.ID, where)
		}
		if len(where) > 0 && where[0] == channel {
			inChannel++
		}
	}
	if inChannel == 0 || inChannel == len(games) {
		t.Errorf("%d of %d games in the channel, want those beyond the thread cap", inChannel, len(games))
	}
	t.Logf("%d threads, %d games played in the channel", threads, inChannel)
	byNonce, _ := botPosts(e)
	for nonce, ms := range byNonce {
		if len(ms) != 1 {
			t.Errorf("notice %s posted %d times", nonce, len(ms))
		}
	}
}
