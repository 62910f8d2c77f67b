package board

import (
	"fmt"

	"github.com/missivechess/missive/rules"
)

// Direction is one of the eight unit steps of a rider (rook and bishop lines).
type Direction uint8

// The eight directions, clockwise from North (toward higher ranks, White's forward).
const (
	North     Direction = 0
	NorthEast Direction = 1
	East      Direction = 2
	SouthEast Direction = 3
	South     Direction = 4
	SouthWest Direction = 5
	West      Direction = 6
	NorthWest Direction = 7
)

// Orthogonal and Diagonal list the rook's and the bishop's directions.
var (
	Orthogonal = []Direction{North, East, South, West}
	Diagonal   = []Direction{NorthEast, SouthEast, SouthWest, NorthWest}
)

var dirDelta = [8]Offset{{0, 1}, {1, 1}, {1, 0}, {1, -1}, {0, -1}, {-1, -1}, {-1, 0}, {-1, 1}}

// Offset returns the file and rank step of d.
func (d Direction) Offset() Offset { return dirDelta[d&7] }

// Opposite returns the direction pointing the other way.
func (d Direction) Opposite() Direction { return (d + 4) & 7 }

// ForSide returns White's direction d as side s sees it: Black's forward is
// South (top and bottom exchanged).
func (d Direction) ForSide(s rules.Side) Direction {
	if s == rules.White {
		return d
	}
	o := d.Offset()
	for m := Direction(0); m < 8; m++ {
		if mo := m.Offset(); mo.File == o.File && mo.Rank == -o.Rank {
			return m
		}
	}
	return d
}

// increasing reports whether a step in d increases the square index (N, NE, E, NW).
func (d Direction) increasing() bool {
	o := dirDelta[d&7]
	return o.Rank > 0 || (o.Rank == 0 && o.File > 0)
}

// Offset is a leap or step: files to the right and ranks up, from White's view.
type Offset struct{ File, Rank int8 }

// KnightLeaps and KingSteps are the leaps of the knight and the king.
var (
	KnightLeaps = []Offset{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}}
	KingSteps   = []Offset{{0, 1}, {1, 1}, {1, 0}, {1, -1}, {0, -1}, {-1, -1}, {-1, 0}, {-1, 1}}
)

// Geometry is a board shape: a bounding rectangle of at most MaxCells cells, some of
// which may be Missing (not part of the board) or Blocked (closed), with
// precomputed rays and steps. Rays stop before a hole and at the edge; leaps may
// pass over holes but never land on one. A Geometry is immutable once built and
// may be shared between goroutines.
//
// Squares are numbered as rules.Square: rank*Files + file from a1 = 0. For
// Keltic's 9x7 rectangle (x = missing cell):
//
//	rank 7 | x  x  x  57 58 59 x  x  x
//	rank 6 | x  x  47 48 49 50 51 x  x
//	rank 5 | 36 37 38 39 40 41 42 43 44
//	rank 4 | 27 28 29 30 31 32 33 34 35
//	rank 3 | 18 19 20 21 22 23 24 25 26
//	rank 2 | x  x  11 12 13 14 15 x  x
//	rank 1 | x  x  x  3  4  5  x  x  x
//	       +---------------------------
//	         a  b  c  d  e  f  g  h  i
type Geometry struct {
	dims  rules.Dims
	cells int
	state [MaxCells]rules.CellState
	open  Bitboard
	light Bitboard
	ray   [8][MaxCells]Bitboard
	step  [8][MaxCells]rules.Square
	orth  [MaxCells]Bitboard
	diag  [MaxCells]Bitboard
	dirTo [MaxCells][MaxCells]int8
}

// New builds the geometry of a rectangle d whose cells have the given states
// (indexed by square; nil means all Playable).
func New(d rules.Dims, states []rules.CellState) (*Geometry, error) {
	n := d.Cells()
	if d.Files < 1 || d.Ranks < 1 || n > MaxCells || d.Files > rules.MaxFiles {
		return nil, fmt.Errorf("board: a %dx%d board does not fit in %d cells", d.Files, d.Ranks, MaxCells)
	}
	if states != nil && len(states) != n {
		return nil, fmt.Errorf("board: %d cell states for a %dx%d board of %d cells", len(states), d.Files, d.Ranks, n)
	}
	g := &Geometry{dims: d, cells: n}
	for sq := rules.Square(0); int(sq) < n; sq++ {
		st := rules.Playable
		if states != nil {
			st = states[sq]
		}
		switch st {
		case rules.Playable:
			g.open = g.open.Set(sq)
		case rules.Missing, rules.Blocked:
		default:
			return nil, fmt.Errorf("board: unknown cell state %d at %s", st, d.Name(sq))
		}
		g.state[sq] = st
		if (d.File(sq)+d.Rank(sq))%2 == 1 {
			g.light = g.light.Set(sq)
		}
	}
	for a := range g.dirTo {
		for b := range g.dirTo[a] {
			g.dirTo[a][b] = -1
		}
	}
	for dir := Direction(0); dir < 8; dir++ {
		for sq := rules.Square(0); sq < MaxCells; sq++ {
			g.step[dir][sq] = rules.NoSquare
		}
		for sq := rules.Square(0); int(sq) < n; sq++ {
			if !g.open.Has(sq) {
				continue
			}
			g.step[dir][sq] = g.Leap(sq, dir.Offset())
			for t := g.step[dir][sq]; t != rules.NoSquare; t = g.Leap(t, dir.Offset()) {
				g.ray[dir][sq] = g.ray[dir][sq].Set(t)
				g.dirTo[sq][t] = int8(dir)
			}
		}
	}
	for sq := 0; sq < n; sq++ {
		g.orth[sq] = g.ray[North][sq].Or(g.ray[East][sq]).Or(g.ray[South][sq]).Or(g.ray[West][sq])
		g.diag[sq] = g.ray[NorthEast][sq].Or(g.ray[SouthEast][sq]).Or(g.ray[SouthWest][sq]).Or(g.ray[NorthWest][sq])
	}
	return g, nil
}

// MustNew is New for fixed shapes known to be valid; it panics on an error.
func MustNew(d rules.Dims, states []rules.CellState) *Geometry {
	g, err := New(d, states)
	if err != nil {
		panic(err)
	}
	return g
}

// Dims returns the bounding rectangle.
func (g *Geometry) Dims() rules.Dims { return g.dims }

// State returns the state of sq; squares outside the rectangle are Missing.
func (g *Geometry) State(sq rules.Square) rules.CellState {
	if sq < 0 || int(sq) >= g.cells {
		return rules.Missing
	}
	return g.state[sq]
}

// IsOpen reports whether a piece may stand on sq.
func (g *Geometry) IsOpen(sq rules.Square) bool {
	return sq >= 0 && int(sq) < g.cells && g.state[sq] == rules.Playable
}

// Open returns the set of squares a piece may stand on.
func (g *Geometry) Open() Bitboard { return g.open }

// Light returns the light squares of the rectangle ((file+rank) odd with a1 = 0,0, so a1 is dark).
func (g *Geometry) Light() Bitboard { return g.light }

// Leap returns the open square reached from sq by offset o, or rules.NoSquare when
// it is off the rectangle or not open. Nothing in between is looked at.
func (g *Geometry) Leap(sq rules.Square, o Offset) rules.Square {
	f, r := g.dims.File(sq)+int(o.File), g.dims.Rank(sq)+int(o.Rank)
	t := g.dims.Square(f, r)
	if t == rules.NoSquare || !g.open.Has(t) {
		return rules.NoSquare
	}
	return t
}

// Step returns the open neighbour of sq in direction d, or rules.NoSquare.
func (g *Geometry) Step(sq rules.Square, d Direction) rules.Square {
	return g.step[d&7][sq&(MaxCells-1)]
}

// Ray returns the open squares from sq (exclusive) in direction d up to the edge or
// the first hole, whatever stands on them.
func (g *Geometry) Ray(sq rules.Square, d Direction) Bitboard { return g.ray[d&7][sq&(MaxCells-1)] }

// LeapTable returns, for every square, the open squares reached by the offsets.
func (g *Geometry) LeapTable(offsets []Offset) []Bitboard {
	t := make([]Bitboard, MaxCells)
	for sq := rules.Square(0); int(sq) < g.cells; sq++ {
		if !g.open.Has(sq) {
			continue
		}
		for _, o := range offsets {
			if to := g.Leap(sq, o); to != rules.NoSquare {
				t[sq] = t[sq].Set(to)
			}
		}
	}
	return t
}

// OrthRays returns the rook's reach from sq on an empty board.
func (g *Geometry) OrthRays(sq rules.Square) Bitboard { return g.orth[sq&(MaxCells-1)] }

// DiagRays returns the bishop's reach from sq on an empty board.
func (g *Geometry) DiagRays(sq rules.Square) Bitboard { return g.diag[sq&(MaxCells-1)] }

func (g *Geometry) up(d Direction, sq rules.Square, occ Bitboard) Bitboard {
	r := g.ray[d][sq&(MaxCells-1)]
	if b := r.And(occ); b.Any() {
		return r.Xor(g.ray[d][b.First()&(MaxCells-1)])
	}
	return r
}

func (g *Geometry) down(d Direction, sq rules.Square, occ Bitboard) Bitboard {
	r := g.ray[d][sq&(MaxCells-1)]
	if b := r.And(occ); b.Any() {
		return r.Xor(g.ray[d][b.Last()&(MaxCells-1)])
	}
	return r
}

// RookAttacks returns the squares a rook on sq reaches when occ is occupied: each
// line runs to the first occupied square (included), the edge or a hole.
func (g *Geometry) RookAttacks(sq rules.Square, occ Bitboard) Bitboard {
	return g.up(North, sq, occ).Or(g.up(East, sq, occ)).Or(g.down(South, sq, occ)).Or(g.down(West, sq, occ))
}

// BishopAttacks returns the squares a bishop on sq reaches when occ is occupied.
func (g *Geometry) BishopAttacks(sq rules.Square, occ Bitboard) Bitboard {
	return g.up(NorthEast, sq, occ).Or(g.up(NorthWest, sq, occ)).Or(g.down(SouthEast, sq, occ)).Or(g.down(SouthWest, sq, occ))
}

// SlideAttacks returns the squares reached from sq along direction d when occ is occupied.
func (g *Geometry) SlideAttacks(sq rules.Square, d Direction, occ Bitboard) Bitboard {
	if d.increasing() {
		return g.up(d&7, sq, occ)
	}
	return g.down(d&7, sq, occ)
}

// Direction returns the direction from a to b when b lies on an open line from a
// (no hole between them), and false otherwise.
func (g *Geometry) Direction(a, b rules.Square) (Direction, bool) {
	if a < 0 || b < 0 || a >= MaxCells || b >= MaxCells {
		return 0, false
	}
	d := g.dirTo[a][b]
	return Direction(d), d >= 0
}

// Between returns the squares strictly between a and b when they lie on an open
// line, and the empty set otherwise.
func (g *Geometry) Between(a, b rules.Square) Bitboard {
	d, ok := g.Direction(a, b)
	if !ok {
		return Bitboard{}
	}
	return g.ray[d][a].AndNot(g.ray[d][b]).Clear(b)
}
