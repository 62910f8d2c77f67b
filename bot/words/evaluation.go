package words

import "github.com/missivechess/missive/rules"

// evaluationWords word the engine's evaluations of one game: what they count, for
// people ("" for pawns), and a forced win and loss for the player a hint or review
// is for, with %s for the moves ("" for mate).
type evaluationWords struct{ units, win, lose string }

// evaluations holds the games whose evaluations are not worded as in chess.
func evaluations(variant string) evaluationWords {
	switch variant {
	case "gess":
		return evaluationWords{units: "the engine's own Gess units: a stone is worth 0.2, a spare ring 2.5",
			win: "you win in %s", lose: "even so, you lose in %s"}
	}
	return evaluationWords{}
}

// Units says what the engine's evaluations of variant's games count when it is
// not pawns; "" for pawns, which go without saying.
func Units(variant string) string { return evaluations(variant).units }

// EvaluationUnits says what the engine's evaluations of variant's games count:
// "pawns", or the game's own units.
func EvaluationUnits(variant string) string {
	if u := Units(variant); u != "" {
		return u
	}
	return "pawns"
}

// ForcedWin returns the words for a forced win and a forced loss in variant's
// games, each with %s for the number of moves.
func ForcedWin(variant string) (win, lose string) {
	if e := evaluations(variant); e.win != "" {
		return e.win, e.lose
	}
	return "you mate in %s", "even so, you are mated in %s"
}

// Move writes m for people: SAN, or drop notation for a placement choice.
func Move(pos rules.Position, m rules.Move) string {
	if m.IsDrop() {
		return string(m.Drop.Letter()) + "@" + pos.Variant().Dims().Name(m.To)
	}
	return pos.SAN(m)
}
