package gess

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/missivechess/missive/rules"
)

// Far-away rings keep a hand-built position undecided: Black's on r3, White's on r18.
var farBlack, farWhite = ring("r3"), ring("r18")

// withRings builds a position from the stones listed plus the far-away rings.
func withRings(t *testing.T, turn rules.Side, black, white string) *Position {
	t.Helper()
	return build(t, turn, black+" "+farBlack, white+" "+farWhite)
}

// play plays the moves (in any accepted notation) and returns the position after them.
func play(t *testing.T, p rules.Position, moves ...string) *Position {
	t.Helper()
	for _, text := range moves {
		m, err := p.ParseMove(text)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		if p, err = p.Play(m); err != nil {
			t.Fatalf("%s: %v", text, err)
		}
	}
	return p.(*Position)
}

// stones lists the squares of side's stones, by name in square order.
func stones(p *Position, side rules.Side) []string {
	var out []string
	for s := rules.Square(0); s < Size*Size; s++ {
		if pc := p.board.At(s); !pc.IsNone() && pc.Side == side {
			out = append(out, squareName(s))
		}
	}
	return out
}

// sorted returns the space-separated names in square order.
func sorted(names string) []string {
	out := strings.Fields(names)
	slices.SortFunc(out, func(a, b string) int { return int(sq(a)) - int(sq(b)) })
	return out
}

func TestStartPosition(t *testing.T) {
	p := StartPosition()
	// The setup as docs/RULES.md writes it; White has the same files on rank 21-r.
	setup := map[string]string{"2": "c e g h i j k l m n p r", "3": "b c d f h i j k m o q r s", "4": "c e g h i j k l m n p r", "7": "c f i l o r"}
	mirror := map[string]string{"2": "19", "3": "18", "4": "17", "7": "14"}
	var black, white []string
	for rank, files := range setup {
		for _, f := range strings.Fields(files) {
			black = append(black, f+rank)
			white = append(white, f+mirror[rank])
		}
	}
	if got, want := stones(p, rules.Black), sorted(strings.Join(black, " ")); !slices.Equal(got, want) {
		t.Errorf("black stones %v, want %v", got, want)
	}
	if got, want := stones(p, rules.White), sorted(strings.Join(white, " ")); !slices.Equal(got, want) {
		t.Errorf("white stones %v, want %v", got, want)
	}
	if n := len(black); n != 43 {
		t.Errorf("the setup has %d black stones, want 43", n)
	}
	if p.Turn() != rules.Black {
		t.Error("White moves first; Black should")
	}
	if got := p.Rings(rules.Black); !slices.Equal(got, []rules.Square{sq("l3")}) {
		t.Errorf("black rings %v, want l3", got)
	}
	if got := p.Rings(rules.White); !slices.Equal(got, []rules.Square{sq("l18")}) {
		t.Errorf("white rings %v, want l18", got)
	}
	if p.Outcome() != rules.OngoingOutcome || p.InCheck() {
		t.Errorf("start outcome %v, in check %v", p.Outcome(), p.InCheck())
	}
	v := Variant{}
	if v.Key() != "gess" || v.Name() != "Gess" || v.Dims() != (rules.Dims{Files: 20, Ranks: 20}) {
		t.Errorf("variant %q %q %v", v.Key(), v.Name(), v.Dims())
	}
	if v.Start(42).String() != p.String() || p.Variant().Key() != "gess" {
		t.Error("Start does not give the start position")
	}
}

func TestBoardView(t *testing.T) {
	b := StartPosition().Board()
	if b.Dims != (rules.Dims{Files: 20, Ranks: 20}) || len(b.Cells) != 400 {
		t.Fatalf("board view %v with %d cells", b.Dims, len(b.Cells))
	}
	for i, c := range b.Cells {
		if c.State != rules.Playable {
			t.Fatalf("cell %s is %v, want Playable", squareName(rules.Square(i)), c.State)
		}
	}
	if got := b.At(sq("c2")).Piece; got != (rules.Piece{Side: rules.Black, Kind: rules.Stone}) {
		t.Errorf("c2 holds %v", got)
	}
	if got := b.At(sq("c19")).Piece; got != (rules.Piece{Side: rules.White, Kind: rules.Stone}) {
		t.Errorf("c19 holds %v", got)
	}
	if got := b.At(sq("a1")).Piece; !got.IsNone() {
		t.Errorf("a1 holds %v", got)
	}
}

// A piece is any 3x3 block with a stone of the mover's and none of the opponent's,
// its centre anywhere in the frame, even on the outer ring.
func TestPieceRecognition(t *testing.T) {
	p := withRings(t, rules.Black, "e10 b5", "h10")
	var from []string
	for _, m := range p.LegalMoves() {
		f, _ := coords(m.From)
		if name := squareName(m.From); f < 14 && (len(from) == 0 || from[len(from)-1] != name) {
			from = append(from, name) // the pieces of files a-n, away from the ring on r3
		}
	}
	// A lone stone is the perimeter stone of the eight centres around it: d9-f11 for
	// e10 (none reaching h10), and a4-c6 for b5, the three on file a included. As a
	// centre it has no perimeter stone, so no move.
	want := sorted("a4 b4 c4 a5 c5 a6 b6 c6 d9 e9 f9 d10 f10 d11 e11 f11")
	if !slices.Equal(from, want) {
		t.Errorf("pieces %v, want %v", from, want)
	}
	if got := movesFrom(p, "e10"); len(got) != 0 {
		t.Errorf("a lone stone as centre moved to %v", got)
	}
	if _, err := p.ParseMove("e10-e11"); !errors.Is(err, rules.ErrIllegalMove) || !strings.Contains(err.Error(), "no perimeter stone, so it cannot move at all") {
		t.Errorf("e10-e11 error %v", err)
	}
	// Block g9-i11 holds a white stone: not Black's piece.
	if _, err := p.ParseMove("g10-g11"); !errors.Is(err, rules.ErrIllegalMove) || !strings.Contains(err.Error(), "white stone on h10") {
		t.Errorf("g10-g11 error %v", err)
	}
	if _, err := p.ParseMove("j10-j11"); !errors.Is(err, rules.ErrIllegalMove) || !strings.Contains(err.Error(), "holds none of your stones") {
		t.Errorf("j10-j11 error %v", err)
	}
	// The piece centred on a5 (off the playing area) holds b5 as its east stone.
	if got, want := movesFrom(p, "a5"), []string{"b5", "c5", "d5"}; !slices.Equal(got, want) {
		t.Errorf("a5 moves %v, want %v", got, want)
	}
}

// A piece moves only toward its perimeter stones.
func TestDirections(t *testing.T) {
	p := withRings(t, rules.Black, "j10 k11 j9", "")
	// Centre stone: any distance, south to rank 1 and north-east until the footprint
	// first meets the white ring on r18.
	want := sorted("j1 j2 j3 j4 j5 j6 j7 j8 j9 k11 l12 m13 n14 o15 p16")
	if got := movesFrom(p, "j10"); !slices.Equal(got, want) {
		t.Errorf("j10 moves %v, want %v", got, want)
	}
	_, err := p.ParseMove("j10-i10")
	if !errors.Is(err, rules.ErrIllegalMove) || !strings.Contains(err.Error(), "no stone on i10, its perimeter square to the west") ||
		!strings.Contains(err.Error(), "it can move south, north-east") {
		t.Errorf("j10-i10 error %v", err)
	}
}

// Without a centre stone a piece moves 1 to 3 squares; with one, any distance.
func TestDistance(t *testing.T) {
	p := withRings(t, rules.Black, "k10", "")
	if got, want := movesFrom(p, "j10"), []string{"k10", "l10", "m10"}; !slices.Equal(got, want) {
		t.Errorf("j10 moves %v, want %v", got, want)
	}
	_, err := p.ParseMove("j10-n10")
	if !errors.Is(err, rules.ErrIllegalMove) || !strings.Contains(err.Error(), "1 to 3 squares, not 4") {
		t.Errorf("j10-n10 error %v", err)
	}
	p = withRings(t, rules.Black, "k10 j10", "")
	if got := movesFrom(p, "j10"); len(got) != 10 || got[9] != "t10" {
		t.Errorf("j10 with a centre stone moves %v, want k10-t10", got)
	}
}

// A piece stops at the first position where its footprint overlaps a stone that is
// not its own, and removes every stone under the footprint there, of either colour.
func TestStopAndCapture(t *testing.T) {
	p := withRings(t, rules.Black, "e5 e6 d12", "f12 e13")
	if got, want := movesFrom(p, "e5"), sorted("e6 e7 e8 e9 e10 e11"); !slices.Equal(got, want) {
		t.Errorf("e5 moves %v, want %v", got, want)
	}
	_, err := p.ParseMove("e5-e14")
	if !errors.Is(err, rules.ErrIllegalMove) || !strings.Contains(err.Error(), "must stop at e11, where its footprint first overlaps the stones on d12 and f12") {
		t.Errorf("e5-e14 error %v", err)
	}
	after := play(t, p, "e5xe11")
	if got, want := stones(after, rules.White), sorted("e13 "+farWhite); !slices.Equal(got, want) {
		t.Errorf("white stones after e5-e11: %v, want %v", got, want)
	}
	// d12 (Black's own) is captured too; the piece's stones land on e11 and e12.
	if got, want := stones(after, rules.Black), sorted("e11 e12 "+farBlack); !slices.Equal(got, want) {
		t.Errorf("black stones after e5-e11: %v, want %v", got, want)
	}
	if got := p.SAN(mv("e5", "e11")); got != "e5xe11" {
		t.Errorf("SAN %q", got)
	}
	if got := p.SAN(mv("e5", "e10")); got != "e5-e10" {
		t.Errorf("SAN %q", got)
	}
	// The piece's own starting squares never obstruct it.
	p = withRings(t, rules.Black, "e5 e6 e4 d4", "")
	if got := movesFrom(p, "e5"); !slices.Contains(got, "e6") || !slices.Contains(got, "e9") {
		t.Errorf("e5 moves %v", got)
	}
}

// The sample moves of the seed's diagram text, rebuilt on a board of our own: a white
// piece with a centre stone moving south captures two black stones and south-east one;
// a black piece moving north captures two white stones, and moving north-east it
// reaches a friendly stone, which under the inventors' rules is captured, not a block.
func TestSeedSamples(t *testing.T) {
	p := withRings(t, rules.White, "g8 i8 o7", "h14 h13 i13")
	if got, want := movesFrom(p, "h14"), sorted("h13 h12 h11 h10 h9 i13 j12 k11 l10 m9 n8"); !slices.Equal(got, want) {
		t.Errorf("white h14 moves %v, want %v", got, want)
	}
	after := play(t, p, "h14xh9")
	if got := len(stones(p, rules.Black)) - len(stones(after, rules.Black)); got != 2 {
		t.Errorf("moving south took %d black stones, want 2", got)
	}
	if slices.Contains(stones(after, rules.Black), "g8") || slices.Contains(stones(after, rules.Black), "i8") {
		t.Error("g8 and i8 should be captured")
	}
	after = play(t, p, "h14-n8")
	if got := len(stones(p, rules.Black)) - len(stones(after, rules.Black)); got != 1 || slices.Contains(stones(after, rules.Black), "o7") {
		t.Errorf("moving south-east took %d black stones, want o7 only", got)
	}

	p = withRings(t, rules.Black, "c10 c11 d11 f15", "b16 d16")
	if got, want := movesFrom(p, "c10"), sorted("c11 c12 c13 c14 c15 d11 e12 f13 g14"); !slices.Equal(got, want) {
		t.Errorf("black c10 moves %v, want %v", got, want)
	}
	after = play(t, p, "c10xc15")
	if got := len(stones(p, rules.White)) - len(stones(after, rules.White)); got != 2 {
		t.Errorf("moving north took %d white stones, want 2", got)
	}
	after = play(t, p, "c10-g14")
	if got, want := stones(after, rules.Black), sorted("g14 g15 h15 "+farBlack); !slices.Equal(got, want) {
		t.Errorf("black stones after c10-g14: %v, want %v", got, want)
	}
	if got := p.SAN(mv("c10", "g14")); got != "c10xg14" {
		t.Errorf("SAN %q: a friendly capture is a capture", got)
	}
}

// A piece's centre stays inside the frame, and its stones that end on the outer ring
// are removed.
func TestFrameAndOuterRing(t *testing.T) {
	p := withRings(t, rules.Black, "c10 b10 d10", "")
	if got, want := movesFrom(p, "c10"), []string{"a10", "b10", "d10", "e10", "f10", "g10", "h10", "i10", "j10", "k10", "l10", "m10", "n10", "o10", "p10", "q10", "r10", "s10", "t10"}; !slices.Equal(got, want) {
		t.Errorf("c10 moves %v, want %v", got, want)
	}
	after := play(t, p, "c10xb10")
	if got, want := stones(after, rules.Black), sorted("b10 c10 "+farBlack); !slices.Equal(got, want) {
		t.Errorf("after c10-b10 black has %v, want %v", got, want)
	}
	after = play(t, p, "c10xa10")
	if got, want := stones(after, rules.Black), sorted("b10 "+farBlack); !slices.Equal(got, want) {
		t.Errorf("after c10-a10 black has %v, want %v", got, want)
	}
	after = play(t, p, "c10xt10")
	if got, want := stones(after, rules.Black), sorted("s10 "+farBlack); !slices.Equal(got, want) {
		t.Errorf("after c10-t10 black has %v, want %v", got, want)
	}
	if got := p.SAN(mv("c10", "s10")); got != "c10xs10" {
		t.Errorf("SAN %q: pushing a stone off the board removes it", got)
	}
	for _, text := range []string{"c10-u10", "c10-c21", "c10-c0"} {
		if _, err := p.ParseMove(text); !errors.Is(err, rules.ErrIllegalMove) || !strings.Contains(err.Error(), "leave the frame") {
			t.Errorf("%s error %v", text, err)
		}
	}
	if _, err := p.ParseMove("u10-t10"); !errors.Is(err, rules.ErrIllegalMove) || !strings.Contains(err.Error(), "outside the frame") {
		t.Errorf("u10-t10 error %v", err)
	}
}

// Rings: eight perimeter stones of one's own around an empty centre; overlapping rings
// count separately.
func TestRings(t *testing.T) {
	p := withRings(t, rules.Black, "c4 d4 e4 f4 g4 c5 e5 g5 c6 d6 e6 f6 g6 j9", "")
	if got, want := p.Rings(rules.Black), []rules.Square{sq("r3"), sq("d5"), sq("f5")}; !slices.Equal(got, want) {
		t.Errorf("black rings %v, want r3, d5, f5", got)
	}
	for _, tc := range []struct {
		name, black, white string
	}{
		{"own stone in the centre", ring("d5") + " d5", ""},
		{"opponent stone in the centre", ring("d5"), "d5"},
		{"a perimeter stone missing", "c4 d4 e4 c5 e5 c6 d6", ""},
		{"an opponent perimeter stone", "c4 d4 e4 c5 e5 c6 d6", "e6"},
	} {
		p := withRings(t, rules.Black, tc.black, tc.white)
		if got := p.Rings(rules.Black); len(got) != 1 {
			t.Errorf("%s: black rings %v, want only r3", tc.name, got)
		}
	}
	// An opponent stone just outside the block does not spoil a ring.
	p = withRings(t, rules.Black, ring("d5"), "f5 d7")
	if got := p.Rings(rules.Black); len(got) != 2 {
		t.Errorf("black rings %v, want d5 and r3", got)
	}
	// Capturing one of two overlapping rings leaves the other.
	p = build(t, rules.White, "c4 d4 e4 f4 g4 c5 e5 g5 c6 d6 e6 f6 g6", "b11 b10 "+farWhite)
	after := play(t, p, "b11xb7")
	if got := after.Rings(rules.Black); !slices.Equal(got, []rules.Square{sq("f5")}) || after.Outcome().IsOver() {
		t.Errorf("after b11-b7 black rings %v, outcome %v", got, after.Outcome())
	}
}

// The win/loss rule at the end of each turn.
func TestRingLoss(t *testing.T) {
	// Black's ring captures White's only ring: Black wins.
	p := build(t, rules.Black, ring("d5"), ring("h5"))
	after := play(t, p, "d5xf5")
	if want := rules.Win(rules.Black, rules.RingLoss); after.Outcome() != want {
		t.Errorf("after d5-f5 outcome %v, want %v", after.Outcome(), want)
	}
	if after.Outcome().Result() != "0-1" || len(after.LegalMoves()) != 0 {
		t.Errorf("result %s, %d legal moves", after.Outcome().Result(), len(after.LegalMoves()))
	}
	if _, err := after.Play(mv("h5", "h6")); !errors.Is(err, rules.ErrGameOver) {
		t.Errorf("Play after the end: %v", err)
	}
	if _, err := after.ParseMove("h5-h6"); !errors.Is(err, rules.ErrGameOver) {
		t.Errorf("ParseMove after the end: %v", err)
	}
	if after.Perft(1) != 0 || after.Perft(0) != 1 {
		t.Error("perft of a decided position")
	}

	// Black breaks its own only ring (White keeps hers): Black loses.
	p = build(t, rules.Black, ring("d10"), ring("d14"))
	after = play(t, p, "e10-e9")
	if want := rules.Win(rules.White, rules.RingLoss); after.Outcome() != want {
		t.Errorf("after e10-e9 outcome %v, want %v", after.Outcome(), want)
	}

	// Black breaks both rings at once: the mover loses.
	after = play(t, p, "e10xe12")
	if len(after.Rings(rules.Black)) != 0 || len(after.Rings(rules.White)) != 0 {
		t.Fatalf("after e10-e12 rings %v %v", after.Rings(rules.Black), after.Rings(rules.White))
	}
	if want := rules.Win(rules.White, rules.RingLoss); after.Outcome() != want {
		t.Errorf("after e10-e12 outcome %v, want %v", after.Outcome(), want)
	}

	// A parsed position is judged the same way, the side not to move having just moved.
	if got := build(t, rules.Black, ring("d5"), "").Outcome(); got != rules.Win(rules.Black, rules.RingLoss) {
		t.Errorf("white without a ring, black to move: %v", got)
	}
	if got := build(t, rules.Black, "", "").Outcome(); got != rules.Win(rules.Black, rules.RingLoss) {
		t.Errorf("no rings, black to move: %v", got)
	}
	if got := build(t, rules.Black, "", ring("d5")).Outcome(); got != rules.Win(rules.White, rules.RingLoss) {
		t.Errorf("black without a ring, black to move: %v", got)
	}
}

// House rule: the third occurrence of the same stones with the same side to move draws.
func TestThreefold(t *testing.T) {
	cycle := []string{"c6-c7", "c15-c14", "c9-c8", "c12-c13"}
	p := play(t, StartPosition(), cycle...)
	if p.String() != StartPosition().String() || p.Repetitions() != 2 || p.Outcome().IsOver() {
		t.Fatalf("after one cycle: %d repetitions, outcome %v", p.Repetitions(), p.Outcome())
	}
	p = play(t, p, cycle[:3]...)
	if p.Outcome().IsOver() {
		t.Fatalf("drawn too early: %v", p.Outcome())
	}
	p = play(t, p, cycle[3])
	if want := rules.Draw(rules.Threefold); p.Outcome() != want || p.Repetitions() != 3 {
		t.Errorf("after two cycles: outcome %v with %d repetitions, want %v", p.Outcome(), p.Repetitions(), want)
	}
	if len(p.LegalMoves()) != 0 || p.Perft(2) != 0 {
		t.Error("a drawn position still has moves")
	}
	// A capture cuts the history: a parsed or captured position starts afresh.
	r := play(t, StartPosition(), "l3xl6")
	if r.prev != nil {
		t.Error("history kept across a capture")
	}
}

func TestNotation(t *testing.T) {
	p := StartPosition()
	want := mv("l3", "l5")
	for _, text := range []string{"l3-l5", "l3l5", "l3xl5", "L3-L5", "L3XL5", " l3 - l5 ", "l3 l5", "l3–l5", "l3—l5"} {
		m, err := p.ParseMove(text)
		if err != nil || m != want {
			t.Errorf("ParseMove(%q) = %v, %v", text, m, err)
		}
	}
	if got := p.UCI(want); got != "l3l5" {
		t.Errorf("UCI %q", got)
	}
	if got := p.SAN(want); got != "l3-l5" {
		t.Errorf("SAN %q", got)
	}
	if got := p.SAN(mv("l3", "l6")); got != "l3xl6" {
		t.Errorf("SAN %q: the ring captures its own l7", got)
	}
	if got := p.UCI(rules.NullMove); got != "0000" {
		t.Errorf("UCI of the null move %q", got)
	}
	for _, tc := range []struct {
		text string
		err  error
		says string
	}{
		{"", rules.ErrBadNotation, "like m3-m6"},
		{"l3", rules.ErrBadNotation, "like m3-m6"},
		{"hello", rules.ErrBadNotation, "like m3-m6"},
		{"l3-l5-l6", rules.ErrBadNotation, "like m3-m6"},
		{"l03-l5", rules.ErrBadNotation, "like m3-m6"},
		{"3l-5l", rules.ErrBadNotation, "like m3-m6"},
		{"a10-a11", rules.ErrIllegalMove, "holds none of your stones (black to move)"},
		{"l18-l17", rules.ErrIllegalMove, "holds white stones on k17, l17, m17, k18, m18, k19, l19 and m19"},
		{"c6-c5", rules.ErrIllegalMove, "no stone on c5, its perimeter square to the south"},
		{"l3-m5", rules.ErrIllegalMove, "not on a straight or diagonal line"},
		{"l3-l7", rules.ErrIllegalMove, "1 to 3 squares, not 4"},
		{"c3-c8", rules.ErrIllegalMove, "must stop at c6, where its footprint first overlaps the stone on c7"},
		{"l3-l3", rules.ErrIllegalMove, "at least one square"},
		{"u3-u4", rules.ErrIllegalMove, "outside the frame"},
		{"l3-l21", rules.ErrIllegalMove, "leave the frame"},
	} {
		_, err := p.ParseMove(tc.text)
		if !errors.Is(err, tc.err) || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("ParseMove(%q) = %v; want %v saying %q", tc.text, err, tc.err, tc.says)
		}
	}
	for _, m := range []rules.Move{
		{From: sq("l3"), To: sq("l5"), Promotion: rules.Queen},
		{From: rules.NoSquare, To: sq("l5"), Drop: rules.Stone},
		{From: sq("l3"), To: 400},
	} {
		if _, err := p.Play(m); !errors.Is(err, rules.ErrIllegalMove) {
			t.Errorf("Play(%v) = %v", m, err)
		}
	}
	// Play refuses an illegal move with the same explanation and leaves p unchanged.
	before := p.String()
	if _, err := p.Play(mv("c3", "c8")); !errors.Is(err, rules.ErrIllegalMove) || !strings.Contains(err.Error(), "must stop at c6") {
		t.Errorf("Play(c3-c8) = %v", err)
	}
	if p.String() != before {
		t.Error("a refused move changed the position")
	}
}

func TestPositionText(t *testing.T) {
	start := StartPosition().String()
	if !strings.HasSuffix(start, " b") || strings.Count(start, "/") != 19 || strings.Count(start, "x") != 43 || strings.Count(start, "o") != 43 {
		t.Fatalf("start text %q", start)
	}
	rows := strings.Split(strings.TrimSuffix(start, " b"), "/")
	if rows[17] != ".xxx.x.xxxx.x.x.xxx." {
		t.Errorf("rank 3 reads %q", rows[17])
	}
	for _, text := range []string{
		start,
		strings.Join(rows, "\n") + "\nb\n",
		strings.ToUpper(strings.TrimSuffix(start, " b")) + " black",
	} {
		p, err := Variant{}.ParsePosition(text)
		if err != nil || p.String() != start {
			t.Errorf("ParsePosition(%q) = %v, %v", text, p, err)
		}
	}
	white := strings.TrimSuffix(start, "b") + "w"
	if p, err := ParsePosition(white); err != nil || p.Turn() != rules.White || p.String() != white {
		t.Errorf("white to move: %v %v", p, err)
	}
	dot := strings.Repeat(".", 20)
	empty := strings.TrimSuffix(strings.Repeat(dot+"/", 20), "/")
	with := func(f, r int, c byte) string { // empty board with c on (f, r)
		b := []byte(empty)
		b[(Size-1-r)*(Size+1)+f] = c
		return string(b)
	}
	for _, tc := range []struct{ text, says string }{
		{"", "this text has nothing in it."},
		{start[:len(start)-2], "then a space and the side to move (b or w); this text has one field."},
		{strings.TrimSuffix(start, "b") + "r", `not "r"`},
		{strings.Join(rows[1:], "/") + " b", "The position has 19 rows; a Gess position has 20"},
		{strings.Join(append(rows, dot), "/") + " b", "The position has 21 rows; a Gess position has 20"},
		{strings.Replace(start, "/"+dot+"/", "/"+dot+"./", 1), "has 21 squares; a row has 20"},
		{strings.Replace(start, ".xxx.x.xxxx", ".xxx.x.xx", 1), "rank 3 has 18 squares"},
		{with(4, 8, 'z') + " b", `The character 'z' on e9 means nothing here`},
		{with(0, 8, 'x') + " b", "a black stone on a9, on the outer ring"},
		{with(8, 19, 'o') + " w", "a white stone on i20, on the outer ring"},
		{with(19, 3, 'o') + " w", "on t4, on the outer ring"},
		{with(8, 0, 'x') + " w", "on i1, on the outer ring"},
		{strings.Replace(start, "..x..x..x..x..x..x..", ".xx..x..x..x..x..x..", 1), "The position gives black 44 stones"},
	} {
		p, err := Variant{}.ParsePosition(tc.text)
		if !errors.Is(err, rules.ErrBadPosition) || !strings.Contains(err.Error(), tc.says) || p != nil {
			t.Errorf("ParsePosition(%.40q...) = %v; want ErrBadPosition saying %q", tc.text, err, tc.says)
		}
	}
}

func TestMutableBoard(t *testing.T) {
	p := StartPosition()
	b := p.Mutable()
	moves := b.AppendMoves(make([]rules.Move, 0, 512))
	if len(moves) != len(p.LegalMoves()) {
		t.Fatalf("%d moves from the board, %d legal", len(moves), len(p.LegalMoves()))
	}
	for _, m := range moves {
		u := b.Make(m)
		b.Unmake(u)
	}
	if orig := p.Mutable(); b != orig || b.Hash() != orig.Hash() {
		t.Error("make and unmake of every move did not restore the board")
	}
	u := b.Make(mv("l3", "l6"))
	if u.Removed() != 1 || b.Turn() != rules.White || b.Count(rules.Black) != 42 || p.String() != StartPosition().String() {
		t.Errorf("after l3-l6 on the board: removed %d, turn %v, %d black stones", u.Removed(), b.Turn(), b.Count(rules.Black))
	}
	if got := b.Outcome(); got != rules.OngoingOutcome {
		t.Errorf("outcome %v", got)
	}
	if !b.IsLegal(mv("l18", "l16")) || b.IsLegal(mv("l3", "l4")) {
		t.Error("IsLegal after Make does not follow the side to move")
	}
	if got := b.At(sq("l6")); !got.IsNone() {
		t.Errorf("the ring's centre l6 holds %v after l3-l6", got)
	}
	if got := b.At(sq("l7")); got != (rules.Piece{Side: rules.Black, Kind: rules.Stone}) {
		t.Errorf("l7 holds %v after l3-l6, want the ring's north stone", got)
	}
	if got := b.At(-1); !got.IsNone() {
		t.Errorf("At(-1) = %v", got)
	}
}

// The compact position text reads back to the same position and is short enough for
// a PGN tag's line (255 characters with `[FEN "` and `"]` and the newline), even for
// the longest text there is: all 86 stones, one on every other square.
func TestCompactString(t *testing.T) {
	rows := make([][]byte, Size)
	for r := range rows {
		rows[r] = []byte(strings.Repeat(".", Size))
	}
	n := 0
	for r := 1; r < Size-1 && n < 2*maxStones; r++ {
		for f := 1 + r%2; f < Size-1 && n < 2*maxStones; f += 2 {
			rows[r][f] = "xo"[n%2]
			n++
		}
	}
	var lines []string
	for _, row := range rows {
		lines = append(lines, string(row))
	}
	for _, text := range []string{StartPosition().String(), strings.Join(lines, "/") + " w", strings.Repeat("...................."+"/", Size-1) + ".................... b"} {
		p, err := ParsePosition(text)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		c := p.CompactString()
		q, err := ParsePosition(c)
		if err != nil || q.String() != p.String() {
			t.Fatalf("%s reads back as %v (%v), want %s", c, q, err, p)
		}
		if line := `[FEN "` + c + `"]` + "\n"; len(line) > 255 || len(c) > 233 {
			t.Errorf("the compact text is %d characters, its tag line %d: %s", len(c), len(line), c)
		}
	}
	for text, want := range map[string]string{
		strings.Repeat("20/", Size-1) + "19 w":    "rank 1 has 19 squares",
		strings.Repeat("20/", Size-1) + "021 w":   "counts \"021\" empty squares",
		strings.Repeat("20/", Size-1) + "10x10 w": "rank 1 has 21 squares",
	} {
		if _, err := ParsePosition(text); !errors.Is(err, rules.ErrBadPosition) || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want a refusal saying %s", text, err, want)
		}
	}
}
