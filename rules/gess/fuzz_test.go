package gess

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/missivechess/missive/rules"
)

// fuzzPosition returns the position after plies random moves of game seed (fewer if
// the game ends first).
func fuzzPosition(seed uint64, plies uint8) *Position {
	var last *Position
	randomGames(seed, 1, int(plies)%120, func(p *Position) { last = p })
	return last
}

// FuzzPositionText: any text either parses into a position whose text reads back to
// the same position, or is refused with ErrBadPosition; never a panic.
func FuzzPositionText(f *testing.F) {
	start := StartPosition().String()
	f.Add(start)
	f.Add(strings.ReplaceAll(start, "/", "\n"))
	f.Add(strings.ToUpper(start))
	f.Add(fuzzPosition(12, 40).String())
	f.Add(fuzzPosition(13, 70).String())
	f.Add(start[:200])
	f.Add(strings.Replace(start, ".", "x", 1))
	f.Add(strings.Replace(start, "o", "q", 1))
	f.Add("")
	f.Add(" b")
	f.Add("//////////////////// w")
	f.Add(StartPosition().CompactString())
	f.Fuzz(func(t *testing.T, text string) {
		p, err := ParsePosition(text)
		if err != nil {
			if !errors.Is(err, rules.ErrBadPosition) || p != nil {
				t.Fatalf("ParsePosition(%q) = %v, %v; want nil and ErrBadPosition", text, p, err)
			}
			return
		}
		s := p.String()
		q, err := Variant{}.ParsePosition(s)
		if err != nil {
			t.Fatalf("the text %q of a parsed position does not parse: %v", s, err)
		}
		if q.String() != s || q.Turn() != p.Turn() || q.(*Position).board != p.board {
			t.Fatalf("round trip changed %q into %q", s, q.String())
		}
		if c := p.CompactString(); len(c) > 233 {
			t.Fatalf("the compact text %q is %d characters", c, len(c))
		} else if q, err := ParsePosition(c); err != nil || q.board != p.board || q.Turn() != p.Turn() {
			t.Fatalf("the compact text %q reads back as %v, %v", c, q, err)
		}
		_ = p.Rings(rules.White)
		_ = p.Outcome()
		_ = p.LegalMoves()
	})
}

// FuzzMoveNotation: every legal move of a position from random play reads back from
// its SAN, its UCI and its upper-case SAN.
func FuzzMoveNotation(f *testing.F) {
	for _, seed := range []uint64{1, 2, 3, 12} {
		for _, plies := range []uint8{0, 1, 10, 40, 90} {
			f.Add(seed, plies)
		}
	}
	f.Fuzz(func(t *testing.T, seed uint64, plies uint8) {
		p := fuzzPosition(seed, plies)
		for _, m := range p.LegalMoves() {
			for _, text := range []string{p.SAN(m), p.UCI(m), strings.ToUpper(p.SAN(m))} {
				got, err := p.ParseMove(text)
				if err != nil || got != m {
					t.Fatalf("ParseMove(%q) = %v, %v; want %v in %s", text, got, err, m, p)
				}
			}
		}
	})
}

// FuzzPlay: a move is legal exactly when Play accepts it; a refused move says why
// (ErrIllegalMove or ErrGameOver) and changes nothing.
func FuzzPlay(f *testing.F) {
	f.Add(uint64(1), uint8(0), int16(sq("l3")), int16(sq("l6")))
	f.Add(uint64(1), uint8(0), int16(sq("l3")), int16(sq("l7")))
	f.Add(uint64(1), uint8(0), int16(sq("c3")), int16(sq("c8")))
	f.Add(uint64(12), uint8(40), int16(sq("j5")), int16(sq("j9")))
	f.Add(uint64(2), uint8(119), int16(-1), int16(400))
	f.Add(uint64(3), uint8(7), int16(sq("a10")), int16(sq("t10")))
	f.Fuzz(func(t *testing.T, seed uint64, plies uint8, from, to int16) {
		p := fuzzPosition(seed, plies)
		m := rules.Move{From: rules.Square(from), To: rules.Square(to)}
		before := p.String()
		legal := slices.Contains(p.LegalMoves(), m)
		next, err := p.Play(m)
		if p.String() != before {
			t.Fatal("Play changed its receiver")
		}
		if legal != (err == nil) {
			t.Fatalf("move %v: legal %v, Play error %v in %s", m, legal, err, p)
		}
		if err != nil {
			if !errors.Is(err, rules.ErrIllegalMove) && !errors.Is(err, rules.ErrGameOver) {
				t.Fatalf("Play error %v wraps neither ErrIllegalMove nor ErrGameOver", err)
			}
			return
		}
		if next.Turn() == p.Turn() {
			t.Fatal("the side to move did not change")
		}
		// The same move read from its text gives the same position.
		mm, err := p.ParseMove(p.UCI(m))
		if err != nil || mm != m {
			t.Fatalf("ParseMove(%q) = %v, %v", p.UCI(m), mm, err)
		}
	})
}

// FuzzParseMove: any text gives a legal move or an error wrapping one of the
// documented sentinels; never a panic.
func FuzzParseMove(f *testing.F) {
	for _, text := range []string{"l3-l6", "l3l6", "L3XL6", "c3-c8", "a1", "", "x", "-", "m3--m6", "m3-m", "z99z99", "a0a1", "b123c4", "l3 - l5", "é3-é4", "\x00"} {
		f.Add(uint64(1), uint8(0), text)
	}
	f.Add(uint64(12), uint8(40), "j5-j9")
	f.Fuzz(func(t *testing.T, seed uint64, plies uint8, text string) {
		p := fuzzPosition(seed, plies)
		m, err := p.ParseMove(text)
		if err != nil {
			if !errors.Is(err, rules.ErrBadNotation) && !errors.Is(err, rules.ErrIllegalMove) && !errors.Is(err, rules.ErrGameOver) {
				t.Fatalf("ParseMove(%q) error %v wraps no sentinel", text, err)
			}
			return
		}
		if !slices.Contains(p.LegalMoves(), m) {
			t.Fatalf("ParseMove(%q) = %v, not a legal move of %s", text, m, p)
		}
	})
}
