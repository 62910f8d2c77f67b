package rules_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/missivechess/missive/rules"
)

func TestSquareNames(t *testing.T) {
	d := rules.Dims{Files: 10, Ranks: 10}
	for _, tc := range []struct {
		name string
		sq   rules.Square
	}{{"a1", 0}, {"j1", 9}, {"a2", 10}, {"j10", 99}, {"e4", 34}, {"a10", 90}} {
		got, err := d.ParseSquare(tc.name)
		if err != nil || got != tc.sq {
			t.Errorf("ParseSquare(%q) = %d, %v; want %d", tc.name, got, err, tc.sq)
		}
		if d.Name(tc.sq) != tc.name {
			t.Errorf("Name(%d) = %q; want %q", tc.sq, d.Name(tc.sq), tc.name)
		}
	}
	for _, bad := range []string{"", "a", "k1", "a0", "a11", "a01", "e4x", "4e"} {
		if _, err := d.ParseSquare(bad); !errors.Is(err, rules.ErrBadNotation) {
			t.Errorf("ParseSquare(%q) error = %v; want ErrBadNotation", bad, err)
		}
	}
	if sq, n := d.ScanSquare("a10a9"); sq != 90 || n != 3 {
		t.Errorf("ScanSquare(a10a9) = %d,%d; want 90,3", sq, n)
	}
	g := rules.Dims{Files: 10, Ranks: 8}
	if sq, n := g.ScanSquare("a10"); sq != 0 || n != 2 {
		t.Errorf("on 8 ranks ScanSquare(a10) = %d,%d; want a1 (0),2", sq, n)
	}
}

func TestSideAndPieces(t *testing.T) {
	if rules.White.Other() != rules.Black || rules.Black.Other() != rules.White {
		t.Fatal("Other is wrong")
	}
	for _, s := range []string{"white", "W", " Black "} {
		if _, err := rules.ParseSide(s); err != nil {
			t.Errorf("ParseSide(%q): %v", s, err)
		}
	}
	if _, err := rules.ParseSide("red"); !errors.Is(err, rules.ErrBadNotation) {
		t.Errorf("ParseSide(red) = %v", err)
	}
	for _, k := range rules.PieceKinds {
		got, ok := rules.PieceKindFromLetter(k.Letter())
		if !ok || got != k {
			t.Errorf("letter round trip of %v gave %v", k, got)
		}
	}
	if p := (rules.Piece{Side: rules.Black, Kind: rules.Chancellor}); p.FENLetter() != 'c' {
		t.Errorf("black chancellor letter %c", p.FENLetter())
	}
}

func TestOutcome(t *testing.T) {
	if got := rules.Win(rules.Black, rules.Checkmate).Result(); got != "0-1" {
		t.Errorf("result %s", got)
	}
	if rules.OngoingOutcome.IsOver() || !rules.Draw(rules.Stalemate).IsOver() {
		t.Error("IsOver wrong")
	}
}

type fakeVariant struct{ key string }

func (f fakeVariant) Key() string                                  { return f.key }
func (f fakeVariant) Name() string                                 { return f.key }
func (f fakeVariant) Dims() rules.Dims                             { return rules.Dims{Files: 8, Ranks: 8} }
func (f fakeVariant) Start(uint64) rules.Position                  { return nil }
func (f fakeVariant) ParsePosition(string) (rules.Position, error) { return nil, nil }

func TestRegistry(t *testing.T) {
	r := rules.NewRegistry(fakeVariant{"b"}, fakeVariant{"a"})
	if v, err := r.Lookup(" A "); err != nil || v.Key() != "a" {
		t.Fatalf("Lookup: %v %v", v, err)
	}
	if _, err := r.Lookup("zz"); !errors.Is(err, rules.ErrUnknownVariant) {
		t.Fatalf("Lookup(zz) = %v", err)
	}
	if ks := r.Keys(); len(ks) != 2 || ks[0] != "a" {
		t.Fatalf("Keys = %v", ks)
	}
}

// SentenceOf finds a refusal's sentence through wrapping, and falls back to the
// error's text when there is none.
func TestSentenceOf(t *testing.T) {
	refusal := rules.Refuse(rules.ErrIllegalMove, "That pawn cannot move backwards.")
	if got := rules.SentenceOf(fmt.Errorf("wrapped: %w", refusal)); got != "That pawn cannot move backwards." {
		t.Errorf("wrapped refusal: %q", got)
	}
	if got := rules.SentenceOf(errors.New("plain failure")); got != "plain failure" {
		t.Errorf("plain error: %q", got)
	}
}
