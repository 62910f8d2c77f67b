package storage_test

import (
	"bufio"
	"context"
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

// crashEnv names the data file a re-executed test binary works on as the crash child.
const crashEnv = "MISSIVE_STORAGE_CRASH_CHILD"

func TestMain(m *testing.M) {
	if path := os.Getenv(crashEnv); path != "" {
		os.Exit(crashChild(path))
	}
	code := m.Run()
	if fixturePath != "" {
		os.RemoveAll(filepath.Dir(fixturePath))
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
	s, err := storage.Open(path, toyRegistry(), &storage.Options{LockTimeout: 10 * time.Second, NoBackupSocket: true})
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
				// exercised by the crashes too.
				_, _, err = s.Do(ctx, fmt.Sprintf("g%s-ply%d", id, ply), func(tx *storage.Tx) ([]byte, error) {
					g, err := tx.Game(id)
					if err != nil {
						return nil, err
					}
					if len(g.Moves) != ply {
						return nil, fmt.Errorf("game %s moved on", id)
					}
					if _, err := g.Play(g.Position.Turn(), crashCycle[ply%4], tx.Now()); err != nil {
						return nil, err
					}
					g.Clock.SetDeadline(tx.Now().Add(24 * time.Hour))
					return []byte("ok"), tx.PutGame(g)
				})
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
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), crashEnv+"="+path)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		ready := make(chan struct{})
		done := make(chan struct{})
		var mu sync.Mutex
		go func() {
			defer close(done)
			sc := bufio.NewScanner(stdout)
			once := sync.OnceFunc(func() { close(ready) })
			defer once()
			for sc.Scan() {
				f := strings.Fields(sc.Text())
				switch {
				case len(f) == 1 && f[0] == "READY":
					once()
				case len(f) == 3 && f[0] == "M":
					n, _ := strconv.Atoi(f[2])
					mu.Lock()
					committed[f[1]] = max(committed[f[1]], n)
					reported++
					mu.Unlock()
				default:
					t.Errorf("child wrote %q", sc.Text())
				}
			}
		}()
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
		err = cmd.Wait()
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
