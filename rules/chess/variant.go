package chess

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/board"
)

// Variant is a compiled chess-family variant; it implements rules.Variant.
type Variant struct {
	spec    Spec
	owner   rules.Variant
	fixed   *tables // the tables of the one board shape, nil when cells are blocked per game
	missing []rules.CellState
	letters string // the piece letters the FEN may use, upper case
	draws   []materialDraw
	// minorMates says the board is a full rectangle and the knight and bishop move
	// as in chess, so that chess's material rules for a lone knight or bishops of
	// one colour against other pieces hold (state.canWin).
	minorMates bool
}

type materialDraw struct {
	strong, weak uint64
	sameColour   bool
}

// New compiles spec; it fails when the spec is inconsistent.
func New(spec Spec) (*Variant, error) {
	v := &Variant{spec: spec, owner: spec.Owner}
	if v.owner == nil {
		v.owner = v
	}
	d := spec.Dims
	if d.Cells() > board.MaxCells {
		return nil, fmt.Errorf("chess: %s: a %dx%d board is too large", spec.Key, d.Files, d.Ranks)
	}
	v.missing = make([]rules.CellState, d.Cells())
	for _, name := range spec.Missing {
		sq, err := d.ParseSquare(name)
		if err != nil {
			return nil, fmt.Errorf("chess: %s: missing cell: %w", spec.Key, err)
		}
		v.missing[sq] = rules.Missing
	}
	letters := []byte{'P'}
	for _, pd := range spec.Pieces {
		letters = append(letters, pd.Kind.Letter())
	}
	v.letters = string(letters)
	for _, md := range spec.Insufficient {
		s, err1 := materialKey(md.Strong)
		w, err2 := materialKey(md.Weak)
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("chess: %s: bad insufficient-material entry %q v %q", spec.Key, md.Strong, md.Weak)
		}
		v.draws = append(v.draws, materialDraw{strong: s, weak: w, sameColour: md.SameColourBishops})
	}
	v.minorMates = len(spec.Missing) == 0 && spec.Blocked == 0
	for _, pd := range spec.Pieces {
		if pd.Kind == rules.Knight && !reflect.DeepEqual(pd, KnightDef) || pd.Kind == rules.Bishop && !reflect.DeepEqual(pd, BishopDef) {
			v.minorMates = false
		}
	}
	for _, k := range letters {
		kind, _ := rules.PieceKindFromLetter(k)
		if _, ok := spec.Values[kind]; !ok && kind != rules.King {
			return nil, fmt.Errorf("chess: %s: the %s has no value", spec.Key, kind)
		}
	}
	for kind := range spec.Values {
		if !v.hasKind(kind) || kind == rules.King {
			return nil, fmt.Errorf("chess: %s: a value for the %s, which the game has not", spec.Key, kind)
		}
	}
	if spec.Blocked == 0 {
		g, err := board.New(d, v.missing)
		if err != nil {
			return nil, fmt.Errorf("chess: %s: %w", spec.Key, err)
		}
		if v.fixed, err = compileTables(v, g); err != nil {
			return nil, err
		}
	} else if _, err := v.tablesFor(v.missing); err != nil {
		return nil, err
	}
	if spec.StartFEN != "" {
		if _, err := v.parse(spec.StartFEN); err != nil {
			return nil, fmt.Errorf("chess: %s: start position: %w", spec.Key, err)
		}
	}
	return v, nil
}

// MustNew is New for the built-in variants; it panics when the spec is inconsistent.
func MustNew(spec Spec) *Variant {
	v, err := New(spec)
	if err != nil {
		panic(err)
	}
	return v
}

func (v *Variant) tablesFor(states []rules.CellState) (*tables, error) {
	if v.fixed != nil {
		return v.fixed, nil
	}
	g, err := board.New(v.spec.Dims, states)
	if err != nil {
		return nil, fmt.Errorf("chess: %s: %w", v.spec.Key, err)
	}
	return compileTables(v, g)
}

// Key returns the stable key of the variant.
func (v *Variant) Key() string { return v.spec.Key }

// Name returns the display name.
func (v *Variant) Name() string { return v.spec.Name }

// Dims returns the bounding rectangle of the board.
func (v *Variant) Dims() rules.Dims { return v.spec.Dims }

// Spec returns a copy of the variant's definition.
func (v *Variant) Spec() Spec { return v.spec }

// PieceValues returns the spec's piece values in centipawns; it implements rules.Valuer.
func (v *Variant) PieceValues() map[rules.PieceKind]int { return v.spec.Values }

// Start returns the start position (seed is ignored: the setup is fixed).
func (v *Variant) Start(seed uint64) rules.Position {
	p, err := v.parse(v.spec.StartFEN)
	if err != nil {
		panic(err) // checked by New
	}
	return p
}

// ParsePosition reads a FEN and refuses malformed or impossible positions.
func (v *Variant) ParsePosition(text string) (rules.Position, error) {
	p, err := v.parse(text)
	if err != nil {
		return nil, err
	}
	return p, nil
}

// ParseFEN is ParsePosition returning the concrete type.
func (v *Variant) ParseFEN(text string) (*Position, error) { return v.parse(text) }

// materialKey packs the counts of the non-king pieces named by letters into nibbles.
func materialKey(letters string) (uint64, error) {
	var k uint64
	for i := 0; i < len(letters); i++ {
		kind, ok := rules.PieceKindFromLetter(letters[i])
		if !ok || kind == rules.King || int(kind) >= numKinds {
			return 0, fmt.Errorf("chess: bad piece letter %q", letters[i])
		}
		k += 1 << (4 * uint(kind))
	}
	return k, nil
}

func (s *state) materialKey(side rules.Side) uint64 {
	var k uint64
	for kind := rules.Pawn; int(kind) < numKinds; kind++ {
		if kind == rules.King {
			continue
		}
		n := s.pieces[side][kind].Count()
		if n > 15 {
			n = 15
		}
		k |= uint64(n) << (4 * uint(kind))
	}
	return k
}

// insufficient reports whether the material left is one of the variant's automatic draws.
func (s *state) insufficient() bool {
	draws := s.t.v.draws
	if len(draws) == 0 {
		return false
	}
	w, b := s.materialKey(rules.White), s.materialKey(rules.Black)
	for _, d := range draws {
		if (w == d.strong && b == d.weak) || (w == d.weak && b == d.strong) {
			if d.sameColour {
				bishops := s.pieces[0][rules.Bishop].Or(s.pieces[1][rules.Bishop])
				if l := bishops.And(s.t.geo.Light()); l.Any() && l != bishops {
					continue
				}
			}
			return true
		}
	}
	return false
}

// canWin reports whether side could checkmate by some series of legal moves, the
// FIDE test for a player out of time (Article 6.9), as far as the material decides
// it (docs/RULES.md, house rule: time-out draw). It is false for a bare king, for
// a position already drawn on material (the variant's automatic draws), for a lone
// piece against a single piece when no position of the four on this board is mate
// (tables.loneMates, a search of them all), and on a plain board with the chess
// knight and bishop (minorMates) in chess's own cases (shakmaty's, which Lichess
// uses): a lone knight against nothing but queens;
// bishops all of one cell colour, no pawn on the board, against queens, rooks and
// bishops of that colour. Everything else counts as able to mate: cells missing or
// blocked make corners a lone minor piece can mate in, and no search settles what
// the material leaves open.
func (s *state) canWin(side rules.Side) bool {
	own, other := s.pieces[side], s.pieces[side.Other()]
	var mine, theirs int
	var minor, single rules.PieceKind
	for kind := rules.Pawn; int(kind) < numKinds; kind++ {
		if kind == rules.King {
			continue
		}
		if n := own[kind].Count(); n > 0 {
			mine += n
			minor = kind
		}
		if n := other[kind].Count(); n > 0 {
			theirs += n
			single = kind
		}
	}
	count := func(kind rules.PieceKind) int { return other[kind].Count() }
	switch {
	case mine == 0 || s.insufficient():
		return false
	case mine == 1 && theirs == 1 && minor != rules.Pawn && single != rules.Pawn:
		return s.t.loneMates(minor, single)
	case !s.t.v.minorMates:
		return true
	case own[rules.Knight].Count() == 1 && mine == 1:
		// A lone knight mates only a king walled in by its own pieces that can
		// neither take the knight nor leave the wall; a queen always can.
		return theirs != count(rules.Queen)
	case own[rules.Bishop].Count() == mine:
		// Bishops of one colour attack only that colour; the mated king's orthogonal
		// neighbours are of the other colour and must be walled by its own pieces,
		// which only a pawn, a knight's leap or a bishop of that colour keep from
		// taking the bishop or blocking its check.
		light := s.t.geo.Light()
		bishops := own[rules.Bishop].Or(other[rules.Bishop])
		oneColour := !bishops.And(light).Any() || bishops.And(light) == bishops
		walls := theirs - count(rules.Queen) - count(rules.Rook) - count(rules.Bishop)
		return !oneColour || walls > 0
	}
	return true
}

func (v *Variant) kindNames() string {
	var names []string
	for i := 0; i < len(v.letters); i++ {
		k, _ := rules.PieceKindFromLetter(v.letters[i])
		names = append(names, fmt.Sprintf("%c (%s)", v.letters[i], k))
	}
	return strings.Join(names, ", ")
}

// kindArg lists the variant's kinds for a refusal's "Pieces" arg (rules.Error),
// in the order of kindNames.
func (v *Variant) kindArg() string {
	var names []string
	for i := 0; i < len(v.letters); i++ {
		k, _ := rules.PieceKindFromLetter(v.letters[i])
		names = append(names, k.String())
	}
	return rules.ListArg(names, 0)
}

func (v *Variant) hasKind(k rules.PieceKind) bool {
	return k != rules.NoPiece && strings.IndexByte(v.letters, k.Letter()) >= 0
}

func (v *Variant) canPromoteTo(k rules.PieceKind) bool {
	return slices.Contains(v.spec.Pawn.Promotions, k)
}
