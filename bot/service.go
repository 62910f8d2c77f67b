package bot

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/storage"
)

// User is a person acting on the service (or named by a request): a Discord user id,
// a console identity.
type User struct {
	ID   string
	Name string
}

// Request is one command from an adapter: a slash command, a button press, a console
// line.
type Request struct {
	// ID identifies the delivery (a Discord interaction id); a request whose ID was
	// already handled is not applied again. Empty: no such protection.
	ID      string
	User    User
	Place   Place
	Command string
	Args    Args
	// Names gives display names of user ids that appear in Args (Discord resolves them).
	Names map[string]string
	// Admin says that the user may manage the server (Discord's Manage Server
	// permission), as admin-only commands need; local play (no place) needs none.
	Admin bool
	// Context is the kind of place the request came from (see Request.Where); an
	// adapter sets it, and a request without it is placed by its Place.
	Context Context
	// Locale is the asker's client language and GuildLocale the server's, as Discord
	// spells them ("de", "es-419", "pt-BR"); empty when unknown (GuildLocale outside
	// a server). bot/i18n maps them onto the languages Missive speaks.
	Locale, GuildLocale string
	// Public says that the answer is posted where many read it, not shown to the
	// asker (an adapter's board in a game's new thread): it is written in the
	// server's language.
	Public bool
}

// Where returns the kind of place req came from: a server when it names one, else
// its Context, else a direct message with the bot when it names a channel; local
// play (the console: no place at all) is "".
func (req Request) Where() Context {
	switch {
	case req.Place.Guild != "":
		return ContextGuild
	case req.Context == ContextBotDM || req.Context == ContextPrivateChannel:
		return req.Context
	case req.Place.Channel != "" || req.Place.Thread != "":
		return ContextBotDM
	}
	return ""
}

// Local reports whether req is local play (the console), where every command is
// offered and there is no server permission to check.
func (req Request) Local() bool { return req.Where() == "" }

// Limits bound what one player may have open at once.
type Limits struct {
	ActiveGames    int           // games in progress per player (default 50)
	OpenChallenges int           // open challenges made per player (default 10)
	ChallengeTTL   time.Duration // how long a challenge stays open (default 7 days)
	LeaveDays      int           // days of leave each player may take a calendar year (default 30)
}

// Config holds what a Service is built from. Store, Registry and Renderer are needed.
type Config struct {
	Store    Store
	Registry *rules.Registry
	Renderer Renderer
	// Engine plays engine opponents and gives hints; nil disables both.
	Engine Engine
	// Notifier delivers notifications; nil drops them.
	Notifier Notifier
	// Outbox tunes the delivery of notifications (retries, parallel destinations).
	Outbox OutboxOptions
	// Now is the clock (default time.Now); tests move it.
	Now func() time.Time
	// Rand returns random numbers for colours and Go-Chess boards (default crypto/rand).
	Rand   func() uint64
	Logger *slog.Logger
	Limits Limits
	// HintsInRated allows hints in rated and tournament games.
	HintsInRated bool
	// EngineTimeout bounds one engine move (default 60s).
	EngineTimeout time.Duration
	// Site is the PGN Site tag (default "Discord").
	Site string
	// Gateway says that the adapter reports its gateway connection (GatewayUp,
	// GatewayDown): until the first GatewayUp no game times out.
	Gateway bool
	// OutageGrace is how long the service may be down or disconnected before running
	// games get the time back (default OutageGrace).
	OutageGrace time.Duration
	// Features plug the commands and hooks into the kernel, which has none of its
	// own (package features lists the product's): each is called once, by New,
	// with the service it extends, and their hooks run in this order.
	Features []func(*Service) Feature
	// Order names commands in the order they are best listed (Commands, /help):
	// those named come first, in this order, and the rest after them in the order
	// they were plugged.
	Order []string
}

// Service is the play service: every operation a correspondence player does,
// independent of Discord. It is safe for concurrent use.
type Service struct {
	left     leftServers // servers the bot was removed from (places.go)
	store    Store
	reg      *rules.Registry
	render   Renderer
	engine   Engine
	notifier Notifier
	now      func() time.Time
	rand     func() uint64
	log      *slog.Logger
	limits   Limits
	hintsAll bool
	engineTO time.Duration
	site     string

	// The features' commands in the order they are listed, their index by name, the
	// completers of their options by option name, and the end-of-game hooks.
	commands   []Command
	byName     map[string]int
	completers map[string]Completer
	hooks      hooks

	bg   tracker       // background work: notifications, engine moves
	out  *outbox       // notifications on their way
	kick chan struct{} // wakes the scheduler early

	gateway bool          // the adapter reports its gateway connection
	grace   time.Duration // outages up to this long are not given back
	live    liveness
	// resumeMu serialises Resume (the scheduler's and the adapter's GatewayUp);
	// outageStep, when set (tests), runs after each batch of an outage's give-back
	// and stops it half-way by returning an error, as a process killed there would.
	resumeMu    sync.Mutex
	outageBatch int
	outageStep  func(batch int) error

	// localLang is the language of the last request of local play (the console),
	// whose one reader also reads the notices no request carries (an engine's
	// move, a reminder) when their player has no language of their own.
	localLang atomic.Value // i18n.Lang

	// inflight counts requests being handled and drawing notifications being
	// rebuilt and drawn, so that background reviews can give way to them.
	inflight atomic.Int64
	drawing  atomic.Int64

	engMu    sync.Mutex
	engBusy  map[string]bool  // games with an engine job running
	engFails map[string]int   // games whose engine's tries have failed in a row (under engMu)
	engSem   chan struct{}    // bounds concurrent engine jobs
	engCheck engineCheckState // the check of the external engines (under engMu)
	laneSem  chan struct{}    // the engine lane features claim games for (Feature.Lane): one move at a time

	closeOnce sync.Once
	closed    chan struct{}
	// stopping ends with Close: engine searches under way give up at once.
	stopping context.Context
	stop     context.CancelFunc
}

// New returns a Service built from cfg.
func New(cfg Config) (*Service, error) {
	if cfg.Store == nil || cfg.Registry == nil || cfg.Renderer == nil {
		return nil, errors.New("bot: New needs a Store, a Registry and a Renderer")
	}
	s := &Service{
		store: cfg.Store, reg: cfg.Registry, render: cfg.Renderer, engine: cfg.Engine, notifier: cfg.Notifier,
		now: cfg.Now, rand: cfg.Rand, log: cfg.Logger, limits: cfg.Limits, hintsAll: cfg.HintsInRated,
		engineTO: cfg.EngineTimeout, site: cfg.Site, gateway: cfg.Gateway, grace: cfg.OutageGrace,
		out: newOutbox(cfg.Outbox), kick: make(chan struct{}, 1), outageBatch: outageBatch,
		engBusy: map[string]bool{}, engFails: map[string]int{}, engSem: make(chan struct{}, 2), laneSem: make(chan struct{}, 1), closed: make(chan struct{}),
	}
	if s.now == nil {
		s.now = time.Now
	}
	if s.rand == nil {
		s.rand = cryptoRand
	}
	if s.log == nil {
		s.log = slog.Default()
	}
	if s.limits.ActiveGames <= 0 {
		s.limits.ActiveGames = 50
	}
	if s.limits.OpenChallenges <= 0 {
		s.limits.OpenChallenges = 10
	}
	if s.limits.ChallengeTTL <= 0 {
		s.limits.ChallengeTTL = 7 * 24 * time.Hour
	}
	if s.limits.LeaveDays <= 0 {
		s.limits.LeaveDays = DefaultLeaveDays
	}
	if s.engineTO <= 0 {
		s.engineTO = time.Minute
	}
	if s.grace <= 0 {
		s.grace = OutageGrace
	}
	s.live.down = s.gateway
	if s.site == "" {
		s.site = "Discord"
	}
	s.out.svc = s
	s.stopping, s.stop = context.WithCancel(context.Background())
	s.bg.init()
	features := make([]Feature, 0, len(cfg.Features))
	for _, f := range cfg.Features {
		features = append(features, f(s))
	}
	if err := s.plug(features, cfg.Order); err != nil {
		s.stop()
		return nil, err
	}
	s.out.resume()
	s.start()
	return s, nil
}

func cryptoRand() uint64 {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return binary.LittleEndian.Uint64(b[:])
}

// Now returns the service's current time.
func (s *Service) Now() time.Time { return s.now().UTC() }

// Idle waits until the background work started so far (notifications, engine moves,
// and whatever they start in turn) is done; a notification that keeps failing is
// waited for until it is delivered or refused for good.
func (s *Service) Idle() { s.bg.wait() }

// CloseTimeout bounds Close: a container stop gives about 10 seconds.
const CloseTimeout = 5 * time.Second

// Close is Shutdown within CloseTimeout.
func (s *Service) Close() {
	ctx, cancel := context.WithTimeout(context.Background(), CloseTimeout)
	defer cancel()
	if err := s.Shutdown(ctx); err != nil {
		s.log.Warn("bot: stopped before the background work ended", "error", err)
	}
}

// Shutdown stops engine searches under way (their games go on after a restart) and
// the delivery of notifications: no new delivery starts, and whatever is not
// delivered stays in the outbox for the next start. It waits for the work under way
// (a delivery attempt, an engine giving up) until ctx ends, and then returns with
// ctx's error without waiting longer: a notifier that does not answer cannot hold
// the shutdown. The service must not be used afterwards.
func (s *Service) Shutdown(ctx context.Context) error {
	s.closeOnce.Do(func() {
		s.stop()
		go func() {
			s.bg.wait()
			close(s.closed)
		}()
	})
	select {
	case <-s.closed:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("bot: shutting down with work still under way (what is not delivered stays in the outbox): %w", ctx.Err())
	}
}

// Handle runs one request and returns the reply. It never panics: a failure inside
// an operation is logged and answered with a polite error, and the service goes on.
func (s *Service) Handle(ctx context.Context, req Request) (reply Reply) {
	start := time.Now()
	s.inflight.Add(1)
	defer s.inflight.Add(-1)
	defer func() {
		if r := recover(); r != nil {
			s.log.Error("bot: command panicked", "command", req.Command, "user", req.User.ID, "request", req.ID,
				"panic", fmt.Sprint(r), "stack", string(debug.Stack()))
			reply = internalError(i18n.Of(req.Locale))
		}
		s.log.Debug("bot: command", "command", req.Command, "user", req.User.ID, "refused", reply.Refused,
			"took", time.Since(start))
	}()
	if strings.TrimSpace(req.User.ID) == "" {
		return Refusal(catalogue.For(i18n.Of(req.Locale)).T("refusal.who", nil))
	}
	if req.User.Name == "" {
		req.User.Name = req.User.ID
	}
	if req.Args == nil {
		req.Args = Args{}
	}
	if l, ok := i18n.Parse(req.Locale); ok && req.Local() {
		s.localLang.Store(l)
	}
	c, ok := s.CommandOf(req.Command)
	if !ok {
		return Refusal(s.AskerLocalizer(ctx, catalogue, req).T("refusal.nocommand", i18n.Data{"Name": strconv.Quote(req.Command)}))
	}
	if !c.Spec.OfferedIn(req.Where()) {
		return Refusal(s.AskerLocalizer(ctx, catalogue, req).T("refusal.serveronly", i18n.Data{"Command": c.Spec.Name}))
	}
	return c.Handle(ctx, req)
}

// internalError is the reply to a failure the user cannot fix, in language l.
func internalError(l i18n.Lang) Reply {
	return Refusal(catalogue.For(l).T("refusal.internal", nil))
}

// Fail turns an operation's error into a reply: the refusal's sentence, or a polite
// error (logged) for an internal failure.
func (s *Service) Fail(req Request, err error) Reply {
	lang := s.AskerLocalizer(context.Background(), catalogue, req).Lang()
	if msg, ok := SentenceIn(lang, err); ok {
		r := Refusal(msg)
		r.Lang = written(lang)
		var ce *choiceError
		if errors.As(err, &ce) {
			r.Choice = ce.choice
			if ce.choiceIn != nil {
				r.Choice = ce.choiceIn(lang)
			}
			if r.Choice.Command == "" { // the menu answers the command that asked
				c := *r.Choice
				c.Command = req.Command
				r.Choice = &c
			}
		}
		return r
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return Refusal(catalogue.For(lang).T("refusal.toolong", nil))
	}
	s.log.Error("bot: command failed", "command", req.Command, "user", req.User.ID, "request", req.ID, "error", err)
	return internalError(lang)
}

// choiceError is a refusal that offers a select menu, such as the game to act on.
type choiceError struct {
	userError
	choice *Choice
	// choiceIn, when set, is the menu in a reader's language (choice is its English).
	choiceIn func(l i18n.Lang) *Choice
}

func (e *choiceError) Unwrap() error { return &e.userError }

// effects collect what an operation does once its transaction has committed.
type effects struct {
	// lang is the language of the reply's reader: the asker's (English when no
	// request asked).
	lang i18n.Lang
	// asker is the id of the user whose request makes the change ("" for none):
	// a notice to them is in lang when their record has no language yet.
	asker string
	reply Reply
	image *Picture // the reply's board picture
	notes []note
	// queued are notes written to the outbox by enqueue (persisted says it ran).
	queued    []*pending
	persisted bool
	engine    []string                    // games whose engine player must act
	after     []func(ctx context.Context) // after-commit hooks of games that ended
	wake      bool                        // the scheduler should look at its index again
	// note is a sentence the next move's announcement adds (set by a feature that
	// plays a move for a player, such as a conditional reply), in a reader's
	// language; nil for none.
	note Phrase
	// forceChannel posts notifications in the game's place even for players who
	// chose direct messages only (an engine's move has no other public trace).
	forceChannel bool
}

// Picture is a picture still to draw: a board, or a table when table is set.
type Picture struct {
	pos  rules.Position
	opts BoardOptions
	name string
	alt  string
	text bool // also set the reply's text board
	// table is the table to draw instead of a board, and tableText its text,
	// which becomes the reply's text board.
	table     *Table
	tableText string
	// game is the game whose board it is (nil for a table); anyLang says that
	// alt is the English of a board drawn for no reader in particular (Tx.Board),
	// which the reply or notice it goes with describes again in its reader's
	// language (describedIn).
	game    *storage.Game
	anyLang bool
}

// describedIn returns p described for a reader of language l when p was drawn
// for no reader in particular (Tx.Board), else p itself.
func (p *Picture) describedIn(s *Service, l i18n.Lang) *Picture {
	if p == nil || !p.anyLang || p.game == nil || l == i18n.English {
		return p
	}
	c := *p
	c.alt, c.anyLang = s.boardAlt(l, p.game, p.pos), false
	return &c
}

// note is a notification still to send, with its picture.
type note struct {
	n     Notification
	image *Picture
}

// mutate runs op in one write transaction that also records req.ID, so that a
// delivery seen twice is applied once; then it carries out op's effects.
func (s *Service) mutate(ctx context.Context, req Request, op func(tx *storage.Tx, e *effects) error) Reply {
	var e effects
	raw, replayed, err := s.store.Do(ctx, req.ID, func(tx *storage.Tx) ([]byte, error) {
		e = effects{}
		unknown, err := rememberLocale(tx, req)
		if err != nil {
			return nil, err
		}
		if e.lang, err = AskerLang(tx, req); err != nil {
			return nil, err
		}
		e.asker = req.User.ID
		if err := op(tx, &e); err != nil {
			return nil, err
		}
		if unknown {
			if err := rememberNewPlayer(tx, req); err != nil {
				return nil, err
			}
		}
		if err := s.out.enqueue(tx, &e); err != nil {
			return nil, err
		}
		return []byte(summary(e.reply)), nil
	})
	if err != nil {
		return s.Fail(req, err)
	}
	if replayed {
		return Reply{Private: true, Text: s.AskerLocalizer(ctx, catalogue, req).T("replayed", i18n.Data{"Summary": string(raw)})}
	}
	return s.finish(ctx, &e)
}

// view runs op in a read-only transaction and carries out its effects.
func (s *Service) view(ctx context.Context, req Request, op func(tx *storage.Tx, e *effects) error) Reply {
	var e effects
	if err := s.store.View(ctx, func(tx *storage.Tx) error {
		e = effects{}
		var err error
		if e.lang, err = AskerLang(tx, req); err != nil {
			return err
		}
		return op(tx, &e)
	}); err != nil {
		return s.Fail(req, err)
	}
	return s.finish(ctx, &e)
}

// summary is the text stored with a request id and shown if it is delivered again.
func summary(r Reply) string {
	t := strings.TrimSpace(r.Title + "\n" + r.Text)
	if len(t) > 2000 {
		t = t[:2000]
	}
	return t
}

// finish draws the reply's picture, hands the notifications (written to the outbox
// by the committed transaction) to their workers and starts engine moves.
func (s *Service) finish(ctx context.Context, e *effects) Reply {
	r := e.reply
	if r.Lang == "" {
		r.Lang = written(e.lang)
	}
	if e.image != nil {
		s.Attach(&r, e.image)
	}
	if len(e.notes) > 0 && !e.persisted {
		s.out.persistLate(ctx, e)
	}
	s.out.push(e.queued, true)
	for _, id := range e.engine {
		s.startEngine(id)
	}
	for _, hook := range e.after {
		hook(ctx)
	}
	if e.wake {
		s.Wake()
	}
	return r
}

// Attach draws job and adds it to r.
func (s *Service) Attach(r *Reply, job *Picture) {
	if job.table != nil {
		s.attachTable(r, job)
		return
	}
	if job.text {
		r.Board = s.render.Text(job.pos, job.opts)
	}
	var b bytes.Buffer
	b.Grow(64 << 10)
	if err := s.render.PNG(&b, job.pos, job.opts); err != nil {
		s.log.Error("bot: drawing a board failed", "variant", job.pos.Variant().Key(), "position", job.pos.String(), "error", err)
		if r.Board == "" {
			r.Board = s.render.Text(job.pos, job.opts)
		}
		return
	}
	r.Files = append(r.Files, File{Name: job.name, ContentType: "image/png", Data: b.Bytes(), Alt: job.alt})
}

// attachTable draws job's table and adds it to r, with its text as the text
// board (the console shows it, Discord only when there is no picture).
func (s *Service) attachTable(r *Reply, job *Picture) {
	r.Board = job.tableText
	var b bytes.Buffer
	if err := s.render.TablePNG(&b, *job.table); err != nil {
		s.log.Error("bot: drawing a table failed", "table", job.table.Title, "error", err)
		return
	}
	r.Files = append(r.Files, File{Name: job.name, ContentType: "image/png", Data: b.Bytes(), Alt: job.alt})
}

// tracker counts background work so that Idle can wait for it; unlike a
// sync.WaitGroup, adding while another goroutine waits is allowed.
type tracker struct {
	mu   sync.Mutex
	cond *sync.Cond
	n    int
	lane int // of n, the jobs of the engine lanes (Service.Settled)
}

func (t *tracker) init() { t.cond = sync.NewCond(&t.mu) }

func (t *tracker) add() {
	t.mu.Lock()
	t.n++
	t.mu.Unlock()
}

func (t *tracker) done() {
	t.mu.Lock()
	t.n--
	if t.n == t.lane {
		t.cond.Broadcast()
	}
	t.mu.Unlock()
}

func (t *tracker) wait() {
	t.mu.Lock()
	for t.n > 0 {
		t.cond.Wait()
	}
	t.mu.Unlock()
}

// DefaultLeaveDays is the yearly leave allowance when Limits.LeaveDays is not set.
const DefaultLeaveDays = 30
