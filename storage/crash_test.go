package storage_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/missivechess/missive/storage"
)

// crashEnv names the data file a re-executed test binary works on as the crash child;
// with socketEnv set the child also serves backups, like the running bot.
const (
	crashEnv  = "MISSIVE_STORAGE_CRASH_CHILD"
	socketEnv = "MISSIVE_STORAGE_CHILD_SERVES_BACKUPS"
)

func TestMain(m *testing.M) {
	if path := os.Getenv(crashEnv); path != "" {
		os.Exit(crashChild(path))
	}
	code := m.Run()
	if fixtureDir != "" {
		os.RemoveAll(fixtureDir)
	}
	os.Exit(code)
}

// crashGames is how many games the child plays, crashWriters how many goroutines.
const (
	crashGames   = 8
	crashWriters = 4
)

// crashCycle is the move sequence every crash game repeats: the kings step out and back.
var crashCycle = [4]string{"e1e2", "e8e7", "e2e1", "e7e8"}

// crashChild applies moves in a tight loop from several goroutines, printing
// "M <game> <plies>" after each commit, until it is killed.
func crashChild(path string) int {
	time.AfterFunc(60*time.Second, func() { os.Exit(3) }) // never outlive a dead parent
	ctx := context.Background()
	s, err := storage.Open(path, toyRegistry(), &storage.Options{LockTimeout: 10 * time.Second, NoBackupSocket: os.Getenv(socketEnv) == ""})
	if err != nil {
		fmt.Fprintln(os.Stderr, "child:", err)
		return 2
	}
	var out sync.Mutex
	emit := func(format string, args ...any) {
		out.Lock()
		fmt.Fprintf(os.Stdout, format, args...) // unbuffered: the line is out before the next commit
		out.Unlock()
	}
	var n int
	s.View(ctx, func(tx *storage.Tx) error {
		return tx.ForEachGame(func(*storage.Game) error { n++; return nil })
	})
	if n == 0 {
		err := s.Update(ctx, func(tx *storage.Tx) error {
			for i := range crashGames {
				g := newGame("walk", "p"+strconv.Itoa(i), "q"+strconv.Itoa(i))
				g.Thread = "thread-" + strconv.Itoa(i)
				g.Clock.DaysPerMove = 1
				if err := tx.PutGame(g); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			fmt.Fprintln(os.Stderr, "child:", err)
			return 2
		}
	}
	emit("READY\n")
	var wg sync.WaitGroup
	for w := range crashWriters {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				id := strconv.Itoa(1 + w + crashWriters*(i%(crashGames/crashWriters)))
				g, err := s.Game(ctx, id)
				if err != nil {
					fmt.Fprintln(os.Stderr, "child:", err)
					os.Exit(2)
				}
				ply := len(g.Moves)
				// The request id names the move, so the idempotency entries are
				// exercised by the crashes too. Half the writers go through DoGame
				// (prepared outside the transaction), half through Do and PutGame.
				request := fmt.Sprintf("g%s-ply%d", id, ply)
				move := func(g *storage.Game) ([]byte, error) {
					if len(g.Moves) != ply {
						return nil, fmt.Errorf("game %s moved on", id)
					}
					if _, err := g.Play(g.Position.Turn(), crashCycle[ply%4], time.Time{}); err != nil {
						return nil, err
					}
					g.Clock.SetDeadline(time.Now().Add(24 * time.Hour))
					return []byte("ok"), nil
				}
				if w%2 == 0 {
					_, _, _, err = s.DoGame(ctx, request, id, move)
				} else {
					_, _, err = s.Do(ctx, request, func(tx *storage.Tx) ([]byte, error) {
						g, err := tx.Game(id)
						if err != nil {
							return nil, err
						}
						res, err := move(g)
						if err != nil {
							return nil, err
						}
						return res, tx.PutGame(g)
					})
				}
				if err != nil {
					fmt.Fprintln(os.Stderr, "child:", err)
					os.Exit(2)
				}
				emit("M %s %d\n", id, ply+1)
			}
		}()
	}
	wg.Wait()
	return 0
}

func TestCrashRecovery(t *testing.T) {
	budget := 12 * time.Second
	if testing.Short() {
		budget = 2 * time.Second
	}
	path := filepath.Join(t.TempDir(), "crash.db")
	committed := make(map[string]int) // game -> plies the child reported committed
	r := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 7))
	start := time.Now()
	kills, reported := 0, 0
	for kills < 5 || time.Since(start) < budget {
		cmd, stderr, ready, done := startChild(t, path, false, func(id string, n int) {
			committed[id] = max(committed[id], n)
			reported++
		})
		// Mostly kill while moves are being committed; sometimes during start-up.
		if r.IntN(5) > 0 {
			select {
			case <-ready:
			case <-time.After(20 * time.Second):
				t.Fatalf("child never got ready: %s", stderr.String())
			}
		}
		time.Sleep(time.Duration(r.IntN(80_000)) * time.Microsecond)
		cmd.Process.Kill()
		<-done
		err := cmd.Wait()
		if stderr.Len() > 0 || err == nil || !strings.Contains(err.Error(), "killed") {
			t.Fatalf("child ended with %v before it was killed: %s", err, stderr.String())
		}
		kills++
		if _, err := os.Stat(path); err != nil {
			continue // killed before it created the file
		}

		s, err := storage.Open(path, toyRegistry(), &storage.Options{NoBackupSocket: true})
		if err != nil {
			t.Fatalf("after kill %d the file does not open: %v", kills, err)
		}
		if err := s.Verify(context.Background()); err != nil {
			t.Fatalf("after kill %d: %v", kills, err)
		}
		view(t, s, func(tx *storage.Tx) error {
			for id, want := range committed {
				g, err := tx.Game(id)
				if err != nil {
					t.Fatalf("after kill %d: %v", kills, err)
				}
				if len(g.Moves) < want {
					t.Fatalf("after kill %d game %s has %d moves, but the child reported %d committed", kills, id, len(g.Moves), want)
				}
				for i, e := range g.Moves {
					if e.Move != crashCycle[i%4] {
						t.Fatalf("game %s move %d is %s", id, i+1, e.Move)
					}
				}
				committed[id] = len(g.Moves) // moves committed but not yet reported count too
			}
			return nil
		})
		s.Close()
	}
	if reported == 0 {
		t.Fatal("the child never committed a move")
	}
	t.Logf("%d kills; %d commits reported and all found after reopening", kills, reported)
}

// startChild re-executes the test binary as the crash child on path. It calls
// committed (from its own goroutine, one call at a time) for each move the child
// reports, closes ready when the child is ready and done when its output ends.
func startChild(t *testing.T, path string, serveBackups bool, committed func(id string, plies int)) (cmd *exec.Cmd, stderr *strings.Builder, ready, done chan struct{}) {
	t.Helper()
	cmd = exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), crashEnv+"="+path)
	if serveBackups {
		cmd.Env = append(cmd.Env, socketEnv+"=1")
	}
	stderr = &strings.Builder{}
	cmd.Stderr = stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ready, done = make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		once := sync.OnceFunc(func() { close(ready) })
		defer once()
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			f := strings.Fields(sc.Text())
			switch {
			case len(f) == 1 && f[0] == "READY":
				once()
			case len(f) == 3 && f[0] == "M":
				n, _ := strconv.Atoi(f[2])
				committed(f[1], n)
			default:
				t.Errorf("child wrote %q", sc.Text())
			}
		}
	}()
	return cmd, stderr, ready, done
}

// TestBackupFromAnotherProcess backs up a data file that another process (the
// "bot") holds open and keeps writing to: the copy comes through its socket.
func TestBackupFromAnotherProcess(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bot.db")
	var mu sync.Mutex
	moves := 0
	cmd, stderr, ready, done := startChild(t, path, true, func(string, int) { mu.Lock(); moves++; mu.Unlock() })
	defer func() {
		cmd.Process.Kill()
		<-done
		cmd.Wait()
	}()
	select {
	case <-ready:
	case <-time.After(20 * time.Second):
		t.Fatalf("child never got ready: %s", stderr.String())
	}
	if _, err := storage.Open(path, toyRegistry(), &storage.Options{LockTimeout: 50 * time.Millisecond}); !errors.Is(err, storage.ErrLocked) {
		t.Fatalf("opening the bot's file: %v", err)
	}
	for i := range 3 {
		time.Sleep(50 * time.Millisecond)
		out := filepath.Join(t.TempDir(), fmt.Sprintf("backup%d.db", i))
		info, err := storage.BackupFile(context.Background(), toyRegistry(), path, out)
		if err != nil {
			t.Fatalf("backup %d: %v (child: %s)", i, err, stderr.String())
		}
		if !info.Live || info.Games != crashGames {
			t.Errorf("backup %d: %+v", i, info)
		}
		b := openAt(t, out, &storage.Options{ReadOnly: true})
		mustVerify(t, b)
		b.Close()
	}
	mu.Lock()
	defer mu.Unlock()
	if moves == 0 {
		t.Error("the child committed nothing while being backed up")
	}
}
