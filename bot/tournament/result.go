package tournament

import (
	"errors"
	"fmt"
	"strings"
)

// Sentinel errors; functions wrap them with a sentence that says what was wrong.
var (
	// ErrBadTournament marks invalid settings or a damaged tournament record.
	ErrBadTournament = errors.New("tournament: invalid tournament")
	// ErrBadResult marks a result text or value that is not one of the results.
	ErrBadResult = errors.New("tournament: invalid result")
	// ErrUnknownGame: no game of the tournament matches the one named.
	ErrUnknownGame = errors.New("tournament: no such game")
	// ErrAlreadyDecided: the game already has a result.
	ErrAlreadyDecided = errors.New("tournament: game already decided")
	// ErrUnknownPlayer: the player does not take part in the tournament.
	ErrUnknownPlayer = errors.New("tournament: not a participant")
	// ErrWithdrawn: the player has already withdrawn.
	ErrWithdrawn = errors.New("tournament: player already withdrawn")
	// ErrRoundInProgress: the current round still has games without a result.
	ErrRoundInProgress = errors.New("tournament: round in progress")
	// ErrFinished: every round has been paired.
	ErrFinished = errors.New("tournament: all rounds paired")
	// ErrNoPairing: no pairing of the next round exists without a rematch
	// (too few players left after withdrawals).
	ErrNoPairing = errors.New("tournament: no pairing possible")
	// ErrNotSwiss: the operation applies to Swiss tournaments only.
	ErrNotSwiss = errors.New("tournament: not a Swiss tournament")
)

// PlayerID identifies a participant (a Discord user id, or an engine's key).
type PlayerID string

// Result is the stable text of a game's result, as persisted.
type Result string

// The results of a tournament game. Forfeits are games not played: a player
// withdrew or did not start; they score like wins and losses but are not games
// over the board (no colour, no rating, no "played" count).
const (
	// Pending: the game has no result yet.
	Pending Result = ""
	// WhiteWins, BlackWins and Draw end a game played over the board,
	// timeouts and resignations included.
	WhiteWins Result = "1-0"
	BlackWins Result = "0-1"
	Draw      Result = "1/2-1/2"
	// WhiteWinsByForfeit: Black forfeited an unplayed game.
	WhiteWinsByForfeit Result = "+-"
	// BlackWinsByForfeit: White forfeited an unplayed game.
	BlackWinsByForfeit Result = "-+"
	// DoubleForfeit: neither side played; nobody scores.
	DoubleForfeit Result = "--"
	// Bye: the player sat out a Swiss round for want of an opponent and
	// scores one point. Only a game with no Black player has it.
	Bye Result = "bye"
)

// ParseResult reads a result as stored or as typed: "1-0", "0-1", "1/2-1/2"
// (or "½-½", "draw"), "+-", "-+", "--", "bye", and "" or "*" for pending.
func ParseResult(s string) (Result, error) {
	switch t := strings.ToLower(strings.TrimSpace(s)); t {
	case "", "*":
		return Pending, nil
	case "½-½", "0.5-0.5", "draw":
		return Draw, nil
	default:
		r := Result(t)
		if r.valid() {
			return r, nil
		}
	}
	return Pending, fmt.Errorf("%w: %q; use 1-0, 0-1, 1/2-1/2, +-, -+, -- or bye", ErrBadResult, s)
}

func (r Result) valid() bool {
	switch r {
	case Pending, WhiteWins, BlackWins, Draw, WhiteWinsByForfeit, BlackWinsByForfeit, DoubleForfeit, Bye:
		return true
	}
	return false
}

// Decided reports whether the game has a result.
func (r Result) Decided() bool { return r != Pending }

// Played reports whether the result is of a game played over the board.
func (r Result) Played() bool { return r == WhiteWins || r == BlackWins || r == Draw }

// halves returns the points of White and Black in half points.
func (r Result) halves() (white, black int) {
	switch r {
	case WhiteWins, WhiteWinsByForfeit, Bye:
		return 2, 0
	case BlackWins, BlackWinsByForfeit:
		return 0, 2
	case Draw:
		return 1, 1
	}
	return 0, 0
}

// Points returns the points White and Black score with the result.
func (r Result) Points() (white, black float64) {
	w, b := r.halves()
	return float64(w) / 2, float64(b) / 2
}

// Game is one pairing of a tournament: a game, or a bye (Black empty).
type Game struct {
	// Round is the round number, from 1.
	Round int `json:"round"`
	// White and Black are the players; Black is empty for a bye.
	White PlayerID `json:"white"`
	Black PlayerID `json:"black,omitempty"`
	// Result is Pending until the game ends.
	Result Result `json:"result,omitempty"`
}

// IsBye reports whether the pairing is a bye.
func (g Game) IsBye() bool { return g.Black == "" }

// Has reports whether p plays in the game.
func (g Game) Has(p PlayerID) bool { return g.White == p || g.Black == p }

// Opponent returns p's opponent in the game ("" for a bye).
func (g Game) Opponent(p PlayerID) PlayerID {
	if g.White == p {
		return g.Black
	}
	return g.White
}

// halvesOf returns p's points in half points (0 while pending).
func (g Game) halvesOf(p PlayerID) int {
	w, b := g.Result.halves()
	if g.White == p {
		return w
	}
	return b
}

// String formats the game as "3: alice - bob 1-0" or "3: carol bye".
func (g Game) String() string {
	res := string(g.Result)
	if res == "" {
		res = "*"
	}
	if g.IsBye() {
		return fmt.Sprintf("%d: %s bye", g.Round, g.White)
	}
	return fmt.Sprintf("%d: %s - %s %s", g.Round, g.White, g.Black, res)
}
