package rules

import (
	"strconv"
	"strings"
)

// Square indexes a cell of a board's bounding rectangle: rank*Files + file, with a1 = 0.
type Square int16

// NoSquare is the absent square (the From of a placement move, an empty en-passant field).
const NoSquare Square = -1

// MaxFiles is the widest board any game uses (Gess's 20x20 frame).
const MaxFiles = 20

// Dims is the size of a board's bounding rectangle and converts squares to and from
// coordinates and names such as "j10".
type Dims struct {
	Files, Ranks int
}

// Cells returns the number of squares in the rectangle.
func (d Dims) Cells() int { return d.Files * d.Ranks }

// Square returns the square at zero-based file and rank, or NoSquare when outside.
func (d Dims) Square(file, rank int) Square {
	if file < 0 || rank < 0 || file >= d.Files || rank >= d.Ranks {
		return NoSquare
	}
	return Square(rank*d.Files + file)
}

// Contains reports whether sq lies inside the rectangle.
func (d Dims) Contains(sq Square) bool { return sq >= 0 && int(sq) < d.Cells() }

// File returns the zero-based file of sq (a = 0).
func (d Dims) File(sq Square) int { return int(sq) % d.Files }

// Rank returns the zero-based rank of sq (rank 1 = 0).
func (d Dims) Rank(sq Square) int { return int(sq) / d.Files }

// Name returns the algebraic name of sq such as "e4" or "j10", or "-" for NoSquare.
func (d Dims) Name(sq Square) string {
	if !d.Contains(sq) {
		return "-"
	}
	return string(rune('a'+d.File(sq))) + strconv.Itoa(d.Rank(sq)+1)
}

// ParseSquare reads an algebraic square name in either letter case.
func (d Dims) ParseSquare(name string) (Square, error) {
	sq, n := d.ScanSquare(name)
	if n == 0 || n != len(name) {
		return NoSquare, RefuseAs(ErrBadNotation, "square.unknown",
			Args{"Text": Echo(name), "Files": strconv.Itoa(d.Files), "Ranks": strconv.Itoa(d.Ranks), "LastFile": string(rune('a' + d.Files - 1))},
			"There is no square %s on this %dx%d board: files run from a to %c and ranks from 1 to %d.",
			Echo(name), d.Files, d.Ranks, 'a'+d.Files-1, d.Ranks)
	}
	return sq, nil
}

// ScanSquare reads a square name at the start of text and returns it with the number
// of bytes used; it returns (NoSquare, 0) when text does not start with a square of
// this board. It prefers the longest rank that fits ("a10" on a 10-rank board).
func (d Dims) ScanSquare(text string) (Square, int) {
	if len(text) < 2 {
		return NoSquare, 0
	}
	c := strings.ToLower(text[:1])[0]
	file := int(c) - 'a'
	if file < 0 || file >= d.Files {
		return NoSquare, 0
	}
	best, used := NoSquare, 0
	rank := 0
	for i := 1; i < len(text) && i <= 2; i++ {
		ch := text[i]
		if ch < '0' || ch > '9' || (i == 1 && ch == '0') {
			break
		}
		rank = rank*10 + int(ch-'0')
		if rank >= 1 && rank <= d.Ranks {
			best, used = d.Square(file, rank-1), i+1
		}
	}
	return best, used
}
