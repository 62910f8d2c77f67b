package engine

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/board"
	"github.com/missivechess/missive/rules/chess"
)

// goRookEnding is king and rook against king in Go-Chess, on a board whose ten
// blocked cells the conversion tests share.
const goRookEnding = "4k5/1*6*1/4**4/2*4*2/R9/10/2*4*2/10/1*6*1/4K5 w - - 0 1"

func searchGameOf(t *testing.T, fen string) *convertingGame {
	t.Helper()
	g, err := newGame(mustPos(t, "gochess", fen))
	if err != nil {
		t.Fatal(err)
	}
	c, ok := g.(*convertingGame)
	if !ok {
		t.Fatalf("the search plays Go-Chess on a %T, want a *convertingGame", g)
	}
	return c
}

func playUCI(t *testing.T, g *convertingGame, uci string) {
	t.Helper()
	d := g.b.Geometry().Dims()
	cut := strings.IndexFunc(uci[1:], unicode.IsLetter) + 1
	from, err1 := d.ParseSquare(uci[:cut])
	to, err2 := d.ParseSquare(uci[cut:])
	if err1 != nil || err2 != nil {
		t.Fatalf("%s: not two squares", uci)
	}
	x, ok := g.fromRules(rules.Move{From: from, To: to})
	if !ok {
		t.Fatalf("%s is not legal in %s", uci, g.b.Position())
	}
	g.make(x)
}

// TestConversionDriftsTowardDraw: the evaluation of a won Go-Chess ending shrinks
// toward the draw with every ply played without an irreversible move, even when the
// position itself comes back unchanged, and only the search's game does so (the
// tuner's evaluation stays the plain weighted sum). The drift is apart from the
// static evaluation proper, which stays a function of the position alone, since
// the transposition table keeps it by position.
func TestConversionDriftsTowardDraw(t *testing.T) {
	g := searchGameOf(t, goRookEnding)
	static := g.evaluate()
	full := g.drift(static)
	if full < 300 {
		t.Fatalf("K+R v K evaluates %d for the rook's side, want a clear win", full)
	}
	prev := full
	for cycle := 1; cycle <= 10; cycle++ {
		for _, m := range []string{"a6a5", "e10d10", "a5a6", "d10e10"} {
			playUCI(t, g, m)
		}
		// Back at the start, after n plies without progress.
		n := 4 * cycle
		if e := g.evaluate(); e != static {
			t.Fatalf("after %d plies the static evaluation of the same position is %d, was %d", n, e, static)
		}
		got := g.drift(g.evaluate())
		if want := full * Score(driftPlies-n/driftStep*driftStep) / driftPlies; got != want {
			t.Fatalf("after %d plies: evaluation %d, want %d", n, got, want)
		}
		if got > prev || got <= 0 || n >= 2*driftStep && got >= full {
			t.Fatalf("after %d plies: evaluation %d, want at most %d, above 0 and below %d", n, got, prev, full)
		}
		prev = got
		if plain := g.chessGame.evaluate(); plain != g.chessGame.evaluate() || plain == got {
			t.Fatalf("after %d plies the plain evaluation %d drifted too", 4*cycle, plain)
		}
	}
	plain, err := newChessGame(mustPos(t, "gochess", goRookEnding))
	if err != nil {
		t.Fatal(err)
	}
	if g.chessGame.evaluate() != plain.evaluate() {
		t.Errorf("the plain evaluation depends on the plies played: %d, fresh %d", g.chessGame.evaluate(), plain.evaluate())
	}
}

// TestMopUpDrivesKingToRim: with a decisive material edge the evaluation prefers the
// weaker king on the rim and the stronger king near it, for either side to move;
// with even material it adds nothing.
func TestMopUpDrivesKingToRim(t *testing.T) {
	rel := func(fen string) Score {
		g := searchGameOf(t, fen)
		s := g.evaluate()
		if g.side() == rules.Black {
			s = -s
		}
		return s
	}
	for _, turn := range []string{"w", "b"} {
		centre := rel("10/1*6*1/4**4/2*4*2/5k4/1R8/2*4*2/10/1*6*1/4K5 " + turn + " - - 0 1")
		rim := rel("k9/1*6*1/4**4/2*4*2/10/1R8/2*4*2/10/1*6*1/4K5 " + turn + " - - 0 1")
		near := rel("k9/1*6*1/K3**4/2*4*2/10/1R8/2*4*2/10/1*6*1/10 " + turn + " - - 0 1")
		if rim <= centre {
			t.Errorf("%s to move: black king on the rim %d, in the centre %d; want the rim better for White", turn, rim, centre)
		}
		if near <= rim {
			t.Errorf("%s to move: white king near %d, far %d; want near better for White", turn, near, rim)
		}
	}
	even := searchGameOf(t, "r3k5/1*6*1/4**4/2*4*2/10/10/2*4*2/10/1*6*1/R3K5 w - - 0 1")
	if got := even.conv.mopUp(even.b); got != 0 {
		t.Errorf("rook against rook: mop-up %d, want 0", got)
	}
}

// TestEngineMatesWithRook: the engine, playing both sides at a fixed depth, mates
// with king and rook against a centralised king in Go-Chess in the moves it
// announces from the start (and shows to the end), even at depth 1, far from
// seeing the mate by search.
func TestEngineMatesWithRook(t *testing.T) {
	start := mustPos(t, "gochess", "10/1*6*1/4**4/2*4*2/5k4/10/2*4*2/10/1*6*1/R3K5 w - - 0 1")
	e := New(Options{HashBits: 16})
	for _, depth := range []int{1, 6} {
		pos, want := start, 0
		for ply := 0; ; ply++ {
			if o := pos.Outcome(); o.IsOver() {
				if o.Winner != rules.White || o.Reason != rules.Checkmate || ply != 2*want-1 {
					t.Fatalf("depth %d: ended %v after %d plies in %s, want White's checkmate in %d moves", depth, o, ply, pos, want)
				}
				break
			}
			r, err := e.Search(context.Background(), pos, Limits{Depth: depth})
			if err != nil {
				t.Fatal(err)
			}
			if ply == 0 {
				if want = r.Score.MateIn(); want < 10 {
					t.Fatalf("depth %d: the engine announces %v, want a mate in 10 moves or more", depth, r.Score)
				}
				// The line it shows goes on to the mate.
				end := pos
				for _, m := range r.PV {
					if end, err = end.Play(m); err != nil {
						t.Fatal(err)
					}
				}
				if o := end.Outcome(); len(r.PV) != 2*want-1 || o.Reason != rules.Checkmate {
					t.Fatalf("depth %d: the line shown, %d plies long, ends %v; want White's mate in %d moves", depth, len(r.PV), o, want)
				}
			}
			if pos, err = pos.Play(r.Move); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// floodBox is the king's room as the conversion first counted it: a flood fill that
// asks the board for the attackers of each cell it reaches.
func floodBox(c *conversion, b *chess.SearchBoard, wk rules.Square, strong rules.Side) int {
	occ := b.Occupied(rules.White).Or(b.Occupied(rules.Black)).Clear(wk)
	own, them := b.Occupied(strong^1), b.Occupied(strong)
	seen := board.Bit(wk)
	frontier := seen
	n := 1
	for frontier.Any() {
		var next board.Bitboard
		for f := frontier; f.Any(); {
			next = next.Or(c.steps[f.PopFirst()])
		}
		next = next.And(c.open).AndNot(seen).AndNot(own)
		seen = seen.Or(next)
		frontier = board.Bitboard{}
		for f := next; f.Any(); {
			sq := f.PopFirst()
			if b.AttackersWith(sq, occ).And(them).Any() {
				continue
			}
			frontier = frontier.Set(sq)
			n++
		}
	}
	return n
}

// TestBoxMatchesFloodFill: the king's room counted from one attack map of the
// stronger side is the room the cell-by-cell flood fill finds, for either side as
// the stronger, along random games from two middlegames (pawns, pieces, blocked
// cells, checks and x-rays through the king).
func TestBoxMatchesFloodFill(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	checked := 0
	for _, fen := range []string{
		"pppp3*1*/ppp*rq4/1pb*nbk3/5nr3/1*3*4/10/3*3*2/1PNN4R1/PPP*B1QB1*/PPPP1KR3 b - - 0 1",
		"1pppp*4/1*ppppn3/2n*bb*3/1*1kq3r1/7r2/10/3*1*3*/2NBRQ4/1PPPPB*3/*PPPPNKR2 b - - 0 1",
	} {
		for range 6 {
			pos := mustPos(t, "gochess", fen)
			for ply := 0; ply < 100 && !pos.Outcome().IsOver(); ply++ {
				g := searchGameOf(t, pos.String())
				for _, strong := range rules.Sides {
					wk := g.b.King(strong ^ 1)
					if got, want := g.conv.box(g.b, wk, strong), floodBox(g.conv, g.b, wk, strong); got != want {
						t.Fatalf("%s, %v stronger: box %d, flood fill %d", pos, strong, got, want)
					}
					checked++
				}
				moves := pos.LegalMoves()
				var err error
				if pos, err = pos.Play(moves[rng.IntN(len(moves))]); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	if checked < 2000 {
		t.Fatalf("only %d positions compared", checked)
	}
}

// TestMopUpWithPawns: Go-Chess pawns never promote but capture on four diagonals,
// so a king and two pawns can mate a king without pieces; the mop-up drives that
// king to the rim as it does for a piece, but not for one pawn, nor against a
// side that keeps a piece.
func TestMopUpWithPawns(t *testing.T) {
	mop := func(fen string) Score {
		t.Helper()
		g := searchGameOf(t, fen)
		return g.conv.mopUp(g.b)
	}
	centre := mop("10/1*6*1/4**4/2*4*2/5k4/10/2*4*2/2PP6/1*6*1/4K5 w - - 0 1")
	rim := mop("k9/1*6*1/4**4/2*4*2/10/10/2*4*2/2PP6/1*6*1/4K5 w - - 0 1")
	if centre <= 0 || rim <= centre {
		t.Errorf("two pawns against a lone king: mop-up %d with that king in the centre, %d on the rim; want both above 0, the rim more", centre, rim)
	}
	if got := mop("k9/1*6*1/4**4/2*4*2/10/10/2*4*2/2P7/1*6*1/4K5 w - - 0 1"); got != 0 {
		t.Errorf("one pawn against a lone king: mop-up %d, want 0", got)
	}
	if got := mop("k9/1*6*1/4**4/2*4*2/10/9n/2*4*2/2PPPPPP2/1*6*1/4K5 w - - 0 1"); got != 0 {
		t.Errorf("six pawns against a knight: mop-up %d, want 0", got)
	}
}
