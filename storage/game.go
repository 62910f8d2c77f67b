package storage

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/missivechess/missive/rules"
	rec "github.com/missivechess/missive/rules/record"
)

// Stamp is the bookkeeping every record carries. Version is 0 for a record not yet
// stored; each successful write increments it, and a write whose Version differs from
// the stored one fails with ErrConflict.
type Stamp struct {
	Version   uint64    `json:"version"`
	CreatedAt time.Time `json:"created"`
	UpdatedAt time.Time `json:"updated"`
}

func (s *Stamp) stamp() *Stamp { return s }

// Seat is one player of a game: a Discord user, or an engine with an id such as
// "engine:builtin:5".
type Seat struct {
	ID   string `json:"id"`
	Name string `json:"name,omitempty"` // display name when the game was created
}

// EnginePrefix starts the id of every engine player.
const EnginePrefix = "engine:"

// IsEngine reports whether the seat is taken by an engine.
func (s Seat) IsEngine() bool { return strings.HasPrefix(s.ID, EnginePrefix) }

// FormerPrefix starts the id of a seat whose player deleted what Missive kept
// about them (Tx.ErasePlayer): the id says nothing of the person.
const FormerPrefix = "former:"

// IsFormer reports whether the seat's player deleted their data: nobody answers
// for it any more.
func (s Seat) IsFormer() bool { return strings.HasPrefix(s.ID, FormerPrefix) }

// MoveEntry is one stored entry of a game's record (record.Entry): its canonical
// text (Position.UCI), for a choice of a simultaneous round (Go-Chess placement) the
// side that chose it, and when it was played.
type MoveEntry = rec.Entry

// Clock is a game's correspondence clock and the scheduler's bookkeeping.
type Clock struct {
	DaysPerMove int // days each side has per move; 0 means no clock (unless Bank is set)
	// Bank, when set, makes this a time-bank clock instead: each side has Left[side]
	// and the deadline is Since plus the bank of the side due to act.
	Bank *TimeBank
	// Left is each side's bank (time-bank clocks): for a side due to act, what it had
	// when the current period began; for the other side, what it has.
	Left [2]time.Duration
	// Since is when the current period began (zero in records written before it was
	// kept: then it is Deadline less DaysPerMove).
	Since    time.Time
	Deadline time.Time // when the side(s) due to act lose on time; zero when no clock runs
	// Paused, when set, is when the clock of the side due to act was frozen (that
	// player is on leave): the game is not timed out and has no wake-up until the
	// leave ends and Shift moves the clock on by the time it was frozen.
	Paused time.Time
	// NoLeave says that leave does not freeze this game's clock (its tournament
	// refuses leave).
	NoLeave bool
	// Given counts the days of extra time each side has given its opponent (/moretime).
	Given [2]int
	// Wake is an optional earlier time at which the scheduler wants to look at the
	// game again, normally the next reminder; zero means the Deadline.
	Wake time.Time
	// Sent lists the reminders already sent for the current Deadline.
	Sent []Reminder
	// Outage is the id of the last outage given back to this game (outage.go), so
	// that a game is shifted once per outage however the work is cut or resumed.
	Outage string
}

// Reminder records that a player was reminded Hours before the deadline.
type Reminder struct {
	Player string `json:"player"`
	Hours  int    `json:"hours"`
}

// SetDeadline starts a new period: it sets the deadline and forgets Wake and the
// reminders sent for the previous one.
func (c *Clock) SetDeadline(t time.Time) {
	c.Deadline, c.Wake, c.Sent = utc(t), time.Time{}, nil
}

// HasSent reports whether player was already reminded hours before this deadline.
func (c *Clock) HasSent(player string, hours int) bool {
	return slices.Contains(c.Sent, Reminder{Player: player, Hours: hours})
}

// MarkSent records that player was reminded hours before this deadline.
func (c *Clock) MarkSent(player string, hours int) {
	if !c.HasSent(player, hours) {
		c.Sent = append(c.Sent, Reminder{Player: player, Hours: hours})
	}
}

// Shift moves the running period later by d: its start, deadline and wake-up (the
// reminders follow the deadline). Leave and downtime use it so that the time
// passed does not count.
func (c *Clock) Shift(d time.Duration) {
	for _, t := range []*time.Time{&c.Since, &c.Deadline, &c.Wake} {
		if !t.IsZero() {
			*t = t.Add(d)
		}
	}
}

// TimeBank is a time-bank clock's control, in whole hours: the bank each side
// starts with, what a side gains after each of its moves, and the most an increment
// may bring a bank to.
type TimeBank struct {
	BaseHours      int `json:"base_h"`
	IncrementHours int `json:"inc_h"`
	CapHours       int `json:"cap_h"`
}

// Base returns the starting bank.
func (b TimeBank) Base() time.Duration { return time.Duration(b.BaseHours) * time.Hour }

// Increment returns what a side gains after each move.
func (b TimeBank) Increment() time.Duration { return time.Duration(b.IncrementHours) * time.Hour }

// Cap returns the most an increment may bring a bank to.
func (b TimeBank) Cap() time.Duration { return time.Duration(b.CapHours) * time.Hour }

// validate refuses a bank that starts empty, takes time away, or is capped below
// its start.
func (b *TimeBank) validate(what string) error {
	if b == nil {
		return nil
	}
	if b.BaseHours < 1 || b.IncrementHours < 0 || b.CapHours < b.BaseHours {
		return fmt.Errorf("storage: %s: time bank %d+%d/%d hours is not a positive base, an increment of zero or more and a cap at least the base: %w",
			what, b.BaseHours, b.IncrementHours, b.CapHours, ErrInvalid)
	}
	return nil
}

// Due returns when the scheduler must next look at the game: the earlier of Wake and
// Deadline, or zero when no clock runs or it is paused.
func (c *Clock) Due() time.Time {
	if c.Deadline.IsZero() || !c.Paused.IsZero() {
		return time.Time{}
	}
	if !c.Wake.IsZero() && c.Wake.Before(c.Deadline) {
		return c.Wake
	}
	return c.Deadline
}

// Conditional is one line of conditional moves that a player prepared while
// waiting: Moves alternate the opponent's expected entry and Side's reply, in
// canonical text (Position.UCI), the first being entry Ply of the record (the
// opponent's next). The bot plays the reply when the opponent's entry matches.
type Conditional struct {
	Side  rules.Side
	Ply   int
	Moves []string
}

// Offer is a pending draw offer or takeback request.
type Offer struct {
	By  rules.Side // who offered
	Ply int        // len(Moves) when it was made, so the game layer can let it lapse
	At  time.Time
}

// Game is a stored game: its record (record.Record: the start position, seed or text,
// plus its moves), the players, where it is played, its clock, offers and outcome.
// Position is not stored: loading replays the record (record.Record.Position).
type Game struct {
	ID      string // assigned on first write when empty: "1", "2", ...
	Variant string // rules.Variant key
	Players [2]Seat
	Guild   string // Discord server id; empty for local (console) games
	Channel string
	Thread  string // the game's own thread, unique among games
	// Record holds Seed, Start and Moves: where the game starts and every entry since.
	rec.Record
	Outcome rules.Outcome
	EndedAt time.Time // set when Outcome is first stored as over
	Rated   bool
	Clock   Clock
	// DrawOffer and Takeback are the pending offers, nil when none.
	DrawOffer *Offer
	Takeback  *Offer
	// Tournament and Round place the game in a tournament; Match and Round make it
	// game Round of an engine match (empty and 0 otherwise).
	Tournament string
	Match      string
	Round      int
	// Conditional holds the players' prepared lines (conditional moves), private to
	// the player who entered each; no listing, view or export shows them.
	Conditional []Conditional
	// ToMove lists the sides due to act, derived from the position on every write
	// (both sides during a simultaneous round, none once the game is over). It lets
	// listings say whose turn it is without replaying.
	ToMove []rules.Side
	Stamp

	// Position is the position after Moves. It is set by Tx.Game (which replays) and
	// kept up to date by Play and Undo; records read without replay leave it nil.
	Position rules.Position
	// replayed describes what Position reflects, to detect edits made behind its back.
	replayed *replayKey
	// trace is the replay made when loading replayed the record (nil on a cache hit)
	// and traced what it was computed from; History reuses it while that matches.
	trace  *rec.History
	traced *replayKey
}

// Player returns the seat of side.
func (g *Game) Player(side rules.Side) Seat { return g.Players[side&1] }

// SideOf returns the side that player id plays, and false when id is not a player.
// When one id holds both seats (a local game against oneself) it returns White.
func (g *Game) SideOf(id string) (rules.Side, bool) { return sideOf(g.Players, id) }

// Active reports whether the game is still being played.
func (g *Game) Active() bool { return !g.Outcome.IsOver() }

// Awaits reports whether side is due to act (per the stored ToMove).
func (g *Game) Awaits(side rules.Side) bool { return slices.Contains(g.ToMove, side) }

// Play plays text as side's move through the record (record.Record.Play: parse,
// validate, play, append in canonical form) and updates Position, ToMove, and Outcome
// when the rules end the game. A zero at is replaced by the time of the write. On
// error nothing changes.
func (g *Game) Play(side rules.Side, text string, at time.Time) (rules.Move, error) {
	if g.Position == nil {
		return rules.NullMove, fmt.Errorf("storage: game %s was read without replaying its moves; load it with Tx.Game", g.ID)
	}
	if g.Outcome.IsOver() {
		return rules.NullMove, fmt.Errorf("storage: game %s is over (%s): %w", g.ID, g.Outcome, rules.ErrGameOver)
	}
	m, next, err := g.Record.Play(g.Position, side, text, utc(at))
	if err != nil {
		return rules.NullMove, err
	}
	g.Position = next
	g.replayed = g.keyNow()
	g.ToMove = rec.ToMove(next)
	if o := next.Outcome(); o.IsOver() {
		g.Outcome = o
	}
	return m, nil
}

// Undo removes the last n entries of the record (a takeback, record.Record.Undo). It
// reopens a game the rules had ended; an outcome set by the game layer (resignation,
// agreement, timeout) is left for the caller to change.
func (g *Game) Undo(n int, reg *rules.Registry) error {
	if n < 0 || n > len(g.Moves) {
		return fmt.Errorf("storage: cannot take back %d moves of game %s, which has %d: %w", n, g.ID, len(g.Moves), ErrInvalid)
	}
	v, err := variantOf(reg, g)
	if err != nil {
		return err
	}
	trial := g.Record
	pos, err := trial.Undo(v, n)
	if err != nil {
		return replayError(g.ID, err)
	}
	if g.Outcome.IsOver() && g.Position != nil && g.Position.Outcome() == g.Outcome {
		g.Outcome = pos.Outcome()
	}
	g.Record = trial
	g.Position, g.replayed, g.ToMove = pos, g.keyNow(), rec.ToMove(pos)
	return nil
}

// variantOf looks up g's variant.
func variantOf(reg *rules.Registry, g *Game) (rules.Variant, error) {
	if reg == nil {
		return nil, fmt.Errorf("storage: game %s cannot be replayed: the store has no variant registry", g.ID)
	}
	v, err := reg.Lookup(g.Variant)
	if err != nil {
		return nil, &ReplayError{Game: g.ID, Index: -1, Err: err}
	}
	return v, nil
}

// replay rebuilds the position of g from its record and keeps the trace, so that
// History needs no second replay.
func replay(reg *rules.Registry, g *Game) (rules.Position, error) {
	if err := g.retrace(reg); err != nil {
		return nil, err
	}
	return g.trace.Position(), nil
}

// retrace replays g's record (record.Record.Trace) into g.trace.
func (g *Game) retrace(reg *rules.Registry) error {
	v, err := variantOf(reg, g)
	if err != nil {
		return err
	}
	h, err := g.Record.Trace(v)
	if err != nil {
		return replayError(g.ID, err)
	}
	g.trace, g.traced = h, g.keyNow()
	return nil
}

// History returns the game's history with its display notation (record.History).
// When loading the game replayed its record, that replay is reused.
func (g *Game) History(reg *rules.Registry) (*rec.History, error) {
	if g.trace == nil || !g.traced.matches(g) {
		if err := g.retrace(reg); err != nil {
			return nil, err
		}
	}
	return g.trace.Notated(), nil
}

// replayError names game id in the record's replay error.
func replayError(id string, err error) error {
	var re *rec.ReplayError
	if errors.As(err, &re) {
		return &ReplayError{Game: id, Index: re.Index, Move: re.Move, Err: re.Err}
	}
	return err
}

// replayKey is what a Position was computed from; equal keys give equal positions.
type replayKey struct {
	variant, start string
	seed           uint64
	moves          []moveKey
}

type moveKey struct {
	text string
	side rules.Side
	sim  bool
}

// keyNow returns the replay key of g's current start and moves.
func (g *Game) keyNow() *replayKey {
	k := &replayKey{variant: g.Variant, start: g.Start, seed: g.Seed, moves: make([]moveKey, len(g.Moves))}
	for i, e := range g.Moves {
		k.moves[i] = moveKey{e.Move, e.Side, e.Simultaneous}
	}
	return k
}

// matches reports whether k describes g's current start and moves.
func (k *replayKey) matches(g *Game) bool {
	if k == nil || k.variant != g.Variant || k.start != g.Start || k.seed != g.Seed || len(k.moves) != len(g.Moves) {
		return false
	}
	for i, e := range g.Moves {
		if k.moves[i] != (moveKey{e.Move, e.Side, e.Simultaneous}) {
			return false
		}
	}
	return true
}
