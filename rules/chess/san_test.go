package chess_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/chess"
	"github.com/missivechess/missive/rules/gothic"
	"github.com/missivechess/missive/rules/keltic"
)

func mustParse(t *testing.T, v rules.Variant, fen string) rules.Position {
	t.Helper()
	p, err := v.ParsePosition(fen)
	if err != nil {
		t.Fatalf("%s: %v", fen, err)
	}
	return p
}

// TestSAN formats given moves (in coordinates) and reads each SAN back.
func TestSAN(t *testing.T) {
	for _, tc := range []struct {
		v        rules.Variant
		fen      string
		uci, san string
	}{
		{gothicV, gothic.StartFEN, "b1c3", "Nc3"},
		{gothicV, gothic.StartFEN, "g1f3", "Af3"},
		{gothicV, gothic.StartFEN, "e1f3", "Cf3"},
		{gothicV, gothic.StartFEN, "e2e4", "e4"},
		{gothicV, "r4k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/R4K3R w KQkq - 0 1", "f1i1", "O-O"},
		{gothicV, "r4k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/R4K3R w KQkq - 0 1", "f1c1", "O-O-O"},
		{gothicV, "r4k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/R4K3R b KQkq - 0 1", "f8i8", "O-O"},
		{gothicV, "5k4/10/10/10/10/10/5K4/R8R w - - 0 1", "a1d1", "Rad1"},
		{gothicV, "5k4/10/10/10/10/10/5K4/R8R w - - 0 1", "j1d1", "Rjd1"},
		{gothicV, "R9/9k/10/10/10/10/10/R4K4 w - - 0 1", "a1a4", "R1a4"},
		{gothicV, "6k3/10/10/10/10/Q9/10/Q1Q2K4 w - - 0 1", "a1b2", "Qa1b2"},
		{gothicV, "6k3/1P8/10/10/10/10/10/5K4 w - - 0 1", "b7b8c", "b8=C+"},
		{gothicV, "1r4k3/P9/10/10/10/10/10/5K4 w - - 0 1", "a7b8a", "axb8=A"},
		{gothicV, "4k5/10/10/3pP5/10/10/10/5K4 w - d6 0 1", "e5d6", "exd6"},
		{gothicV, "k9/10/1K8/10/10/10/10/9R w - - 0 1", "j1j8", "Rj8#"},
		{gothicV, "k9/10/10/10/10/10/10/1K7R w - - 0 1", "j1j8", "Rj8+"},
		{gothicV, "5k4/10/10/10/10/2p7/1P8/4BK4 w - - 0 1", "b2c3", "bxc3"},
		{gothicV, "5k4/10/10/10/10/2p7/1P8/4BK4 w - - 0 1", "e1c3", "Bxc3"},
		{kelticV, "***1k1***/**5**/3pp4/3Pn1R2/6P2/**5**/***1K1*** w - - 0 1", "d4c4", "dc4"},
		{kelticV, "***1k1***/**5**/3pp4/3Pn1R2/6P2/**5**/***1K1*** w - - 0 1", "d4e5", "dxe5"},
		{kelticV, "***1k1***/**5**/3pp4/3Pn1R2/6P2/**5**/***1K1*** w - - 0 1", "g3h3", "gh3"},
		{gochessV, "kp4****/7***/8**/9*/3p1r4/4P5/3b1n4/10/10/9K b - - 0 1", "f6f10", "Rf10"},
		{gochessV, "kp4****/7***/8**/9*/10/4P5/2p7/10/4p5/9K b - - 0 1", "c4d4", "cd4"},
		{gochessV, "kp4****/7***/8**/9*/4P5/10/4P5/10/10/9K w - - 0 1", "e6e5", "e6e5"},
		{gochessV, "kp4****/7***/8**/9*/2P7/3p6/2P7/10/10/9K w - - 0 1", "c4d5", "c4xd5"},
	} {
		p := mustParse(t, tc.v, tc.fen)
		var m rules.Move
		found := false
		for _, x := range p.LegalMoves() {
			if p.UCI(x) == tc.uci {
				m, found = x, true
			}
		}
		if !found {
			t.Errorf("%s: %s is not legal", tc.fen, tc.uci)
			continue
		}
		if got := p.SAN(m); got != tc.san {
			t.Errorf("%s: SAN(%s) = %q, want %q", tc.fen, tc.uci, got, tc.san)
		}
		for _, in := range []string{tc.san, tc.uci} {
			if back, err := p.ParseMove(in); err != nil || back != m {
				t.Errorf("%s: ParseMove(%q) = %v, %v; want %s", tc.fen, in, back, err, tc.uci)
			}
		}
	}
}

// TestForgivingInput reads the many ways players write a move.
func TestForgivingInput(t *testing.T) {
	castle := "r4k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/R4K3R w KQkq - 0 1"
	both := "5k4/10/10/10/10/2p7/1P8/4BK4 w - - 0 1"
	onlyBishop := "5k4/10/10/10/10/2p7/10/4BK4 w - - 0 1"
	for _, tc := range []struct {
		v        rules.Variant
		fen      string
		in, want string
	}{
		{gothicV, gothic.StartFEN, "Nc3", "b1c3"},
		{gothicV, gothic.StartFEN, "nc3", "b1c3"},
		{gothicV, gothic.StartFEN, "Nb1c3", "b1c3"},
		{gothicV, gothic.StartFEN, "N1c3", "b1c3"},
		{gothicV, gothic.StartFEN, "Nxc3", "b1c3"},
		{gothicV, gothic.StartFEN, "Nc3+", "b1c3"},
		{gothicV, gothic.StartFEN, "Nc3!?", "b1c3"},
		{gothicV, gothic.StartFEN, " e4 ", "e2e4"},
		{gothicV, gothic.StartFEN, "e2-e4", "e2e4"},
		{gothicV, gothic.StartFEN, "E2E4", "e2e4"},
		{gothicV, gothic.StartFEN, "Pe4", "e2e4"},
		{gothicV, castle, "O-O", "f1i1"},
		{gothicV, castle, "0-0", "f1i1"},
		{gothicV, castle, "o-o", "f1i1"},
		{gothicV, castle, "OO", "f1i1"},
		{gothicV, castle, "O-O-O", "f1c1"},
		{gothicV, castle, "0-0-0+", "f1c1"},
		{gothicV, castle, "Ki1", "f1i1"},
		{gothicV, castle, "f1i1", "f1i1"},
		{gothicV, both, "bxc3", "b2c3"},
		{gothicV, both, "bc3", "b2c3"},
		{gothicV, both, "Bxc3", "e1c3"},
		{gothicV, onlyBishop, "bxc3", "e1c3"},
		{gothicV, "6k3/1P8/10/10/10/10/10/5K4 w - - 0 1", "b8C", "b7b8c"},
		{gothicV, "6k3/1P8/10/10/10/10/10/5K4 w - - 0 1", "b8=c", "b7b8c"},
		{gothicV, "6k3/1P8/10/10/10/10/10/5K4 w - - 0 1", "b7b8=A", "b7b8a"},
		{gothicV, "6k3/1P8/10/10/10/10/10/5K4 w - - 0 1", "b8(Q)", "b7b8q"},
		{gothicV, "4k5/10/10/3pP5/10/10/10/5K4 w - d6 0 1", "exd6 e.p.", "e5d6"},
		{kelticV, "***1k1***/**5**/3pp4/3Pn1R2/6P2/**5**/***1K1*** w - - 0 1", "c4", "d4c4"},
		{gochessV, "kp4****/7***/8**/9*/3p1r4/4P5/3b1n4/10/10/9K b - - 0 1", "Rf10", "f6f10"},
		{gochessV, "kp4****/7***/8**/9*/3p1r4/4P5/3b1n4/10/10/9K b - - 0 1", "f6-f10", "f6f10"},
	} {
		p := mustParse(t, tc.v, tc.fen)
		m, err := p.ParseMove(tc.in)
		if err != nil || p.UCI(m) != tc.want {
			t.Errorf("%s: ParseMove(%q) = %s, %v; want %s", tc.fen, tc.in, p.UCI(m), err, tc.want)
		}
	}
}

// TestBadInput checks the errors for illegal, ambiguous and unreadable moves.
func TestBadInput(t *testing.T) {
	castleKingMoved := "r4k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/R4K3R w kq - 0 1"
	for _, tc := range []struct {
		v        rules.Variant
		fen, in  string
		sentinel error
		want     string
	}{
		{gothicV, gothic.StartFEN, "Nf3", rules.ErrIllegalMove, `You cannot play "Nf3": no knight can reach f3; knight moves here: Na3, Nc3, Nh3, Nj3.`},
		{gothicV, gothic.StartFEN, "Qd4", rules.ErrIllegalMove, "no queen can reach d4, and your queens have no legal move"},
		{gothicV, gothic.StartFEN, "e5", rules.ErrIllegalMove, "no pawn can reach e5"},
		{gothicV, gothic.StartFEN, "e2e5", rules.ErrIllegalMove, "the pawn on e2 cannot go to e5; its moves: e2e3, e2e4"},
		{gothicV, gothic.StartFEN, "e7e5", rules.ErrIllegalMove, "the black pawn on e7 is not yours: it is white's turn"},
		{gothicV, gothic.StartFEN, "e4e5", rules.ErrIllegalMove, "there is no piece on e4"},
		{gothicV, gothic.StartFEN, "O-O", rules.ErrIllegalMove, "every square between the king and the rook must be empty"},
		{gothicV, castleKingMoved, "O-O", rules.ErrIllegalMove, "you can no longer castle kingside"},
		{gothicV, "4k2r2/10/10/10/10/10/10/R4K3R w KQ - 0 1", "O-O", rules.ErrIllegalMove, "cross or land on an attacked square"},
		{gothicV, "4k2r2/10/10/10/10/10/10/R4K3R w KQ - 0 1", "f1i1", rules.ErrIllegalMove, "cross or land on an attacked square"},
		{gothicV, "5r2k1/10/10/10/10/10/10/R4K3R w KQ - 0 1", "O-O-O", rules.ErrIllegalMove, "castle out of check"},
		{kelticV, keltic.StartFEN, "O-O", rules.ErrIllegalMove, "no castling in Keltic Chess"},
		{gothicV, "5k4/10/10/10/10/10/5K4/R8R w - - 0 1", "Rd1", rules.ErrAmbiguousMove, `Which move do you mean by "Rd1"? 2 moves fit: Rad1, Rjd1.`},
		{gothicV, "6k3/1P8/10/10/10/10/10/5K4 w - - 0 1", "b8", rules.ErrAmbiguousMove, "Say what the pawn becomes: b8=Q+, b8=C+, b8=A, b8=R+, b8=B, b8=N"},
		{gothicV, "6k3/1P8/10/10/10/10/10/5K4 w - - 0 1", "b7b8", rules.ErrAmbiguousMove, "Say what the pawn becomes: b7b8q, b7b8c"},
		{gothicV, "6k3/1P8/10/10/10/10/10/5K4 w - - 0 1", "b8=K", rules.ErrIllegalMove, "a pawn can only become Q, C, A, R, B, N"},
		{gothicV, "k9/10/10/10/10/5r4/10/4RK4 w - - 0 1", "Rd1", rules.ErrIllegalMove, "you are in check and this move does not get you out of it"},
		{gothicV, "5k4/5r4/10/10/10/10/5R4/5K4 w - - 0 1", "Re2", rules.ErrIllegalMove, "it would leave your king in check"},
		{gothicV, gothic.StartFEN, "Zz9", rules.ErrBadNotation, "write a move like e4"},
		{gothicV, gothic.StartFEN, "", rules.ErrBadNotation, "Write a move like e4"},
		{gothicV, gothic.StartFEN, "e9", rules.ErrBadNotation, "squares a1 to j8"},
		{gothicV, gothic.StartFEN, "Ka9", rules.ErrBadNotation, ""},
		{gothicV, "k9/2Q7/10/10/10/10/10/4K5 b - - 0 1", "Kb7", rules.ErrGameOver, "The game is over (draw by stalemate)"},
		{kelticV, keltic.StartFEN, "Na1", rules.ErrIllegalMove, "a1 is not a cell of this board"},
		{gochessV, "kp4****/7***/8**/9*/3p1r4/4P5/3b1n4/10/10/9K b - - 0 1", "Rj10", rules.ErrIllegalMove, "j10 is a blocked cell"},
		{gochessV, "kp4****/7***/8**/9*/4P5/10/4P5/10/10/9K w - - 0 1", "e5", rules.ErrAmbiguousMove, "e4e5, e6e5"},
	} {
		p := mustParse(t, tc.v, tc.fen)
		_, err := p.ParseMove(tc.in)
		if !errors.Is(err, tc.sentinel) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: ParseMove(%q):\n got %v\nwant %v saying %q", tc.fen, tc.in, err, tc.sentinel, tc.want)
		}
	}
}

func TestPlayRefusesAndKeepsThePosition(t *testing.T) {
	p := mustParse(t, gothicV, gothic.StartFEN)
	if _, err := p.Play(rules.Move{From: 4, To: 44}); !errors.Is(err, rules.ErrIllegalMove) {
		t.Errorf("Play(e1e5) = %v", err)
	}
	if _, err := p.Play(rules.Move{From: rules.NoSquare, To: 44, Drop: rules.Pawn}); !errors.Is(err, rules.ErrIllegalMove) {
		t.Errorf("a drop = %v", err)
	}
	m, _ := p.ParseMove("e4")
	next, err := p.Play(m)
	if err != nil {
		t.Fatal(err)
	}
	if p.String() != gothic.StartFEN || p.Turn() != rules.White {
		t.Errorf("Play changed the receiver: %s", p)
	}
	if next.String() != "rnbqckabnr/pppppppppp/10/10/4P5/10/PPPP1PPPPP/RNBQCKABNR b KQkq - 0 1" {
		t.Errorf("after e4: %s", next)
	}
	if got := p.UCI(rules.Move{From: 14, To: 34}); got != "e2e4" {
		t.Errorf("UCI %s", got)
	}
}

// TestSANRoundTripRandom formats every legal move of many random positions and
// reads it back, in all three variants.
func TestSANRoundTripRandom(t *testing.T) {
	for _, v := range []*chess.Variant{gothicV, kelticV} {
		for _, p := range randomWalk(v, v.Spec().StartFEN, 60, 1) {
			checkSANRoundTrip(t, p)
		}
	}
	for _, p := range randomWalk(gochessV.Core(), goFEN, 60, 1) {
		checkSANRoundTrip(t, p)
	}
}

func checkSANRoundTrip(t *testing.T, p rules.Position) {
	t.Helper()
	for _, m := range p.LegalMoves() {
		san := p.SAN(m)
		back, err := p.ParseMove(san)
		if err != nil || back != m {
			t.Errorf("%s: %s -> %q -> %v, %v", p, p.UCI(m), san, back, err)
		}
		if back, err := p.ParseMove(p.UCI(m)); err != nil || back != m {
			t.Errorf("%s: UCI %s -> %v, %v", p, p.UCI(m), back, err)
		}
		// Written in upper case, a move is read as itself or refused as ambiguous,
		// never as another move.
		for _, in := range []string{strings.ToUpper(san), strings.ToUpper(p.UCI(m))} {
			back, err := p.ParseMove(in)
			if (err == nil && back != m) || (err != nil && !errors.Is(err, rules.ErrAmbiguousMove)) {
				t.Errorf("%s: %s written %q -> %s, %v", p, p.UCI(m), in, p.UCI(back), err)
			}
		}
	}
}

// TestForgivenessKeepsMeaning: a sloppy spelling is accepted only when exactly one
// legal move fits it; a bare destination is a pawn's step, never a capture (issue 16).
func TestForgivenessKeepsMeaning(t *testing.T) {
	pawnAndChancellor := "5k4/10/2p1c5/10/10/10/10/5K4 b - - 0 1"
	pawnOnly := "5k4/10/2p7/10/10/10/10/5K4 b - - 0 1"
	kelticBoth := "***1k1***/**5**/9/9/1P1B5/**5**/***1K1*** w - - 0 1"
	for _, tc := range []struct {
		v        rules.Variant
		fen, in  string
		want     string // the move read, in coordinates, or "" for a refusal
		sentinel error
		says     string
	}{
		{v: gothicV, fen: pawnAndChancellor, in: "C6C5", sentinel: rules.ErrAmbiguousMove, says: "c5 (c6c5), Cc5 (e6c5)"},
		{v: gothicV, fen: pawnAndChancellor, in: "c6c5", want: "c6c5"},
		{v: gothicV, fen: pawnAndChancellor, in: "c6-c5", want: "c6c5"},
		{v: gothicV, fen: pawnAndChancellor, in: "c5", want: "c6c5"},
		{v: gothicV, fen: pawnAndChancellor, in: "Cc5", want: "e6c5"},
		{v: gothicV, fen: pawnAndChancellor, in: "C6c5", want: "e6c5"},
		{v: gothicV, fen: pawnAndChancellor, in: "CC5", sentinel: rules.ErrAmbiguousMove, says: "c5 (c6c5), Cc5 (e6c5)"},
		{v: gothicV, fen: pawnOnly, in: "C6C5", want: "c6c5"},
		{v: gothicV, fen: pawnOnly, in: "C5", want: "c6c5"},
		{v: kelticV, fen: kelticBoth, in: "B3B4", sentinel: rules.ErrAmbiguousMove, says: "b4 (b3b4), Bb4+ (d3b4)"},
		{v: kelticV, fen: kelticBoth, in: "b3b4", want: "b3b4"},
		{v: kelticV, fen: kelticBoth, in: "Bb4", want: "d3b4"},
		// 1. e4 e5 2. d4 a6 3. e5?: the e-pawn is blocked; d4xe5 is a capture, not e5.
		{v: gothicV, fen: "rnbqckabnr/1ppp1ppppp/p9/4p5/3PP5/10/PPP2PPPPP/RNBQCKABNR w KQkq - 0 3", in: "e5",
			sentinel: rules.ErrIllegalMove, says: "no pawn can move to e5; did you mean dxe5?"},
		{v: gothicV, fen: "rnbqckabnr/1ppp1ppppp/p9/4p5/3PP5/10/PPP2PPPPP/RNBQCKABNR w KQkq - 0 3", in: "dxe5", want: "d4e5"},
		{v: gothicV, fen: "rnbqckabnr/1ppp1ppppp/p9/4p5/3PP5/10/PPP2PPPPP/RNBQCKABNR w KQkq - 0 3", in: "Pe5",
			sentinel: rules.ErrIllegalMove, says: "did you mean dxe5?"},
		{v: gothicV, fen: "5k4/10/10/4p5/3PPP4/10/10/5K4 w - - 0 1", in: "e5",
			sentinel: rules.ErrIllegalMove, says: "no pawn can move to e5; did you mean dxe5 or fxe5?"},
		{v: gochessV, fen: "kp4****/7***/8**/9*/10/3p6/4P5/10/10/9K w - - 0 1", in: "d5",
			sentinel: rules.ErrIllegalMove, says: "did you mean exd5?"},
		{v: gochessV, fen: "kp4****/7***/8**/9*/10/3p6/4P5/10/10/9K w - - 0 1", in: "e5", want: "e4e5"},
	} {
		p := mustParse(t, tc.v, tc.fen)
		m, err := p.ParseMove(tc.in)
		if tc.want != "" {
			if err != nil || p.UCI(m) != tc.want {
				t.Errorf("%s: ParseMove(%q) = %s, %v; want %s", tc.fen, tc.in, p.UCI(m), err, tc.want)
			}
			continue
		}
		if !errors.Is(err, tc.sentinel) || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s: ParseMove(%q) = %s, %v; want %v saying %q", tc.fen, tc.in, p.UCI(m), err, tc.sentinel, tc.says)
		}
	}
}
