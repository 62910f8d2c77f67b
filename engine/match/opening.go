package match

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"

	"github.com/missivechess/missive/rules"
)

// Opening is how both games of a pair begin: a start position and random legal
// moves played from it.
type Opening struct {
	Start rules.Position
	Moves []rules.Move
}

// Position returns the position after the opening's moves.
func (o Opening) Position() (rules.Position, error) { return replay(o.Start, o.Moves) }

// NewOpening returns the opening of game pair pair of a match seeded seed: the
// variant's start for a seed drawn from the pair's random source (Go-Chess: its
// blocked cells, whose placement phase is the whole opening), then plies random
// legal moves that do not end the game. The same arguments give the same opening,
// so a stored match needs to keep only its seed.
func NewOpening(v rules.Variant, seed uint64, pair, plies int) Opening {
	o, _ := Config{Variant: v, Seed: seed, OpeningPlies: plies}.opening(pair)
	return o
}

// opening returns the opening of game pair pair: c.Start's position, or the
// variant's, then c.OpeningPlies random moves, all drawn from the pair's own
// random source.
func (c Config) opening(pair int) (Opening, error) {
	rng := rand.New(rand.NewPCG(c.Seed, uint64(pair)))
	var start rules.Position
	if c.Start == nil {
		start = c.Variant.Start(rng.Uint64())
	} else {
		var err error
		if start, err = c.Start(pair, rng); err != nil {
			return Opening{}, err
		}
	}
	return Opening{Start: start, Moves: randomMoves(start, c.OpeningPlies, rng)}, nil
}

// randomMoves plays up to n random legal moves from start that do not end the
// game; none from a placement phase.
func randomMoves(start rules.Position, n int, rng *rand.Rand) []rules.Move {
	if _, ok := start.(rules.Simultaneous); ok {
		return nil
	}
	var moves []rules.Move
	pos := start
	for len(moves) < n {
		legal := pos.LegalMoves()
		if len(legal) == 0 {
			break
		}
		m := legal[rng.IntN(len(legal))]
		next, err := pos.Play(m)
		if err != nil || next.Outcome().IsOver() {
			break
		}
		moves, pos = append(moves, m), next
	}
	return moves
}

// FirstSide returns the side the first player takes in game (counted from 0):
// colours alternate, White first, so that both games of a pair (game/2) play the
// pair's opening once with each colour.
func FirstSide(game int) rules.Side {
	if game%2 == 1 {
		return rules.Black
	}
	return rules.White
}

// Seats returns who plays White and who Black in game (counted from 0) of a match
// between a, the first player, and b (see FirstSide).
func Seats[P any](game int, a, b P) (white, black P) {
	if FirstSide(game) == rules.Black {
		return b, a
	}
	return a, b
}

// Adjudicate returns the draw that ends a game at the match's ply cap and true when
// a game of plies plies (placement choices included) has reached maxPlies; a cap
// of 0 never ends a game.
func Adjudicate(plies, maxPlies int) (rules.Outcome, bool) {
	if maxPlies > 0 && plies >= maxPlies {
		return rules.Draw(rules.Adjudication), true
	}
	return rules.Outcome{}, false
}

// ReadOpenings reads the start positions of a match from r, the text called name,
// one position of v a line in its FEN; blank lines and lines that start with #
// are skipped. A line that is not a position of v, or whose game is over, is an
// error naming the line, and so is a text without any position.
func ReadOpenings(r io.Reader, v rules.Variant, name string) ([]rules.Position, error) {
	var out []rules.Position
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		pos, err := v.ParsePosition(line)
		if err != nil {
			return nil, fmt.Errorf("%w: line %d of %s is not a %s position: %s", ErrBadConfig, n, name, v.Name(), rules.SentenceOf(err))
		}
		if o := pos.Outcome(); o.IsOver() {
			return nil, fmt.Errorf("%w: line %d of %s is a finished game (%v)", ErrBadConfig, n, name, o)
		}
		out = append(out, pos)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("match: reading %s: %w", name, err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: %s holds no position (one FEN a line)", ErrBadConfig, name)
	}
	return out, nil
}
