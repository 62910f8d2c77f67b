package review_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/bottest"
	"github.com/missivechess/missive/bot/review"
	"github.com/missivechess/missive/engine"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/record"
	"github.com/missivechess/missive/rules/variants"
)

// BenchmarkMoveWhileReviewing compares the move replies of bot's BenchmarkMoveReply
// (Gothic) when the engine is idle and while a game review runs all the time, as
// the review feature runs one: the built-in engine at its default review limits,
// giving way between positions while the service is busy, over a 40-move game,
// again and again.
func BenchmarkMoveWhileReviewing(b *testing.B) {
	b.Run("idle", func(b *testing.B) { bottest.MoveReplies(b, "gothic", nil) })
	b.Run("reviewing", func(b *testing.B) {
		v, _ := variants.Registry().Lookup("gothic")
		h := randomGame(b, v.Start(1), 80, rand.New(rand.NewPCG(3, 4)))
		reviews := 0
		bottest.MoveReplies(b, "gothic", func(ctx context.Context, svc *bot.Service) {
			quiet := review.Quiet(svc) // its quiet gate, as the feature's lane uses it
			for ctx.Err() == nil {
				opts := engine.ReviewOptions{Limits: engine.DefaultReviewLimits, Pause: quiet}
				if _, err := engine.New(engine.Options{HashBits: 18}).ReviewWith(ctx, h, opts); err == nil {
					reviews++
				}
			}
		})
		b.ReportMetric(float64(reviews), "reviews")
	})
}

// randomGame plays up to plies random legal moves from start.
func randomGame(b *testing.B, start rules.Position, plies int, rng *rand.Rand) *record.History {
	var moves []rules.Move
	pos := start
	for range plies {
		ms := pos.LegalMoves()
		if pos.Outcome().IsOver() || len(ms) == 0 {
			break
		}
		m := ms[rng.IntN(len(ms))]
		next, err := pos.Play(m)
		if err != nil {
			b.Fatal(err)
		}
		moves, pos = append(moves, m), next
	}
	h, err := record.Line(start, moves)
	if err != nil {
		b.Fatal(err)
	}
	return h
}
