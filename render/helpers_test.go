package render

import (
	"fmt"
	"strings"
	"testing"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/variants"
)

// lookOf returns how the game with key is shown (rules.LookOf of the real
// variant), the zero Look for a key no game has.
func lookOf(key string) rules.Look {
	v, err := variants.Registry().Lookup(key)
	if err != nil {
		return rules.Look{}
	}
	return rules.LookOf(v)
}

// boardFromText builds a board from rows given from the top rank down, separated
// by '/': a number is that many empty cells, '*' a missing cell, '#' a blocked
// cell, a letter a piece (upper case White, lower case Black, S/s a Gess stone).
func boardFromText(t testing.TB, files, ranks int, text string) rules.Board {
	t.Helper()
	d := rules.Dims{Files: files, Ranks: ranks}
	b := rules.Board{Dims: d, Cells: make([]rules.Cell, d.Cells())}
	rows := strings.Split(text, "/")
	if len(rows) != ranks {
		t.Fatalf("board text %q has %d rows, want %d", text, len(rows), ranks)
	}
	for i, row := range rows {
		r := ranks - 1 - i
		f := 0
		for j := 0; j < len(row); j++ {
			c := row[j]
			switch {
			case c >= '0' && c <= '9':
				n := int(c - '0')
				for j+1 < len(row) && row[j+1] >= '0' && row[j+1] <= '9' {
					j++
					n = n*10 + int(row[j]-'0')
				}
				f += n
				continue
			case c == '*':
				b.Cells[d.Square(f, r)].State = rules.Missing
			case c == '#':
				b.Cells[d.Square(f, r)].State = rules.Blocked
			default:
				k, ok := rules.PieceKindFromLetter(c)
				if !ok {
					t.Fatalf("board text %q: bad letter %q", text, c)
				}
				side := rules.White
				if c >= 'a' {
					side = rules.Black
				}
				b.Cells[d.Square(f, r)].Piece = rules.Piece{Side: side, Kind: k}
			}
			f++
		}
		if f != files {
			t.Fatalf("board text %q: row %d has %d cells, want %d", text, i, f, files)
		}
	}
	return b
}

const (
	gothicStart = "rnbqckabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQCKABNR"
	kelticStart = "***bkb***/**rnqnr**/ppppppppp/9/PPPPPPPPP/**RNQNR**/***BKB***"
)

// gessStart builds Gess's start position (docs/RULES.md): Black on ranks 2-4 and 7,
// White mirrored (rank r to 21-r); the rings start on l3 and l18.
func gessStart() rules.Board {
	d := rules.Dims{Files: 20, Ranks: 20}
	b := rules.Board{Dims: d, Cells: make([]rules.Cell, d.Cells())}
	rows := map[int]string{2: "cdeghijklmnpr", 3: "bcdfhijkmoqrs", 4: "cdeghijklmnpr", 7: "cfilor"}
	rows[2], rows[4] = "ceghijklmnpr", "ceghijklmnpr"
	for rank, files := range rows {
		for _, f := range files {
			file := int(f - 'a')
			b.Cells[d.Square(file, rank-1)].Piece = rules.Piece{Side: rules.Black, Kind: rules.Stone}
			b.Cells[d.Square(file, 20-rank)].Piece = rules.Piece{Side: rules.White, Kind: rules.Stone}
		}
	}
	return b
}

func sq(t testing.TB, d rules.Dims, name string) rules.Square {
	t.Helper()
	s, err := d.ParseSquare(name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// fakeVariant and fakePos stand in for the real games: a position that moves
// pieces from square to square without judging legality.
type fakeVariant struct {
	key  string
	dims rules.Dims
}

func (v fakeVariant) Key() string                 { return v.key }
func (v fakeVariant) Name() string                { return "fake " + v.key }
func (v fakeVariant) Dims() rules.Dims            { return v.dims }
func (v fakeVariant) Look() rules.Look            { return lookOf(v.key) }
func (v fakeVariant) Start(uint64) rules.Position { panic("fake") }
func (v fakeVariant) ParsePosition(string) (rules.Position, error) {
	return nil, fmt.Errorf("fake: %w", rules.ErrBadPosition)
}

type fakePos struct {
	v     fakeVariant
	b     rules.Board
	turn  rules.Side
	check bool
}

type fakeGessPos struct {
	fakePos
	rings [2][]rules.Square
}

func (p fakeGessPos) Rings(s rules.Side) []rules.Square { return p.rings[s] }

func (p fakePos) Variant() rules.Variant { return p.v }
func (p fakePos) Turn() rules.Side       { return p.turn }
func (p fakePos) Board() rules.Board {
	return rules.Board{Dims: p.b.Dims, Cells: append([]rules.Cell(nil), p.b.Cells...)}
}
func (p fakePos) LegalMoves() []rules.Move { return nil }
func (p fakePos) Outcome() rules.Outcome   { return rules.OngoingOutcome }
func (p fakePos) InCheck() bool            { return p.check }
func (p fakePos) String() string           { return "fake" }
func (p fakePos) SAN(m rules.Move) string  { return p.UCI(m) }
func (p fakePos) UCI(m rules.Move) string  { return p.b.Name(m.From) + p.b.Name(m.To) }
func (p fakePos) ParseMove(text string) (rules.Move, error) {
	from, n := p.b.ScanSquare(text)
	to, k := p.b.ScanSquare(text[n:])
	if n == 0 || k == 0 || n+k != len(text) {
		return rules.NullMove, fmt.Errorf("fake: %q: %w", text, rules.ErrBadNotation)
	}
	return rules.Move{From: from, To: to}, nil
}

func (p fakePos) Play(m rules.Move) (rules.Position, error) {
	if p.b.At(m.From).Piece.IsNone() {
		return nil, fmt.Errorf("fake: nothing on %s: %w", p.b.Name(m.From), rules.ErrIllegalMove)
	}
	next := p
	next.b = p.Board()
	next.b.Cells[m.To].Piece = next.b.Cells[m.From].Piece
	next.b.Cells[m.From].Piece = rules.Piece{}
	next.turn = p.turn.Other()
	next.check = false
	return next, nil
}
