package bot

import (
	"slices"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/chess"
)

// Insufficient material on time.
//
// When a player runs out of time the opponent wins, unless the opponent "could not
// possibly mate": then the game is drawn. The rules packages decide insufficient
// material for both sides together (each chess variant's Spec.Insufficient, taken
// from RULES.md); for a timeout only the winner's material counts, so canWin applies
// the variant's entries against a bare king (Weak == "") to the winner's pieces: a
// side that could not mate a bare king with them cannot win. A side with a pawn can
// always win (it may promote, or, in Go-Chess, help to mate). Gess has no such rule:
// a side with stones can always still break the last ring.

// specer is a chess-family variant (*chess.Variant).
type specer interface{ Spec() chess.Spec }

// corer is a variant wrapping a chess-family core (Go-Chess).
type corer interface{ Core() *chess.Variant }

// hopelessSets returns the sorted piece letters (besides the king) that cannot mate
// a bare king in v, and false when v is not of the chess family.
func hopelessSets(v rules.Variant) ([]string, bool) {
	var sp chess.Spec
	switch cv := v.(type) {
	case specer:
		sp = cv.Spec()
	case corer:
		sp = cv.Core().Spec()
	default:
		return nil, false
	}
	var out []string
	for _, md := range sp.Insufficient {
		if md.Weak == "" {
			b := []byte(md.Strong)
			slices.Sort(b)
			out = append(out, string(b))
		}
	}
	return out, true
}

// canWin reports whether side has enough material in pos to win, by the rule above.
// During a secret placement round material is still coming, so it is true.
func canWin(pos rules.Position, side rules.Side) bool {
	if _, ok := inRound(pos); ok {
		return true
	}
	sets, chessLike := hopelessSets(pos.Variant())
	if !chessLike {
		return true
	}
	var kinds []byte
	for _, c := range pos.Board().Cells {
		p := c.Piece
		if p.IsNone() || p.Side != side || p.Kind == rules.King {
			continue
		}
		if p.Kind == rules.Pawn {
			return true
		}
		kinds = append(kinds, p.Kind.Letter())
	}
	slices.Sort(kinds)
	return !slices.Contains(sets, string(kinds))
}
