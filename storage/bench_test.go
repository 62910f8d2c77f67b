package storage_test

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/missivechess/missive/internal/toy"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/variants"
	"github.com/missivechess/missive/storage"
)

// The benchmark fixtures: data files of benchGames ongoing games of benchPlies plies
// each among benchPlayers players, with deadlines spread over two weeks; one of toy
// games (cheap to replay) and one of Gothic games (random legal moves).
const (
	benchGames   = 10_000
	benchPlies   = 40
	benchPlayers = 2_000
)

type fixture struct {
	once sync.Once
	path string
	err  error
}

var (
	fixtures   = map[string]*fixture{} // by variant and size, each filled once, under its once
	fixtureDir string
	fixtureMu  sync.Mutex
	fixtureT0  = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
)

// benchRegistry holds the real variants and the toy ones.
func benchRegistry() *rules.Registry {
	return rules.NewRegistry(append(variants.Registry().Variants(), toy.Walk{}, toy.Walk{Place: true})...)
}

// openBench opens a benchmark's copy of a fixture.
func openBench(b *testing.B, variant string) *storage.Store {
	s, err := storage.Open(benchFixture(b, variant), benchRegistry(), &storage.Options{NoBackupSocket: true})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	return s
}

// benchFixture builds the fixture of variant once per test binary and returns a
// private copy of it.
func benchFixture(b *testing.B, variant string) string {
	return sizedFixture(b, variant, benchGames)
}

// sizedFixture is benchFixture with games games.
func sizedFixture(b *testing.B, variant string, games int) string {
	b.Helper()
	name := fmt.Sprintf("%s-%d", variant, games)
	fixtureMu.Lock()
	f := fixtures[name]
	if f == nil {
		f = &fixture{}
		fixtures[name] = f
	}
	fixtureMu.Unlock()
	f.once.Do(func() {
		fixtureMu.Lock()
		if fixtureDir == "" {
			fixtureDir, f.err = os.MkdirTemp("", "missive-bench-")
		}
		fixtureMu.Unlock()
		if f.err == nil {
			f.path = filepath.Join(fixtureDir, name+".db")
			f.err = buildFixture(f.path, variant, games)
		}
	})
	if f.err != nil {
		b.Fatal(f.err)
	}
	to := filepath.Join(b.TempDir(), "bench.db")
	src, err := os.Open(f.path)
	if err != nil {
		b.Fatal(err)
	}
	defer src.Close()
	dst, err := os.Create(to)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		b.Fatal(err)
	}
	if err := dst.Close(); err != nil {
		b.Fatal(err)
	}
	return to
}

func buildFixture(path, variant string, games int) error {
	clock := &fakeClock{t: fixtureT0}
	reg := benchRegistry()
	v, err := reg.Lookup(variant)
	if err != nil {
		return err
	}
	s, err := storage.Open(path, reg, &storage.Options{Now: clock.Now, NoSync: true, NoBackupSocket: true})
	if err != nil {
		return err
	}
	defer s.Close()
	r := rand.New(rand.NewPCG(1, 1))
	for start := 0; start < games; start += 500 {
		err := s.Update(context.Background(), func(tx *storage.Tx) error {
			for i := start; i < min(start+500, games); i++ {
				white, black := r.IntN(benchPlayers), r.IntN(benchPlayers-1)
				if black >= white {
					black++
				}
				g := newGame(variant, fmt.Sprintf("%d", 100000+white), fmt.Sprintf("%d", 100000+black))
				g.Guild, g.Channel, g.Thread = "900", "901", fmt.Sprintf("%d", 500000+i)
				g.Clock.DaysPerMove = 3
				g.Clock.SetDeadline(fixtureT0.Add(time.Duration(r.Int64N(int64(14 * 24 * time.Hour)))))
				pos := v.Start(0)
				var err error
				for range benchPlies {
					m, ok := nextMove(pos, len(g.Moves)+i)
					if !ok {
						break
					}
					g.Moves = append(g.Moves, storage.MoveEntry{Move: pos.UCI(m), At: fixtureT0})
					if pos, err = pos.Play(m); err != nil {
						return err
					}
				}
				if err := tx.PutGame(g); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// nextMove picks a legal move of pos from salt that does not end the game (the toy
// cycle for "walk" games), and false when there is none.
func nextMove(pos rules.Position, salt int) (rules.Move, bool) {
	if pos.Variant().Key() == "walk" {
		m, err := pos.ParseMove(crashCycle[salt%4])
		return m, err == nil
	}
	moves := pos.LegalMoves()
	for i := range moves {
		m := moves[(salt*7+i)%len(moves)]
		if next, err := pos.Play(m); err == nil && !next.Outcome().IsOver() {
			return m, true
		}
	}
	return rules.NullMove, false
}

// playNext plays a move in game id (the next of the cycle in toy games).
func playNext(ctx context.Context, s *storage.Store, id string) error {
	_, err := s.UpdateGame(ctx, id, func(g *storage.Game) error {
		salt := len(g.Moves)
		if g.Variant != "walk" {
			salt += len(g.ID)
		}
		m, ok := nextMove(g.Position, salt)
		if !ok {
			return nil
		}
		_, err := g.Play(g.Position.Turn(), g.Position.UCI(m), time.Time{})
		if err == nil {
			g.Clock.SetDeadline(time.Now().Add(72 * time.Hour))
		}
		return err
	})
	return err
}

// reportLatencies adds the p50 and p99 of lat (in milliseconds) to the benchmark.
func reportLatencies(b *testing.B, lat []time.Duration) {
	if len(lat) == 0 {
		return
	}
	slices.Sort(lat)
	q := func(p float64) float64 { return float64(lat[int(p*float64(len(lat)-1))]) / 1e6 }
	b.ReportMetric(q(0.50), "p50-ms")
	b.ReportMetric(q(0.99), "p99-ms")
	b.ReportMetric(float64(lat[len(lat)-1])/1e6, "max-ms")
}

// BenchmarkMoveLatency loads a random game of 10,000, replays it, applies a move and
// commits with fsync, one at a time; it reports the p50 and p99 latency.
func BenchmarkMoveLatency(b *testing.B) {
	for _, v := range []string{"walk", "gothic"} {
		b.Run(v, func(b *testing.B) { benchMoveLatency(b, v) })
	}
}

func benchMoveLatency(b *testing.B, variant string) {
	s := openBench(b, variant)
	ctx := context.Background()
	r := rand.New(rand.NewPCG(2, 2))
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		id := fmt.Sprint(1 + r.IntN(benchGames))
		start := time.Now()
		if err := playNext(ctx, s, id); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	reportLatencies(b, lat)
}

// BenchmarkConcurrentMoves runs 50 writers moving in random games of 10,000 and
// reports the sustained moves per second (fsync on, group commits).
func BenchmarkConcurrentMoves(b *testing.B) {
	for _, v := range []string{"walk", "gothic"} {
		b.Run(v, func(b *testing.B) { benchConcurrentMoves(b, v) })
	}
}

func benchConcurrentMoves(b *testing.B, variant string) {
	s := openBench(b, variant)
	ctx := context.Background()
	const writers = 50
	var mu sync.Mutex
	lat := make([]time.Duration, 0, b.N)
	var next sync.Mutex
	remaining := b.N
	b.ResetTimer()
	start := time.Now()
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(w), 3))
			var mine []time.Duration
			for {
				next.Lock()
				if remaining == 0 {
					next.Unlock()
					break
				}
				remaining--
				next.Unlock()
				id := fmt.Sprint(1 + r.IntN(benchGames))
				t := time.Now()
				if err := playNext(ctx, s, id); err != nil {
					b.Error(err)
					return
				}
				mine = append(mine, time.Since(t))
			}
			mu.Lock()
			lat = append(lat, mine...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "moves/s")
	reportLatencies(b, lat)
}

// benchQuery runs query in a read transaction b.N times on a copy of the fixture and
// reports how many items it found per run.
func benchQuery(b *testing.B, seed uint64, query func(r *rand.Rand, tx *storage.Tx) (int, error)) {
	s := openBench(b, "walk")
	ctx := context.Background()
	r := rand.New(rand.NewPCG(seed, seed))
	total := 0
	b.ResetTimer()
	for range b.N {
		err := s.View(ctx, func(tx *storage.Tx) error {
			n, err := query(r, tx)
			total += n
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(total)/float64(b.N), "items/op")
}

// BenchmarkPlayerActiveGames lists a random player's ongoing games (about 10 each).
func BenchmarkPlayerActiveGames(b *testing.B) {
	benchQuery(b, 4, func(r *rand.Rand, tx *storage.Tx) (int, error) {
		gs, err := tx.PlayerActiveGames(fmt.Sprint(100000 + r.IntN(benchPlayers)))
		return len(gs), err
	})
}

// BenchmarkDueGames asks for the games due within the next hour, as the scheduler
// does on each tick, and for the next due game. The scheduler keeps the index drained
// up to now, so what it finds is the games falling due soon (about 30 of 10,000).
func BenchmarkDueGames(b *testing.B) {
	benchQuery(b, 5, func(r *rand.Rand, tx *storage.Tx) (int, error) {
		due, err := tx.DueGames(fixtureT0.Add(time.Duration(r.Int64N(int64(time.Hour)))+time.Hour), 0)
		if err != nil {
			return 0, err
		}
		_, _, err = tx.NextDue()
		return len(due), err
	})
}

// BenchmarkGameByThread finds a game from its thread and replays it.
func BenchmarkGameByThread(b *testing.B) {
	benchQuery(b, 6, func(r *rand.Rand, tx *storage.Tx) (int, error) {
		g, err := tx.GameByThread(fmt.Sprint(500000 + r.IntN(benchGames)))
		if err == nil && g.Position.Turn() != rules.White {
			return 0, fmt.Errorf("game %s: unexpected turn", g.ID)
		}
		return 1, err
	})
}
