package engine

import "fmt"

// Score is an evaluation in centipawns from the point of view of the side to move
// (or, in results, of the side the engine played for); mates are scored MateScore
// minus the plies to the mate.
type Score int

// Score bounds: a mate in n plies scores MateScore-n for the winner.
const (
	MateScore   Score = 1_000_000
	mateBound   Score = MateScore - 10_000
	infinity    Score = MateScore + 1
	drawScore   Score = 0
	noScore     Score = -infinity - 1
	maxPly            = 128
	maxQPlyGess       = 2
)

// IsMate reports whether s announces a forced mate (or, in Gess, a forced ring loss).
func (s Score) IsMate() bool { return s >= mateBound || s <= -mateBound }

// MateIn returns the number of moves (not plies) to the mate s announces: positive
// when the side to move mates, negative when it is mated, 0 when s is not a mate.
func (s Score) MateIn() int {
	switch {
	case s >= mateBound:
		return int(MateScore-s+1) / 2
	case s <= -mateBound:
		return -int(MateScore+s) / 2
	}
	return 0
}

// String returns the score as "+1.25" pawns or "#3" / "#-2" for mates.
func (s Score) String() string {
	if s.IsMate() {
		return fmt.Sprintf("#%d", s.MateIn())
	}
	return fmt.Sprintf("%+.2f", float64(s)/100)
}

// UCI returns the score in UCI's "cp N" or "mate N" form.
func (s Score) UCI() string {
	if s.IsMate() {
		return fmt.Sprintf("mate %d", s.MateIn())
	}
	return fmt.Sprintf("cp %d", int(s))
}
