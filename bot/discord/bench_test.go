package discord_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/discord"
	"github.com/missivechess/missive/bot/discord/discordtest"
	"github.com/missivechess/missive/bot/features"
	"github.com/missivechess/missive/bot/tournaments"
	"github.com/missivechess/missive/rules/variants"
	"github.com/missivechess/missive/storage"
)

// benchPawnMoves are 42 plies of Gothic Chess without a repetition: every pawn one
// step, then another.
var benchPawnMoves = func() []string {
	var out []string
	for _, rank := range [][2]string{{"3", "6"}, {"4", "5"}} {
		for f := 'a'; f <= 'j'; f++ {
			out = append(out, string(f)+rank[0], string(f)+rank[1])
		}
	}
	return out
}()

// BenchmarkRoundRobinStart starts a 24-player round robin on the fake Discord while
// alice and bob play a game of their own, and reports: the time until /tournament
// start is answered (start-ms), until every game started has its thread with its
// first notice (first-notices-ms, with the number of games started), and the p99 of
// alice's and bob's /move answers while that goes on (move-p99-ms) beside the same
// players' p99 on an idle bot (idle-move-p99-ms). "paced" is the default of 4 games
// per player at a time, "all-at-once" every game at the start as before;
// "rate-limited" is "paced" under Discord-like rate limits (see discordLimits).
func BenchmarkRoundRobinStart(b *testing.B) {
	for _, c := range []struct {
		name    string
		games   int
		limited bool
	}{{"paced", 0, false}, {"all-at-once", 1000, false}, {"rate-limited", 0, true}} {
		b.Run(c.name, func(b *testing.B) {
			for range b.N {
				benchRoundRobinStart(b, c.games, c.limited)
			}
		})
	}
}

// discordLimits switches on rate limits shaped like Discord's (the fake's defaults,
// which the other cases turn off with Config.Unlimited): 5 messages per 5
// seconds in each channel, the bucket Discord's X-RateLimit headers show for Create
// Message; and thread creation shared by the whole server. Discord does not publish
// the thread limit; bots report a "shared"-scope 429 on POST /channels/{id}/threads
// with retry_after of 3.5 to 5 minutes after a burst (discord/discord-api-docs#7816,
// NousResearch/hermes-agent#96101). A benchmark cannot wait minutes, so the fake uses
// 10 threads per 10 seconds: the same shape, its time scaled down.
func discordLimits(srv *discordtest.Server) {
	srv.SetRateLimit("POST /channels/{channel_id}/messages", discordtest.RateLimit{Limit: 5, Window: 5 * time.Second})
	srv.SetThreadCreateLimit(discordtest.RateLimit{Limit: 10, Window: 10 * time.Second})
}

func benchRoundRobinStart(b *testing.B, eventGames int, limited bool) {
	guild := discordtest.DefaultGuild()
	var players []string
	for i := range 24 {
		name := fmt.Sprintf("p%02d", i)
		players = append(players, name)
		guild.Members = append(guild.Members, discordtest.Member{User: discordtest.User{Username: name}})
	}
	// Unlimited unless limited: "paced" and "all-at-once" measure the bot's own pace,
	// "rate-limited" the pace Discord's limits leave it.
	srv := discordtest.New(b, discordtest.Config{Guilds: []discordtest.Guild{guild}, InteractionTimeout: time.Minute, Unlimited: !limited})
	reg := variants.Registry()
	st, err := storage.Open(filepath.Join(b.TempDir(), "bot.db"), reg, &storage.Options{NoSync: true, NoBackupSocket: true})
	if err != nil {
		b.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	bt, err := discord.New(discord.Options{Token: "test-token", HTTPClient: srv.HTTPClient(), Dialer: srv.Dialer(), Logger: log})
	if err != nil {
		b.Fatal(err)
	}
	svc, err := bot.New(features.With(bot.Config{Store: st, Registry: reg, Renderer: bot.NewRenderer(), Notifier: bt, Logger: log,
		Gateway: true}, features.Options{Tournaments: tournaments.Options{EventGames: eventGames}}))
	if err != nil {
		b.Fatal(err)
	}
	bt.Attach(svc)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer func() {
		bt.Close()
		svc.Idle()
		svc.Close()
		st.Close()
		cancel()
	}()
	if err := bt.Open(ctx); err != nil {
		b.Fatal(err)
	}
	if limited {
		discordLimits(srv)
	}
	answer := func(in *discordtest.Interaction) *discordtest.Message {
		m, err := srv.WaitOriginal(ctx, in, nil)
		if err != nil {
			b.Fatalf("no answer: %v", err)
		}
		return m
	}
	ok := func(in *discordtest.Interaction) time.Duration {
		start := time.Now()
		m := answer(in)
		if m.Ephemeral {
			b.Fatalf("refused: %q", m.Content)
		}
		return time.Since(start)
	}
	// alice and bob's own game, in its thread.
	ch := answer(srv.Command("alice", "general", "challenge", discordtest.Opt{Name: "variant", Value: "gothic"},
		discordtest.Opt{Name: "opponent", Value: "bob"}, discordtest.Opt{Name: "color", Value: "white"}))
	ok(srv.Click("bob", ch.ID, buttonID(b, ch, "Accept")))
	var thread string
	if err := srv.Wait(ctx, func() bool {
		for _, th := range srv.Threads(srv.Channel("general").ID) {
			thread = th.ID
			return len(srv.Messages(th.ID)) > 0
		}
		return false
	}); err != nil {
		b.Fatal(err)
	}
	ply := 0
	move := func() time.Duration {
		who := []string{"alice", "bob"}[ply%2]
		d := ok(srv.Command(who, thread, "move", discordtest.Opt{Name: "move", Value: benchPawnMoves[ply]}))
		ply++
		return d
	}
	var idle []time.Duration
	for range 10 {
		idle = append(idle, move())
	}
	ok(srv.Command("carol", "games", "tournament create",
		discordtest.Opt{Name: "name", Value: "Big"}, discordtest.Opt{Name: "variant", Value: "gothic"},
		discordtest.Opt{Name: "format", Value: "round-robin"}))
	for _, p := range players {
		ok(srv.Command(p, "games", "tournament join"))
	}
	svc.Idle()

	var busy []time.Duration
	var mu sync.Mutex
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for ply < len(benchPawnMoves) {
			select {
			case <-stop:
				return
			default:
			}
			d := move()
			mu.Lock()
			busy = append(busy, d)
			mu.Unlock()
		}
	}()
	t0 := time.Now()
	startTook := ok(srv.Command("carol", "games", "tournament start"))
	var started int
	if err := st.View(ctx, func(tx *storage.Tx) error {
		games, err := tx.TournamentGames("1")
		started = len(games)
		return err
	}); err != nil {
		b.Fatal(err)
	}
	if err := srv.Wait(ctx, func() bool {
		n := 0
		for _, th := range srv.Threads(srv.Channel("games").ID) {
			if strings.HasPrefix(th.Name, "Game ") && len(srv.Messages(th.ID)) > 0 {
				n++
			}
		}
		return n >= started
	}); err != nil {
		b.Fatalf("not every game got its first notice: %v", err)
	}
	notices := time.Since(t0)
	close(stop)
	wg.Wait()
	b.ReportMetric(float64(startTook.Microseconds())/1000, "start-ms")
	b.ReportMetric(float64(notices.Microseconds())/1000, "first-notices-ms")
	b.ReportMetric(float64(started), "games-started")
	b.ReportMetric(p99(busy), "move-p99-ms")
	b.ReportMetric(float64(len(busy)), "moves-meanwhile")
	b.ReportMetric(p99(idle), "idle-move-p99-ms")
	b.ReportMetric(float64(srv.RateLimited()), "429s")
	// What Discord would count toward its ban of 10,000 invalid requests in 10 minutes.
	b.ReportMetric(float64(len(srv.Requests())), "requests")
	b.ReportMetric(float64(srv.InvalidRequests()), "invalid-requests")
}

// p99 is the 99th percentile of ds in milliseconds (the largest of up to 100).
func p99(ds []time.Duration) float64 {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return float64(s[(len(s)*99+99)/100-1].Microseconds()) / 1000
}
