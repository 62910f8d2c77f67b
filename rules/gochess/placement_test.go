package gochess

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/chess"
)

// rank1Blocked is a board with the whole of rank 1 blocked, so scripts know every
// other cell is free.
const rank1Blocked = "10/10/10/10/10/10/10/10/10/**********"

// kingRoundBoard has every piece but the kings placed, rank 1 blocked.
const kingRoundBoard = "rnb4bnr/pppppppp1q/10/10/10/10/10/RNB4BNR/PPPPPPPP1Q/**********"

var variant = New()

func sq(t testing.TB, name string) rules.Square {
	t.Helper()
	s, err := dims.ParseSquare(name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func parsePlacement(t testing.TB, text string) *Placement {
	t.Helper()
	pos, err := variant.ParsePosition(text)
	if err != nil {
		t.Fatalf("ParsePosition(%q): %v", text, err)
	}
	p, ok := pos.(*Placement)
	if !ok {
		t.Fatalf("ParsePosition(%q) = %T, want *Placement", text, pos)
	}
	return p
}

func place(p rules.Position, side rules.Side, cell string) (rules.Position, error) {
	pl := p.(*Placement)
	m, err := pl.ParseMove(cell)
	if err != nil {
		return nil, err
	}
	return pl.PlayAs(side, m)
}

func mustPlace(t testing.TB, p rules.Position, side rules.Side, cell string) rules.Position {
	t.Helper()
	next, err := place(p, side, cell)
	if err != nil {
		t.Fatalf("%s %s in %s: %v", side, cell, p, err)
	}
	return next
}

// round plays white's then black's choice.
func round(t testing.TB, p rules.Position, w, b string) rules.Position {
	t.Helper()
	return mustPlace(t, mustPlace(t, p, rules.White, w), rules.Black, b)
}

func wantErr(t testing.TB, err error, sentinel error, fragment string) {
	t.Helper()
	if err == nil || !errors.Is(err, sentinel) || !strings.Contains(err.Error(), fragment) {
		t.Fatalf("error %v, want %v containing %q", err, sentinel, fragment)
	}
}

func pawnRounds(t testing.TB, p rules.Position) rules.Position {
	for f := 'a'; f <= 'h'; f++ {
		p = round(t, p, string(f)+"2", string(f)+"9")
	}
	return p
}

func TestStartIsDeterministicAndRoundTrips(t *testing.T) {
	a, b := variant.Start(42), variant.Start(42)
	if a.String() != b.String() {
		t.Fatalf("same seed, different boards:\n%s\n%s", a, b)
	}
	if variant.Start(43).String() == a.String() {
		t.Fatalf("seeds 42 and 43 give the same board %s", a)
	}
	p := a.(*Placement)
	if got := p.Blocked(); !slices.Equal(got, BlockedFromSeed(42)) || len(got) != BlockedCells {
		t.Fatalf("blocked cells %v, want %v", got, BlockedFromSeed(42))
	}
	if p.Round() != 1 || p.Kind() != rules.Pawn || len(p.Awaiting()) != 2 || p.Outcome() != rules.OngoingOutcome {
		t.Fatalf("start: round %d kind %v awaiting %v", p.Round(), p.Kind(), p.Awaiting())
	}
	if got := parsePlacement(t, a.String()).String(); got != a.String() {
		t.Fatalf("round trip %q -> %q", a, got)
	}
	if n := len(p.LegalMovesFor(rules.White)); n != 90 {
		t.Fatalf("%d eligible cells at the start, want 90", n)
	}
}

func TestCollisionsAndTheSlate(t *testing.T) {
	p := parsePlacement(t, rank1Blocked+" placement 1 - -/- -/-")
	q := round(t, p, "e4", "e4").(*Placement)
	if q.Round() != 1 || !slices.Equal(q.Slate(), []rules.Square{sq(t, "e4")}) || !q.Board().At(sq(t, "e4")).Piece.IsNone() {
		t.Fatalf("after a collision on e4: %s", q)
	}
	for _, side := range rules.Sides {
		_, err := place(q, side, "e4")
		wantErr(t, err, rules.ErrIllegalMove, "already tried")
	}
	// A second collision, on a new cell: both cells stay on the slate.
	q = round(t, q, "f5", "f5").(*Placement)
	if got := squareList(q.Slate()); got != "e4,f5" || q.Round() != 1 {
		t.Fatalf("slate after two collisions %s, round %d", got, q.Round())
	}
	_, err := place(q, rules.Black, "f5")
	wantErr(t, err, rules.ErrIllegalMove, "already tried")
	if q.String() != rank1Blocked+" placement 1 e4,f5 -/- -/-" {
		t.Fatalf("text %s", q)
	}
	// The round ends: the pieces appear and the slate clears.
	r := round(t, q, "g6", "h7").(*Placement)
	b := r.Board()
	if r.Round() != 2 || len(r.Slate()) != 0 || b.At(sq(t, "g6")).Piece != (rules.Piece{Side: rules.White, Kind: rules.Pawn}) ||
		b.At(sq(t, "h7")).Piece != (rules.Piece{Side: rules.Black, Kind: rules.Pawn}) {
		t.Fatalf("after the reveal: %s", r)
	}
	mustPlace(t, r, rules.White, "e4") // allowed again in the new round
	_, err = place(r, rules.White, "g6")
	wantErr(t, err, rules.ErrIllegalMove, "occupied by the white pawn")
	_, err = place(r, rules.White, "c1")
	wantErr(t, err, rules.ErrIllegalMove, "blocked cell")
}

func TestNotYourTurnAndPlay(t *testing.T) {
	p := parsePlacement(t, rank1Blocked+" placement 1 - -/- -/-")
	q := mustPlace(t, p, rules.White, "e4").(*Placement)
	if aw := q.Awaiting(); !slices.Equal(aw, []rules.Side{rules.Black}) || q.Turn() != rules.Black {
		t.Fatalf("awaiting %v turn %v", aw, q.Turn())
	}
	_, err := place(q, rules.White, "f4")
	wantErr(t, err, rules.ErrNotYourTurn, "already chosen")
	if len(q.LegalMovesFor(rules.White)) != 0 {
		t.Fatal("white has chosen but still has eligible cells")
	}
	_, err = q.Play(rules.Move{From: rules.NoSquare, To: sq(t, "f4"), Drop: rules.Pawn})
	wantErr(t, err, rules.ErrIllegalMove, "PlayAs")
	_, err = q.PlayAs(rules.Black, rules.Move{From: rules.NoSquare, To: sq(t, "f4"), Drop: rules.Rook})
	wantErr(t, err, rules.ErrIllegalMove, "places a pawn")
	if p.String() != rank1Blocked+" placement 1 - -/- -/-" {
		t.Fatalf("PlayAs changed its receiver: %s", p)
	}
}

func TestParseMoveAndUCI(t *testing.T) {
	p := parsePlacement(t, rank1Blocked+" placement 1 - -/- -/-")
	want := rules.Move{From: rules.NoSquare, To: sq(t, "e4"), Drop: rules.Pawn}
	for _, text := range []string{"e4", "P@e4", "p@e4", "@e4", " E4 "} {
		m, err := p.ParseMove(text)
		if err != nil || m != want {
			t.Fatalf("ParseMove(%q) = %v, %v", text, m, err)
		}
	}
	if got := p.UCI(want); got != "P@e4" {
		t.Fatalf("UCI %q", got)
	}
	_, err := p.ParseMove("N@e4")
	wantErr(t, err, rules.ErrIllegalMove, "This round places a pawn")
	for _, text := range []string{"", "e11", "X@e4", "PP@e4", "e4e5"} {
		if _, err := p.ParseMove(text); !errors.Is(err, rules.ErrBadNotation) {
			t.Fatalf("ParseMove(%q): %v, want bad notation", text, err)
		}
	}
}

func TestSecondBishopOnTheOtherColour(t *testing.T) {
	p := pawnRounds(t, parsePlacement(t, rank1Blocked+" placement 1 - -/- -/-"))
	p = round(t, p, "c4", "d4") // c4 light (3+4 odd), d4 dark
	_, err := place(p, rules.White, "e4")
	wantErr(t, err, rules.ErrIllegalMove, "second bishop goes on a dark cell")
	_, err = place(p, rules.Black, "f6")
	wantErr(t, err, rules.ErrIllegalMove, "second bishop goes on a light cell")
	for _, side := range rules.Sides {
		first := map[rules.Side]string{rules.White: "c4", rules.Black: "d4"}[side]
		for _, m := range p.(*Placement).LegalMovesFor(side) {
			if light(m.To) == light(sq(t, first)) {
				t.Fatalf("%s may put the second bishop on %s, the colour of %s", side, dims.Name(m.To), first)
			}
		}
	}
	p = round(t, p, "e5", "f5")
	if p.(*Placement).Kind() != rules.Rook {
		t.Fatalf("after the bishops: %s", p)
	}
}

func TestKingCheckAndMutualCheckMemory(t *testing.T) {
	p := parsePlacement(t, kingRoundBoard+" placement 16 - -/- -/-")
	_, err := place(p, rules.White, "e4") // on the black queen's diagonal j9-e4
	wantErr(t, err, rules.ErrIllegalMove, "king would be in check")
	_, err = place(p, rules.White, "e8") // black pawns capture diagonally in every direction
	wantErr(t, err, rules.ErrIllegalMove, "in check")
	_, err = place(p, rules.Black, "g7") // on the white bishop's diagonal c3-g7
	wantErr(t, err, rules.ErrIllegalMove, "in check")

	_, err = place(p, rules.Black, "e6") // on the white bishop's diagonal h3-e6
	wantErr(t, err, rules.ErrIllegalMove, "in check")

	q := round(t, p, "e5", "d6").(*Placement) // kings side by side: both re-place
	if q.Round() != 16 || !slices.Equal(q.KingTried(rules.White), []rules.Square{sq(t, "e5")}) ||
		!slices.Equal(q.KingTried(rules.Black), []rules.Square{sq(t, "d6")}) || len(q.Slate()) != 0 {
		t.Fatalf("after mutual check: %s", q)
	}
	_, err = place(q, rules.White, "e5")
	wantErr(t, err, rules.ErrIllegalMove, "You already tried e5")
	_, err = place(q, rules.Black, "d6")
	wantErr(t, err, rules.ErrIllegalMove, "You already tried d6")
	// A cell only the opponent tried is allowed: white takes d6, and they clash again.
	q = round(t, q, "d6", "c6").(*Placement)
	if got := q.String(); got != kingRoundBoard+" placement 16 - e5,d6/c6,d6 -/-" {
		t.Fatalf("after the second mutual check: %s", got)
	}
	if got := parsePlacement(t, q.String()).String(); got != q.String() {
		t.Fatalf("round trip %s", got)
	}
	end := round(t, q, "c5", "g8")
	cp, ok := end.(*chess.Position)
	if !ok {
		t.Fatalf("after the kings: %T %s", end, end)
	}
	// White's king c5 is 10 from its queen j2; Black's king g8 is 4 from j9.
	if cp.Turn() != rules.Black || cp.String() != "rnb4bnr/pppppppp1q/6k3/10/10/2K7/10/RNB4BNR/PPPPPPPP1Q/********** b - - 0 1" {
		t.Fatalf("play position %s", cp)
	}
	if cp.Variant() != variant || len(cp.LegalMoves()) == 0 {
		t.Fatalf("play position is not a Go-Chess game in progress")
	}
	if _, err := cp.Play(cp.LegalMoves()[0]); err != nil {
		t.Fatal(err)
	}
}

func TestHouseRuleWhenNoCellIsEligible(t *testing.T) {
	// Every free cell but j10 was tried this round; a collision there leaves none.
	var all []string
	for r := 2; r <= 10; r++ {
		for f := 'a'; f <= 'j'; f++ {
			if name := string(f) + itoa(r); name != "j10" {
				all = append(all, name)
			}
		}
	}
	slate := strings.Join(sortedNames(t, all), ",")
	p := parsePlacement(t, rank1Blocked+" placement 1 "+slate+" -/- -/-")
	if got := p.LegalMovesFor(rules.White); len(got) != 1 || dims.Name(got[0].To) != "j10" {
		t.Fatalf("eligible %v, want only j10", got)
	}
	q := round(t, p, "j10", "j10").(*Placement)
	if n := len(q.LegalMovesFor(rules.Black)); n != 90 {
		t.Fatalf("house rule: %d cells, want every one of the 90 empty cells", n)
	}
	r := round(t, q, "e4", "e5").(*Placement)
	if r.Round() != 2 {
		t.Fatalf("house-rule round did not end: %s", r)
	}

	// A king whose tried cells use up every safe cell may take them again, but
	// still not a cell in check.
	k := parsePlacement(t, kingRoundBoard+" placement 16 - -/- -/-")
	var safe []string
	for _, m := range k.LegalMovesFor(rules.White) {
		safe = append(safe, dims.Name(m.To))
	}
	k = parsePlacement(t, kingRoundBoard+" placement 16 - "+strings.Join(safe, ",")+"/- -/-")
	got := k.LegalMovesFor(rules.White)
	if len(got) != len(safe) {
		t.Fatalf("house rule for the king: %d cells, want the %d safe ones", len(got), len(safe))
	}
	mustPlace(t, k, rules.White, "e5")
	_, err := place(k, rules.White, "e4")
	wantErr(t, err, rules.ErrIllegalMove, "in check")
}

func itoa(n int) string { return dims.Name(dims.Square(0, n-1))[1:] }

func sortedNames(t testing.TB, names []string) []string {
	sqs := make([]rules.Square, len(names))
	for i, n := range names {
		sqs[i] = sq(t, n)
	}
	slices.Sort(sqs)
	return strings.Split(squareList(sqs), ",")
}

// tieBoard places White in ranks 1-5 and Black as its half-turn rotation in ranks
// 6-10, so all distances tie; every kind has distinct distances from its king.
func tieBoard(t testing.TB) rules.Board {
	b := rules.Board{Dims: dims, Cells: make([]rules.Cell, dims.Cells())}
	layout := map[string]rules.PieceKind{
		"a1": rules.King, "b1": rules.Queen, "c1": rules.Knight, "d1": rules.Knight,
		"a3": rules.Rook, "a4": rules.Rook, "b2": rules.Bishop, "b3": rules.Bishop,
		"f1": rules.Pawn, "g1": rules.Pawn, "h1": rules.Pawn, "i1": rules.Pawn,
		"j1": rules.Pawn, "j2": rules.Pawn, "j3": rules.Pawn, "j4": rules.Pawn,
	}
	for name, k := range layout {
		s := sq(t, name)
		b.Cells[s].Piece = rules.Piece{Side: rules.White, Kind: k}
		b.Cells[rules.Square(dims.Cells()-1)-s].Piece = rules.Piece{Side: rules.Black, Kind: k}
	}
	return b
}

func TestFirstPlayerTieBreaks(t *testing.T) {
	b := tieBoard(t)
	if side, level := FirstPlayer(b); side != rules.White || level != LevelAllTied {
		t.Fatalf("all tied: %v at level %d, want white at %d", side, level, LevelAllTied)
	}
	kinds := []rules.PieceKind{rules.Queen, rules.Knight, rules.Knight, rules.Rook, rules.Rook, rules.Bishop, rules.Bishop,
		rules.Pawn, rules.Pawn, rules.Pawn, rules.Pawn, rules.Pawn, rules.Pawn, rules.Pawn, rules.Pawn}
	for level, kind := range kinds {
		slot := level - slices.Index(kinds, kind) // nearest first within the kind
		for _, loser := range rules.Sides {
			nb := movePieceFarther(t, b, loser, kind, slot)
			side, got := FirstPlayer(nb)
			if side != loser.Other() || got != level {
				t.Fatalf("%s's %s #%d moved farther: %v first at level %d, want %v at %d", loser, kind, slot+1, side, got, loser.Other(), level)
			}
		}
	}
}

// movePieceFarther moves side's slot-th nearest piece of kind to a free cell of
// its half farther from the king but no farther than the next one of the kind.
func movePieceFarther(t testing.TB, b rules.Board, side rules.Side, kind rules.PieceKind, slot int) rules.Board {
	t.Helper()
	k := kingSquare(b, side)
	var own []rules.Square
	for i, c := range b.Cells {
		if c.Piece == (rules.Piece{Side: side, Kind: kind}) {
			own = append(own, rules.Square(i))
		}
	}
	slices.SortFunc(own, func(x, y rules.Square) int { return distance(k, x) - distance(k, y) })
	from := own[slot]
	limit := 99
	if slot+1 < len(own) {
		limit = distance(k, own[slot+1])
	}
	for i, c := range b.Cells {
		s := rules.Square(i)
		half := dims.Rank(s) < 5
		if side == rules.Black {
			half = !half
		}
		if d := distance(k, s); half && c.Piece.IsNone() && d > distance(k, from) && d <= limit {
			nb := rules.Board{Dims: dims, Cells: slices.Clone(b.Cells)}
			nb.Cells[s].Piece, nb.Cells[from].Piece = nb.Cells[from].Piece, rules.Piece{}
			return nb
		}
	}
	t.Fatalf("no free cell to move %s's %s to", side, kind)
	return b
}

func TestSecrecyOfPendingChoices(t *testing.T) {
	for _, start := range []string{
		rank1Blocked + " placement 1 e4 -/- -/-",
		kingRoundBoard + " placement 16 - e5/d6 -/-",
	} {
		p := parsePlacement(t, start)
		var view, board string
		errs := map[string]string{}
		for i, m := range p.LegalMovesFor(rules.White) {
			next, err := p.PlayAs(rules.White, m)
			if err != nil {
				t.Fatal(err)
			}
			q := next.(*Placement)
			if !strings.HasSuffix(q.String(), " "+dims.Name(m.To)+"/-") {
				t.Fatalf("the stored form %s lacks white's choice %s", q, dims.Name(m.To))
			}
			if q.Board().At(m.To).Piece.Kind != rules.NoPiece {
				t.Fatalf("the full state's board shows a pending choice")
			}
			own := q.ViewFor(rules.White)
			if own.Board().At(m.To).Piece != (rules.Piece{Side: rules.White, Kind: p.Kind()}) || !strings.HasSuffix(own.String(), dims.Name(m.To)+"/-") {
				t.Fatalf("white's own view does not show its choice: %s", own)
			}
			v := q.ViewFor(rules.Black).(*Placement)
			vb := boardField(v.Board().Cells)
			if _, ok := v.Pending(rules.White); ok || !strings.HasSuffix(v.String(), " ?/-") {
				t.Fatalf("black's view shows white's choice: %s", v)
			}
			// Black's refused choices read the same whatever white chose.
			for _, cell := range []string{"a1", "e4", "e5", "d9", "e8", "k3"} {
				_, err := place(v, rules.Black, cell)
				_, err2 := place(q, rules.Black, cell)
				if err2 != nil {
					if prev, seen := errs[cell]; seen && prev != err2.Error() {
						t.Fatalf("black's error for %s depends on white's choice: %q vs %q", cell, prev, err2)
					}
					errs[cell] = err2.Error()
				}
				if err == nil {
					t.Fatalf("a view recorded a choice")
				}
			}
			if i == 0 {
				view, board = v.String(), vb
			} else if v.String() != view || vb != board {
				t.Fatalf("black's view depends on white's choice:\n%s\n%s", view, v.String())
			}
			if _, err := variant.ParsePosition(v.String()); !errors.Is(err, rules.ErrBadPosition) {
				t.Fatalf("a view with a hidden choice was accepted as a game: %v", err)
			}
		}
	}
}

func TestParsePlacementRefusesImpossibleStates(t *testing.T) {
	for _, text := range []string{
		rank1Blocked + " placement 0 - -/- -/-",
		rank1Blocked + " placement 17 - -/- -/-",
		rank1Blocked + " placement 2 - -/- -/-",                      // no pawns yet
		rank1Blocked + " placement 1 f5,e4 -/- -/-",                  // unsorted slate
		rank1Blocked + " placement 1 a1 -/- -/-",                     // blocked slate cell
		rank1Blocked + " placement 1 - e4/- -/-",                     // king tries outside the king round
		rank1Blocked + " placement 1 e4 -/- e4/-",                    // pending on the slate
		rank1Blocked + " placement 1 - -/- e4/e5",                    // both pending
		rank1Blocked + " placement 1 - -/- a1/-",                     // blocked pending
		rank1Blocked + " placement 1 - - -/-",                        // malformed tries
		kingRoundBoard + " placement 16 - -/- e4/-",                  // king in check
		"10/10/10/10/10/10/10/10/10/********* placement 1 - -/- -/-", // 9 blocked cells
	} {
		if _, err := variant.ParsePosition(text); !errors.Is(err, rules.ErrBadPosition) {
			t.Errorf("ParsePosition(%q) = %v, want a bad-position error", text, err)
		}
	}
}

type entry struct {
	side rules.Side
	text string
}

// drive plays a random placement from p to the play position, forcing collisions
// and clashing kings often and trying refused cells on the way; it checks each
// state and returns the play position, the record and the states passed through.
func drive(t testing.TB, p rules.Position, r *rand.Rand) (*chess.Position, []entry, []string) {
	t.Helper()
	var record []entry
	states := []string{p.String()}
	for step := 0; step < 5000; step++ {
		pl, ok := p.(*Placement)
		if !ok {
			return p.(*chess.Position), record, states
		}
		if got, err := variant.ParsePosition(pl.String()); err != nil || got.String() != pl.String() {
			t.Fatalf("round trip of %s: %v %v", pl, got, err)
		}
		aw := pl.Awaiting()
		side := aw[r.IntN(len(aw))]
		moves := pl.LegalMovesFor(side)
		if len(moves) == 0 {
			t.Fatalf("%s has no eligible cell in %s", side, pl)
		}
		m := moves[r.IntN(len(moves))]
		if other := pl.pending[side.Other()]; other >= 0 {
			for _, c := range moves {
				if (c.To == other && r.IntN(3) == 0) || (pl.Kind() == rules.King && kingsClash(c.To, other) && r.IntN(2) == 0) {
					m = c
				}
			}
		}
		if r.IntN(4) == 0 { // a refused cell changes nothing
			bad := rules.Move{From: rules.NoSquare, To: rules.Square(r.IntN(dims.Cells())), Drop: pl.Kind()}
			if !slices.Contains(moves, bad) {
				if _, err := pl.PlayAs(side, bad); !errors.Is(err, rules.ErrIllegalMove) {
					t.Fatalf("%s %s in %s: %v, want refused", side, pl.UCI(bad), pl, err)
				}
			}
		}
		next, err := pl.PlayAs(side, m)
		if err != nil {
			t.Fatalf("eligible %s %s refused in %s: %v", side, pl.UCI(m), pl, err)
		}
		if len(aw) == 2 {
			if _, err := next.(*Placement).PlayAs(side, m); !errors.Is(err, rules.ErrNotYourTurn) {
				t.Fatalf("%s chose twice in one round: %v", side, err)
			}
		}
		record = append(record, entry{side, pl.UCI(m)})
		p = next
		states = append(states, p.String())
	}
	t.Fatalf("placement did not end in 5000 choices")
	return nil, nil, nil
}

func checkPlayPosition(t testing.TB, start *Placement, cp *chess.Position) {
	t.Helper()
	b := cp.Board()
	counts := map[rules.Piece]int{}
	var bishops [2][]rules.Square
	for i, c := range b.Cells {
		s := rules.Square(i)
		if (c.State == rules.Blocked) != slices.Contains(start.Blocked(), s) {
			t.Fatalf("blocked cells changed: %s", cp)
		}
		if c.Piece.IsNone() {
			continue
		}
		if c.State != rules.Playable {
			t.Fatalf("piece on a blocked cell %s", dims.Name(s))
		}
		counts[c.Piece]++
		if c.Piece.Kind == rules.Bishop {
			bishops[c.Piece.Side] = append(bishops[c.Piece.Side], s)
		}
	}
	want := map[rules.PieceKind]int{rules.Pawn: 8, rules.Bishop: 2, rules.Rook: 2, rules.Knight: 2, rules.Queen: 1, rules.King: 1}
	for _, side := range rules.Sides {
		total := 0
		for k, n := range want {
			if counts[rules.Piece{Side: side, Kind: k}] != n {
				t.Fatalf("%s has %d %ss in %s", side, counts[rules.Piece{Side: side, Kind: k}], k, cp)
			}
			total += n
		}
		if total != 16 || light(bishops[side][0]) == light(bishops[side][1]) {
			t.Fatalf("%s's pieces wrong in %s", side, cp)
		}
	}
	enemyKing := kingSquare(b, cp.Turn().Other())
	for _, m := range cp.LegalMoves() {
		if m.To == enemyKing {
			t.Fatalf("the side to move can take the king in %s", cp)
		}
	}
	if again, err := variant.ParsePosition(cp.String()); err != nil || again.String() != cp.String() {
		t.Fatalf("play position %s does not read back: %v", cp, err)
	}
}

func TestRecordReplay(t *testing.T) {
	for seed := uint64(1); seed <= 3; seed++ {
		start := variant.Start(seed)
		final, record, states := drive(t, start, rand.New(rand.NewPCG(seed, 7)))
		checkPlayPosition(t, start.(*Placement), final)
		p := variant.Start(seed)
		for i, e := range record {
			m, err := p.ParseMove(e.text)
			if err != nil {
				t.Fatalf("entry %d %v %s: %v", i, e.side, e.text, err)
			}
			if p, err = p.(rules.Simultaneous).PlayAs(e.side, m); err != nil {
				t.Fatalf("entry %d %v %s: %v", i, e.side, e.text, err)
			}
			if p.String() != states[i+1] {
				t.Fatalf("replay diverges at entry %d: %s, want %s", i, p, states[i+1])
			}
		}
	}
}

func FuzzPlacement(f *testing.F) {
	for _, s := range []uint64{0, 1, 42, 1 << 40} {
		f.Add(s, s*7+3)
	}
	f.Fuzz(func(t *testing.T, seed, choices uint64) {
		start := variant.Start(seed)
		final, _, _ := drive(t, start, rand.New(rand.NewPCG(choices, seed)))
		checkPlayPosition(t, start.(*Placement), final)
	})
}

// TestGoldenRecord replays a stored game record of the placement phase (seed, then
// one "side text" line per choice, then the play FEN it must reach). Regenerate it
// with UPDATE_GOLDEN=1 go test -run TestGoldenRecord after a deliberate change.
func TestGoldenRecord(t *testing.T) {
	const path = "testdata/placement_record.txt"
	const seed = 2024
	if os.Getenv("UPDATE_GOLDEN") == "1" {
		var final *chess.Position
		var record []entry
		for k := uint64(11); ; k++ { // the first run with a king clash
			var states []string
			final, record, states = drive(t, variant.Start(seed), rand.New(rand.NewPCG(seed, k)))
			if slices.ContainsFunc(states, func(s string) bool {
				f := strings.Fields(s)
				return len(f) > 4 && f[1] == placementTag && f[4] != "-/-"
			}) {
				break
			}
		}
		var b strings.Builder
		fmt.Fprintf(&b, "seed %d\n", seed)
		for _, e := range record {
			fmt.Fprintf(&b, "%s %s\n", e.side, e.text)
		}
		fmt.Fprintf(&b, "final %s\n", final)
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	var s uint64
	if _, err := fmt.Sscanf(lines[0], "seed %d", &s); err != nil {
		t.Fatalf("first line %q: %v", lines[0], err)
	}
	p := variant.Start(s)
	collisions, clashes := 0, 0
	for _, line := range lines[1 : len(lines)-1] {
		f := strings.Fields(line)
		side, err := rules.ParseSide(f[0])
		if err != nil {
			t.Fatal(err)
		}
		m, err := p.ParseMove(f[1])
		if err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		before := p.(*Placement)
		if p, err = before.PlayAs(side, m); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		if after, ok := p.(*Placement); ok && len(after.Slate()) > len(before.Slate()) {
			collisions++
		} else if ok && len(after.KingTried(side)) > len(before.KingTried(side)) {
			clashes++
		}
	}
	if want := strings.TrimPrefix(lines[len(lines)-1], "final "); p.String() != want {
		t.Fatalf("replay reaches %s, want %s", p, want)
	}
	if collisions == 0 || clashes == 0 {
		t.Fatalf("the record should show collisions (%d) and king clashes (%d)", collisions, clashes)
	}
}

// TestKingsLeftInCheckByTheHouseRule covers the last resort of the house rule, when
// every empty cell is attacked: a king left in check moves first, and two kings
// both in check (an impossible play position) choose again.
func TestKingsLeftInCheckByTheHouseRule(t *testing.T) {
	p := parsePlacement(t, kingRoundBoard+" placement 16 - -/- -/-")
	q := p.clone()
	q.pending = [2]rules.Square{sq(t, "e4"), sq(t, "g8")} // white's king on the black queen's diagonal
	pos, err := q.reveal()
	if err != nil {
		t.Fatal(err)
	}
	if cp := pos.(*chess.Position); cp.Turn() != rules.White || !cp.InCheck() {
		t.Fatalf("the king in check does not move first: %s", cp)
	}
	q = p.clone()
	q.pending = [2]rules.Square{sq(t, "e4"), sq(t, "g7")} // both attacked
	pos, err = q.reveal()
	if err != nil {
		t.Fatal(err)
	}
	if got := pos.String(); got != kingRoundBoard+" placement 16 - e4/g7 -/-" {
		t.Fatalf("both kings in check: %s", got)
	}
}

// The second bishop's colour never gives way under the house rule (docs/RULES.md):
// in the worst case, every blocked cell, every pawn and both first bishops' rivals
// crowding the other colour and every free cell of it tried this round, the tried
// cells come back and all of them are of the other colour.
func TestSecondBishopKeepsItsColourUnderTheHouseRule(t *testing.T) {
	cells := make([]byte, dims.Cells())
	for i := range cells {
		cells[i] = '.'
	}
	var dark []rules.Square
	for i := range cells {
		if !light(rules.Square(i)) {
			dark = append(dark, rules.Square(i))
		}
	}
	for i, s := range dark[:26] { // 10 blocked, then 8 white and 8 black pawns
		cells[s] = "*Pp"[max(i-2, 0)/8]
	}
	cells[sq(t, "b1")], cells[sq(t, "a10")] = 'B', 'b' // both first bishops on light cells
	var board []string
	for r := dims.Ranks - 1; r >= 0; r-- {
		board = append(board, string(cells[dims.Square(0, r):dims.Square(0, r)+rules.Square(dims.Files)]))
	}
	field := strings.Join(board, "/")
	for n := 10; n > 1; n-- {
		field = strings.ReplaceAll(field, strings.Repeat(".", n), itoa(n))
	}
	field = strings.ReplaceAll(field, ".", "1")
	var free []string
	for _, s := range dark[26:] {
		free = append(free, dims.Name(s))
	}
	p := parsePlacement(t, field+" placement 10 "+strings.Join(sortedNames(t, free), ",")+" -/- -/-")
	for _, side := range rules.Sides {
		got := p.LegalMovesFor(side)
		if len(got) != len(free) {
			t.Errorf("%v: %d cells, want the %d tried dark cells", side, len(got), len(free))
		}
		for _, m := range got {
			if light(m.To) {
				t.Errorf("%v's second bishop may go on the light cell %s, its first bishop's colour", side, dims.Name(m.To))
			}
		}
	}
}
