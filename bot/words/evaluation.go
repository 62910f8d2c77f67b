package words

import "github.com/missivechess/missive/rules"

// Units says what the engine's evaluations of variant's games count when it is
// not pawns; "" for pawns, which go without saying.
func Units(variant string) string { return English.Units(variant) }

// EvaluationUnits says what the engine's evaluations of variant's games count:
// "pawns", or the game's own units.
func EvaluationUnits(variant string) string { return English.EvaluationUnits(variant) }

// ForcedWin returns the words for a forced win and a forced loss in variant's
// games, each with %s for the number of moves.
func ForcedWin(variant string) (win, lose string) { return English.ForcedWin(variant) }

// Move writes m for people: SAN, or drop notation for a placement choice.
func Move(pos rules.Position, m rules.Move) string {
	if m.IsDrop() {
		return string(m.Drop.Letter()) + "@" + pos.Variant().Dims().Name(m.To)
	}
	return pos.SAN(m)
}
