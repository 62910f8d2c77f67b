package storage

import (
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/missivechess/missive/rules"
	rec "github.com/missivechess/missive/rules/record"
)

// GameSummary is a game without its moves, start and clock bookkeeping: what
// listings show. The store keeps one per game so that listing a player's or a
// tournament's games reads no game record and replays nothing.
type GameSummary struct {
	ID          string
	Variant     string
	Players     [2]Seat
	Guild       string
	Channel     string
	Thread      string
	Rated       bool
	Plies       int // len(Moves)
	ToMove      []rules.Side
	Outcome     rules.Outcome
	EndedAt     time.Time
	DaysPerMove int
	Bank        *TimeBank
	Deadline    time.Time
	Paused      time.Time // when the clock of the side due to act was frozen by leave; zero when running
	Tournament  string
	Match       string
	Round       int
	Stamp
}

// Summary returns the summary of g.
func (g *Game) Summary() *GameSummary {
	return &GameSummary{
		ID: g.ID, Variant: g.Variant, Players: g.Players, Guild: g.Guild, Channel: g.Channel, Thread: g.Thread,
		Rated: g.Rated, Plies: len(g.Moves), ToMove: g.ToMove, Outcome: g.Outcome, EndedAt: g.EndedAt,
		DaysPerMove: g.Clock.DaysPerMove, Bank: g.Clock.Bank, Deadline: g.Clock.Deadline, Paused: g.Clock.Paused, Tournament: g.Tournament, Match: g.Match, Round: g.Round,
		Stamp: g.Stamp,
	}
}

// Active reports whether the game is still being played.
func (s *GameSummary) Active() bool { return !s.Outcome.IsOver() }

// SideOf returns the side that player id plays, and false when id is not a player.
func (s *GameSummary) SideOf(id string) (rules.Side, bool) { return sideOf(s.Players, id) }

func sideOf(players [2]Seat, id string) (rules.Side, bool) {
	for _, side := range rules.Sides {
		if players[side].ID == id {
			return side, true
		}
	}
	return rules.White, false
}

// The stored (wire) forms. Field names and enum texts are part of the schema (doc.go).

// headerWire holds what both a game record and its summary store.
type headerWire struct {
	ID         string       `json:"id"`
	Variant    string       `json:"variant"`
	White      Seat         `json:"white"`
	Black      Seat         `json:"black"`
	Guild      string       `json:"guild,omitempty"`
	Channel    string       `json:"channel,omitempty"`
	Thread     string       `json:"thread,omitempty"`
	Rated      bool         `json:"rated"`
	Status     rules.Status `json:"status"`
	Winner     string       `json:"winner,omitempty"`
	Reason     rules.Reason `json:"reason,omitempty"`
	EndedAt    *time.Time   `json:"ended,omitempty"`
	ToMove     []string     `json:"to_move,omitempty"`
	Tournament string       `json:"tournament,omitempty"`
	Match      string       `json:"match,omitempty"`
	Round      int          `json:"round,omitempty"`
	Stamp
}

type gameWire struct {
	headerWire
	Seed      string     `json:"seed,omitempty"` // decimal, so that no JSON reader rounds it
	Start     string     `json:"start,omitempty"`
	Clock     clockWire  `json:"clock"`
	DrawOffer *offerWire `json:"draw_offer,omitempty"`
	Takeback  *offerWire `json:"takeback,omitempty"`
	Moves     []moveWire `json:"moves"`
	// Conditional holds the players' conditional lines (optional, private).
	Conditional []conditionalWire `json:"conditional,omitempty"`
}

type conditionalWire struct {
	Side  string   `json:"side"`
	Ply   int      `json:"ply"`
	Moves []string `json:"moves"`
}

type summaryWire struct {
	headerWire
	Plies       int        `json:"plies"`
	DaysPerMove int        `json:"days,omitempty"`
	Bank        *TimeBank  `json:"bank,omitempty"`
	Deadline    *time.Time `json:"deadline,omitempty"`
	Paused      *time.Time `json:"paused,omitempty"`
}

type moveWire struct {
	Move string    `json:"m"`
	Side string    `json:"side,omitempty"` // only for simultaneous choices
	At   time.Time `json:"at"`
}

type clockWire struct {
	DaysPerMove int        `json:"days,omitempty"`
	Bank        *TimeBank  `json:"bank,omitempty"`
	Left        []int64    `json:"left_s,omitempty"` // seconds: white, black
	Since       *time.Time `json:"since,omitempty"`
	Deadline    *time.Time `json:"deadline,omitempty"`
	Paused      *time.Time `json:"paused,omitempty"`
	NoLeave     bool       `json:"no_leave,omitempty"`
	Given       []int      `json:"given,omitempty"` // days: by white, by black
	Wake        *time.Time `json:"wake,omitempty"`
	Sent        []Reminder `json:"sent,omitempty"`
	Outage      string     `json:"outage,omitempty"`
}

// clockToWire and clockFromWire convert a clock to and from its stored form.
func clockToWire(c Clock) clockWire {
	w := clockWire{DaysPerMove: c.DaysPerMove, Bank: c.Bank, Since: timePtr(c.Since), Deadline: timePtr(c.Deadline),
		Paused: timePtr(c.Paused), NoLeave: c.NoLeave, Wake: timePtr(c.Wake), Sent: c.Sent, Outage: c.Outage}
	if c.Bank != nil {
		w.Left = []int64{int64(c.Left[0] / time.Second), int64(c.Left[1] / time.Second)}
	}
	if c.Given != [2]int{} {
		w.Given = c.Given[:]
	}
	return w
}

func clockFromWire(w clockWire) (Clock, error) {
	c := Clock{DaysPerMove: w.DaysPerMove, Bank: w.Bank, Since: timeVal(w.Since), Deadline: timeVal(w.Deadline),
		Paused: timeVal(w.Paused), NoLeave: w.NoLeave, Wake: timeVal(w.Wake), Sent: w.Sent, Outage: w.Outage}
	if len(w.Left) != 0 && len(w.Left) != 2 || len(w.Given) != 0 && len(w.Given) != 2 {
		return Clock{}, fmt.Errorf("clock: left_s and given hold two numbers (white, black), not %d and %d", len(w.Left), len(w.Given))
	}
	for i := range w.Left {
		c.Left[i] = time.Duration(w.Left[i]) * time.Second
	}
	for i := range w.Given {
		c.Given[i] = w.Given[i]
	}
	return c, nil
}

type offerWire struct {
	By  string    `json:"by"`
	Ply int       `json:"ply"`
	At  time.Time `json:"at"`
}

func timePtr(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	u := utc(t)
	return &u
}

func timeVal(t *time.Time) time.Time {
	if t == nil {
		return time.Time{}
	}
	return t.UTC()
}

// header returns the stored header of a game or summary's fields.
func header(s *GameSummary) headerWire {
	h := headerWire{
		ID: s.ID, Variant: s.Variant, White: s.Players[rules.White], Black: s.Players[rules.Black],
		Guild: s.Guild, Channel: s.Channel, Thread: s.Thread, Rated: s.Rated,
		Status: s.Outcome.Status, Reason: s.Outcome.Reason, EndedAt: timePtr(s.EndedAt),
		Tournament: s.Tournament, Match: s.Match, Round: s.Round, Stamp: s.Stamp,
	}
	if h.Status == "" {
		h.Status = rules.Ongoing
	}
	if s.Outcome.Status == rules.Won {
		h.Winner = s.Outcome.Winner.String()
	}
	for _, side := range s.ToMove {
		h.ToMove = append(h.ToMove, side.String())
	}
	return h
}

// summary reads the header back into a summary's fields.
func (h *headerWire) summary() (*GameSummary, error) {
	s := &GameSummary{
		ID: h.ID, Variant: h.Variant, Players: [2]Seat{h.White, h.Black}, Guild: h.Guild, Channel: h.Channel,
		Thread: h.Thread, Rated: h.Rated, Outcome: rules.Outcome{Status: h.Status, Reason: h.Reason},
		EndedAt: timeVal(h.EndedAt), Tournament: h.Tournament, Match: h.Match, Round: h.Round, Stamp: h.Stamp,
	}
	s.CreatedAt, s.UpdatedAt = s.CreatedAt.UTC(), s.UpdatedAt.UTC()
	var err error
	switch h.Status {
	case rules.Ongoing, rules.Drawn:
	case rules.Won:
		if s.Outcome.Winner, err = rules.ParseSide(h.Winner); err != nil {
			return nil, fmt.Errorf("winner: %w", err)
		}
	default:
		return nil, fmt.Errorf("unknown status %q", h.Status)
	}
	for _, t := range h.ToMove {
		side, err := rules.ParseSide(t)
		if err != nil {
			return nil, fmt.Errorf("to_move: %w", err)
		}
		s.ToMove = append(s.ToMove, side)
	}
	return s, nil
}

func offerToWire(o *Offer) *offerWire {
	if o == nil {
		return nil
	}
	return &offerWire{By: o.By.String(), Ply: o.Ply, At: utc(o.At)}
}

func offerFromWire(o *offerWire, what string) (*Offer, error) {
	if o == nil {
		return nil, nil
	}
	s, err := rules.ParseSide(o.By)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	return &Offer{By: s, Ply: o.Ply, At: o.At.UTC()}, nil
}

// MarshalJSON writes the stored form of g (without its Position).
func (g Game) MarshalJSON() ([]byte, error) { return g.encodeWire() }

// UnmarshalJSON reads the stored form of a game; Position is left nil.
func (g *Game) UnmarshalJSON(data []byte) error { return g.decodeWire(data) }

// encodeWire and decodeWire are the record codec's path: one JSON pass each.
func (g *Game) encodeWire() ([]byte, error) {
	w := gameWire{
		headerWire: header(g.Summary()),
		Start:      g.Start,
		Clock:      clockToWire(g.Clock),
		DrawOffer:  offerToWire(g.DrawOffer), Takeback: offerToWire(g.Takeback),
		Moves: make([]moveWire, len(g.Moves)),
	}
	if g.Seed != 0 {
		w.Seed = strconv.FormatUint(g.Seed, 10)
	}
	for _, c := range g.Conditional {
		w.Conditional = append(w.Conditional, conditionalWire{Side: c.Side.String(), Ply: c.Ply, Moves: c.Moves})
	}
	for i, e := range g.Moves {
		w.Moves[i] = moveWire{Move: e.Move, At: utc(e.At)}
		if e.Simultaneous {
			w.Moves[i].Side = e.Side.String()
		}
	}
	return json.Marshal(&w)
}

func (g *Game) decodeWire(raw []byte) error {
	var w gameWire
	if err := json.Unmarshal(raw, &w); err != nil {
		return err
	}
	s, err := w.headerWire.summary()
	if err != nil {
		return err
	}
	out := Game{
		ID: s.ID, Variant: s.Variant, Players: s.Players, Guild: s.Guild, Channel: s.Channel, Thread: s.Thread,
		Record: rec.Record{Start: w.Start, Moves: make([]MoveEntry, len(w.Moves))}, Outcome: s.Outcome, EndedAt: s.EndedAt,
		Rated:      s.Rated,
		Tournament: s.Tournament, Match: s.Match, Round: s.Round, ToMove: s.ToMove, Stamp: s.Stamp,
	}
	if out.Clock, err = clockFromWire(w.Clock); err != nil {
		return err
	}
	if w.Seed != "" {
		if out.Seed, err = strconv.ParseUint(w.Seed, 10, 64); err != nil {
			return fmt.Errorf("seed %q: %w", w.Seed, err)
		}
	}
	for i, e := range w.Moves {
		out.Moves[i] = MoveEntry{Move: e.Move, At: e.At.UTC()}
		if e.Side != "" {
			if out.Moves[i].Side, err = rules.ParseSide(e.Side); err != nil {
				return fmt.Errorf("move %d: %w", i+1, err)
			}
			out.Moves[i].Simultaneous = true
		}
	}
	for i, c := range w.Conditional {
		side, err := rules.ParseSide(c.Side)
		if err != nil {
			return fmt.Errorf("conditional line %d: %w", i+1, err)
		}
		out.Conditional = append(out.Conditional, Conditional{Side: side, Ply: c.Ply, Moves: c.Moves})
	}
	if out.DrawOffer, err = offerFromWire(w.DrawOffer, "draw_offer"); err != nil {
		return err
	}
	if out.Takeback, err = offerFromWire(w.Takeback, "takeback"); err != nil {
		return err
	}
	*g = out
	return nil
}

// encodeSummary returns the stored summary of g.
func encodeSummary(g *Game) []byte {
	s := g.Summary()
	data, err := json.Marshal(&summaryWire{headerWire: header(s), Plies: s.Plies, DaysPerMove: s.DaysPerMove,
		Bank: s.Bank, Deadline: timePtr(s.Deadline), Paused: timePtr(s.Paused)})
	if err != nil { // strings, numbers and times only: cannot fail
		panic("storage: encoding a game summary: " + err.Error())
	}
	return data
}

// decodeSummary reads a stored summary.
func decodeSummary(raw []byte, id string) (*GameSummary, error) {
	var w summaryWire
	err := json.Unmarshal(raw, &w)
	var s *GameSummary
	if err == nil {
		s, err = w.headerWire.summary()
	}
	if err != nil {
		return nil, fmt.Errorf("storage: the summary of game %s is damaged (%v): %w", id, err, ErrCorrupt)
	}
	s.Plies, s.DaysPerMove, s.Bank, s.Deadline, s.Paused = w.Plies, w.DaysPerMove, w.Bank, timeVal(w.Deadline), timeVal(w.Paused)
	return s, nil
}
