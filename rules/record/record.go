package record

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/missivechess/missive/rules"
)

// Entry is one entry of a record: a move's canonical text (Position.UCI) and, for a
// choice of a simultaneous round (Go-Chess placement), the side that chose it.
type Entry struct {
	Move         string     // canonical text as given by Position.UCI
	Side         rules.Side // the side that chose; meaningful only when Simultaneous
	Simultaneous bool       // a secret choice replayed with Simultaneous.PlayAs(Side, ...)
	At           time.Time  // when it was played; zero when unknown
}

// Record is a game's record: where it starts and every entry since. It is plain
// data; the positions come from replaying it under its variant's rules.
type Record struct {
	Seed  uint64  // seed for Variant.Start when Start is empty
	Start string  // start position text; empty means Variant.Start(Seed)
	Moves []Entry // the entries in the order they were played
}

// ErrNoVariant is returned when a record is replayed without its variant.
var ErrNoVariant = errors.New("record: no variant to replay with")

// ReplayError reports an entry (or the start, Index -1) that the rules refuse.
// It unwraps to the rules error (rules.ErrIllegalMove, rules.ErrBadPosition, ...).
type ReplayError struct {
	Index int    // index in Moves, or -1 for the start position
	Move  string // the entry's text
	Err   error
}

// Error names the entry and says why it was refused.
func (e *ReplayError) Error() string {
	if e.Index < 0 {
		return fmt.Sprintf("record: the start position is refused: %v", e.Err)
	}
	return fmt.Sprintf("record: entry %d (index %d, %q) is refused: %v", e.Index+1, e.Index, e.Move, e.Err)
}

// Unwrap returns the rules error.
func (e *ReplayError) Unwrap() error { return e.Err }

// StartPosition returns the position r starts from.
func (r *Record) StartPosition(v rules.Variant) (rules.Position, error) {
	if v == nil {
		return nil, ErrNoVariant
	}
	if r.Start == "" {
		return v.Start(r.Seed), nil
	}
	pos, err := v.ParsePosition(r.Start)
	if err != nil {
		return nil, &ReplayError{Index: -1, Err: err}
	}
	return pos, nil
}

// Position replays r (Trace) and returns the position after its last entry.
func (r *Record) Position(v rules.Variant) (rules.Position, error) {
	h, err := r.Trace(v)
	if err != nil {
		return nil, err
	}
	return h.Position(), nil
}

// Play reads text as side's move in pos, the position after r's entries (as given by
// Position, Replay or an earlier Play), validates and plays it (PlayAs during a
// simultaneous round), appends it to r in canonical form and returns the move and
// the position after it. On error r is unchanged.
func (r *Record) Play(pos rules.Position, side rules.Side, text string, at time.Time) (rules.Move, rules.Position, error) {
	if err := due(pos, side); err != nil {
		return rules.NullMove, nil, err
	}
	m, err := pos.ParseMove(strings.TrimSpace(text))
	if err != nil {
		return rules.NullMove, nil, err
	}
	next, err := r.add(pos, side, m, at)
	return m, next, err
}

// PlayMove plays the legal move m by side in pos (the position after r's entries),
// appends it to r and returns the position after it. On error r is unchanged.
func (r *Record) PlayMove(pos rules.Position, side rules.Side, m rules.Move, at time.Time) (rules.Position, error) {
	if err := due(pos, side); err != nil {
		return nil, err
	}
	return r.add(pos, side, m, at)
}

// add plays m by side, already found due, in pos and appends it to r.
func (r *Record) add(pos rules.Position, side rules.Side, m rules.Move, at time.Time) (rules.Position, error) {
	e := Entry{Move: pos.UCI(m), At: at}
	if _, ok := Round(pos); ok {
		e.Side, e.Simultaneous = side, true
	}
	_, next, err := playEntryMove(pos, e, m)
	if err != nil {
		return nil, err
	}
	r.Moves = append(r.Moves, e)
	return next, nil
}

// due refuses side acting in pos when the game is over or side is not due, with a
// sentence for the player (rules.Error).
func due(pos rules.Position, side rules.Side) error {
	if pos == nil {
		return fmt.Errorf("record: no position to play in: replay the record first: %w", ErrNoVariant)
	}
	if o := pos.Outcome(); o.IsOver() {
		return rules.RefuseAs(rules.ErrGameOver, "record.over", rules.Args{"Outcome": rules.OutcomeArg(o)}, "The game is over (%s); no move can be played.", o)
	}
	if _, ok := Round(pos); ok {
		return nil // PlayAs refuses a side that has already chosen
	}
	if pos.Turn() != side {
		return rules.RefuseAs(rules.ErrNotYourTurn, "record.turn", rules.Args{"TurnSide": pos.Turn().String(), "Side": side.String()}, "It is %s's turn, not %s's.", pos.Turn(), side)
	}
	return nil
}

// Undo removes the last n entries of r (a takeback) and returns the position after
// the entries left. A pending choice of a simultaneous round is an entry like any
// other: taking it back reopens the round for that side. On error r is unchanged.
func (r *Record) Undo(v rules.Variant, n int) (rules.Position, error) {
	if n < 0 || n > len(r.Moves) {
		return nil, fmt.Errorf("record: cannot take back %d entries of %d", n, len(r.Moves))
	}
	trial := Record{Seed: r.Seed, Start: r.Start, Moves: r.Moves[: len(r.Moves)-n : len(r.Moves)-n]}
	pos, err := trial.Position(v)
	if err != nil {
		return nil, err
	}
	r.Moves = trial.Moves
	return pos, nil
}

// playEntry plays one stored entry on pos.
func playEntry(pos rules.Position, e Entry) (rules.Move, rules.Position, error) {
	m, err := pos.ParseMove(e.Move)
	if err != nil {
		return rules.NullMove, nil, err
	}
	return playEntryMove(pos, e, m)
}

// playEntryMove plays entry e, read as m, on pos.
func playEntryMove(pos rules.Position, e Entry, m rules.Move) (rules.Move, rules.Position, error) {
	sim, round := Round(pos)
	var next rules.Position
	var err error
	switch {
	case e.Simultaneous && !round:
		err = fmt.Errorf("record: stored as %s's simultaneous choice, but the position has no simultaneous round: %w", e.Side, rules.ErrIllegalMove)
	case e.Simultaneous:
		next, err = sim.PlayAs(e.Side, m)
	case round:
		err = fmt.Errorf("record: stored as an ordinary move, but the position awaits simultaneous choices: %w", rules.ErrIllegalMove)
	default:
		next, err = pos.Play(m)
	}
	return m, next, err
}

// Round returns pos as a Simultaneous position when a secret round is on.
func Round(pos rules.Position) (rules.Simultaneous, bool) {
	sim, ok := pos.(rules.Simultaneous)
	if !ok || len(sim.Awaiting()) == 0 {
		return nil, false
	}
	return sim, true
}

// ToMove lists the sides due to act in pos: the side to move, both (or the one
// still owing a choice) during a simultaneous round, none once the game is over.
func ToMove(pos rules.Position) []rules.Side {
	if pos.Outcome().IsOver() {
		return nil
	}
	if sim, ok := Round(pos); ok {
		return append([]rules.Side(nil), sim.Awaiting()...)
	}
	return []rules.Side{pos.Turn()}
}

// View returns pos as viewer may see it: during a simultaneous round its own pending
// choice and never the opponent's; otherwise pos itself.
func View(pos rules.Position, viewer rules.Side) rules.Position {
	if sim, ok := Round(pos); ok {
		return sim.ViewFor(viewer)
	}
	return pos
}

// PublicView returns pos as everyone may see it: during a simultaneous round no
// pending choice shows (the view of a side that has not chosen yet).
func PublicView(pos rules.Position) rules.Position {
	if sim, ok := Round(pos); ok {
		return sim.ViewFor(sim.Awaiting()[0])
	}
	return pos
}
