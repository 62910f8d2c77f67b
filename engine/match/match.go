package match

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/missivechess/missive/engine"
	"github.com/missivechess/missive/engine/external"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/gess"
	"github.com/missivechess/missive/rules/record"
)

// Player chooses moves in a game given its start position and the moves so far.
type Player interface {
	Name() string
	Move(ctx context.Context, start rules.Position, moves []rules.Move) (rules.Move, error)
}

// Builtin is the built-in engine at fixed limits.
type Builtin struct {
	Label  string
	Engine *engine.Engine
	Limits engine.Limits
}

// Name returns the label.
func (b *Builtin) Name() string { return b.Label }

// Move replays the game and searches the position reached.
func (b *Builtin) Move(ctx context.Context, start rules.Position, moves []rules.Move) (rules.Move, error) {
	pos, err := replay(start, moves)
	if err != nil {
		return rules.NullMove, err
	}
	r, err := b.Engine.Search(ctx, pos, b.Limits)
	return r.Move, err
}

// External wraps a configured external engine, which searches Nodes nodes a move
// when Nodes is above 0 (UCI engines only), else thinks Think.
type External struct {
	Engine *external.Engine
	Think  time.Duration
	Nodes  int64
}

// Name returns the engine's name.
func (x *External) Name() string { return x.Engine.Name() }

// Move asks the external engine (its answer is validated there).
func (x *External) Move(ctx context.Context, start rules.Position, moves []rules.Move) (rules.Move, error) {
	return x.Engine.MoveWithin(ctx, start, moves, external.Budget{Think: x.Think, Nodes: x.Nodes})
}

// Greedy is the one-ply material-greedy player: it takes a move that wins at once,
// otherwise the move that leaves the best material balance (stones in Gess), ties
// broken at random from its seed.
type Greedy struct {
	rng *rand.Rand
}

// NewGreedy returns a greedy player.
func NewGreedy(seed uint64) *Greedy { return &Greedy{rng: rand.New(rand.NewPCG(seed, 7))} }

// Name returns "greedy".
func (g *Greedy) Name() string { return "greedy" }

// Move picks the greedy move.
func (g *Greedy) Move(ctx context.Context, start rules.Position, moves []rules.Move) (rules.Move, error) {
	pos, err := replay(start, moves)
	if err != nil {
		return rules.NullMove, err
	}
	us := pos.Turn()
	best, bestScore := []rules.Move(nil), math.Inf(-1)
	for _, m := range pos.LegalMoves() {
		q, err := pos.Play(m)
		if err != nil {
			continue
		}
		s := Material(q, us)
		if o := q.Outcome(); o.Status == rules.Won {
			if o.Winner == us {
				s = 1e9
			} else {
				s = -1e9
			}
		}
		switch {
		case s > bestScore:
			best, bestScore = []rules.Move{m}, s
		case s == bestScore:
			best = append(best, m)
		}
	}
	if len(best) == 0 {
		return rules.NullMove, fmt.Errorf("match: no legal move")
	}
	return best[g.rng.IntN(len(best))], nil
}

// Material returns side's material minus the opponent's in pawns, by the
// variant's own piece values (rules.PieceValues), plus 3 a ring in Gess.
func Material(p rules.Position, side rules.Side) float64 {
	v := rules.PieceValues(p.Variant())
	cp := 0
	for _, c := range p.Board().Cells {
		if c.Piece.Kind == rules.NoPiece {
			continue
		}
		if c.Piece.Side == side {
			cp += v[c.Piece.Kind]
		} else {
			cp -= v[c.Piece.Kind]
		}
	}
	s := float64(cp) / 100
	if gp, ok := p.(*gess.Position); ok {
		s += 3 * float64(len(gp.Rings(side))-len(gp.Rings(side.Other())))
	}
	return s
}

// replay returns the position after moves from start (record.Line).
func replay(start rules.Position, moves []rules.Move) (rules.Position, error) {
	h, err := record.Line(start, moves)
	if err != nil {
		return nil, fmt.Errorf("match: %w", err)
	}
	return h.Position(), nil
}

// ErrBadConfig marks a match that cannot be played as configured.
var ErrBadConfig = errors.New("match: bad configuration")

// Config is one match.
type Config struct {
	Variant rules.Variant
	A, B    Player // A plays White in odd games
	Games   int
	// OpeningPlies random legal moves start each pair of games (both colours play
	// the same opening); Seed makes them reproducible.
	OpeningPlies int
	Seed         uint64
	// MaxPlies adjudicates a game as a draw when it reaches this many plies.
	MaxPlies int
	// Start returns the start position of game pair i (default Variant.Start(seed)).
	Start func(pair int, rng *rand.Rand) (rules.Position, error)
	PGN   io.Writer
	Log   io.Writer
}

// Game is a finished game.
type Game struct {
	White, Black string
	Start        rules.Position
	Moves        []rules.Move
	Outcome      rules.Outcome
	Note         string // adjudication or error
	// Thought is what each side's answers took, indexed by rules.Side (the
	// opening's random moves are nobody's).
	Thought [2]Thinking
	// Took is what each move's answer took, by index in Moves; 0 for the
	// opening's random moves.
	Took []time.Duration
}

// Thinking is the wall-clock time a player took to answer over a number of moves:
// the match asks both players with the same think time, and this shows how much
// of it each one used (an XBoard engine in "st" mode takes its time as a maximum).
type Thinking struct {
	Moves      int
	Total, Max time.Duration
	// MaxGame and MaxPly say where the longest answer was given: the game's
	// number in the match (its PGN Round, from 1; 0 within a single game) and the
	// move's ply in the game, from 1, the opening's random plies counted.
	MaxGame, MaxPly int
}

// add counts one answer that took d, given for the game's ply-th move.
func (t *Thinking) add(d time.Duration, ply int) {
	t.Moves++
	t.Total += d
	if d > t.Max || t.Moves == 1 {
		t.Max, t.MaxPly = d, ply
	}
}

// merge counts the answers u of game number game too.
func (t *Thinking) merge(u Thinking, game int) {
	t.Moves += u.Moves
	t.Total += u.Total
	if u.Moves > 0 && u.Max > t.Max {
		t.Max, t.MaxGame, t.MaxPly = u.Max, game, u.MaxPly
	}
}

// Mean returns the time of an answer on average, 0 before the first.
func (t Thinking) Mean() time.Duration {
	if t.Moves == 0 {
		return 0
	}
	return t.Total / time.Duration(t.Moves)
}

// Summary is a match result from A's point of view.
type Summary struct {
	A, B string
	Record
	// AThought and BThought are what A's and B's answers took over the match.
	AThought, BThought Thinking
}

// addGame counts game i of the match (A plays FirstSide(i) in it).
func (s *Summary) addGame(g Game, i int) {
	first := FirstSide(i)
	s.Record.Add(g.Outcome, first)
	s.AThought.merge(g.Thought[first], i+1)
	s.BThought.merge(g.Thought[first.Other()], i+1)
}

// TimeText says on one line how long each player took to answer on average and
// at most, and where, for instance "time a move: x 498 ms on average (at most 502
// ms, game 3 ply 41), y 190 ms on average (at most 571 ms, game 8 ply 12)".
func (s Summary) TimeText() string {
	one := func(name string, t Thinking) string {
		if t.Moves == 0 {
			return name + " made no move"
		}
		return fmt.Sprintf("%s %s on average (at most %s, game %d ply %d)", name, millis(t.Mean()), millis(t.Max), t.MaxGame, t.MaxPly)
	}
	return "time a move: " + one(s.A, s.AThought) + ", " + one(s.B, s.BThought)
}

// millis writes d in whole milliseconds.
func millis(d time.Duration) string {
	return fmt.Sprintf("%d ms", d.Round(time.Millisecond).Milliseconds())
}

// String writes the summary on one line: the score and the Elo difference, worded
// as the bot words them.
func (s Summary) String() string {
	if s.Games() == 0 {
		return fmt.Sprintf("%s vs %s: no game finished", s.A, s.B)
	}
	games := "games"
	if s.Games() == 1 {
		games = "game"
	}
	return fmt.Sprintf("%s vs %s: +%d =%d -%d of %d %s, score %.1f%%, Elo %s",
		s.A, s.B, s.Wins, s.Draws, s.Losses, s.Games(), games, 100*s.Score(), s.EloText(s.A))
}

// Run plays the match. When ctx ends early it returns ctx's error with the summary
// and games of the games finished so far (the one in progress is dropped).
func Run(ctx context.Context, c Config) (Summary, []Game, error) {
	sum := Summary{A: c.A.Name(), B: c.B.Name()}
	if c.Games < 1 {
		return sum, nil, fmt.Errorf("%w: a match needs at least 1 game, not %d", ErrBadConfig, c.Games)
	}
	var games []Game
	var opening Opening
	for i := 0; i < c.Games; i++ {
		if i%2 == 0 {
			var err error
			if opening, err = c.opening(i / 2); err != nil {
				return sum, games, err
			}
		}
		white, black := Seats(i, c.A, c.B)
		g := play(ctx, opening.Start, opening.Moves, white, black, c.MaxPlies)
		if ctx.Err() != nil {
			// The game in progress is not counted; the summary covers the games finished.
			break
		}
		games = append(games, g)
		sum.addGame(g, i)
		if c.PGN != nil {
			if err := writePGN(c.PGN, g, i+1); err != nil {
				return sum, games, err
			}
		}
		if c.Log != nil {
			fmt.Fprintf(c.Log, "game %d: %s - %s %s (%d plies) %s\n", i+1, g.White, g.Black, g.Outcome.Result(), len(g.Moves), g.Note)
		}
	}
	return sum, games, ctx.Err()
}

// play runs one game; a player's error (or resignation) loses the game for that
// player (noted).
func play(ctx context.Context, start rules.Position, opening []rules.Move, white, black Player, maxPlies int) Game {
	g := Game{White: white.Name(), Black: black.Name(), Start: start, Moves: append([]rules.Move(nil), opening...),
		Took: make([]time.Duration, len(opening))}
	pos, _ := replay(start, opening)
	for {
		if o := pos.Outcome(); o.IsOver() {
			g.Outcome = o
			return g
		}
		if o, capped := Adjudicate(len(g.Moves), maxPlies); capped {
			g.Outcome = o
			g.Note = fmt.Sprintf("adjudicated a draw at the %d-ply cap", maxPlies)
			return g
		}
		p := white
		if pos.Turn() == rules.Black {
			p = black
		}
		asked := time.Now()
		m, err := p.Move(ctx, start, g.Moves)
		took := time.Since(asked)
		g.Thought[pos.Turn()].add(took, len(g.Moves)+1)
		if err == nil {
			var next rules.Position
			if next, err = pos.Play(m); err == nil {
				pos = next
				g.Took = append(g.Took, took)
				g.Moves = append(g.Moves, m)
				continue
			}
		}
		if ctx.Err() != nil {
			g.Outcome = rules.Outcome{Status: rules.Ongoing}
			return g
		}
		g.Outcome = rules.Win(pos.Turn().Other(), rules.Resignation)
		g.Note = fmt.Sprintf("%s failed: %v", p.Name(), err)
		if errors.Is(err, external.ErrResigned) {
			g.Note = p.Name() + " resigned"
		}
		return g
	}
}

// writePGN writes g as a PGN game (record.WritePGN) followed by a blank line.
func writePGN(w io.Writer, g Game, round int) error {
	h, err := record.Line(g.Start, g.Moves)
	if err != nil {
		return fmt.Errorf("match: game %d: %w", round, err)
	}
	var extra []record.Tag
	if g.Note != "" {
		extra = append(extra, record.Tag{Name: "Termination", Value: g.Note})
	}
	// Each answer's time as the comment "[%emt 0:00:00.502]" (elapsed move time,
	// as ChessBase and Arena write it), to the millisecond.
	notes := map[int]record.Note{}
	for i, d := range g.Took {
		if d > 0 {
			notes[i] = record.Note{Comment: emt(d)}
		}
	}
	err = record.WritePGN(w, record.PGN{Event: "Missive engine match", Round: strconv.Itoa(round), White: g.White, Black: g.Black,
		Result: g.Outcome.Result(), Extra: extra, History: h.Notated(), Notes: notes})
	if err == nil {
		_, err = io.WriteString(w, "\n")
	}
	return err
}

// emt writes d as a PGN elapsed-move-time command, "[%emt 0:00:00.502]".
func emt(d time.Duration) string {
	d = d.Round(time.Millisecond)
	h, m, sec, ms := d/time.Hour, d/time.Minute%60, d/time.Second%60, d/time.Millisecond%1000
	return fmt.Sprintf("[%%emt %d:%02d:%02d.%03d]", h, m, sec, ms)
}

// Place lets the built-in engine choose its Go-Chess placements.
func (b *Builtin) Place(ctx context.Context, pos rules.Simultaneous, side rules.Side) (rules.Move, error) {
	return b.Engine.Place(ctx, pos, side)
}

// GoChessStart plays a Go-Chess placement phase (the blocked cells of a random
// seed) with white and black placing, each through its own Place method when it
// has one (the built-in engine) and by the built-in engine's placement otherwise
// (greedy and external players, which cannot place over UCI), and returns the
// play position it ends in. (Random placements leave pieces hanging: most games
// between two engines were then decided by the placement within a few plies,
// whoever played them.)
func GoChessStart(ctx context.Context, v rules.Variant, white, black Player, rng *rand.Rand) (rules.Position, error) {
	sp, ok := v.Start(rng.Uint64()).(rules.Simultaneous)
	if !ok {
		return nil, fmt.Errorf("match: %s does not start with a placement phase", v.Name())
	}
	placer := func(p Player) engine.Placer {
		if pl, ok := p.(engine.Placer); ok {
			return pl
		}
		return engine.New(engine.Options{HashBits: 10})
	}
	pos, err := engine.PlayPlacement(ctx, sp, placer(white), placer(black))
	if err != nil {
		return nil, fmt.Errorf("match: placement: %w", err)
	}
	return pos, nil
}
