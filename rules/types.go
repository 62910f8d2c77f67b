package rules

import (
	"fmt"
	"strings"
)

// Side is a player's colour; its numeric value is stable and may be persisted.
type Side uint8

// The two sides. The values are fixed (not iota) because they are stored.
const (
	White Side = 0
	Black Side = 1
)

// Sides lists both sides in a fixed order, White first.
var Sides = [2]Side{White, Black}

// Other returns the opponent of s.
func (s Side) Other() Side { return s ^ 1 }

// String returns "white" or "black", the stable text form of s.
func (s Side) String() string {
	switch s {
	case White:
		return "white"
	case Black:
		return "black"
	}
	return fmt.Sprintf("side(%d)", uint8(s))
}

// ParseSide reads "white"/"w" or "black"/"b" in any letter case.
func ParseSide(text string) (Side, error) {
	switch strings.ToLower(strings.TrimSpace(text)) {
	case "white", "w":
		return White, nil
	case "black", "b":
		return Black, nil
	}
	return White, RefuseAs(ErrBadNotation, "side.unknown", Args{"Text": Echo(text)}, "Say white or black, not %s.", Echo(text))
}

// PieceKind is the kind of a piece; its numeric value is stable and may be persisted.
type PieceKind uint8

// The piece kinds of all four games. The values are fixed (not iota) because they
// are stored; a new kind takes a new number.
const (
	NoPiece    PieceKind = 0
	Pawn       PieceKind = 1
	Knight     PieceKind = 2
	Bishop     PieceKind = 3
	Rook       PieceKind = 4
	Queen      PieceKind = 5
	King       PieceKind = 6
	Chancellor PieceKind = 7
	Archbishop PieceKind = 8
	Stone      PieceKind = 9
)

// PieceKinds lists every kind that can stand on a board, in value order.
var PieceKinds = [...]PieceKind{Pawn, Knight, Bishop, Rook, Queen, King, Chancellor, Archbishop, Stone}

var kindLetters = [...]byte{NoPiece: '?', Pawn: 'P', Knight: 'N', Bishop: 'B', Rook: 'R', Queen: 'Q', King: 'K', Chancellor: 'C', Archbishop: 'A', Stone: 'S'}

var kindNames = [...]string{NoPiece: "none", Pawn: "pawn", Knight: "knight", Bishop: "bishop", Rook: "rook", Queen: "queen", King: "king", Chancellor: "chancellor", Archbishop: "archbishop", Stone: "stone"}

// Letter returns the upper-case letter of k as used in FEN and SAN (P N B R Q K C A, S for a stone).
func (k PieceKind) Letter() byte {
	if int(k) < len(kindLetters) {
		return kindLetters[k]
	}
	return '?'
}

// String returns the lower-case English name of k.
func (k PieceKind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

// PieceKindFromLetter maps a FEN/SAN letter in either case to its kind.
func PieceKindFromLetter(c byte) (PieceKind, bool) {
	if c >= 'a' && c <= 'z' {
		c -= 'a' - 'A'
	}
	for k := Pawn; k <= Stone; k++ {
		if kindLetters[k] == c {
			return k, true
		}
	}
	return NoPiece, false
}

// Piece is a kind of piece belonging to a side; the zero value is no piece.
type Piece struct {
	Side Side
	Kind PieceKind
}

// IsNone reports whether p is the empty piece.
func (p Piece) IsNone() bool { return p.Kind == NoPiece }

// FENLetter returns p's letter, upper case for White and lower case for Black.
func (p Piece) FENLetter() byte {
	c := p.Kind.Letter()
	if p.Side == Black {
		c += 'a' - 'A'
	}
	return c
}

// String returns a phrase such as "white knight".
func (p Piece) String() string {
	if p.IsNone() {
		return "no piece"
	}
	return p.Side.String() + " " + p.Kind.String()
}
