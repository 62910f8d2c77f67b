package bot_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/bottest"
	"github.com/missivechess/missive/bot/challenges"
	"github.com/missivechess/missive/bot/features"
	"github.com/missivechess/missive/bot/play"
	"github.com/missivechess/missive/bot/settings"
	"github.com/missivechess/missive/internal/crashloop"
	"github.com/missivechess/missive/storage"
)

// crashEnv names the folder a re-executed test binary works in as the crash child.
const crashEnv = "MISSIVE_BOT_OUTBOX_CRASH_CHILD"

func TestMain(m *testing.M) {
	if dir := os.Getenv(crashEnv); dir != "" {
		os.Exit(crashChild(dir))
	}
	os.Exit(m.Run())
}

// logNotifier appends "id key" to a file for each notification it accepts, with one
// write each, so that a killed process leaves whole lines. It fails one attempt in
// five, so that retries are under way when the kill comes.
type logNotifier struct {
	mu sync.Mutex
	f  *os.File
	n  int
}

func openLogNotifier(path string) (*logNotifier, error) {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	return &logNotifier{f: f}, err
}

func (l *logNotifier) Notify(ctx context.Context, n bot.Notification) error {
	time.Sleep(time.Duration(rand.IntN(500)) * time.Microsecond) // a network round trip
	l.mu.Lock()
	defer l.mu.Unlock()
	l.n++
	if l.n%5 == 0 {
		return fmt.Errorf("discord: 502 Bad Gateway")
	}
	_, err := fmt.Fprintf(l.f, "%s %s\n", n.ID, n.Key)
	return err
}

// crashService opens the service of the crash test on dir's data file.
func crashService(dir string) (*storage.Store, *bot.Service, *logNotifier, error) {
	st, err := storage.Open(filepath.Join(dir, "m.db"), bottest.Registry(), &storage.Options{LockTimeout: 10 * time.Second, NoBackupSocket: true})
	if err != nil {
		return nil, nil, nil, err
	}
	ln, err := openLogNotifier(filepath.Join(dir, "delivered.log"))
	if err != nil {
		st.Close()
		return nil, nil, nil, err
	}
	svc, err := bot.New(features.With(bot.Config{Store: st, Registry: bottest.Registry(), Renderer: &bottest.Renderer{}, Notifier: ln,
		Outbox: bot.OutboxOptions{MinBackoff: time.Millisecond, MaxBackoff: 5 * time.Millisecond},
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}, features.Options{}))
	if err != nil {
		st.Close()
		return nil, nil, nil, err
	}
	return st, svc, ln, nil
}

// crashChild plays games between pairs of players in a loop from several goroutines
// (every command notifies the opponent by direct message), printing "C" after each
// CommandOf, until it is killed.
func crashChild(dir string) int {
	time.AfterFunc(60*time.Second, func() { os.Exit(3) }) // never outlive a dead parent
	_, svc, _, err := crashService(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "child:", err)
		return 2
	}
	ctx := context.Background()
	var out sync.Mutex
	seq := time.Now().UnixNano()
	var wg sync.WaitGroup
	for w := range 3 {
		a, b := fmt.Sprintf("a%d", w), fmt.Sprintf("b%d", w)
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
			do(b, settings.CmdSettings, bot.Args{"notify": "dm"})
			for {
				do(a, challenges.CmdChallenge, bot.Args{"variant": "gothic", "opponent": b})
				r := do(b, challenges.CmdAccept, bot.Args{})
				if r.Started == nil {
					continue // a challenge from before the kill is still open: accepted now
				}
				g := r.Started.ID
				do(a, play.CmdMove, bot.Args{"game": g, "move": "e2e4"})
				do(b, play.CmdMove, bot.Args{"game": g, "move": "e7e5"})
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

// TestOutboxSurvivesSIGKILL kills a bot process again and again while it commits
// notifications and delivers them, then lets a last process drain the outbox: every
// notification committed is delivered; the log counts the deliveries repeated
// because a kill fell between a send and its removal from the outbox (the adapter's
// message nonce hides those from players).
func TestOutboxSurvivesSIGKILL(t *testing.T) {
	if testing.Short() {
		t.Skip("re-executes the test binary")
	}
	dir := t.TempDir()
	const kills = 8
	commands := crashloop.Run(t, kills, []string{crashEnv + "=" + dir}, 50*time.Millisecond, 200*time.Millisecond)
	// The last start delivers what the kills left.
	st, svc, _, err := crashService(dir)
	if err != nil {
		t.Fatal(err)
	}
	svc.Idle()
	svc.Close()
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
	raw, err := os.ReadFile(filepath.Join(dir, "delivered.log"))
	if err != nil {
		t.Fatal(err)
	}
	times := map[int]int{}
	for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		id, _, _ := strings.Cut(line, " ")
		n, err := strconv.Atoi(id)
		if err != nil {
			t.Fatalf("log line %q", line)
		}
		times[n]++
	}
	lost, twice := 0, 0
	for id := 1; id <= committed; id++ {
		switch {
		case times[id] == 0:
			lost++
		case times[id] > 1:
			twice += times[id] - 1
		}
	}
	if committed == 0 || commands == 0 {
		t.Fatalf("nothing committed (%d commands)", commands)
	}
	if lost != 0 || left != 0 || len(times) != committed {
		t.Errorf("%d notifications committed: %d lost, %d left in the outbox, %d distinct delivered", committed, lost, left, len(times))
	}
	t.Logf("%d kills, %d commands, %d notifications committed, %d delivered, %d delivered twice (a kill between send and delete), %d lost",
		kills, commands, committed, len(times), twice, lost)
}
