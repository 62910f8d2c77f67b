package bottest

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/features"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/record"
	"github.com/missivechess/missive/rules/variants"
	"github.com/missivechess/missive/storage"
)

// MoveReplies measures the time from a move command to its ready reply with the
// board's PNG (and text board) in variant, over a real data file (fsync on every
// commit) that holds a few hundred games, with the real renderer and the product's
// features; people play both sides, and the opponent's notification is waited for
// outside the measured time. It reports the median and the 99th percentile. load,
// when set, runs in the background from the first measured move until the last.
func MoveReplies(b *testing.B, variant string, load func(ctx context.Context, svc *bot.Service)) {
	reg := variants.Registry()
	st, err := storage.Open(filepath.Join(b.TempDir(), "bench.db"), reg, &storage.Options{NoBackupSocket: true})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	svc, err := bot.New(features.With(bot.Config{Store: st, Registry: reg, Renderer: bot.NewRenderer(), Notifier: bot.NotifierFunc(func(context.Context, bot.Notification) error { return nil }),
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}, features.Options{}))
	if err != nil {
		b.Fatal(err)
	}
	defer svc.Close()
	ctx := context.Background()
	game := func(id string) *storage.Game {
		var g *storage.Game
		if err := st.View(ctx, func(tx *storage.Tx) (err error) {
			g, err = tx.Game(id)
			return err
		}); err != nil {
			b.Fatal(err)
		}
		return g
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var seq int
	newGame := func(place bool) string {
		seq++
		req := bot.Request{ID: fmt.Sprint("c", seq), User: bot.User{ID: "alice"}, Command: "challenge",
			Args: bot.Args{"variant": variant, "opponent": "bob", "color": "white"}}
		if r := svc.Handle(ctx, req); r.Refused {
			b.Fatal(r.Text)
		}
		r := svc.Handle(ctx, bot.Request{ID: fmt.Sprint("a", seq), User: bot.User{ID: "bob"}, Command: "accept"})
		if r.Refused {
			b.Fatal(r.Text)
		}
		id := r.Started.ID
		for place { // Go-Chess: place the pieces first (not measured)
			g := game(id)
			sim, ok := record.Round(g.Position)
			if !ok {
				break
			}
			for _, side := range sim.Awaiting() {
				cells := sim.LegalMovesFor(side)
				c := cells[rng.IntN(len(cells))]
				user := map[rules.Side]string{rules.White: "alice", rules.Black: "bob"}[side]
				seq++
				_ = svc.Handle(ctx, bot.Request{ID: fmt.Sprint("p", seq), User: bot.User{ID: user}, Command: "place",
					Args: bot.Args{"game": id, "cell": g.Position.Variant().Dims().Name(c.To)}})
			}
		}
		svc.Idle()
		return id
	}
	// A file with history: finished and running games of other players.
	_ = svc.Handle(ctx, bot.Request{ID: "s1", User: bot.User{ID: "bob"}, Command: "settings", Args: bot.Args{"notify": "dm"}})
	for range 200 {
		id := newGame(false)
		_ = svc.Handle(ctx, bot.Request{ID: "r" + id, User: bot.User{ID: "alice"}, Command: "resign", Args: bot.Args{"game": id}})
	}
	id := newGame(true)
	var durations []time.Duration
	if load != nil {
		lctx, stop := context.WithCancel(ctx)
		done := make(chan struct{})
		go func() { defer close(done); load(lctx, svc) }()
		defer func() { stop(); <-done }()
		time.Sleep(50 * time.Millisecond) // the load is under way
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		g := game(id)
		if !g.Active() || len(g.Moves) > 150 {
			id = newGame(true)
			g = game(id)
		}
		moves := g.Position.LegalMoves()
		m := moves[rng.IntN(len(moves))]
		user := map[rules.Side]string{rules.White: "alice", rules.Black: "bob"}[g.Position.Turn()]
		req := bot.Request{ID: fmt.Sprint("m", i), User: bot.User{ID: user}, Command: "move",
			Args: bot.Args{"game": id, "move": g.Position.UCI(m)}}
		b.StartTimer()
		start := time.Now()
		r := svc.Handle(ctx, req)
		d := time.Since(start)
		b.StopTimer()
		if r.Refused || len(r.Files) != 1 || r.Board == "" {
			b.Fatalf("move %s: %+v", req.Args["move"], r)
		}
		durations = append(durations, d)
		svc.Idle()
		b.StartTimer()
	}
	b.StopTimer()
	slices.Sort(durations)
	pct := func(p float64) float64 {
		return float64(durations[min(len(durations)-1, int(p*float64(len(durations))))].Microseconds()) / 1000
	}
	b.ReportMetric(pct(0.50), "p50-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
}
