package bot

import (
	"context"
	"fmt"
	"log/slog"
	"runtime/debug"
	"time"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/record"
	"github.com/missivechess/missive/storage"
)

// The service's API for features: what a feature package reaches the kernel
// through. A feature's commands run their changes with Mutate (a write, applied
// once per request id) or View (a read), or Act on one game; what follows from a
// change (the reply, notices, engine moves) is set on the Tx they are handed.

// Mutate runs op in one write transaction that also records req's id, so that a
// delivery seen twice is applied once, and then carries out what op set on the Tx.
// A refusal op returns becomes the reply's sentence; any other error is logged and
// answered politely.
func (s *Service) Mutate(ctx context.Context, req Request, op func(tx *Tx) error) Reply {
	return s.mutate(ctx, req, func(tx *storage.Tx, e *effects) error { return op(s.tx(tx, e)) })
}

// View runs op in a read-only transaction and carries out what op set on the Tx
// (its reply and picture).
func (s *Service) View(ctx context.Context, req Request, op func(tx *Tx) error) Reply {
	return s.view(ctx, req, func(tx *storage.Tx, e *effects) error { return op(s.tx(tx, e)) })
}

// Update runs op in a write transaction that no request asked for (the
// scheduler's work, a background job), then carries out what op set on the Tx.
func (s *Service) Update(ctx context.Context, op func(tx *Tx) error) error {
	var e effects
	if err := s.store.Update(ctx, func(tx *storage.Tx) error {
		e = effects{}
		if err := op(s.tx(tx, &e)); err != nil {
			return err
		}
		return s.out.enqueue(tx, &e)
	}); err != nil {
		return err
	}
	s.finish(ctx, &e)
	return nil
}

// Read runs fn in a read-only transaction of the data file, for what no reply
// carries (a feature's background work, a completer).
func (s *Service) Read(ctx context.Context, fn func(tx *storage.Tx) error) error {
	return s.store.View(ctx, fn)
}

// FindMode says which game a command without a game option may mean.
type FindMode = findMode

// The modes of FindGame.
const (
	// AnyGame: a game to look at (finished ones too when named); anyone may look.
	AnyGame = anyGame
	// OwnGame: one of the user's games in progress.
	OwnGame = ownGame
	// TurnGame: like OwnGame, but when the user plays several, the only one waiting
	// for the user's move is meant.
	TurnGame = turnGame
)

// Act runs op on the request's game (in progress, the user one of its players, as
// mode picks it) in a write transaction, with the user's side.
func (s *Service) Act(ctx context.Context, req Request, mode FindMode, op func(tx *Tx, g *storage.Game, side rules.Side) error) Reply {
	return s.ActFitting(ctx, req, mode, nil, op)
}

// ActFitting is Act for a command that fits only some games (a move, a placement):
// of the user's games it may mean, those that fits accepts are the candidates
// (FindGameFitting).
func (s *Service) ActFitting(ctx context.Context, req Request, mode FindMode, fits Fits, op func(tx *Tx, g *storage.Game, side rules.Side) error) Reply {
	return s.gameAction(ctx, req, mode, fits, func(tx *storage.Tx, e *effects, g *storage.Game, side rules.Side) error {
		return op(s.tx(tx, e), g, side)
	})
}

// Registry returns the variants the service plays.
func (s *Service) Registry() *rules.Registry { return s.reg }

// Engine returns the engine that plays engine players and gives hints; nil when
// there is none.
func (s *Service) Engine() Engine { return s.engine }

// Renderer returns what draws the boards.
func (s *Service) Renderer() Renderer { return s.render }

// Logger returns the service's logger.
func (s *Service) Logger() *slog.Logger { return s.log }

// Limits returns the limits on what one player may have open.
func (s *Service) Limits() Limits { return s.limits }

// Stopping returns a context that ends when the service closes: background work
// a feature starts gives up with it.
func (s *Service) Stopping() context.Context { return s.stopping }

// Go runs fn in the background as the service's own work: Idle waits for it, and
// a panic in it is logged.
func (s *Service) Go(fn func()) {
	s.bg.add()
	go func() {
		defer s.bg.done()
		defer func() {
			if r := recover(); r != nil {
				s.log.Error("bot: background work panicked", "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
			}
		}()
		fn()
	}()
}

// Busy reports how many requests and notice pictures are being handled now, so
// that long background work (a review) can give way to them.
func (s *Service) Busy() int64 { return s.inflight.Load() + s.drawing.Load() }

// PublicHistory returns g's history as everyone may see it (record.History.Public):
// every ordinary move and the choices of revealed rounds, never a pending choice.
// It replays g's record at most once (storage reuses the replay that loaded it).
func (s *Service) PublicHistory(g *storage.Game) (*record.History, error) {
	h, err := g.History(s.reg)
	if err != nil {
		return nil, err
	}
	return h.Public(), nil
}

// HintsAllowed reports whether the engine may hint in g: never in rated and
// tournament games unless the configuration allows it.
func (s *Service) HintsAllowed(g *storage.Game) bool {
	return !(g.Rated || g.Tournament != "") || s.hintsAll
}

// RefuseWithChoice returns a refusal of kind with the sentence msg that offers a
// select menu (the game to act on, the promotion piece).
func RefuseWithChoice(kind error, msg string, choice *Choice) error {
	return &choiceError{userError: userError{kind: kind, msg: msg}, choice: choice}
}

// BoardPicture is a picture of pos drawn with opts, named name (a file name) and
// described by alt for screen readers; withText also sets the reply's text board.
func BoardPicture(pos rules.Position, opts BoardOptions, name, alt string, withText bool) *Picture {
	return &Picture{pos: pos, opts: opts, name: name, alt: alt, text: withText}
}

// TablePicture is a picture of t named name and described by alt; text becomes
// the reply's text board (the console shows it, Discord when there is no picture).
func TablePicture(t Table, text, name, alt string) *Picture {
	return &Picture{table: &t, tableText: text, name: name, alt: alt}
}

// Rand returns a random number from the service's source (Config.Rand): the
// colours of a random seat, the start of a Go-Chess board.
func (s *Service) Rand() uint64 { return s.rand() }

// EngineTimeout returns how long one engine search may take (Config.EngineTimeout,
// 60s by default): an engine asked to judge a draw offer is given as long.
func (s *Service) EngineTimeout() time.Duration { return s.engineTO }

// EngineTurnOf returns what the engine player of side in g is asked to act on: its
// view of the position and, outside a simultaneous round, the game's moves.
func EngineTurnOf(g *storage.Game, side rules.Side) (EngineTurn, error) {
	return engineTurnOf(g, side)
}

// PictureText returns p's description for screen readers and its board drawn as
// text (a reply asked as text instead of a picture).
func (s *Service) PictureText(p *Picture) (alt, board string) {
	return p.alt, s.render.Text(p.pos, p.opts)
}

// PGNResult is the PGN result of o: "*" for an aborted game, which has none.
func PGNResult(o rules.Outcome) string { return result(o) }
