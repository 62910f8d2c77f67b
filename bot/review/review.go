package review

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/words"
	"github.com/missivechess/missive/engine"
	"github.com/missivechess/missive/render"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/record"
	"github.com/missivechess/missive/storage"
)

// CmdReview is the review command's name.
const CmdReview = "review"

// Options bound the engine's reviews.
type Options struct {
	// Limits bound the search of each position (default engine.DefaultReviewLimits).
	Limits engine.Limits
	// Budget bounds the search time of a whole review (default 3 minutes): a long
	// game's positions share it, each getting at most Limits.Time. A review also
	// waits, before and during each search, while the service is busy (requests,
	// notifications).
	Budget time.Duration
	// OnRequest reviews games only when /review asks, not every game that ends: for
	// the console, where each command waits for the background work it starts.
	OnRequest bool
}

// Reviewer reviews games; the built-in engine's bot.Engine (bot.NewEngine) is
// one. Without an engine that is one, games are not reviewed.
type Reviewer interface {
	Review(ctx context.Context, h *record.History, opts engine.ReviewOptions) (*engine.Review, error)
}

// Renderer draws a review's picture; bot.NewRenderer's renderer is one. Without a
// renderer that is one, a review has no picture.
type Renderer interface {
	ReviewPNG(w io.Writer, rv render.Review, theme string) error
}

// reviewer is the review feature: its queue, reviewed one game at a time, first
// asked first.
type reviewer struct {
	svc     *bot.Service
	opts    Options
	mu      sync.Mutex
	queued  map[string]bool // games queued or being reviewed
	pending []string        // games queued and not yet started, in the order asked
	working bool            // a worker goroutine is reviewing the pending games
}

// New returns the review feature: /review, and a review of every game that ends
// (unless opts.OnRequest), posted in the game's place.
func New(svc *bot.Service, opts Options) bot.Feature {
	rv := &reviewer{svc: svc, opts: opts, queued: map[string]bool{}}
	if rv.opts.Limits == (engine.Limits{}) {
		rv.opts.Limits = engine.DefaultReviewLimits
	}
	if rv.opts.Budget <= 0 {
		rv.opts.Budget = 3 * time.Minute
	}
	return bot.Feature{
		Commands: []bot.Command{svc.OnGame(bot.Command{Handle: rv.cmd, Spec: bot.CommandSpec{Name: CmdReview,
			Description: "The engine's review of a game: its mistakes, a graph and an annotated PGN"}})},
		GameEnded:      rv.askAtEnd,
		AfterGameEnded: rv.gameEnded,
		Started:        rv.resume,
	}
}

// reviewsAtEnd reports whether g, which has just ended, is reviewed by itself.
func (rv *reviewer) reviewsAtEnd(g *storage.Game) bool {
	_, ok := rv.engine()
	return ok && !rv.opts.OnRequest && g.Match == "" && g.Outcome.Reason != rules.Aborted && len(g.Moves) >= 2
}

// askAtEnd queues, in the transaction that ends a game, the review made when it ends.
func (rv *reviewer) askAtEnd(end bot.GameEnd) error {
	if !rv.reviewsAtEnd(end.Game) {
		return nil
	}
	_, err := end.Tx.AskReview(end.Game.ID, len(end.Game.Moves))
	return err
}

// resume starts the reviews an earlier process was asked for and did not make.
func (rv *reviewer) resume() {
	if _, ok := rv.engine(); !ok {
		return
	}
	var asked []*storage.ReviewRequest
	if err := rv.svc.Read(rv.svc.Stopping(), func(tx *storage.Tx) (err error) {
		asked, err = tx.ReviewRequests()
		return err
	}); err != nil {
		rv.svc.Logger().Error("review: reading the queued reviews failed; they wait for the next start", "error", err)
		return
	}
	for _, r := range asked {
		rv.queue(r.Game)
	}
}

// engine returns the service's engine as a Reviewer, if it is one.
func (rv *reviewer) engine() (Reviewer, bool) {
	e := rv.svc.Engine()
	r, ok := e.(Reviewer)
	return r, ok && e != nil
}

// gameEnded starts the review of a game that has just ended (askAtEnd queued it).
func (rv *reviewer) gameEnded(_ context.Context, g *storage.Game) {
	if rv.reviewsAtEnd(g) {
		rv.queue(g.ID)
	}
}

// cmd is /review: the stored review at once, or a review queued.
func (rv *reviewer) cmd(ctx context.Context, req bot.Request) bot.Reply {
	svc := rv.svc
	r, ok := rv.engine()
	if !ok || r == nil {
		return bot.Refusal("No engine is available here, so games cannot be reviewed.")
	}
	var g *storage.Game
	var stored *storage.Review
	var theme string
	reply := svc.View(ctx, req, func(tx *bot.Tx) error {
		var err error
		if g, err = svc.FindGame(tx.Tx, req, bot.AnyGame); err != nil {
			return err
		}
		if g.Active() && !svc.HintsAllowed(g) {
			return bot.Refuse(bot.ErrRefused, "Game %s is still being played, and the engine does not help during rated or tournament games; ask again with /review once it has ended.", g.ID)
		}
		if len(g.Moves) == 0 {
			return bot.Refuse(bot.ErrRefused, "Game %s has no moves yet, so there is nothing to review.", g.ID)
		}
		p, err := bot.Settings(tx.Tx, req.User.ID)
		if err != nil {
			return err
		}
		theme = p.Theme
		stored, err = tx.Review(g.ID)
		if errors.Is(err, storage.ErrNotFound) || err == nil && stored.Plies != len(g.Moves) {
			stored, err = nil, nil
		}
		return err
	})
	if reply.Refused {
		return reply
	}
	if stored != nil {
		out, err := rv.present(g, stored, theme)
		if err != nil {
			return svc.Fail(req, err)
		}
		return out
	}
	if err := svc.Update(ctx, func(tx *bot.Tx) error {
		_, err := tx.AskReview(g.ID, len(g.Moves))
		return err
	}); err != nil {
		return svc.Fail(req, err)
	}
	rv.queue(g.ID)
	return bot.Reply{Title: svc.GameTitle(g), Game: bot.RefOf(g),
		Text: fmt.Sprintf("The engine is reviewing game %s; the review will be posted here when it is done (games are reviewed one at a time, each in at most %s).", g.ID, rv.opts.Budget.Round(time.Second))}
}

// queue adds game id to the reviews to make in the background, after those asked
// for before it, unless it is queued already.
func (rv *reviewer) queue(id string) {
	rv.mu.Lock()
	defer rv.mu.Unlock()
	if rv.queued[id] {
		return
	}
	rv.queued[id] = true
	rv.pending = append(rv.pending, id)
	if !rv.working {
		rv.working = true
		rv.svc.Go(rv.work)
	}
}

// work reviews the pending games one at a time, in the order asked, until none is
// left or the service stops (the store's queue keeps the rest for the next start).
func (rv *reviewer) work() {
	svc := rv.svc
	stopping := svc.Stopping()
	for {
		rv.mu.Lock()
		if stopping.Err() != nil || len(rv.pending) == 0 {
			rv.working = false
			rv.mu.Unlock()
			return
		}
		id := rv.pending[0]
		rv.pending = rv.pending[1:]
		rv.mu.Unlock()
		if err := rv.run(id); err != nil && stopping.Err() == nil {
			// Not made now, it would fail again at every start: it leaves the queue
			// (the players may ask again with /review).
			svc.Logger().Warn("review: a game review failed and leaves the queue", "game", id, "error", err)
			if err := svc.Update(context.WithoutCancel(stopping), func(tx *bot.Tx) error { return tx.ReviewDone(id) }); err != nil {
				svc.Logger().Error("review: a failed review stays queued", "game", id, "error", err)
			}
		}
		rv.mu.Lock()
		delete(rv.queued, id)
		rv.mu.Unlock()
	}
}

// run reviews game id, stores the review and posts it in the game's place.
func (rv *reviewer) run(id string) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("review: review of game %s panicked: %v\n%s", id, r, debug.Stack())
		}
	}()
	svc := rv.svc
	ctx := svc.Stopping()
	var g *storage.Game
	done := false
	if err := svc.Read(ctx, func(tx *storage.Tx) (err error) {
		if g, err = tx.Game(id); err != nil {
			return err
		}
		r, err := tx.Review(id)
		done = err == nil && r.Plies == len(g.Moves)
		if errors.Is(err, storage.ErrNotFound) {
			err = nil
		}
		return err
	}); err != nil {
		return err
	}
	if done {
		return svc.Update(ctx, func(tx *bot.Tx) error { return tx.ReviewDone(id) })
	}
	h, err := svc.PublicHistory(g)
	if err != nil {
		return err
	}
	eng, ok := rv.engine()
	if !ok {
		return nil
	}
	lim := rv.opts.Limits
	if n := len(h.Steps) + 1; lim.Time == 0 || lim.Time*time.Duration(n) > rv.opts.Budget {
		lim.Time = rv.opts.Budget / time.Duration(n)
	}
	res, err := eng.Review(ctx, h, engine.ReviewOptions{Limits: lim, Pause: rv.quiet, Outcome: g.Outcome})
	if err != nil {
		return err
	}
	stored := toStored(g.ID, len(g.Moves), h, res, lim)
	stored.Made = svc.Now()
	// Drawn before the write, so that the transaction (which moves wait for) is short.
	out, err := rv.present(g, stored, "")
	if err != nil {
		return err
	}
	return svc.Update(ctx, func(tx *bot.Tx) error {
		old, err := tx.Review(id)
		switch {
		case err == nil:
			stored.Version = old.Version
		case !errors.Is(err, storage.ErrNotFound):
			return err
		}
		if err := tx.PutReview(stored); err != nil {
			return err
		}
		if err := tx.ReviewDone(id); err != nil {
			return err
		}
		tx.Send(bot.Notification{
			Key: fmt.Sprintf("review/%s/%d", g.ID, stored.Plies), Kind: bot.NoticeInfo, Channel: true,
			To: bot.User{Name: "the players of game " + g.ID}, Game: bot.RefOf(g), Reply: out,
		}, bot.BoardPicture(record.PublicView(g.Position), bot.BoardOptions{LastMove: bot.LastMove(g)},
			fmt.Sprintf("game-%s.png", g.ID), "the final board", false))
		return nil
	})
}

// quietWait is how long a review waits at a time for the service to be quiet.
const quietWait = 20 * time.Millisecond

// quiet waits, before and during each search of a review, until no request is
// being handled and no notification is being drawn: the review gives way to play: a busy service makes a review later or shallower (a position's
// time runs on while its search waits), never play slower.
func (rv *reviewer) quiet(ctx context.Context) error {
	for rv.svc.Busy() > 0 {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(quietWait):
		}
	}
	return ctx.Err()
}

// toStored turns the engine's review of h into its stored form.
func toStored(id string, plies int, h *record.History, r *engine.Review, lim engine.Limits) *storage.Review {
	out := &storage.Review{Game: id, Plies: plies, Nodes: lim.Nodes, TimeMS: lim.Time.Milliseconds(), Took: r.Time.Milliseconds(),
		Decisive: r.Decisive, Accuracy: [2]float64{r.Players[rules.White].Accuracy, r.Players[rules.Black].Accuracy}}
	for _, m := range r.Moves {
		st := h.Steps[m.Index]
		sm := storage.ReviewMove{Index: m.Index, Class: string(m.Class), Eval: int(m.Eval), BestEval: int(m.BestEval), Loss: m.Loss}
		if m.BestDiffers() {
			sm.Best = st.Before.UCI(m.Best)
			if line, err := record.Line(st.Before, m.BestLine); err == nil {
				for _, ls := range line.Steps {
					sm.Line = append(sm.Line, ls.Before.UCI(ls.Move))
				}
			}
		}
		out.Moves = append(out.Moves, sm)
	}
	return out
}

// reviewedMove is a stored review's move with what the record says of it.
type reviewedMove struct {
	storage.ReviewMove
	step   record.Step
	number int    // its move number
	label  string // "12... Qg5"
	line   []rules.Move
}

// reviewLineLen is the most moves of a better line shown in the PGN.
const reviewLineLen = 6

// present builds the reply that shows a stored review of g: the picture, the
// annotated PGN and a summary.
func (rv *reviewer) present(g *storage.Game, sr *storage.Review, theme string) (bot.Reply, error) {
	svc := rv.svc
	h, err := svc.PublicHistory(g)
	if err != nil {
		return bot.Reply{}, err
	}
	if sr.Plies > len(h.Steps) {
		return bot.Reply{}, fmt.Errorf("review: the review of game %s covers %d entries, the game has %d", g.ID, sr.Plies, len(h.Steps))
	}
	h = &record.History{Start: h.Start, Steps: h.Steps[:sr.Plies]}
	h = h.Notated()
	moves := rv.moves(h, sr)
	k := engine.Scale(g.Variant)

	// The annotated PGN: every ordinary move's evaluation (White's side, as PGN
	// readers expect), NAGs and better lines.
	notes := map[int]record.Note{}
	for _, m := range moves {
		if m.step.Simultaneous {
			continue
		}
		n := record.Note{}
		if !m.step.After.Outcome().IsOver() {
			n.Eval = evalText(whiteScore(m.Eval, m.step.Side))
		}
		switch m.Class {
		case "inaccuracy":
			n.NAG = record.NAGInaccuracy
		case "mistake":
			n.NAG = record.NAGMistake
		case "blunder":
			n.NAG = record.NAGBlunder
		}
		if n.NAG != 0 && len(m.line) > 0 {
			n.Line = m.line[:min(len(m.line), reviewLineLen)]
			n.Comment = strings.ToUpper(m.Class[:1]) + m.Class[1:] + "."
		}
		notes[m.Index] = n
	}
	var pg strings.Builder
	if err := rv.annotatedPGN(&pg, g, h, notes); err != nil {
		return bot.Reply{}, err
	}

	// The picture.
	pic := render.Review{Title: "Review · " + svc.GameTitle(g), WhiteName: words.Seat(g.Players[rules.White]),
		Black: words.Seat(g.Players[rules.Black]), GraphTop: "White", GraphBot: "Black", Decisive: -1,
		Note: reviewNote(g.Variant)}
	var counts [2]map[string]int
	for i := range counts {
		counts[i] = map[string]int{}
	}
	var decisive *reviewedMove
	for i, m := range moves {
		counts[m.step.Side&1][m.Class]++
		if i == sr.Decisive {
			decisive = &moves[i]
		}
		if m.step.Simultaneous {
			continue
		}
		c := engine.WinChance(engine.Score(whiteScore(m.Eval, m.step.Side)), k)
		p := render.ReviewPoint{White: c, Number: m.number, Label: m.label + nagText(m.Class)}
		switch m.Class {
		case "inaccuracy":
			p.Mark = render.MarkInaccuracy
		case "mistake":
			p.Mark = render.MarkMistake
		case "blunder":
			p.Mark = render.MarkBlunder
		}
		if i == sr.Decisive {
			pic.Decisive = len(pic.Points)
		}
		pic.Points = append(pic.Points, p)
	}
	// A player who made no move has no accuracy: "—", not 0%.
	var played [2]bool
	for _, m := range moves {
		played[m.step.Side&1] = played[m.step.Side&1] || !m.step.Simultaneous
	}
	accuracy := func(s rules.Side, long bool) string {
		if played[s] {
			return fmt.Sprintf("%.0f%%", sr.Accuracy[s])
		}
		if long {
			return "— (no moves)"
		}
		return "—"
	}
	pic.Rows = append(pic.Rows, render.ReviewRow{Label: "Accuracy", White: accuracy(rules.White, false), Black: accuracy(rules.Black, false)})
	for _, c := range []struct{ class, label string }{{"inaccuracy", "Inaccuracies"}, {"mistake", "Mistakes"}, {"blunder", "Blunders"}, {"best", "Engine's move"}} {
		pic.Rows = append(pic.Rows, render.ReviewRow{Label: c.label, White: strconv.Itoa(counts[0][c.class]), Black: strconv.Itoa(counts[1][c.class])})
	}
	reply := bot.Reply{Title: "Review · " + svc.GameTitle(g), Game: bot.RefOf(g)}
	var text strings.Builder
	fmt.Fprintf(&text, "Accuracy: %s %s, %s %s. ", words.Seat(g.Players[rules.White]), accuracy(rules.White, true), words.Seat(g.Players[rules.Black]), accuracy(rules.Black, true))
	if decisive != nil {
		fmt.Fprintf(&text, "The decisive moment: **%s** (%s", decisive.label+nagText(decisive.Class), decisive.Class)
		if len(decisive.line) > 0 {
			fmt.Fprintf(&text, "; %s was better", words.Move(decisive.step.Before, decisive.line[0]))
		}
		text.WriteString("). ")
	} else {
		text.WriteString("No mistake decided this game. ")
	}
	text.WriteString(unitsSentence(g.Variant))
	reply.Text = text.String()
	if rr, ok := svc.Renderer().(Renderer); ok && len(pic.Points) > 0 {
		var b bytes.Buffer
		if err := rr.ReviewPNG(&b, pic, theme); err != nil {
			svc.Logger().Error("review: drawing a review failed", "game", g.ID, "error", err)
		} else {
			reply.Files = append(reply.Files, bot.File{Name: fmt.Sprintf("game-%s-review.png", g.ID), ContentType: "image/png", Data: b.Bytes(),
				Alt: fmt.Sprintf("evaluation graph of game %s with its mistakes marked, and each player's accuracy", g.ID)})
		}
	}
	reply.Files = append(reply.Files, bot.File{Name: fmt.Sprintf("game-%s-review.pgn", g.ID), ContentType: "application/x-chess-pgn", Data: []byte(pg.String())})
	return reply, nil
}

// annotatedPGN writes g's PGN (as /pgn does) with notes on h's moves.
func (rv *reviewer) annotatedPGN(w io.Writer, g *storage.Game, h *record.History, notes map[int]record.Note) error {
	p := rv.svc.PGNHeader(g)
	p.History, p.Notes = h, notes
	p.Extra = append(p.Extra, record.Tag{Name: "Annotator", Value: "Missive engine review"})
	return record.WritePGN(w, p)
}

// moves joins a stored review's moves with h's steps, move numbers and labels.
func (rv *reviewer) moves(h *record.History, sr *storage.Review) []reviewedMove {
	// Move numbers as the movetext writes them.
	ordinary := h.Moves()
	labels := map[int]string{}
	numbers := map[int]int{}
	num, dots, k := 0, ".", 0
	for _, tok := range record.Movetext(ordinary) {
		if n, ok := strings.CutSuffix(tok, "..."); ok {
			num, _ = strconv.Atoi(n)
			dots = "..."
			continue
		}
		if n, ok := strings.CutSuffix(tok, "."); ok {
			num, _ = strconv.Atoi(n)
			dots = "."
			continue
		}
		st := ordinary[k]
		numbers[st.Index], labels[st.Index] = num, fmt.Sprintf("%d%s %s", num, dots, tok)
		dots = "..."
		k++
	}
	out := make([]reviewedMove, 0, len(sr.Moves))
	for _, m := range sr.Moves {
		st := h.Steps[m.Index]
		rm := reviewedMove{ReviewMove: m, step: st, number: numbers[m.Index], label: labels[m.Index]}
		if st.Simultaneous {
			rm.label = st.SAN
		}
		pos := st.Before
		for _, text := range m.Line {
			mv, err := pos.ParseMove(text)
			if err != nil {
				break
			}
			next, err := pos.Play(mv)
			if err != nil {
				break
			}
			rm.line = append(rm.line, mv)
			pos = next
		}
		if st.Simultaneous {
			rm.line = nil // a placement choice's better cell is named, not played out
		}
		out = append(out, rm)
	}
	return out
}

// whiteScore turns a score from side's point of view into White's.
func whiteScore(s int, side rules.Side) int {
	if side == rules.Black {
		return -s
	}
	return s
}

// evalText writes a score as PGN's %eval does: pawns with two decimals, or "#N"
// for a mate in N moves (negative when Black mates).
func evalText(s int) string {
	sc := engine.Score(s)
	if sc.IsMate() {
		return fmt.Sprintf("#%d", sc.MateIn())
	}
	return strconv.FormatFloat(float64(s)/100, 'f', 2, 64)
}

// nagText is the traditional sign of a class: "?!", "?" or "??".
func nagText(class string) string {
	switch class {
	case "inaccuracy":
		return "?!"
	case "mistake":
		return "?"
	case "blunder":
		return "??"
	}
	return ""
}

// unitsSentence says what the evaluations of variant's games mean.
func unitsSentence(variant string) string {
	return "Evaluations are from White's side, in " + words.EvaluationUnits(variant) + "."
}

// reviewNote says how the review classes moves and computes accuracy.
func reviewNote(variant string) string {
	return "Moves are classed by the winning chance they lost: 5 points an inaccuracy, 10 a mistake, 15 a blunder. " +
		"Accuracy is the mean of 103.17 × e^(−0.0435 × points lost) − 3.17 over a player's moves. " + unitsSentence(variant)
}
