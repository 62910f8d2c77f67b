package chess_test

import (
	"math/rand/v2"
	"testing"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/gothic"
	"github.com/missivechess/missive/rules/keltic"
)

var fuzzVariants = []rules.Variant{gothicV, kelticV, gochessV}

var fuzzFENs = []string{
	gothic.StartFEN,
	"r4k3r/PPp4pPP/10/10/10/10/ppP4Ppp/R4K3R w KQkq - 0 1",
	"4k5/10/10/3pP5/10/10/10/5K4 w - d6 0 1",
	middle,
	keltic.StartFEN,
	"***1k1***/**5**/3pp4/3Pn1R2/6P2/**5**/***1K1*** w - - 0 1",
	goFEN,
	"2*bp3*1/3kPp2*B/p2P3n1B/2p3K*2/*2PP*1**n/2PQ4R1/1q2R3p1/1p1b3*1P/2N3*3/4p5 b - - 0 1",
}

// walk plays steps pseudo-random legal moves from the FEN and returns where it ends.
func walk(v rules.Variant, fen string, seed uint64, steps uint8) rules.Position {
	p, err := v.ParsePosition(fen)
	if err != nil {
		return nil
	}
	r := rand.New(rand.NewPCG(seed, 1))
	for i := 0; i < int(steps%64); i++ {
		moves := p.LegalMoves()
		if len(moves) == 0 {
			break
		}
		p, _ = p.Play(moves[r.IntN(len(moves))])
	}
	return p
}

// FuzzFEN: any text either is refused with ErrBadPosition or reads back identically.
func FuzzFEN(f *testing.F) {
	for i, fen := range fuzzFENs {
		f.Add(uint8(i), fen)
	}
	f.Add(uint8(0), "rnbqckabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQCKABNR w KQkq e3 0 1")
	f.Add(uint8(2), "10/10/10/10/10/10/10/10/10/10 w - - 0 1")
	f.Add(uint8(1), "***9/////// w")
	f.Fuzz(func(t *testing.T, vi uint8, text string) {
		v := fuzzVariants[int(vi)%len(fuzzVariants)]
		p, err := v.ParsePosition(text)
		if err != nil {
			if p != nil {
				t.Fatalf("a position and an error for %q", text)
			}
			return
		}
		back, err := v.ParsePosition(p.String())
		if err != nil || back.String() != p.String() {
			t.Fatalf("%q printed as %q which reads as %v, %v", text, p.String(), back, err)
		}
	})
}

// FuzzPlay: Play accepts a move exactly when it is in LegalMoves.
func FuzzPlay(f *testing.F) {
	for i := range fuzzFENs {
		f.Add(uint8(i), uint64(i), uint8(10), int16(14), int16(34), uint8(0))
	}
	f.Fuzz(func(t *testing.T, fi uint8, seed uint64, steps uint8, from, to int16, promo uint8) {
		fen := fuzzFENs[int(fi)%len(fuzzFENs)]
		p := walk(variantOf(fen), fen, seed, steps)
		m := rules.Move{From: rules.Square(from), To: rules.Square(to), Promotion: rules.PieceKind(promo % 10)}
		legal := false
		for _, x := range p.LegalMoves() {
			legal = legal || x == m
		}
		before := p.String()
		_, err := p.Play(m)
		if (err == nil) != legal {
			t.Fatalf("%s: %+v legal=%v but Play error %v", before, m, legal, err)
		}
		if p.String() != before {
			t.Fatal("Play changed the position")
		}
	})
}

// FuzzSAN: every legal move's SAN and coordinates read back as that move.
func FuzzSAN(f *testing.F) {
	for i := range fuzzFENs {
		f.Add(uint8(i), uint64(i), uint8(20))
	}
	f.Fuzz(func(t *testing.T, fi uint8, seed uint64, steps uint8) {
		fen := fuzzFENs[int(fi)%len(fuzzFENs)]
		checkSANRoundTrip(t, walk(variantOf(fen), fen, seed, steps))
	})
}

// FuzzParseMove: no text makes ParseMove panic, and what it accepts is legal.
func FuzzParseMove(f *testing.F) {
	for i, s := range []string{"e4", "Nf3", "O-O", "0-0-0", "b7b8c", "exd6 e.p.", "Qa1b2", "j10", "Ra10+", "B6e5", "zz", "", "x", "=Q", "a1a1a1", "Kxx9"} {
		f.Add(uint8(i), s)
	}
	f.Fuzz(func(t *testing.T, fi uint8, text string) {
		fen := fuzzFENs[int(fi)%len(fuzzFENs)]
		p, err := variantOf(fen).ParsePosition(fen)
		if err != nil {
			t.Fatal(err)
		}
		m, err := p.ParseMove(text)
		if err != nil {
			return
		}
		if _, err := p.Play(m); err != nil {
			t.Fatalf("ParseMove(%q) gave %v which Play refuses: %v", text, m, err)
		}
	})
}

func variantOf(fen string) rules.Variant {
	for _, v := range fuzzVariants {
		if _, err := v.ParsePosition(fen); err == nil {
			return v
		}
	}
	return gothicV
}
