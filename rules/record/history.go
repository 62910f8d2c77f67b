package record

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/missivechess/missive/rules"
)

// Step is one entry of a record, replayed.
type Step struct {
	Index  int        // index in Record.Moves
	Side   rules.Side // who played or chose it
	Move   rules.Move
	SAN    string         // display notation (drop notation "P@d4" for a placement choice)
	Before rules.Position // the position it was played in
	After  rules.Position
	// Simultaneous marks a secret choice of a simultaneous round.
	Simultaneous bool
	// Revealed marks the choice that completed its round: after it no choice is
	// pending. Choices not followed by a revealing one are still secret.
	Revealed bool
}

// History is a record replayed: its start position and one step per entry.
type History struct {
	Start rules.Position
	Steps []Step
}

// Replay replays r under v into its history, with the display notation of every
// step. It is Trace and Notated in one call.
func (r *Record) Replay(v rules.Variant) (*History, error) {
	h, err := r.Trace(v)
	if err != nil {
		return nil, err
	}
	return h.Notated(), nil
}

// Trace replays r under v into its history without the display notation (SAN is
// empty): the one replay loop, cheap enough for loading a game. Notated adds the
// notation later without replaying again.
func (r *Record) Trace(v rules.Variant) (*History, error) {
	pos, err := r.StartPosition(v)
	if err != nil {
		return nil, err
	}
	h := &History{Start: pos, Steps: make([]Step, len(r.Moves))}
	for i, e := range r.Moves {
		m, next, err := playEntry(pos, e)
		if err != nil {
			return nil, &ReplayError{Index: i, Move: e.Move, Err: err}
		}
		st := Step{Index: i, Side: e.Side, Move: m, Before: pos, After: next, Simultaneous: e.Simultaneous}
		if e.Simultaneous {
			if after, ok := Round(next); !ok || len(after.Awaiting()) == 2 {
				st.Revealed = true
			}
		} else {
			st.Side = pos.Turn()
		}
		h.Steps[i] = st
		pos = next
	}
	return h, nil
}

// Line plays moves, ordinary moves given as values, one after another from start
// and returns the history without display notation (see Notated): the replay for
// callers that hold moves rather than a stored record (engines, engine matches,
// animations). A move the rules refuse gives a *ReplayError naming it (in UCI).
func Line(start rules.Position, moves []rules.Move) (*History, error) {
	h := &History{Start: start, Steps: make([]Step, len(moves))}
	pos := start
	for i, m := range moves {
		next, err := pos.Play(m)
		if err != nil {
			return nil, &ReplayError{Index: i, Move: pos.UCI(m), Err: err}
		}
		h.Steps[i] = Step{Index: i, Side: pos.Turn(), Move: m, Before: pos, After: next}
		pos = next
	}
	return h, nil
}

// Notated returns h with the display notation of every step: SAN for a move, drop
// notation ("P@d4") for a choice. h itself is not changed.
func (h *History) Notated() *History {
	out := &History{Start: h.Start, Steps: make([]Step, len(h.Steps))}
	for i, st := range h.Steps {
		if st.SAN == "" {
			if st.Simultaneous {
				st.SAN = dropText(h.Start.Variant(), st.Move)
			} else {
				st.SAN = st.Before.SAN(st.Move)
			}
		}
		out.Steps[i] = st
	}
	return out
}

// dropText writes a placement choice as "P@d4".
func dropText(v rules.Variant, m rules.Move) string {
	return string(m.Drop.Letter()) + "@" + v.Dims().Name(m.To)
}

// Position returns the position after the last step (the start when there is none).
func (h *History) Position() rules.Position {
	if len(h.Steps) == 0 {
		return h.Start
	}
	return h.Steps[len(h.Steps)-1].After
}

// Public returns the history everyone may see: every ordinary move and the choices
// of completed rounds, never a pending secret choice.
func (h *History) Public() *History {
	last := -1 // index of the last step that left no choice pending
	for i, st := range h.Steps {
		if !st.Simultaneous || st.Revealed {
			last = i
		}
	}
	return &History{Start: h.Start, Steps: h.Steps[:last+1]}
}

// Placement returns the steps of simultaneous rounds.
func (h *History) Placement() []Step {
	var out []Step
	for _, st := range h.Steps {
		if st.Simultaneous {
			out = append(out, st)
		}
	}
	return out
}

// Moves returns the ordinary moves, without the steps of simultaneous rounds.
func (h *History) Moves() []Step {
	var out []Step
	for _, st := range h.Steps {
		if !st.Simultaneous {
			out = append(out, st)
		}
	}
	return out
}

// PlayStart returns the position the ordinary moves start from: the position when
// the last simultaneous round in the history was revealed, else the start.
func (h *History) PlayStart() rules.Position {
	pos := h.Start
	for _, st := range h.Steps {
		if st.Simultaneous {
			pos = st.After
		}
	}
	return pos
}

// fullmover is implemented by positions whose text carries a move number (FEN).
type fullmover interface{ FullmoveNumber() int }

// Movetext writes moves (consecutive ordinary steps) as numbered tokens, the one
// definition of move numbers for move lists and PGN:
//
//   - when the first position carries a move number (chess-family FEN), standard PGN
//     numbering: "N." starts a White move counting from that fullmove number, and a
//     first move by Black is written "N...";
//   - otherwise (Gess) moves are numbered from the side that moves first: move 1 is
//     the first mover's move and the reply, "1. e3-e5 l18xl15 2. ...".
func Movetext(moves []Step) []string {
	if len(moves) == 0 {
		return nil
	}
	num, opener := numbering(moves)
	return movetext(moves, num, opener, nil)
}

// numbering returns the number of the first of moves and the side that opens each
// numbered move, as Movetext documents.
func numbering(moves []Step) (int, rules.Side) {
	if f, ok := moves[0].Before.(fullmover); ok {
		return max(f.FullmoveNumber(), 1), rules.White
	}
	return 1, moves[0].Side
}

// movetext numbers moves from num, opener's moves starting a number; after(i), when
// set, gives tokens to write after move i (annotations, a variation), after which a
// move by the other side repeats its number ("N...").
func movetext(moves []Step, num int, opener rules.Side, after func(i int, num int) []string) []string {
	out := make([]string, 0, len(moves)*3/2+1)
	again := true // the next move by the other side needs its number
	for i, st := range moves {
		switch {
		case st.Side == opener:
			if i > 0 {
				num++
			}
			out = append(out, strconv.Itoa(num)+".")
		case again:
			out = append(out, strconv.Itoa(num)+"...")
		}
		out = append(out, st.SAN)
		again = false
		if after != nil {
			if extra := after(i, num); len(extra) > 0 {
				out = append(out, extra...)
				last := extra[len(extra)-1]
				again = strings.HasSuffix(last, ")") || strings.HasSuffix(last, "}")
			}
		}
	}
	return out
}

// PlacementText lists revealed rounds of choices, White's first: "1. P@d4 P@e7 2. ...";
// a round chosen again (both chose the same cell) is marked "(again)" and keeps its number.
func PlacementText(steps []Step) string {
	var parts []string
	round := 0
	for i := 0; i+1 < len(steps); i += 2 {
		a, b := steps[i], steps[i+1]
		if a.Side == rules.Black {
			a, b = b, a
		}
		num, again := round+1, ""
		if PublicView(steps[i+1].After).Board().Pieces() == PublicView(steps[i].Before).Board().Pieces() {
			again = " (again)"
		} else {
			round++
		}
		parts = append(parts, fmt.Sprintf("%d. %s %s%s", num, a.SAN, b.SAN, again))
	}
	return strings.Join(parts, " ")
}

// Wrap joins tokens with spaces into lines of at most width characters.
func Wrap(tokens []string, width int) string {
	var b strings.Builder
	line := 0
	for _, t := range tokens {
		if line > 0 && line+1+len(t) > width {
			b.WriteString("\n")
			line = 0
		}
		if line > 0 {
			b.WriteString(" ")
			line++
		}
		b.WriteString(t)
		line += len(t)
	}
	return b.String()
}
