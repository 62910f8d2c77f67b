package engine

import (
	"math/rand/v2"
	"testing"

	"github.com/missivechess/missive/rules"
)

// exchangeOracle plays the exchange on m's target cell with the rules' legal
// captures: after m, each side in turn may recapture on the cell with any legal
// capture or stop; it returns the material the side making m wins, both sides
// choosing best. Independent of the engine's exchange evaluation (and aware of
// pins and of a king that may not capture into check).
func exchangeOracle(p rules.Position, m rules.Move, value func(rules.PieceKind) int) int {
	gain := 0
	if v := p.Board().At(m.To).Piece; v.Kind != rules.NoPiece {
		gain = value(v.Kind)
	}
	if m.Promotion != rules.NoPiece {
		gain += value(m.Promotion) - value(rules.Pawn)
	}
	q, err := p.Play(m)
	if err != nil {
		panic(err)
	}
	best := 0 // the opponent may stop
	for _, r := range q.LegalMoves() {
		if r.To != m.To || r.Drop != rules.NoPiece {
			continue
		}
		best = max(best, exchangeOracle(q, r, value))
	}
	return gain - best
}

// TestSEEAgreesWithTheRules compares the engine's static exchange evaluation with
// the rules-driven exchange on the captures of positions from random games of
// each chess-family variant; they may differ only where a pin or a check changes
// the exchange, which SEE ignores, so a small share of disagreements is allowed.
func TestSEEAgreesWithTheRules(t *testing.T) {
	for _, key := range []string{"gothic", "keltic", "gochess"} {
		t.Run(key, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(7, 21))
			checked, agree := 0, 0
			for game := 0; game < 40 && checked < 400; game++ {
				p := mustPos(t, key, "")
				if key == "gochess" {
					p = mustPos(t, key, "rnbqkbnr2/pppppppp2/10/1*1*1*1*1*/10/10/*1*1*1*1*1/10/PPPPPPPP2/RNBQKBNR2 w - - 0 1")
				}
				for ply := 0; ply < 80 && !p.Outcome().IsOver(); ply++ {
					moves := p.LegalMoves()
					g, err := newChessGame(p)
					if err != nil {
						t.Fatal(err)
					}
					value := func(k rules.PieceKind) int { return g.seeValue(k) }
					for _, m := range moves {
						cm, ok := g.b.FromRules(m)
						if !ok || !g.b.IsCapture(cm) || cm.IsEnPassant() {
							continue
						}
						want := exchangeOracle(p, m, value)
						checked++
						ok1 := g.see(mv(cm), want) && !g.see(mv(cm), want+1)
						if ok1 {
							agree++
						} else if testing.Verbose() {
							t.Logf("%s %s: oracle %d", p, p.UCI(m), want)
						}
						// Thresholds must be monotonic whatever the exchange.
						for _, th := range []int{-500, -100, 0, 100, 500} {
							if g.see(mv(cm), th) && !g.see(mv(cm), th-50) {
								t.Fatalf("%s %s: wins %d but not %d", p, p.UCI(m), th, th-50)
							}
						}
					}
					p, _ = p.Play(moves[rng.IntN(len(moves))])
				}
			}
			if checked < 100 {
				t.Fatalf("only %d captures checked", checked)
			}
			if agree*100 < checked*95 {
				t.Fatalf("SEE agrees with the rules' exchange on %d of %d captures; want 95%%", agree, checked)
			}
			t.Logf("%d of %d captures agree", agree, checked)
		})
	}
}

// TestSEECases pins exchanges everyone can check by hand.
func TestSEECases(t *testing.T) {
	cases := []struct {
		name, fen, move string
		want            int // the sign of the mover's net gain
	}{
		{"pawn takes undefended knight", "4k5/10/10/4n5/3P6/10/10/4K5 w - - 0 1", "d4e5", 1},
		{"rook takes pawn defended by pawn", "4k5/10/3p6/4p5/10/10/10/4RK4 w - - 0 1", "e1e5", -4},
		{"x-ray: rook behind rook wins the defended pawn twice over", "4k5/4r5/10/4p5/10/10/4R5/4RK4 w - - 0 1", "e2e5", 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := mustPos(t, "gothic", tc.fen)
			m, err := p.ParseMove(tc.move)
			if err != nil {
				t.Fatal(err)
			}
			g, err := newChessGame(p)
			if err != nil {
				t.Fatal(err)
			}
			cm, _ := g.b.FromRules(m)
			want := exchangeOracle(p, m, g.seeValue)
			if !g.see(mv(cm), want) || g.see(mv(cm), want+1) {
				t.Fatalf("SEE disagrees with the oracle's %d", want)
			}
			if sign(want) != sign(tc.want) {
				t.Fatalf("oracle says %d centipawns, the case %d pawns", want, tc.want)
			}
		})
	}
}

func sign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// TestBothArmed: the steeper reductions apply only while each side has a piece
// besides its king and pawns, so that a lone king is hunted at full depth; a null
// move is tried only by a side that has such a piece (pawn endings are full of
// zugzwang).
func TestBothArmed(t *testing.T) {
	for _, c := range []struct {
		variant, fen string
		want         bool
		wantNull     bool
	}{
		{"gothic", "", true, true},
		{"gochess", "10/1*6*1/4**4/2*4*2/5k4/10/2*4*2/10/1*6*1/R3K5 w - - 0 1", false, true},
		{"gochess", "10/1*6*1/4**4/2*4*2/5k4/10/2*4*2/10/1*6*1/R3K5 b - - 0 1", false, false},
		{"gochess", "10/1*6*1/4**4/2*4*2/5k4/5n4/2*4*2/10/1*6*1/R3K5 b - - 0 1", true, true},
		{"gochess", "10/1*6*1/4**4/2*4*2/5k4/5p4/2*4*2/10/1*6*1/R3K5 w - - 0 1", false, true},
		{"gochess", "10/1*6*1/4**4/2*4*2/5k4/5p4/2*4*2/10/1*6*1/R3K5 b - - 0 1", false, false},
		{"gothic", "k9/10/10/10/10/10/4P5/4KC4 w - - 0 1", false, true},
		{"gothic", "k9/p9/10/10/10/10/4P5/4K5 w - - 0 1", false, false},
	} {
		g, err := newChessGame(mustPos(t, c.variant, c.fen))
		if err != nil {
			t.Fatal(err)
		}
		if got := g.bothArmed(); got != c.want {
			t.Errorf("%s %q: bothArmed %v, want %v", c.variant, c.fen, got, c.want)
		}
		if got := g.canNull(); got != c.wantNull {
			t.Errorf("%s %q: canNull %v, want %v", c.variant, c.fen, got, c.wantNull)
		}
	}
}
