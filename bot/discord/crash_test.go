package discord_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/challenges"
	"github.com/missivechess/missive/bot/discord"
	"github.com/missivechess/missive/bot/discord/discordtest"
	"github.com/missivechess/missive/bot/features"
	"github.com/missivechess/missive/bot/play"
	"github.com/missivechess/missive/bot/settings"
	"github.com/missivechess/missive/internal/crashloop"
	"github.com/missivechess/missive/rules/variants"
	"github.com/missivechess/missive/storage"
)

// The environment of a re-executed test binary that plays as the crash child: its
// folder, the fake Discord's address, and the players' ids (pairs, comma-separated).
const (
	crashDirEnv     = "MISSIVE_DISCORD_CRASH_DIR"
	crashAddrEnv    = "MISSIVE_DISCORD_CRASH_ADDR"
	crashPlayersEnv = "MISSIVE_DISCORD_CRASH_PLAYERS"
)

func TestMain(m *testing.M) {
	if dir := os.Getenv(crashDirEnv); dir != "" {
		os.Exit(crashChild(dir, os.Getenv(crashAddrEnv), strings.Split(os.Getenv(crashPlayersEnv), ",")))
	}
	os.Exit(m.Run())
}

// crashChild connects a bot on dir's data file to the fake Discord at addr and plays
// games between pairs of players from several goroutines (every command tells the
// opponent by direct message), printing "C" after each command, until it is killed.
func crashChild(dir, addr string, players []string) int {
	time.AfterFunc(60*time.Second, func() { os.Exit(3) }) // never outlive a dead parent
	fail := func(format string, args ...any) { fmt.Fprintf(os.Stderr, format+"\n", args...) }
	reg := variants.Registry()
	st, err := storage.Open(filepath.Join(dir, "m.db"), reg, &storage.Options{LockTimeout: 10 * time.Second, NoBackupSocket: true})
	if err != nil {
		fail("child: %v", err)
		return 2
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	client, dialer := discordtest.RemoteClients(addr, fail)
	b, err := discord.New(discord.Options{Token: "test-token", HTTPClient: client, Dialer: dialer, Logger: log})
	if err != nil {
		fail("child: %v", err)
		return 2
	}
	svc, err := bot.New(features.With(bot.Config{Store: st, Registry: reg, Renderer: bot.NewRenderer(), Notifier: b, Logger: log, Gateway: true,
		Outbox: bot.OutboxOptions{MinBackoff: time.Millisecond, MaxBackoff: 5 * time.Millisecond}}, features.Options{}))
	if err != nil {
		fail("child: %v", err)
		return 2
	}
	b.Attach(svc)
	ctx := context.Background()
	if err := b.Open(ctx); err != nil {
		fail("child: %v", err)
		return 2
	}
	var out sync.Mutex
	seq := time.Now().UnixNano()
	var wg sync.WaitGroup
	for w := 0; w+1 < len(players); w += 2 {
		a, c := players[w], players[w+1]
		wg.Add(1)
		go func() {
			defer wg.Done()
			do := func(user, cmd string, args bot.Args) bot.Reply {
				out.Lock()
				seq++
				id := strconv.FormatInt(seq, 36)
				out.Unlock()
				r := svc.Handle(ctx, bot.Request{ID: id, User: bot.User{ID: user, Name: user}, Command: cmd, Args: args})
				out.Lock()
				fmt.Fprintln(os.Stdout, "C")
				out.Unlock()
				return r
			}
			do(a, settings.CmdSettings, bot.Args{"notify": "dm"})
			do(c, settings.CmdSettings, bot.Args{"notify": "dm"})
			for {
				do(a, challenges.CmdChallenge, bot.Args{"variant": "gothic", "opponent": c})
				r := do(c, challenges.CmdAccept, bot.Args{})
				if r.Started == nil {
					continue // a challenge from before the kill is still open: accepted now
				}
				g := r.Started.ID
				do(a, play.CmdMove, bot.Args{"game": g, "move": "e2e4"})
				do(c, play.CmdMove, bot.Args{"game": g, "move": "e7e5"})
				do(a, play.CmdResign, bot.Args{"game": g})
			}
		}()
	}
	out.Lock()
	fmt.Fprintln(os.Stdout, "READY")
	out.Unlock()
	wg.Wait()
	return 0
}

// TestOutboxSIGKILLAgainstDiscord kills bot processes connected to the fake Discord
// again and again while they commit notices and deliver them by direct message, then
// lets a last process drain the outbox, and counts what the players see: every notice
// committed arrives (none lost), and none twice, though a kill between a send and its
// removal from the outbox repeats the send (Discord's enforce_nonce answers the repeat
// with the message already posted).
func TestOutboxSIGKILLAgainstDiscord(t *testing.T) {
	if testing.Short() {
		t.Skip("re-executes the test binary")
	}
	g := discordtest.DefaultGuild()
	var players []string
	for i := range 3 {
		for _, p := range []string{"white", "black"} {
			name := fmt.Sprintf("%s%d", p, i)
			g.Members = append(g.Members, discordtest.Member{User: discordtest.User{Username: name, GlobalName: name}})
		}
	}
	srv := discordtest.New(t, discordtest.Config{Guilds: []discordtest.Guild{g}})
	for i := range 3 {
		players = append(players, srv.User(fmt.Sprint("white", i)).ID, srv.User(fmt.Sprint("black", i)).ID)
	}
	dir := t.TempDir()
	const kills = 8
	commands := crashloop.Run(t, kills, []string{crashDirEnv + "=" + dir, crashAddrEnv + "=" + srv.Addr(), crashPlayersEnv + "=" + strings.Join(players, ",")}, 100*time.Millisecond, 400*time.Millisecond)
	// The last start delivers what the kills left.
	hits := srv.NonceHits()
	last := startProcess(t, srv, discord.Options{}, nil, filepath.Join(dir, "m.db"), nil)
	last.svc.Idle()
	last.stop()
	st, err := storage.Open(filepath.Join(dir, "m.db"), variants.Registry(), &storage.Options{NoBackupSocket: true})
	if err != nil {
		t.Fatal(err)
	}
	left := 0
	marker := &storage.OutboxEntry{Dest: "local", Body: json.RawMessage(`{}`)}
	if err := st.Update(context.Background(), func(tx *storage.Tx) (err error) {
		if left, err = tx.OutboxLen(); err != nil {
			return err
		}
		return tx.PutOutbox(marker) // its id is one more than the last committed notice's
	}); err != nil {
		t.Fatal(err)
	}
	st.Close()
	committed, _ := strconv.Atoi(marker.ID)
	committed--

	// What the players see: the bot's direct messages, by the notice id in their nonce.
	shown := map[int]int{}
	for _, p := range players {
		for _, m := range srv.Messages(srv.DMChannel(p)) {
			id, ok := strings.CutPrefix(m.Nonce, "n")
			id, ok2 := strings.CutSuffix(id, "d")
			n, err := strconv.Atoi(id)
			if !ok || !ok2 || err != nil {
				t.Errorf("a direct message with nonce %q", m.Nonce)
				continue
			}
			shown[n]++
		}
	}
	lost, twice := 0, 0
	for id := 1; id <= committed; id++ {
		switch {
		case shown[id] == 0:
			lost++
		case shown[id] > 1:
			twice += shown[id] - 1
		}
	}
	if committed == 0 || commands == 0 {
		t.Fatalf("nothing committed (%d commands)", commands)
	}
	if lost != 0 || twice != 0 || left != 0 || len(shown) != committed {
		t.Errorf("%d notices committed: %d lost, %d shown twice, %d left in the outbox, %d distinct shown", committed, lost, twice, left, len(shown))
	}
	t.Logf("%d kills, %d commands, %d notices committed, %d delivered, %d delivered twice, %d lost; %d repeats answered by enforce_nonce (%d by the last start)",
		kills, commands, committed, len(shown), twice, lost, srv.NonceHits(), srv.NonceHits()-hits)
}
