package board

import (
	"math/bits"

	"github.com/missivechess/missive/rules"
)

// MaxCells is the largest bounding rectangle a Geometry supports (two 64-bit words).
const MaxCells = 128

// Bitboard is a set of squares of a board of up to MaxCells cells: bit i stands for
// rules.Square i (rank*Files + file, a1 = 0), Lo holding squares 0-63 and Hi 64-127.
type Bitboard struct{ Lo, Hi uint64 }

// Bit returns the set holding only sq; sq must lie in 0..MaxCells-1.
func Bit(sq rules.Square) Bitboard {
	if sq < 64 {
		return Bitboard{Lo: 1 << uint(sq)}
	}
	return Bitboard{Hi: 1 << uint(sq-64)}
}

// Has reports whether sq is in b.
func (b Bitboard) Has(sq rules.Square) bool {
	if sq < 64 {
		return b.Lo>>uint(sq)&1 != 0
	}
	return b.Hi>>uint(sq-64)&1 != 0
}

// Or returns the union of b and c.
func (b Bitboard) Or(c Bitboard) Bitboard { return Bitboard{b.Lo | c.Lo, b.Hi | c.Hi} }

// And returns the intersection of b and c.
func (b Bitboard) And(c Bitboard) Bitboard { return Bitboard{b.Lo & c.Lo, b.Hi & c.Hi} }

// AndNot returns the squares of b that are not in c.
func (b Bitboard) AndNot(c Bitboard) Bitboard { return Bitboard{b.Lo &^ c.Lo, b.Hi &^ c.Hi} }

// Xor returns the squares in exactly one of b and c.
func (b Bitboard) Xor(c Bitboard) Bitboard { return Bitboard{b.Lo ^ c.Lo, b.Hi ^ c.Hi} }

// IsEmpty reports whether b holds no square.
func (b Bitboard) IsEmpty() bool { return b.Lo|b.Hi == 0 }

// Any reports whether b holds at least one square.
func (b Bitboard) Any() bool { return b.Lo|b.Hi != 0 }

// Count returns the number of squares in b.
func (b Bitboard) Count() int { return bits.OnesCount64(b.Lo) + bits.OnesCount64(b.Hi) }

// More reports whether b holds more than one square.
func (b Bitboard) More() bool {
	return b.Lo&(b.Lo-1) != 0 || b.Hi&(b.Hi-1) != 0 || (b.Lo != 0 && b.Hi != 0)
}

// First returns the lowest square of b, or rules.NoSquare when b is empty.
func (b Bitboard) First() rules.Square {
	if b.Lo != 0 {
		return rules.Square(bits.TrailingZeros64(b.Lo))
	}
	if b.Hi != 0 {
		return rules.Square(64 + bits.TrailingZeros64(b.Hi))
	}
	return rules.NoSquare
}

// Last returns the highest square of b, or rules.NoSquare when b is empty.
func (b Bitboard) Last() rules.Square {
	if b.Hi != 0 {
		return rules.Square(127 - bits.LeadingZeros64(b.Hi))
	}
	if b.Lo != 0 {
		return rules.Square(63 - bits.LeadingZeros64(b.Lo))
	}
	return rules.NoSquare
}

// PopFirst removes the lowest square of b and returns it; b must not be empty.
func (b *Bitboard) PopFirst() rules.Square {
	if b.Lo != 0 {
		s := bits.TrailingZeros64(b.Lo)
		b.Lo &= b.Lo - 1
		return rules.Square(s)
	}
	s := bits.TrailingZeros64(b.Hi)
	b.Hi &= b.Hi - 1
	return rules.Square(64 + s)
}

// Set returns b with sq added.
func (b Bitboard) Set(sq rules.Square) Bitboard { return b.Or(Bit(sq)) }

// Clear returns b with sq removed.
func (b Bitboard) Clear(sq rules.Square) Bitboard { return b.AndNot(Bit(sq)) }

// Squares appends the squares of b to dst in increasing order and returns it.
func (b Bitboard) Squares(dst []rules.Square) []rules.Square {
	for b.Any() {
		dst = append(dst, b.PopFirst())
	}
	return dst
}
