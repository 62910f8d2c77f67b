package rules

// CellState says whether a square of the bounding rectangle is part of the board.
type CellState uint8

// The states of a cell. Values are fixed because positions and images depend on them.
const (
	Playable CellState = 0 // an ordinary square
	Missing  CellState = 1 // not part of the board (outside Keltic's cross)
	Blocked  CellState = 2 // part of the board but closed (Go-Chess's blocked cells)
)

// Cell is one square of a Board view.
type Cell struct {
	State CellState
	Piece Piece
}

// Board is a read-only snapshot of what stands where, for drawing and text output.
// Cells is indexed by Square over the bounding rectangle Dims.
type Board struct {
	Dims
	Cells []Cell
}

// Pieces counts the pieces on the board.
func (b Board) Pieces() int {
	n := 0
	for _, c := range b.Cells {
		if !c.Piece.IsNone() {
			n++
		}
	}
	return n
}

// At returns the cell at sq, or a Missing cell when sq is outside the rectangle.
func (b Board) At(sq Square) Cell {
	if !b.Contains(sq) || int(sq) >= len(b.Cells) {
		return Cell{State: Missing}
	}
	return b.Cells[sq]
}
