package review

import (
	"bytes"
	"context"
	"crypto/rand"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/bot/words"
	"github.com/missivechess/missive/engine"
	"github.com/missivechess/missive/render"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/record"
	"github.com/missivechess/missive/storage"
)

// CmdReview is the review command's name.
const CmdReview = "review"

//go:embed locales/*.yaml
var localeFiles embed.FS

// catalogue is the review's sentences in every language (locales/).
var catalogue = i18n.MustLoad("review", localeFiles)

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
	// Workers is how many reviews run at once (default DefaultWorkers: half the
	// cores, at least one); each review searches on one core.
	Workers int
	// Backlog bounds the automatic reviews waiting for a worker (default
	// DefaultBacklog): a game that ends while as many wait is not reviewed by
	// itself, and its players are told that /review still asks for it. Reviews
	// players ask for are never refused for the backlog.
	Backlog int
}

// DefaultWorkers is Options.Workers when it is not set: half the machine's cores,
// at least one, so that play keeps the other half.
func DefaultWorkers() int { return max(1, runtime.NumCPU()/2) }

// DefaultBacklog is Options.Backlog when it is not set: about eight hours of
// automatic reviews on two cores at the default limits.
const DefaultBacklog = 1000

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

// reviewer is the review feature: its queues, the reviews players asked for
// ahead of the automatic ones, each first asked first, reviewed by up to
// Options.Workers workers at once.
type reviewer struct {
	svc  *bot.Service
	opts Options
	run  string // this process's name in the review claims (storage.ReviewClaim)
	mu   sync.Mutex
	// queued holds the games queued or being reviewed; asked and auto the games
	// waiting, asked for by players and made by themselves at a game's end.
	queued      map[string]bool
	asked, auto []string
	working     int // worker goroutines running
	workerSeq   int // the last worker's number
}

// New returns the review feature: /review, and a review of every game that ends
// (unless opts.OnRequest), posted in the game's place.
func New(svc *bot.Service, opts Options) bot.Feature {
	rv := &reviewer{svc: svc, opts: opts, queued: map[string]bool{}, run: runName()}
	if rv.opts.Limits == (engine.Limits{}) {
		rv.opts.Limits = engine.DefaultReviewLimits
	}
	if rv.opts.Budget <= 0 {
		rv.opts.Budget = 3 * time.Minute
	}
	if rv.opts.Workers <= 0 {
		rv.opts.Workers = DefaultWorkers()
	}
	if rv.opts.Backlog <= 0 {
		rv.opts.Backlog = DefaultBacklog
	}
	return bot.Feature{
		Commands: []bot.Command{localized(svc.OnGame(bot.Command{Handle: rv.cmd, Spec: bot.CommandSpec{Name: CmdReview,
			Description: "The engine's review of a game: its mistakes, a graph and an annotated PGN"}}))},
		GameEnded:      rv.askAtEnd,
		AfterGameEnded: rv.gameEnded,
		Started:        rv.resume,
	}
}

// localized is c with its spec in every language of the catalogue.
func localized(c bot.Command) bot.Command {
	c.Spec = c.Spec.Localize(catalogue)
	return c
}

// runName returns a name for this process's claims, new at every start.
func runName() string {
	var b [8]byte
	_, _ = rand.Read(b[:]) // never fails (crypto/rand's documentation)
	return hex.EncodeToString(b[:])
}

// reviewsAtEnd reports whether g, which has just ended, is reviewed by itself.
func (rv *reviewer) reviewsAtEnd(g *storage.Game) bool {
	_, ok := rv.engine()
	return ok && !rv.opts.OnRequest && g.Match == "" && g.Outcome.Reason != rules.Aborted && len(g.Moves) >= 2
}

// askAtEnd queues, in the transaction that ends a game, the review made when it
// ends; when Options.Backlog automatic reviews wait already, it tells the
// players instead that the game is not reviewed by itself and that /review asks.
func (rv *reviewer) askAtEnd(end bot.GameEnd) error {
	g := end.Game
	if !rv.reviewsAtEnd(g) {
		return nil
	}
	rv.mu.Lock()
	waiting := len(rv.auto)
	rv.mu.Unlock()
	if waiting < rv.opts.Backlog {
		_, err := end.Tx.AskReview(g.ID, len(g.Moves))
		return err
	}
	for _, seat := range g.Players {
		loc, err := bot.PlayerLocalizer(end.Tx.Tx, catalogue, seat.ID)
		if err != nil {
			return err
		}
		text := loc.N("skipped", waiting, i18n.Data{"Game": g.ID})
		if err := end.Tx.TellUser(bot.Notice{To: seat, Kind: bot.NoticeInfo, Title: rv.svc.GameTitleIn(loc.Lang(), g), Text: text,
			Key: "review-skipped/" + g.ID, Place: bot.Place{Guild: g.Guild, Channel: g.Channel, Thread: g.Thread}}); err != nil {
			return err
		}
	}
	return nil
}

// resume starts the reviews an earlier process was asked for and did not make,
// the players' first.
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
		rv.queue(r.Game, r.By != "")
	}
}

// engine returns the service's engine as a Reviewer, if it is one.
func (rv *reviewer) engine() (Reviewer, bool) {
	e := rv.svc.Engine()
	r, ok := e.(Reviewer)
	return r, ok && e != nil
}

// gameEnded starts the review of a game that has just ended, when askAtEnd
// queued it.
func (rv *reviewer) gameEnded(ctx context.Context, g *storage.Game) {
	if !rv.reviewsAtEnd(g) {
		return
	}
	var r *storage.ReviewRequest
	err := rv.svc.Read(ctx, func(tx *storage.Tx) (err error) {
		r, err = tx.ReviewRequestOf(g.ID)
		return err
	})
	switch {
	case err == nil:
		rv.queue(g.ID, r.By != "")
	case !errors.Is(err, storage.ErrNotFound):
		rv.svc.Logger().Error("review: reading a game's review request failed; it waits for the next start", "game", g.ID, "error", err)
	}
}

// cmd is /review: the stored review at once, or a review queued.
func (rv *reviewer) cmd(ctx context.Context, req bot.Request) bot.Reply {
	svc := rv.svc
	r, ok := rv.engine()
	if !ok || r == nil {
		return bot.Refusal(svc.AskerLocalizer(ctx, catalogue, req).T("refuse.noengine", nil))
	}
	var g *storage.Game
	var stored *storage.Review
	var theme string
	lang := i18n.Of(req.Locale)
	reply := svc.View(ctx, req, func(tx *bot.Tx) error {
		var err error
		if lang, err = bot.AskerLang(tx.Tx, req); err != nil {
			return err
		}
		loc := catalogue.For(lang)
		if g, err = svc.FindGame(tx.Tx, req, bot.AnyGame); err != nil {
			return err
		}
		if g.Active() && !svc.HintsAllowed(g) {
			return bot.Refuse(bot.ErrRefused, "%s", loc.T("refuse.playing", i18n.Data{"Game": g.ID}))
		}
		if len(g.Moves) == 0 {
			return bot.Refuse(bot.ErrRefused, "%s", loc.T("refuse.nomoves", i18n.Data{"Game": g.ID}))
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
		out, err := rv.present(g, stored, theme, lang)
		if err != nil {
			return svc.Fail(req, err)
		}
		return out
	}
	if err := svc.Update(ctx, func(tx *bot.Tx) error {
		_, err := tx.AskReviewBy(g.ID, len(g.Moves), req.User.ID)
		return err
	}); err != nil {
		return svc.Fail(req, err)
	}
	ahead := rv.queue(g.ID, true)
	loc := catalogue.For(lang)
	most := rv.opts.Budget.Round(time.Second).String()
	if lang != i18n.English {
		most = words.In(lang).Left(rv.opts.Budget)
	}
	text := loc.T("queued.next", i18n.Data{"Game": g.ID, "Most": most})
	if ahead > 0 {
		text = loc.N("queued.ahead", ahead, i18n.Data{"Game": g.ID, "Most": most})
	}
	return bot.Reply{Title: rv.svc.GameTitleIn(lang, g), Game: bot.RefOf(g), Text: text}
}

// postLang returns the language of a review of g posted in the game's place: that
// of the player who asked for it (by), else the server's, else, outside a server,
// that of the game's players when they share one; English otherwise.
func postLang(tx *storage.Tx, g *storage.Game, by string) (i18n.Lang, error) {
	if by != "" {
		p, err := bot.Settings(tx, by)
		if err != nil {
			return i18n.English, err
		}
		return bot.PlayerLang(p), nil
	}
	if g.Guild != "" {
		return bot.ServerLang(tx, g.Guild, "")
	}
	var langs []i18n.Lang
	for _, seat := range g.Players {
		if seat.ID == "" || seat.IsEngine() {
			continue
		}
		p, err := bot.Settings(tx, seat.ID)
		if err != nil {
			return i18n.English, err
		}
		langs = append(langs, bot.PlayerLang(p))
	}
	if len(langs) == 0 || slices.ContainsFunc(langs, func(l i18n.Lang) bool { return l != langs[0] }) {
		return i18n.English, nil
	}
	return langs[0], nil
}

// queue adds game id to the reviews to make in the background, after those asked
// for before it (a player's request, asked, ahead of every automatic one),
// unless it is queued already (a player's request then moves an automatic one
// that waits to the players' queue), and starts a worker if one is free. It
// returns how many players' requests wait ahead of it.
func (rv *reviewer) queue(id string, asked bool) int {
	rv.mu.Lock()
	defer rv.mu.Unlock()
	if rv.queued[id] {
		if i := slices.Index(rv.auto, id); asked && i >= 0 {
			rv.auto = slices.Delete(rv.auto, i, i+1)
			rv.asked = append(rv.asked, id)
		}
		if i := slices.Index(rv.asked, id); i >= 0 {
			return i
		}
		return 0
	}
	rv.queued[id] = true
	ahead := 0
	if asked {
		ahead = len(rv.asked)
		rv.asked = append(rv.asked, id)
	} else {
		rv.auto = append(rv.auto, id)
	}
	if rv.working < rv.opts.Workers {
		rv.working++
		rv.workerSeq++
		worker := rv.workerSeq
		rv.svc.Go(func() { rv.work(worker) })
	}
	return ahead
}

// next takes the next game to review, a player's request first, or reports that
// none is left (or the service stops), when the worker ends.
func (rv *reviewer) next() (string, bool) {
	rv.mu.Lock()
	defer rv.mu.Unlock()
	var id string
	switch {
	case rv.svc.Stopping().Err() != nil:
	case len(rv.asked) > 0:
		id, rv.asked = rv.asked[0], rv.asked[1:]
	case len(rv.auto) > 0:
		id, rv.auto = rv.auto[0], rv.auto[1:]
	}
	if id == "" {
		rv.working--
	}
	return id, id != ""
}

// work is worker number worker: it reviews the games waiting, one at a time,
// until none is left or the service stops (the store's queue keeps the rest
// for the next start). Each review is claimed in the store first, so that no
// two workers make it.
func (rv *reviewer) work(worker int) {
	svc := rv.svc
	stopping := svc.Stopping()
	for {
		id, ok := rv.next()
		if !ok {
			return
		}
		var req *storage.ReviewRequest
		err := svc.Update(stopping, func(tx *bot.Tx) (err error) {
			req, err = tx.ClaimReview(id, rv.run, worker, svc.Now())
			return err
		})
		again := false
		switch {
		case err != nil:
			if stopping.Err() == nil {
				svc.Logger().Error("review: claiming a review failed; it waits for the next start", "game", id, "error", err)
			}
		case req == nil: // made already, or another worker's
		default:
			if again, err = rv.review(id, req.By); err != nil && stopping.Err() == nil {
				// Not made now, it would fail again at every start: it leaves the queue
				// (the players may ask again with /review).
				svc.Logger().Warn("review: a game review failed and leaves the queue", "game", id, "error", err)
				if err := svc.Update(context.WithoutCancel(stopping), func(tx *bot.Tx) error { return tx.ReviewDone(id) }); err != nil {
					svc.Logger().Error("review: a failed review stays queued", "game", id, "error", err)
				}
			}
		}
		rv.mu.Lock()
		delete(rv.queued, id)
		rv.mu.Unlock()
		if again && stopping.Err() == nil {
			rv.queue(id, req.By != "")
		}
	}
}

// review reviews game id, stores the review and posts it in the game's place, in
// the language of the player who asked for it (by; "" for a review made at a
// game's end: see postLang). It reports whether the game was asked for again at
// more entries meanwhile, so that its request stays for another review.
func (rv *reviewer) review(id, by string) (again bool, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("review: review of game %s panicked: %v\n%s", id, r, debug.Stack())
		}
	}()
	svc := rv.svc
	ctx := svc.Stopping()
	var g *storage.Game
	done := false
	lang := i18n.English
	if err := svc.Read(ctx, func(tx *storage.Tx) (err error) {
		if g, err = tx.Game(id); err != nil {
			return err
		}
		if lang, err = postLang(tx, g, by); err != nil {
			return err
		}
		r, err := tx.Review(id)
		done = err == nil && r.Plies == len(g.Moves)
		if errors.Is(err, storage.ErrNotFound) {
			err = nil
		}
		return err
	}); err != nil {
		return false, err
	}
	if done {
		err := svc.Update(ctx, func(tx *bot.Tx) (err error) {
			again, err = tx.ReviewMade(id, len(g.Moves))
			return err
		})
		return again, err
	}
	h, err := svc.PublicHistory(g)
	if err != nil {
		return false, err
	}
	eng, ok := rv.engine()
	if !ok {
		return false, nil
	}
	lim := rv.opts.Limits
	if n := len(h.Steps) + 1; lim.Time == 0 || lim.Time*time.Duration(n) > rv.opts.Budget {
		lim.Time = rv.opts.Budget / time.Duration(n)
	}
	res, err := eng.Review(ctx, h, engine.ReviewOptions{Limits: lim, Pause: rv.quiet, Outcome: g.Outcome})
	if err != nil {
		return false, err
	}
	loc := catalogue.For(lang)
	stored := toStored(g.ID, len(g.Moves), h, res, lim)
	stored.Made = svc.Now()
	// Drawn before the write, so that the transaction (which moves wait for) is short.
	out, err := rv.present(g, stored, "", lang)
	if err != nil {
		return false, err
	}
	err = svc.Update(ctx, func(tx *bot.Tx) error {
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
		if again, err = tx.ReviewMade(id, stored.Plies); err != nil {
			return err
		}
		tx.Send(bot.Notification{
			Key: fmt.Sprintf("review/%s/%d", g.ID, stored.Plies), Kind: bot.NoticeInfo, Channel: true,
			To: bot.User{Name: loc.T("players", i18n.Data{"Game": g.ID})}, Game: bot.RefOf(g), Reply: out,
		}, bot.BoardPicture(record.PublicView(g.Position), bot.BoardOptions{LastMove: bot.LastMove(g)},
			fmt.Sprintf("game-%s.png", g.ID), loc.T("final.alt", nil), false))
		return nil
	})
	return again, err
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

// present builds the reply that shows a stored review of g in language lang: the
// picture, the annotated PGN (its comments in lang too) and a summary.
func (rv *reviewer) present(g *storage.Game, sr *storage.Review, theme string, lang i18n.Lang) (bot.Reply, error) {
	svc := rv.svc
	loc := catalogue.For(lang)
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
			n.Comment = loc.T("comment."+m.Class, nil)
		}
		notes[m.Index] = n
	}
	var pg strings.Builder
	if err := rv.annotatedPGN(&pg, g, h, notes); err != nil {
		return bot.Reply{}, err
	}

	// The picture.
	title := loc.T("title", i18n.Data{"Title": rv.svc.GameTitleIn(lang, g)})
	pic := render.Review{Title: title, WhiteName: words.Seat(g.Players[rules.White]),
		Black: words.Seat(g.Players[rules.Black]), GraphTop: loc.T("picture.white", nil), GraphBot: loc.T("picture.black", nil), Decisive: -1,
		Note: reviewNote(loc, g.Variant)}
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
			pic.DecisiveLabel = loc.T("picture.decisive", i18n.Data{"Move": p.Label})
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
			return loc.T("percent", i18n.Data{"Percent": fmt.Sprintf("%.0f", sr.Accuracy[s])})
		}
		if long {
			return loc.T("nomoves.long", nil)
		}
		return "—"
	}
	pic.Rows = append(pic.Rows, render.ReviewRow{Label: loc.T("row.accuracy", nil), White: accuracy(rules.White, false), Black: accuracy(rules.Black, false)})
	for _, class := range []string{"inaccuracy", "mistake", "blunder", "best"} {
		pic.Rows = append(pic.Rows, render.ReviewRow{Label: loc.T("row."+class, nil), White: strconv.Itoa(counts[0][class]), Black: strconv.Itoa(counts[1][class])})
	}
	reply := bot.Reply{Title: title, Game: bot.RefOf(g)}
	sentences := []string{loc.T("text.accuracy", i18n.Data{"White": words.Seat(g.Players[rules.White]), "WhiteAccuracy": accuracy(rules.White, true),
		"Black": words.Seat(g.Players[rules.Black]), "BlackAccuracy": accuracy(rules.Black, true)})}
	switch {
	case decisive != nil && len(decisive.line) > 0:
		sentences = append(sentences, loc.T("text.decisive.better", i18n.Data{"Move": decisive.label + nagText(decisive.Class),
			"Class": loc.T("class."+decisive.Class, nil), "Better": words.Move(decisive.step.Before, decisive.line[0])}))
	case decisive != nil:
		sentences = append(sentences, loc.T("text.decisive", i18n.Data{"Move": decisive.label + nagText(decisive.Class), "Class": loc.T("class."+decisive.Class, nil)}))
	default:
		sentences = append(sentences, loc.T("text.nodecisive", nil))
	}
	reply.Text = strings.Join(append(sentences, unitsSentenceIn(loc, g.Variant)), " ")
	if rr, ok := svc.Renderer().(Renderer); ok && len(pic.Points) > 0 {
		var b bytes.Buffer
		if err := rr.ReviewPNG(&b, pic, theme); err != nil {
			svc.Logger().Error("review: drawing a review failed", "game", g.ID, "error", err)
		} else {
			reply.Files = append(reply.Files, bot.File{Name: fmt.Sprintf("game-%s-review.png", g.ID), ContentType: "image/png", Data: b.Bytes(),
				Alt: loc.T("picture.alt", i18n.Data{"Game": g.ID})})
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

// unitsSentence says what the evaluations of variant's games mean, in English.
func unitsSentence(variant string) string {
	return unitsSentenceIn(catalogue.For(i18n.English), variant)
}

// unitsSentenceIn is unitsSentence in loc's language.
func unitsSentenceIn(loc *i18n.Localizer, variant string) string {
	return loc.T("text.units", i18n.Data{"Units": words.In(loc.Lang()).EvaluationUnits(variant)})
}

// reviewNote says how the review classes moves and computes accuracy, in loc's
// language.
func reviewNote(loc *i18n.Localizer, variant string) string {
	return loc.T("note", nil) + " " + unitsSentenceIn(loc, variant)
}
