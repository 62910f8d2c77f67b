package bot

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/storage"
)

// Store is what the service needs from the data file; *storage.Store has it.
type Store interface {
	View(ctx context.Context, fn func(*storage.Tx) error) error
	Update(ctx context.Context, fn func(*storage.Tx) error) error
	Do(ctx context.Context, requestID string, fn func(*storage.Tx) ([]byte, error)) ([]byte, bool, error)
}

// BoardOptions say how to draw a board for one viewer.
type BoardOptions struct {
	Viewer   rules.Side  // the side at the bottom
	Theme    string      // a name from Renderer.Themes; empty for the default
	LastMove *rules.Move // highlighted when not nil
	Hint     *rules.Move // drawn as an arrow when not nil
	Lang     i18n.Lang   // the language of the text board's words (Gess's rings line); "" English
}

// Frame is one picture of an animation: a position and the move that led to it.
type Frame struct {
	Position rules.Position
	LastMove *rules.Move
}

// Renderer draws boards; package render provides it (see NewRenderer).
type Renderer interface {
	// PNG writes a picture of pos.
	PNG(w io.Writer, pos rules.Position, opts BoardOptions) error
	// GIF writes an animation with one frame per position, pausing on the last.
	GIF(w io.Writer, frames []Frame, opts BoardOptions) error
	// Text returns a monospace drawing of pos.
	Text(pos rules.Position, opts BoardOptions) string
	// Themes lists the board themes a player may choose.
	Themes() []string
	// TablePNG writes a picture of t.
	TablePNG(w io.Writer, t Table) error
}

// Hint is an engine's suggestion for a player, with its evaluation from that
// player's side.
type Hint struct {
	Move rules.Move
	// Scored is false where the engine gives no evaluation (a Go-Chess placement).
	Scored bool
	// Pawns is the evaluation in pawns (in Gess, the engine's own units).
	Pawns float64
	// MateIn, when not 0, is the moves to a forced mate: one the player gives
	// (above 0) or gets however they play (below 0); it replaces Pawns.
	MateIn int
}

// EngineTurn is what an engine player is asked to act on.
type EngineTurn struct {
	Player string     // the engine player's id (storage.EnginePrefix...)
	Side   rules.Side // the side it plays
	// Position is the position to act in; during a simultaneous round (Go-Chess
	// placement) it is Side's own view and the answer is Side's choice.
	Position rules.Position
	// Start and Moves are the game since its ordinary moves began (after any
	// placement), for engines that replay the game themselves.
	Start rules.Position
	Moves []rules.Move
}

// Engine plays moves for engine players and gives hints (NewEngine provides the
// built-in and configured external engines). Its methods must honour ctx's deadline.
type Engine interface {
	// Opponent resolves a challenge's engine option (such as "builtin") and level
	// (0 for the engine's default) into the engine player's seat, whose id starts
	// with storage.EnginePrefix; the error says which engines exist.
	Opponent(name string, level int, variant string) (storage.Seat, error)
	// Move chooses the engine player's move (or placement choice); an error
	// wrapping ErrEngineResigned resigns the game instead, one wrapping
	// ErrEngineForfeits loses it at once (as a failure in a match does).
	Move(ctx context.Context, turn EngineTurn) (rules.Move, error)
	// Hint returns the best move (or placement choice) for side in pos, which is
	// side's own view, with its evaluation.
	Hint(ctx context.Context, pos rules.Position, side rules.Side) (Hint, error)
	// AcceptsDraw says whether the engine player of turn agrees to a draw offered in
	// turn.Position; a refusal (see refuse) says why it does not judge the offer.
	AcceptsDraw(ctx context.Context, turn EngineTurn) (bool, error)
	// OffersDraw says whether the engine player of turn offers a draw with the move
	// it has just played, which is the last of turn.Moves and led to turn.Position;
	// an engine that cannot say never offers one.
	OffersDraw(ctx context.Context, turn EngineTurn) (bool, error)
}

// NoticeKind says what a notification is about; adapters may style each kind.
type NoticeKind string

// The kinds of notification.
const (
	NoticeTurn      NoticeKind = "turn"      // it is your move (or placement choice)
	NoticeChallenge NoticeKind = "challenge" // someone challenged you, or answered your challenge
	NoticeGameOver  NoticeKind = "game-over" // the game ended
	NoticeReminder  NoticeKind = "reminder"  // your deadline is near
	NoticeInfo      NoticeKind = "info"      // an offer was declined or lapsed, and the like
)

// Notification is a message for one player outside the reply to their own request.
type Notification struct {
	// ID is the notice's stable id in the outbox: every attempt to deliver it carries
	// the same ID, so an adapter sends it as the message nonce (Discord's
	// enforce_nonce) and a retry after a lost answer shows the notice once. A
	// fallback delivery (see ErrPermanent) has its own ID.
	ID string
	// Queued is when the notification entered the outbox (zero outside it): an adapter
	// whose duplicate check lasts only minutes (Discord's nonce) looks for an earlier
	// delivery before a late resend.
	Queued time.Time
	// Key identifies the notification by what it says (the game, the ply, the side).
	Key  string
	Kind NoticeKind
	To   User
	// Channel asks for a mention in the game's thread or channel (Game.Place), Direct
	// for a direct message; the player's settings decide, and at least one is set.
	Channel bool
	Direct  bool
	// Game names the game concerned and the place where a mention goes; its ID is
	// empty when the notification is about a challenge rather than a game.
	Game *GameRef
	// Event, when set, names the tournament or match whose news this is: an adapter
	// that posts it where the event has no thread yet may open one for the event and
	// report it with Service.SetEventThread, so that later news follows it there.
	Event *EventRef
	// Reply is the content.
	Reply Reply
}

// EventKind says what an EventRef names (a tournament, an engine match: each
// feature with events names its own kind); the texts are stable.
type EventKind string

// EventRef names a tournament or an engine match, with a name for its thread.
type EventRef struct {
	Kind EventKind
	ID   string
	Name string
}

// Notifier delivers notifications; each adapter implements it.
//
// The service keeps every notification in its outbox until Notify returns nil, and
// calls Notify again (with the same Notification.ID) after a failure, waiting longer
// each time; so Notify must not remember a notification as delivered before it is,
// and a failure it knows to be final must say so: an error that satisfies
// errors.Is(err, ErrPermanent) stops the retries and runs the fallback (a direct
// message instead of a post in the game's place, or the reverse); a *RetryAfter
// error sets the wait before the next attempt (Discord's 429 retry_after). Any other
// error is retried. An error implementing FailureReason names its kind for the
// metrics.
type Notifier interface {
	Notify(ctx context.Context, n Notification) error
}

// Queues is implemented by a Notifier that decides how notifications are queued:
// Queue names the queue of n, delivered in order, while different queues are
// delivered in parallel. Without it, each channel or thread, and each player's direct
// messages, has its own queue.
type Queues interface {
	Queue(n Notification) string
}

// ErrPermanent marks a delivery failure that retrying cannot fix: a deleted thread, a
// channel the bot may not post in, direct messages closed.
var ErrPermanent = errors.New("bot: the notification cannot be delivered there")

// ErrRateLimited is matched by a *RetryAfter error.
var ErrRateLimited = errors.New("bot: rate limited")

// RetryAfter is a delivery failure that asks to wait before trying again.
type RetryAfter struct {
	Wait time.Duration
	Err  error // the cause; may be nil
}

func (e *RetryAfter) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("bot: rate limited, retry after %s: %v", e.Wait, e.Err)
	}
	return fmt.Sprintf("bot: rate limited, retry after %s", e.Wait)
}

// Is reports ErrRateLimited.
func (e *RetryAfter) Is(target error) bool { return target == ErrRateLimited }

// Unwrap returns the cause.
func (e *RetryAfter) Unwrap() error { return e.Err }

// FailureReason is implemented by delivery errors that name their kind ("thread-
// deleted", "missing-permission", ...), a short stable text used as a metric label.
type FailureReason interface {
	FailureReason() string
}

// NotifierFunc adapts a function to Notifier.
type NotifierFunc func(ctx context.Context, n Notification) error

// Notify calls f.
func (f NotifierFunc) Notify(ctx context.Context, n Notification) error { return f(ctx, n) }
