package storage

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/missivechess/missive/rules"
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

// MoveEntry is one stored move: its canonical text (Position.UCI) and, for a choice of
// a simultaneous round (Go-Chess placement), the side that chose it.
type MoveEntry struct {
	Move         string     // canonical text as given by Position.UCI
	Side         rules.Side // the side that chose; meaningful only when Simultaneous
	Simultaneous bool       // a secret choice replayed with Simultaneous.PlayAs(Side, ...)
	At           time.Time  // when it was played
}

// Clock is a game's correspondence clock and the scheduler's bookkeeping.
type Clock struct {
	DaysPerMove int       // days each side has per move; 0 means no clock
	Deadline    time.Time // when the side(s) due to act lose on time; zero when no clock runs
	// Wake is an optional earlier time at which the scheduler wants to look at the
	// game again, normally the next reminder; zero means the Deadline.
	Wake time.Time
	// Sent lists the reminders already sent for the current Deadline.
	Sent []Reminder
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

// Due returns when the scheduler must next look at the game: the earlier of Wake and
// Deadline, or zero when no clock runs.
func (c *Clock) Due() time.Time {
	if c.Deadline.IsZero() {
		return time.Time{}
	}
	if !c.Wake.IsZero() && c.Wake.Before(c.Deadline) {
		return c.Wake
	}
	return c.Deadline
}

// Offer is a pending draw offer or takeback request.
type Offer struct {
	By  rules.Side // who offered
	Ply int        // len(Moves) when it was made, so the game layer can let it lapse
	At  time.Time
}

// Game is a stored game: the start position (seed or text) plus its moves, the
// players, where it is played, its clock, offers and outcome. Position is not stored:
// loading replays the moves through the rules.
type Game struct {
	ID      string // assigned on first write when empty: "1", "2", ...
	Variant string // rules.Variant key
	Players [2]Seat
	Guild   string // Discord server id; empty for local (console) games
	Channel string
	Thread  string // the game's own thread, unique among games
	Seed    uint64 // seed for Variant.Start when Start is empty
	Start   string // start position text; empty means Variant.Start(Seed)
	Moves   []MoveEntry
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

// Play reads text as a move by side in the current position, plays it (PlayAs during
// a simultaneous round), appends it to Moves in canonical form and updates Position,
// ToMove, and Outcome when the rules end the game. A zero at is replaced by the time
// of the write. On error nothing changes.
func (g *Game) Play(side rules.Side, text string, at time.Time) (rules.Move, error) {
	pos := g.Position
	if pos == nil {
		return rules.NullMove, fmt.Errorf("storage: game %s was read without replaying its moves; load it with Tx.Game", g.ID)
	}
	if g.Outcome.IsOver() {
		return rules.NullMove, fmt.Errorf("storage: game %s is over (%s): %w", g.ID, g.Outcome, rules.ErrGameOver)
	}
	sim, simultaneous := simultaneousRound(pos)
	if !simultaneous && pos.Turn() != side {
		return rules.NullMove, fmt.Errorf("storage: it is %s's turn in game %s, not %s's: %w", pos.Turn(), g.ID, side, rules.ErrNotYourTurn)
	}
	m, err := pos.ParseMove(strings.TrimSpace(text))
	if err != nil {
		return rules.NullMove, err
	}
	entry := MoveEntry{Move: pos.UCI(m), At: utc(at)}
	var next rules.Position
	if simultaneous {
		entry.Side, entry.Simultaneous = side, true
		next, err = sim.PlayAs(side, m)
	} else {
		next, err = pos.Play(m)
	}
	if err != nil {
		return rules.NullMove, err
	}
	g.Moves = append(g.Moves, entry)
	g.Position = next
	g.replayed = g.keyNow()
	g.ToMove = toMove(next)
	if o := next.Outcome(); o.IsOver() {
		g.Outcome = o
	}
	return m, nil
}

// Undo removes the last n entries of Moves and replays the rest (a takeback). It
// reopens a game the rules had ended; an outcome set by the game layer (resignation,
// agreement, timeout) is left for the caller to change.
func (g *Game) Undo(n int, reg *rules.Registry) error {
	if n < 0 || n > len(g.Moves) {
		return fmt.Errorf("storage: cannot take back %d moves of game %s, which has %d: %w", n, g.ID, len(g.Moves), ErrInvalid)
	}
	trial := *g
	trial.Moves = g.Moves[: len(g.Moves)-n : len(g.Moves)-n]
	pos, err := replay(reg, &trial)
	if err != nil {
		return err
	}
	if g.Outcome.IsOver() && g.Position != nil && g.Position.Outcome() == g.Outcome {
		g.Outcome = pos.Outcome()
	}
	g.Moves = trial.Moves
	g.Position, g.replayed, g.ToMove = pos, g.keyNow(), toMove(pos)
	return nil
}

// simultaneousRound returns pos as a Simultaneous position when a secret round is on.
func simultaneousRound(pos rules.Position) (rules.Simultaneous, bool) {
	sim, ok := pos.(rules.Simultaneous)
	if !ok || len(sim.Awaiting()) == 0 {
		return nil, false
	}
	return sim, true
}

// toMove lists the sides due to act in pos.
func toMove(pos rules.Position) []rules.Side {
	if pos.Outcome().IsOver() {
		return nil
	}
	if sim, ok := simultaneousRound(pos); ok {
		return append([]rules.Side(nil), sim.Awaiting()...)
	}
	return []rules.Side{pos.Turn()}
}

// replay rebuilds the position of g from its start and moves.
func replay(reg *rules.Registry, g *Game) (rules.Position, error) {
	if reg == nil {
		return nil, fmt.Errorf("storage: game %s cannot be replayed: the store has no variant registry", g.ID)
	}
	v, err := reg.Lookup(g.Variant)
	if err != nil {
		return nil, &ReplayError{Game: g.ID, Index: -1, Err: err}
	}
	var pos rules.Position
	if g.Start != "" {
		if pos, err = v.ParsePosition(g.Start); err != nil {
			return nil, &ReplayError{Game: g.ID, Index: -1, Err: err}
		}
	} else {
		pos = v.Start(g.Seed)
	}
	for i, e := range g.Moves {
		next, err := replayOne(pos, e)
		if err != nil {
			return nil, &ReplayError{Game: g.ID, Index: i, Move: e.Move, Err: err}
		}
		pos = next
	}
	return pos, nil
}

// replayOne plays one stored entry on pos.
func replayOne(pos rules.Position, e MoveEntry) (rules.Position, error) {
	m, err := pos.ParseMove(e.Move)
	if err != nil {
		return nil, err
	}
	if e.Simultaneous {
		sim, ok := pos.(rules.Simultaneous)
		if !ok {
			return nil, fmt.Errorf("stored as %s's simultaneous choice, but the position has no simultaneous round: %w", e.Side, rules.ErrIllegalMove)
		}
		return sim.PlayAs(e.Side, m)
	}
	if _, ok := simultaneousRound(pos); ok {
		return nil, fmt.Errorf("stored as an ordinary move, but the position awaits simultaneous choices: %w", rules.ErrIllegalMove)
	}
	return pos.Play(m)
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
