package rules

import "fmt"

// Status says whether a game goes on, was won, or was drawn; the text values are stored.
type Status string

// The statuses of a game.
const (
	Ongoing Status = "ongoing"
	Won     Status = "won"
	Drawn   Status = "drawn"
)

// Reason is the stable, stored cause of a decided game.
type Reason string

// The reasons a game ends. The rules core decides the first group by itself; the
// game layer adds the second (agreement, resignation, timeout, abort).
const (
	NoReason             Reason = ""
	Checkmate            Reason = "checkmate"
	Stalemate            Reason = "stalemate"
	Threefold            Reason = "threefold"
	FiftyMove            Reason = "fifty-move"
	InsufficientMaterial Reason = "insufficient-material"
	RingLoss             Reason = "ring-loss"

	Agreement   Reason = "agreement"
	Resignation Reason = "resignation"
	Timeout     Reason = "timeout"
	TimeoutDraw Reason = "timeout-insufficient-material"
	Aborted     Reason = "aborted"
	// Adjudication is a draw declared by an engine match's move cap.
	Adjudication Reason = "adjudication"
)

// Outcome is the state of a game: ongoing, or decided with a winner (when won) and a reason.
type Outcome struct {
	Status Status
	Winner Side // meaningful only when Status == Won
	Reason Reason
}

// OngoingOutcome is the outcome of a game still being played.
var OngoingOutcome = Outcome{Status: Ongoing}

// Win returns the outcome of a game that winner won for reason.
func Win(winner Side, reason Reason) Outcome {
	return Outcome{Status: Won, Winner: winner, Reason: reason}
}

// Draw returns the outcome of a game drawn for reason.
func Draw(reason Reason) Outcome { return Outcome{Status: Drawn, Reason: reason} }

// IsOver reports whether the game has been decided.
func (o Outcome) IsOver() bool { return o.Status == Won || o.Status == Drawn }

// Result returns the PGN result token: "1-0", "0-1", "1/2-1/2" or "*".
func (o Outcome) Result() string {
	switch o.Status {
	case Won:
		if o.Winner == White {
			return "1-0"
		}
		return "0-1"
	case Drawn:
		return "1/2-1/2"
	}
	return "*"
}

// String describes o in a short English phrase such as "white wins by checkmate".
func (o Outcome) String() string {
	switch o.Status {
	case Won:
		return fmt.Sprintf("%s wins by %s", o.Winner, o.Reason)
	case Drawn:
		return fmt.Sprintf("draw by %s", o.Reason)
	}
	return "ongoing"
}
