package review_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/features"
	"github.com/missivechess/missive/bot/review"
	"github.com/missivechess/missive/engine"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/record"
	"github.com/missivechess/missive/rules/variants"
	"github.com/missivechess/missive/storage"
)

// benchPlies is the length of the benchmark's games: 40 moves each.
const benchPlies = 80

// benchGame plays a Gothic game of benchPlies plies between two weak levels of
// the built-in engine, as a played game looks to a review, still in progress
// after its last move (the seeds from seed on are tried until one gives such a
// game), and returns its moves in canonical text.
func benchGame(b *testing.B, seed uint64) []string {
	v, _ := variants.Registry().Lookup("gothic")
	for ; ; seed += 100 {
		pos := v.Start(1)
		e := engine.New(engine.Options{Seed: seed, HashBits: 16})
		var out []string
		for len(out) < benchPlies && !pos.Outcome().IsOver() {
			m, err := e.Move(context.Background(), pos, 2)
			if err != nil {
				b.Fatal(err)
			}
			out = append(out, pos.UCI(m))
			if pos, err = pos.Play(m); err != nil {
				b.Fatal(err)
			}
		}
		if !pos.Outcome().IsOver() {
			return out
		}
	}
}

// reviewsPerDay measures the product's review feature with workers workers and
// per-position limits lim: games finished 80-ply Gothic games end at once, and
// the time until every review is posted gives the reviews a day.
func reviewsPerDay(b *testing.B, workers int, lim engine.Limits, games [][]string) {
	reg := variants.Registry()
	st, err := storage.Open(filepath.Join(b.TempDir(), "bench.db"), reg, &storage.Options{NoBackupSocket: true})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	posted := make(chan string, len(games))
	notifier := bot.NotifierFunc(func(_ context.Context, n bot.Notification) error {
		if strings.HasPrefix(n.Key, "review/") {
			posted <- n.Game.ID
		}
		return nil
	})
	svc, err := bot.New(features.With(bot.Config{Store: st, Registry: reg, Renderer: bot.NewRenderer(), Notifier: notifier,
		Engine: bot.NewEngine(engine.New(engine.Options{HashBits: 16}), nil, nil),
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))},
		features.Options{Review: review.Options{Workers: workers, Limits: lim, Budget: time.Hour}}))
	if err != nil {
		b.Fatal(err)
	}
	defer svc.Close()
	ctx := context.Background()
	seq := 0
	do := func(user, command string, args bot.Args) bot.Reply {
		seq++
		r := svc.Handle(ctx, bot.Request{ID: fmt.Sprint("r", seq), User: bot.User{ID: user, Name: user}, Command: command, Args: args})
		if r.Refused {
			b.Fatalf("%s %v: %s", command, args, r.Text)
		}
		return r
	}
	var ids []string
	for _, moves := range games {
		do("alice", "challenge", bot.Args{"variant": "gothic", "opponent": "bob", "color": "white"})
		id := do("bob", "accept", nil).Started.ID
		for i, m := range moves {
			do(map[bool]string{true: "alice", false: "bob"}[i%2 == 0], "move", bot.Args{"game": id, "move": m})
		}
		ids = append(ids, id)
	}
	svc.Idle()
	b.ResetTimer()
	start, cpu := time.Now(), cpuTime()
	for i, id := range ids {
		do(map[bool]string{true: "alice", false: "bob"}[i%2 == 0], "resign", bot.Args{"game": id})
	}
	for range ids {
		<-posted
	}
	took, used := time.Since(start), cpuTime()-cpu
	b.StopTimer()
	b.ReportMetric(float64(len(ids))*float64(24*time.Hour)/float64(took), "reviews/day")
	b.ReportMetric(took.Seconds()/float64(len(ids)), "s/review")
	// On a shared machine the wall clock counts other work too: the CPU time of a
	// review gives what the workers make a day with a core each to themselves.
	if used > 0 {
		b.ReportMetric(used.Seconds()/float64(len(ids)), "cpu-s/review")
		b.ReportMetric(float64(workers)*float64(len(ids))*float64(24*time.Hour)/float64(used), "reviews/day-on-free-cores")
	}
}

// BenchmarkReviewsPerDay gives the reviews a day of 80-ply Gothic games with one
// and two workers, at the default per-position limits (200,000 nodes, at most a
// second) and at lighter ones. Each run reviews two games a worker; run it with
// -benchtime=1x. Besides the wall-clock rate it reports the CPU time a review
// takes and the rate it gives when each worker has a core of its own (the
// wall clock of a machine shared with other work undercounts).
func BenchmarkReviewsPerDay(b *testing.B) {
	var games [][]string
	for i := range 4 {
		games = append(games, benchGame(b, uint64(i+1)))
	}
	for _, nodes := range []int64{200_000, 100_000, 50_000} {
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("nodes=%d/workers=%d", nodes, workers), func(b *testing.B) {
				for range b.N {
					reviewsPerDay(b, workers, engine.Limits{Nodes: nodes, Time: time.Second}, games[:2*workers])
				}
			})
		}
	}
}

// BenchmarkReviewAgreement measures what lighter per-position limits cost a
// review: over the benchmark's games, the share of moves classed as at the
// default limits, and of the default's mistakes and blunders still found.
func BenchmarkReviewAgreement(b *testing.B) {
	v, _ := variants.Registry().Lookup("gothic")
	var hs []*record.History
	for i := range 4 {
		hs = append(hs, historyOf(b, v.Start(1), benchGame(b, uint64(i+1))))
	}
	review := func(h *record.History, nodes int64) *engine.Review {
		r, err := engine.New(engine.Options{HashBits: 18}).ReviewWith(context.Background(), h, engine.ReviewOptions{Limits: engine.Limits{Nodes: nodes, Time: time.Second}})
		if err != nil {
			b.Fatal(err)
		}
		return r
	}
	var refs []*engine.Review
	for _, h := range hs {
		refs = append(refs, review(h, engine.DefaultReviewLimits.Nodes))
	}
	for _, nodes := range []int64{100_000, 50_000} {
		b.Run(fmt.Sprintf("nodes=%d", nodes), func(b *testing.B) {
			for range b.N {
				same, all, found, errs := 0, 0, 0, 0
				for i, h := range hs {
					r := review(h, nodes)
					for j, m := range refs[i].Moves {
						all++
						if r.Moves[j].Class == m.Class {
							same++
						}
						if m.Class == engine.ClassMistake || m.Class == engine.ClassBlunder {
							errs++
							if c := r.Moves[j].Class; c == engine.ClassMistake || c == engine.ClassBlunder {
								found++
							}
						}
					}
				}
				b.ReportMetric(100*float64(same)/float64(all), "%same-class")
				b.ReportMetric(100*float64(found)/float64(max(errs, 1)), "%errors-found")
			}
		})
	}
}

// historyOf replays moves (canonical texts) from start.
func historyOf(b *testing.B, start rules.Position, moves []string) *record.History {
	var ms []rules.Move
	pos := start
	for _, text := range moves {
		m, err := pos.ParseMove(text)
		if err != nil {
			b.Fatal(err)
		}
		if pos, err = pos.Play(m); err != nil {
			b.Fatal(err)
		}
		ms = append(ms, m)
	}
	h, err := record.Line(start, ms)
	if err != nil {
		b.Fatal(err)
	}
	return h
}
