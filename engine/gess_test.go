package engine

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/gess"
)

// gessText builds a Gess position from stone lists such as "e4 f4" (Black) and "o14" (White).
func gessText(t testing.TB, black, white string, turn string) rules.Position {
	t.Helper()
	var grid [gess.Size][gess.Size]byte
	for r := range grid {
		for f := range grid[r] {
			grid[r][f] = '.'
		}
	}
	d := rules.Dims{Files: gess.Size, Ranks: gess.Size}
	for c, list := range map[byte]string{'x': black, 'o': white} {
		for _, name := range strings.Fields(list) {
			sq, err := d.ParseSquare(name)
			if err != nil {
				t.Fatal(err)
			}
			grid[d.Rank(sq)][d.File(sq)] = c
		}
	}
	rows := make([]string, 0, gess.Size)
	for r := gess.Size - 1; r >= 0; r-- {
		rows = append(rows, string(grid[r][:]))
	}
	p, err := gess.ParsePosition(strings.Join(rows, "/") + " " + turn)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// ring returns the eight perimeter stones of a ring centred on file f, rank r (1-based names).
func ring(centre string) string {
	f, r := centre[0], 0
	for _, c := range centre[1:] {
		r = r*10 + int(c-'0')
	}
	var out []string
	for df := -1; df <= 1; df++ {
		for dr := -1; dr <= 1; dr++ {
			if df == 0 && dr == 0 {
				continue
			}
			out = append(out, string(rune(int(f)+df))+itoa(r+dr))
		}
	}
	return strings.Join(out, " ")
}

func itoa(n int) string {
	if n >= 10 {
		return string(rune('0'+n/10)) + string(rune('0'+n%10))
	}
	return string(rune('0' + n))
}

func TestGessWinningRingCapture(t *testing.T) {
	// White's only ring is on p15; Black's piece p12+p13 can slide north into it. A decoy
	// elsewhere offers more stones (a white clump at j9) without winning.
	black := ring("e5") + " p12 p13 h9 i9 h10"
	white := ring("p15") + " j9 k9 j10 k10 j11 k11"
	p := gessText(t, black, white, "b")
	r, err := New(Options{HashBits: 16}).Search(context.Background(), p, Limits{Depth: 2})
	if err != nil {
		t.Fatal(err)
	}
	q, err := p.Play(r.Move)
	if err != nil {
		t.Fatal(err)
	}
	if o := q.Outcome(); o.Status != rules.Won || o.Winner != rules.Black {
		t.Fatalf("move %s gives %v, want a Black win by ring loss; score %v", p.SAN(r.Move), o, r.Score)
	}
	if r.Score.MateIn() != 1 {
		t.Fatalf("score %v, want a win in 1", r.Score)
	}
}

func TestGessRingThreat(t *testing.T) {
	// Black's only ring is on e5. White's piece on j5 (centre j5, perimeter i5) slides
	// west until its footprint meets the ring at g5, breaking it; a black stone on h4
	// stops it at i5 first.
	white := ring("p15") + " j5 i5"
	for _, tc := range []struct {
		name, black string
		threatened  bool
	}{
		{"open line", ring("e5"), true},
		{"second ring far away", ring("e5") + " " + ring("e15"), false},
		{"line blocked", ring("e5") + " h4", false},
	} {
		p := gessText(t, tc.black, white, "b")
		g := newGessGame(p.(*gess.Position))
		if got := g.threatened(); got != tc.threatened {
			t.Errorf("%s: threatened = %v, want %v", tc.name, got, tc.threatened)
		}
		if g.forwardPrune() == tc.threatened || g.canNull() == tc.threatened {
			t.Errorf("%s: forwardPrune %v and canNull %v, want %v", tc.name, g.forwardPrune(), g.canNull(), !tc.threatened)
		}
	}
}

// TestGessThreatMatchesMoves checks threatened against playing every move of the
// opponent: the side to move is threatened exactly when one of them leaves none of
// its rings standing.
func TestGessThreatMatchesMoves(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 21))
	yes, no := 0, 0
	for game := 0; game < 8; game++ {
		var pos rules.Position = gess.StartPosition()
		for ply := 0; ply < 60 && !pos.Outcome().IsOver(); ply++ {
			g := newGessGame(pos.(*gess.Position))
			want := false
			b := pos.(*gess.Position).Mutable()
			us := b.Turn()
			before := b.AppendRings(us, nil)
			b.Pass()
			for _, m := range b.AppendMoves(nil) {
				u := b.Make(m)
				after := b.AppendRings(us, nil)
				b.Unmake(u)
				if !slices.ContainsFunc(before, func(c rules.Square) bool { return slices.Contains(after, c) }) {
					want = true
					break
				}
			}
			if got := g.threatened(); got != want {
				t.Fatalf("threatened = %v, want %v in %s", got, want, pos)
			}
			if want {
				yes++
			} else {
				no++
			}
			// Random play, avoiding moves that lose at once so that games last.
			moves := pos.LegalMoves()
			next, err := pos.Play(moves[rng.IntN(len(moves))])
			for try := 0; try < 10 && err == nil && next.Outcome().IsOver(); try++ {
				next, err = pos.Play(moves[rng.IntN(len(moves))])
			}
			if err != nil {
				t.Fatal(err)
			}
			pos = next
		}
	}
	if yes == 0 || no == 0 {
		t.Fatalf("%d positions threatened, %d not: the test covers one answer only", yes, no)
	}
	t.Logf("%d threatened, %d not", yes, no)
}

func TestGessMoveClasses(t *testing.T) {
	// Black's piece on h10 (centre stone, perimeter i11) slides north-east toward
	// White's only ring on p15: l14 closes in to 4 squares, n16 breaks the ring.
	p := gessText(t, ring("e5")+" h10 i11", ring("p15"), "b")
	g := newGessGame(p.(*gess.Position))
	for _, tc := range []struct {
		move string
		want func(int) bool
		says string
	}{
		{"h10-i11", func(s int) bool { return s == 0 }, "quiet"},
		{"h10-k13", func(s int) bool { return s == 0 }, "quiet (5 squares from the ring)"},
		{"h10-l14", func(s int) bool { return s == 1 }, "an approach (1)"},
		{"h10-n16", func(s int) bool { return s > gessRingHit }, "a ring capture"},
		{"e5-e8", func(s int) bool { return s == 0 }, "quiet (far from the ring)"},
	} {
		m, err := p.ParseMove(tc.move)
		if err != nil {
			t.Fatalf("%s: %v", tc.move, err)
		}
		if got := g.captureScore(packGess(m)); !tc.want(got) {
			t.Errorf("captureScore(%s) = %d, want %s", tc.move, got, tc.says)
		}
	}
}

func TestGessRepetitionOfGamePositions(t *testing.T) {
	// Both sides step a stone out and back: the start position stands again, and
	// Black's first step would repeat the position after it, a draw for the search.
	var pos rules.Position = gess.StartPosition()
	play := func(text string) {
		t.Helper()
		m, err := pos.ParseMove(text)
		if err != nil {
			t.Fatal(err)
		}
		if pos, err = pos.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	for _, text := range []string{"c6-c7", "c15-c14", "c9-c8", "c12-c13"} {
		play(text)
	}
	g := newGessGame(pos.(*gess.Position))
	m, err := pos.ParseMove("c6-c7")
	if err != nil {
		t.Fatal(err)
	}
	g.make(packGess(m))
	if sc, ok := g.terminal(1); !ok || sc != drawScore {
		t.Errorf("after c6-c7 again terminal = %v, %v; want a draw by repetition", sc, ok)
	}
	g.unmake()
	m, err = pos.ParseMove("c6-c8")
	if err != nil {
		t.Fatal(err)
	}
	g.make(packGess(m))
	if sc, ok := g.terminal(1); ok {
		t.Errorf("after c6-c8, a new position, terminal = %v, want the game to go on", sc)
	}
}
