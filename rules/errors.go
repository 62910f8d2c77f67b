package rules

import "errors"

// Sentinel errors for control flow. Functions wrap them with %w and a sentence that
// says what was wrong and how to do it right; callers test with errors.Is.
var (
	// ErrIllegalMove: the move is well formed but not legal in the position.
	ErrIllegalMove = errors.New("illegal move")
	// ErrAmbiguousMove: the text matches more than one legal move.
	ErrAmbiguousMove = errors.New("ambiguous move")
	// ErrBadNotation: the text of a move, square, side or piece cannot be read.
	ErrBadNotation = errors.New("bad notation")
	// ErrBadPosition: a position text (FEN or Gess text) is malformed or impossible.
	ErrBadPosition = errors.New("bad position")
	// ErrGameOver: the position is already decided, so no move can be played.
	ErrGameOver = errors.New("game over")
	// ErrNotYourTurn: the side acting is not the one (or one of those) due to act.
	ErrNotYourTurn = errors.New("not your turn")
	// ErrUnknownVariant: no variant has the requested key.
	ErrUnknownVariant = errors.New("unknown variant")
)
