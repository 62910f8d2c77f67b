package chess_test

import (
	"errors"
	"testing"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/gothic"
	"github.com/missivechess/missive/rules/keltic"
)

func play(t *testing.T, p rules.Position, moves ...string) rules.Position {
	t.Helper()
	for _, s := range moves {
		m, err := p.ParseMove(s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if p, err = p.Play(m); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	return p
}

func TestThreefoldRepetition(t *testing.T) {
	p := mustParse(t, gothicV, gothic.StartFEN)
	p = play(t, p, "Nc3", "Nc6", "Nb1", "Nb8")
	if p.Outcome().IsOver() {
		t.Fatalf("drawn after one repetition: %v", p.Outcome())
	}
	p = play(t, p, "Nc3", "Nc6", "Nb1")
	if p.Outcome().IsOver() {
		t.Fatal("drawn too early")
	}
	p = play(t, p, "Nb8")
	if got := p.Outcome(); got != rules.Draw(rules.Threefold) {
		t.Fatalf("outcome %v, want a threefold draw", got)
	}
	if len(p.LegalMoves()) != 0 {
		t.Error("moves offered after the draw")
	}
	if _, err := p.Play(rules.Move{From: 14, To: 34}); !errors.Is(err, rules.ErrGameOver) {
		t.Errorf("Play after the draw: %v", err)
	}
}

// TestRepetitionNeedsSameRights: the same placement with other castling rights
// is another position.
func TestRepetitionNeedsSameRights(t *testing.T) {
	p := mustParse(t, gothicV, "r4k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/R4K3R w KQkq - 0 1")
	p = play(t, p, "Kg1", "Kg8", "Kf1", "Kf8", "Kg1", "Kg8", "Kf1", "Kf8")
	if p.Outcome().IsOver() {
		t.Fatalf("the start (with castling rights) counted as repeated: %v", p.Outcome())
	}
	p = play(t, p, "Kg1", "Kg8")
	if got := p.Outcome(); got != rules.Draw(rules.Threefold) {
		t.Fatalf("outcome %v, want a threefold draw", got)
	}
}

// TestEnPassantCountsOnlyWhenPossible: a double step that no pawn can take en
// passant leaves the same position as any other way of reaching it.
func TestEnPassantCountsOnlyWhenPossible(t *testing.T) {
	type hasher interface{ Hash() uint64 }
	after := play(t, mustParse(t, gothicV, gothic.StartFEN), "e4")
	same := mustParse(t, gothicV, "rnbqckabnr/pppppppppp/10/10/4P5/10/PPPP1PPPPP/RNBQCKABNR b KQkq - 0 1")
	if after.(hasher).Hash() != same.(hasher).Hash() {
		t.Error("an unusable en passant square changed the position")
	}
	with := mustParse(t, gothicV, "4k5/10/10/3pP5/10/10/10/5K4 w - d6 0 1")
	without := mustParse(t, gothicV, "4k5/10/10/3pP5/10/10/10/5K4 w - - 0 1")
	if with.(hasher).Hash() == without.(hasher).Hash() {
		t.Error("a usable en passant square did not change the position")
	}
}

func TestFiftyMoveRule(t *testing.T) {
	fen := "k9/10/1K8/10/10/10/10/9R w - - 99 80"
	p := mustParse(t, gothicV, fen)
	if got := play(t, p, "Rj2").Outcome(); got != rules.Draw(rules.FiftyMove) {
		t.Errorf("after the 100th quiet ply: %v", got)
	}
	if got := play(t, p, "Rj8").Outcome(); got != rules.Win(rules.White, rules.Checkmate) {
		t.Errorf("mate on the 100th ply: %v, want checkmate", got)
	}
	if got := mustParse(t, gothicV, "k9/10/1K8/10/10/10/10/9R w - - 100 80").Outcome(); got != rules.Draw(rules.FiftyMove) {
		t.Errorf("a FEN at 100 plies: %v", got)
	}
	// A pawn move or a capture resets the count; so does castling in Gothic.
	q := mustParse(t, gothicV, "r4k3r/9p/10/10/10/10/P9/R4K3R w KQkq - 98 60")
	for _, tc := range []struct{ move, clock string }{{"a3", " 0 60"}, {"O-O", " 0 60"}, {"Rxj7", " 0 60"}, {"Rb1", " 99 60"}} {
		if got := play(t, q, tc.move).String(); got[len(got)-len(tc.clock):] != tc.clock {
			t.Errorf("after %s: %s, want clock%s", tc.move, got, tc.clock)
		}
	}
}

func TestMateAndStalemate(t *testing.T) {
	if got := mustParse(t, gothicV, "k9/2Q7/10/10/10/10/10/4K5 b - - 0 1").Outcome(); got != rules.Draw(rules.Stalemate) {
		t.Errorf("stalemate: %v", got)
	}
	p := mustParse(t, gothicV, "k9/10/1K8/10/10/10/10/9R w - - 0 1")
	mate := play(t, p, "Rj8")
	if got := mate.Outcome(); got != rules.Win(rules.White, rules.Checkmate) || !mate.InCheck() {
		t.Errorf("checkmate: %v (in check %v)", got, mate.InCheck())
	}
	if got := mate.Outcome().Result(); got != "1-0" {
		t.Errorf("result %s", got)
	}
}

func TestInsufficientMaterial(t *testing.T) {
	for _, tc := range []struct {
		v     rules.Variant
		fen   string
		drawn bool
	}{
		{gothicV, "k9/10/10/10/10/10/10/9K w - - 0 1", true},
		{gothicV, "k9/10/10/10/10/10/10/8NK w - - 0 1", true},
		{gothicV, "k9/10/10/10/10/10/10/8BK w - - 0 1", true},
		{gothicV, "kn8/10/10/10/10/10/10/8NK w - - 0 1", true},
		{gothicV, "kb8/10/10/10/10/10/10/8NK w - - 0 1", true},
		{gothicV, "kb8/10/10/10/10/10/10/6B2K w - - 0 1", true},
		{gothicV, "kb8/10/10/10/10/10/10/8BK w - - 0 1", true},
		{gothicV, "k9/10/10/10/10/10/10/7NNK w - - 0 1", true},
		{gothicV, "k9/10/10/10/10/10/10/6B1NK w - - 0 1", false},
		{gothicV, "k9/10/10/10/10/10/10/8AK w - - 0 1", false},
		{gothicV, "k9/10/10/10/10/10/10/8RK w - - 0 1", false},
		{gothicV, "kn8/10/10/10/10/10/10/7NNK w - - 0 1", false},
		{gothicV, "k9/10/10/10/10/10/P9/9K w - - 0 1", false},
		{kelticV, "***1k1***/**5**/9/9/9/**N4**/***1K1*** w - - 0 1", true},
		{kelticV, "***1k1***/**5**/9/9/9/**5**/***1K1*** w - - 0 1", true},
		{kelticV, "***1k1***/**5**/9/9/9/**B4**/***1K1*** w - - 0 1", false},
		{kelticV, "***1k1***/**5**/9/9/9/**NN3**/***1K1*** w - - 0 1", false},
		{gochessV, "k5****/7***/8**/9*/10/10/10/10/10/B8K w - - 0 1", true},
		{gochessV, "k5****/7***/8**/9*/10/10/10/10/10/N8K w - - 0 1", true},
		{gochessV, "kb4****/7***/8**/9*/10/10/10/10/10/B8K w - - 0 1", true},
		{gochessV, "k1b3****/7***/8**/9*/10/10/10/10/10/B8K w - - 0 1", false},
		{gochessV, "kn4****/7***/8**/9*/10/10/10/10/10/N8K w - - 0 1", false},
	} {
		p := mustParse(t, tc.v, tc.fen)
		got := p.Outcome() == rules.Draw(rules.InsufficientMaterial)
		if got != tc.drawn {
			t.Errorf("%s %s: outcome %v, want drawn=%v", tc.v.Key(), tc.fen, p.Outcome(), tc.drawn)
		}
	}
	// A capture that leaves bare kings ends the game at once.
	p := play(t, mustParse(t, kelticV, "***1k1***/**5**/9/9/6n2/**5**/***1KQ*** b - - 0 1"), "Nxf1")
	if got := p.Outcome(); got != rules.Draw(rules.InsufficientMaterial) {
		t.Errorf("after capturing the last queen: %v", got)
	}
}

var _ = keltic.Key
