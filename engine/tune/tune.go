package tune

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strings"
	"sync"

	"github.com/missivechess/missive/engine"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/record"
)

// ErrNoData means the games gave no position to tune on.
var ErrNoData = errors.New("tune: no quiet positions of the variant in the games")

// Sample is one quiet position: its features and the result of its game for White
// (1, 0.5 or 0).
type Sample struct {
	Features engine.Features
	Result   float64 // the target: the game's result, or a blend with Teacher
	Outcome  float64 // the game's result for White
	Teacher  float64 // a teacher engine's evaluation (centipawns, White's view)
	Taught   bool    // Teacher is set
}

// Blend makes each taught sample's target lambda times its game's result plus
// 1-lambda times the teacher's win chance, on the scale that best fits the
// teacher's evaluations to the results; it returns that scale. A teacher's
// judgment of a position is far less noisy than one game's result.
func Blend(d *Data, lambda float64) float64 {
	var taught []Sample
	for _, s := range d.Train {
		if s.Taught {
			taught = append(taught, s)
		}
	}
	if len(taught) == 0 {
		return 0
	}
	loss := func(k float64) float64 {
		var sum float64
		for _, s := range taught {
			p := min(max(winChance(s.Teacher, k), 1e-9), 1-1e-9)
			sum -= s.Outcome*math.Log(p) + (1-s.Outcome)*math.Log(1-p)
		}
		return sum
	}
	lo, hi := 0.05, 5.0
	for range 60 {
		a, b := hi-(hi-lo)/math.Phi, lo+(hi-lo)/math.Phi
		if loss(a) < loss(b) {
			hi = b
		} else {
			lo = a
		}
	}
	k := (lo + hi) / 2
	for _, part := range [][]Sample{d.Train, d.HeldOut} {
		for i := range part {
			if part[i].Taught {
				part[i].Result = lambda*part[i].Outcome + (1-lambda)*winChance(part[i].Teacher, k)
			}
		}
	}
	return k
}

// Data are the samples of one variant, split into a training and a held-out part
// (whole game pairs, so that positions of one opening stay on one side).
type Data struct {
	Variant        string
	Train, HeldOut []Sample
	Games          int
	Start          rules.Position // a position of the variant, for its weights
}

// Options steer Load.
type Options struct {
	// SkipPlies skips the first plies of every game (random openings).
	SkipPlies int
	// HoldOut puts every HoldOut-th game pair in the held-out part (0: 10).
	HoldOut int
	// DropAdjudicated skips games whose Termination tag says they were adjudicated
	// (a draw declared at a ply cap is no result of play).
	DropAdjudicated bool
	// Teachers, when set, label each quiet position with another engine's
	// evaluation (centipawns, White's view); ok false leaves a position unlabelled.
	// Each teacher labels in a goroutine of its own, so several processes of one
	// engine label the games in parallel.
	Teachers []TeachFunc
	// Augment, with a Teacher, also keeps up to Augment positions one random legal
	// move away from each position of a game (the quiet ones the teacher labels),
	// for positions off the players' beaten paths; they carry their game's result.
	Augment int
}

// TeachFunc judges a position for a Teacher or a SearchTeacher.
type TeachFunc func(rules.Position) (cp float64, ok bool, err error)

// Load reads the games of variant from PGN text (any number of games, as `missive
// match --pgn` writes them), replays them and keeps the quiet positions of games
// with a result.
func Load(ctx context.Context, r io.Reader, reg *rules.Registry, variant string, opts Options, d *Data) error {
	if opts.HoldOut == 0 {
		opts.HoldOut = 10
	}
	d.Variant = variant
	games, err := splitGames(r)
	if err != nil {
		return err
	}
	teaching := len(opts.Teachers) > 0
	// The positions to label, by their sample's part and index there.
	type lesson struct {
		pos  rules.Position
		part *[]Sample
		i    int
		game int
	}
	var lessons []lesson
	for _, text := range games {
		if err := ctx.Err(); err != nil {
			return err
		}
		g, err := record.ReadPGN(strings.NewReader(text), reg)
		if err != nil {
			return fmt.Errorf("tune: game %d: %w", d.Games+1, err)
		}
		if v, _ := g.Tag("Variant"); v != variant {
			continue
		}
		if t, _ := g.Tag("Termination"); opts.DropAdjudicated && strings.Contains(t, "adjudicated") {
			continue
		}
		var result float64
		switch g.Result {
		case "1-0":
			result = 1
		case "0-1":
			result = 0
		case "1/2-1/2":
			result = 0.5
		default:
			continue
		}
		held := (d.Games/2)%opts.HoldOut == opts.HoldOut-1
		d.Games++
		rng := rand.New(rand.NewPCG(uint64(d.Games), 0x6d697373))
		keep := func(pos rules.Position, f engine.Features) error {
			part := &d.Train
			if held {
				part = &d.HeldOut
			}
			*part = append(*part, Sample{Features: f, Result: result, Outcome: result})
			if teaching {
				lessons = append(lessons, lesson{pos: pos, part: part, i: len(*part) - 1, game: d.Games})
			}
			return nil
		}
		pos := g.Start
		for i := 0; i <= len(g.Moves); i++ {
			if i >= opts.SkipPlies && !pos.Outcome().IsOver() {
				f, _, quiet, err := engine.PositionFeatures(pos)
				if err != nil {
					return fmt.Errorf("tune: game %d: %w", d.Games, err)
				}
				if d.Start == nil {
					d.Start = pos
				}
				if quiet {
					if err := keep(pos, f); err != nil {
						return err
					}
				}
				if teaching && opts.Augment > 0 {
					moves := pos.LegalMoves()
					for range opts.Augment {
						c, err := pos.Play(moves[rng.IntN(len(moves))])
						if err != nil || c.Outcome().IsOver() {
							continue
						}
						cf, _, cq, err := engine.PositionFeatures(c)
						if err != nil {
							return fmt.Errorf("tune: game %d: %w", d.Games, err)
						}
						if cq {
							if err := keep(c, cf); err != nil {
								return err
							}
						}
					}
				}
			}
			if i < len(g.Moves) {
				if pos, err = pos.Play(g.Moves[i]); err != nil {
					return fmt.Errorf("tune: game %d, move %d: %w", d.Games, i+1, err)
				}
			}
		}
	}
	// Each teacher takes the next lesson until none is left or one fails.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	next := make(chan int)
	errs := make(chan error, len(opts.Teachers))
	var wg sync.WaitGroup
	for _, teach := range opts.Teachers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				l := lessons[i]
				cp, ok, err := teach(l.pos)
				if err != nil {
					errs <- fmt.Errorf("tune: game %d: %w", l.game, err)
					cancel()
					return
				}
				s := &(*l.part)[l.i]
				s.Teacher, s.Taught = cp, ok
			}
		}()
	}
feed:
	for i := range lessons {
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return err
	}
	return ctx.Err()
}

// splitGames cuts PGN text into games: each starts at a tag line after movetext.
func splitGames(r io.Reader) ([]string, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 4<<20)
	var games []string
	var cur bytes.Buffer
	inMoves := false
	for sc.Scan() {
		line := sc.Text()
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "[") && inMoves {
			games = append(games, cur.String())
			cur.Reset()
			inMoves = false
		}
		if t != "" && !strings.HasPrefix(t, "[") {
			inMoves = true
		}
		cur.WriteString(line)
		cur.WriteByte('\n')
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("tune: reading PGN: %w", err)
	}
	if strings.TrimSpace(cur.String()) != "" {
		games = append(games, cur.String())
	}
	return games, nil
}

// model is the evaluation as the tuner sees it: float weights, the same blend.
type model struct {
	mg, eg []float64
}

func newModel(w engine.EvalWeights) model {
	m := model{mg: make([]float64, len(w.MG)), eg: make([]float64, len(w.EG))}
	for i := range w.MG {
		m.mg[i], m.eg[i] = float64(w.MG[i]), float64(w.EG[i])
	}
	return m
}

func (m model) weights() engine.EvalWeights {
	w := engine.EvalWeights{MG: make([]int32, len(m.mg)), EG: make([]int32, len(m.eg))}
	for i := range m.mg {
		w.MG[i], w.EG[i] = int32(math.Round(m.mg[i])), int32(math.Round(m.eg[i]))
	}
	return w
}

// eval returns the evaluation of s (White's view, centipawns).
func (m model) eval(f *engine.Features) float64 {
	var mg, eg float64
	for i, x := range f.Values {
		if x != 0 {
			mg += m.mg[i] * float64(x)
			eg += m.eg[i] * float64(x)
		}
	}
	for _, tc := range f.Squares {
		mg += m.mg[tc.Term] * float64(tc.Count)
		eg += m.eg[tc.Term] * float64(tc.Count)
	}
	p := float64(f.Phase) / float64(f.Full)
	return mg*p + eg*(1-p)
}

// winChance is White's expected score at evaluation e with scale k.
func winChance(e, k float64) float64 { return 1 / (1 + math.Pow(10, -k*e/400)) }

// Loss returns the mean logistic loss (cross-entropy) of predicting the samples'
// results from evaluations under w with scale k.
func Loss(samples []Sample, w engine.EvalWeights, k float64) float64 {
	return newModel(w).loss(samples, k)
}

func (m model) loss(samples []Sample, k float64) float64 {
	if len(samples) == 0 {
		return 0
	}
	var sum float64
	for i := range samples {
		p := min(max(winChance(m.eval(&samples[i].Features), k), 1e-9), 1-1e-9)
		r := samples[i].Result
		sum -= r*math.Log(p) + (1-r)*math.Log(1-p)
	}
	return sum / float64(len(samples))
}

// FitK returns the scale K (win chance 1/(1+10^(-K*eval/400))) that minimises the
// loss of w on samples.
func FitK(samples []Sample, w engine.EvalWeights) float64 {
	m := newModel(w)
	lo, hi := 0.05, 5.0
	for range 60 { // golden-section search: the loss is unimodal in K
		a, b := hi-(hi-lo)/math.Phi, lo+(hi-lo)/math.Phi
		if m.loss(samples, a) < m.loss(samples, b) {
			hi = b
		} else {
			lo = a
		}
	}
	return (lo + hi) / 2
}

// FitOptions steer Fit.
type FitOptions struct {
	Epochs int     // full passes of Adam (0: 1000)
	Rate   float64 // Adam's step in centipawns (0: 1)
	// L2 pulls every weight towards its starting value (per centipawn squared).
	L2 float64
	// Frozen names terms kept at their starting weights.
	Frozen map[string]bool
	// Progress, when set, is told the training loss every 100 epochs.
	Progress func(epoch int, loss float64)
}

// Fit returns the weights that minimise the logistic loss on samples at scale k,
// starting from w (full-batch Adam on the linear features).
func Fit(ctx context.Context, samples []Sample, w engine.EvalWeights, k float64, opts FitOptions) (engine.EvalWeights, error) {
	if len(samples) == 0 {
		return w, ErrNoData
	}
	if opts.Epochs == 0 {
		opts.Epochs = 1000
	}
	if opts.Rate == 0 {
		opts.Rate = 1
	}
	m, start := newModel(w), newModel(w)
	n := len(m.mg)
	names := engine.EvalTerms()
	frozen := make([]bool, n)
	for i, name := range names {
		frozen[i] = opts.Frozen[name]
	}
	// params: mg then eg
	gm, ge := make([]float64, n), make([]float64, n)
	mom := make([]float64, 2*n)
	vel := make([]float64, 2*n)
	const b1, b2, eps = 0.9, 0.999, 1e-8
	scale := k * math.Ln10 / 400
	for epoch := 1; epoch <= opts.Epochs; epoch++ {
		if err := ctx.Err(); err != nil {
			return m.weights(), err
		}
		clear(gm)
		clear(ge)
		for i := range samples {
			f := &samples[i].Features
			p := float64(f.Phase) / float64(f.Full)
			d := (winChance(m.eval(f), k) - samples[i].Result) * scale
			for j, x := range f.Values {
				if x != 0 {
					gm[j] += d * float64(x) * p
					ge[j] += d * float64(x) * (1 - p)
				}
			}
			for _, tc := range f.Squares {
				gm[tc.Term] += d * float64(tc.Count) * p
				ge[tc.Term] += d * float64(tc.Count) * (1 - p)
			}
		}
		inv := 1 / float64(len(samples))
		for j := 0; j < 2*n; j++ {
			var g float64
			var w, w0 *float64
			if j < n {
				g, w, w0 = gm[j]*inv, &m.mg[j], &start.mg[j]
			} else {
				g, w, w0 = ge[j-n]*inv, &m.eg[j-n], &start.eg[j-n]
			}
			if frozen[j%n] {
				continue
			}
			g += 2 * opts.L2 * (*w - *w0)
			mom[j] = b1*mom[j] + (1-b1)*g
			vel[j] = b2*vel[j] + (1-b2)*g*g
			mh := mom[j] / (1 - math.Pow(b1, float64(epoch)))
			vh := vel[j] / (1 - math.Pow(b2, float64(epoch)))
			*w -= opts.Rate * mh / (math.Sqrt(vh) + eps)
		}
		if opts.Progress != nil && epoch%100 == 0 {
			opts.Progress(epoch, m.loss(samples, k))
		}
	}
	return m.weights(), nil
}
