package record_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/record"
	"github.com/missivechess/missive/rules/variants"
)

func variant(t testing.TB, key string) rules.Variant {
	t.Helper()
	v, err := variants.Registry().Lookup(key)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// play plays texts alternately from pos and fails the test on a refusal.
func play(t testing.TB, r *record.Record, pos rules.Position, texts ...string) rules.Position {
	t.Helper()
	for _, text := range texts {
		var err error
		if _, pos, err = r.Play(pos, pos.Turn(), text, time.Time{}); err != nil {
			t.Fatalf("%s: %v", text, err)
		}
	}
	return pos
}

func TestPlayStoresCanonicalTextAndRefusesWithoutChange(t *testing.T) {
	v := variant(t, "gothic")
	var r record.Record
	pos, err := r.Position(v)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	m, next, err := r.Play(pos, rules.White, " e4 ", at)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Moves) != 1 || r.Moves[0] != (record.Entry{Move: pos.UCI(m), At: at}) || r.Moves[0].Move != "e2e4" {
		t.Fatalf("entries %+v", r.Moves)
	}
	if next.Turn() != rules.Black {
		t.Fatalf("turn after e4: %s", next.Turn())
	}
	for _, c := range []struct {
		side rules.Side
		text string
		want error
	}{
		{rules.White, "e5", rules.ErrNotYourTurn},
		{rules.Black, "e2e4", rules.ErrIllegalMove},
		{rules.Black, "zz9", rules.ErrBadNotation},
	} {
		if _, _, err := r.Play(next, c.side, c.text, at); !errors.Is(err, c.want) {
			t.Errorf("%s %q: %v, want %v", c.side, c.text, err, c.want)
		}
		if len(r.Moves) != 1 {
			t.Fatalf("a refused move changed the record: %+v", r.Moves)
		}
	}
	afterE4 := next
	next = play(t, &r, next, "f5", "exf5")
	if got, err := r.Position(v); err != nil || got.String() != next.String() {
		t.Fatalf("replayed %v (%v), played %s", got, err, next)
	}
	back, err := r.Undo(v, 2)
	if err != nil || len(r.Moves) != 1 || back.String() != afterE4.String() {
		t.Fatalf("undo 2: %v %v %+v", back, err, r.Moves)
	}
	if _, err := r.Undo(v, 2); err == nil || len(r.Moves) != 1 {
		t.Fatalf("undoing more than the record holds: %v %+v", err, r.Moves)
	}
}

func TestGameOverRefused(t *testing.T) {
	v := variant(t, "gothic")
	var r record.Record
	pos, _ := r.Position(v)
	pos = play(t, &r, pos, "Cf3", "d5", "Ah3", "Nd7", "Ae6#")
	if _, _, err := r.Play(pos, rules.Black, "a6", time.Time{}); !errors.Is(err, rules.ErrGameOver) || len(r.Moves) != 5 {
		t.Fatalf("a move after mate: %v, %d entries", err, len(r.Moves))
	}
}

func TestReplayNamesTheRefusedEntry(t *testing.T) {
	v := variant(t, "gothic")
	r := record.Record{Moves: []record.Entry{{Move: "e2e4"}, {Move: "e7e5"}, {Move: "e4e5"}}}
	_, err := r.Position(v)
	var re *record.ReplayError
	if !errors.As(err, &re) || re.Index != 2 || re.Move != "e4e5" || !errors.Is(err, rules.ErrIllegalMove) {
		t.Fatalf("Position: %v", err)
	}
	if _, err := r.Replay(v); !errors.As(err, &re) || re.Index != 2 {
		t.Fatalf("Replay: %v", err)
	}
	bad := record.Record{Start: "not a position"}
	if _, err := bad.Replay(v); !errors.As(err, &re) || re.Index != -1 || !errors.Is(err, rules.ErrBadPosition) {
		t.Fatalf("bad start: %v", err)
	}
}

func TestReplaySteps(t *testing.T) {
	v := variant(t, "gothic")
	var r record.Record
	pos, _ := r.Position(v)
	end := play(t, &r, pos, "e4", "e5", "Nh3")
	h, err := r.Replay(v)
	if err != nil {
		t.Fatal(err)
	}
	if h.Start.String() != pos.String() || h.Position().String() != end.String() || len(h.Steps) != 3 {
		t.Fatalf("history %+v", h)
	}
	for i, want := range []struct {
		side rules.Side
		san  string
	}{{rules.White, "e4"}, {rules.Black, "e5"}, {rules.White, "Nh3"}} {
		st := h.Steps[i]
		if st.Index != i || st.Side != want.side || st.SAN != want.san || st.Simultaneous {
			t.Errorf("step %d: %+v", i, st)
		}
		if i > 0 && st.Before != h.Steps[i-1].After {
			t.Errorf("step %d does not start where step %d ended", i, i-1)
		}
	}
	if got := strings.Join(record.Movetext(h.Moves()), " "); got != "1. e4 e5 2. Nh3" {
		t.Errorf("movetext %q", got)
	}
}

// Go-Chess placement: each side chooses in secret; the record keeps who chose, the
// views never show the opponent's pending choice, and a takeback of a pending choice
// reopens the round for that side only.
func TestSimultaneousPlacement(t *testing.T) {
	v := variant(t, "gochess")
	r := record.Record{Seed: 42}
	pos, err := r.Position(v)
	if err != nil {
		t.Fatal(err)
	}
	sim, ok := record.Round(pos)
	if !ok || len(record.ToMove(pos)) != 2 {
		t.Fatalf("Go-Chess does not start with a round: %v", record.ToMove(pos))
	}
	wm := sim.LegalMovesFor(rules.White)[0]
	bm := sim.LegalMovesFor(rules.Black)[len(sim.LegalMovesFor(rules.Black))-1]
	wtext := pos.UCI(wm)
	_, pos, err = r.Play(pos, rules.White, wtext, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	if e := r.Moves[0]; !e.Simultaneous || e.Side != rules.White {
		t.Fatalf("entry %+v", e)
	}
	if got := record.ToMove(pos); len(got) != 1 || got[0] != rules.Black {
		t.Fatalf("awaited after white's choice: %v", got)
	}
	if _, _, err := r.Play(pos, rules.White, wtext, time.Time{}); !errors.Is(err, rules.ErrNotYourTurn) || len(r.Moves) != 1 {
		t.Fatalf("choosing twice: %v", err)
	}
	has := func(p rules.Position, sq rules.Square) bool { return !p.Board().At(sq).Piece.IsNone() }
	if !has(record.View(pos, rules.White), wm.To) || has(record.View(pos, rules.Black), wm.To) || has(record.PublicView(pos), wm.To) {
		t.Fatalf("views: white's pending choice on %s", v.Dims().Name(wm.To))
	}
	h, err := r.Replay(v)
	if err != nil {
		t.Fatal(err)
	}
	if st := h.Steps[0]; !st.Simultaneous || st.Revealed || st.Side != rules.White || !strings.HasSuffix(st.SAN, "@"+v.Dims().Name(wm.To)) {
		t.Fatalf("pending step %+v", st)
	}
	if pub := h.Public(); len(pub.Steps) != 0 || len(h.Steps) != 1 {
		t.Fatalf("the public history shows a pending choice: %+v", pub.Steps)
	}

	// Taking back the pending choice reopens the round for white.
	back, err := r.Undo(v, 1)
	if err != nil || len(record.ToMove(back)) != 2 || len(r.Moves) != 0 {
		t.Fatalf("undo the pending choice: %v %v", record.ToMove(back), err)
	}
	pos = back
	if _, pos, err = r.Play(pos, rules.White, wtext, time.Time{}); err != nil {
		t.Fatal(err)
	}
	if _, pos, err = r.Play(pos, rules.Black, pos.UCI(bm), time.Time{}); err != nil {
		t.Fatal(err)
	}
	if h, err = r.Replay(v); err != nil {
		t.Fatal(err)
	}
	if !h.Steps[1].Revealed || h.Steps[1].Side != rules.Black || len(h.Public().Steps) != 2 {
		t.Fatalf("revealed round %+v", h.Steps)
	}
	if !has(record.PublicView(pos), wm.To) || !has(record.PublicView(pos), bm.To) {
		t.Fatalf("a revealed round is not public")
	}
	if got := record.PlacementText(h.Placement()); !strings.HasPrefix(got, "1. P@"+v.Dims().Name(wm.To)+" P@") {
		t.Errorf("placement text %q", got)
	}
}

func TestMovetextNumbers(t *testing.T) {
	for _, c := range []struct {
		name, variant, start string
		moves                []string
		want                 string
	}{
		// Chess family: standard PGN numbering from the FEN's fullmove number.
		{"gothic from a FEN, black to move", "gothic", "k9/10/3Q6/10/10/10/10/K9 b - - 0 41", []string{"Kb7", "Qd5+", "Ka7"}, "41... Kb7 42. Qd5+ Ka7"},
		{"gothic", "gothic", "", []string{"e4", "e5", "Nh3"}, "1. e4 e5 2. Nh3"},
		// Gess: Black moves first, and move 1 is Black's move and White's reply.
		{"gess", "gess", "", []string{"e3-e5", "l18xl15", "e6xl13"}, "1. e3-e5 l18xl15 2. e6xl13"},
	} {
		t.Run(c.name, func(t *testing.T) {
			v := variant(t, c.variant)
			r := record.Record{Start: c.start}
			pos, err := r.Position(v)
			if err != nil {
				t.Fatal(err)
			}
			play(t, &r, pos, c.moves...)
			h, err := r.Replay(v)
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(record.Movetext(h.Moves()), " "); got != c.want {
				t.Fatalf("movetext %q, want %q", got, c.want)
			}
		})
	}
}

// The PGN of a Gess game: its FEN tag in the short form (runs of empty squares as
// numbers), which keeps the line within the PGN standard's 255 characters.
func TestWritePGN(t *testing.T) {
	v := variant(t, "gess")
	var r record.Record
	pos, _ := r.Position(v)
	play(t, &r, pos, "e3-e5", "l18xl15", "e6xl13")
	h, err := r.Replay(v)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	err = record.WritePGN(&b, record.PGN{Event: `a "quoted" event`, White: "alice", Black: "bob",
		Extra: []record.Tag{{"Termination", "unterminated"}}, History: h})
	if err != nil {
		t.Fatal(err)
	}
	want := `[Event "a \"quoted\" event"]
[Site "?"]
[Date "?"]
[Round "?"]
[White "alice"]
[Black "bob"]
[Result "*"]
[Variant "gess"]
[SetUp "1"]
[FEN "20/2o1o1oooooooo1o1o2/1ooo1o1oooo1o1o1ooo1/2o1o1oooooooo1o1o2/20/20/2o2o2o2o2o2o2/20/20/20/20/20/20/2x2x2x2x2x2x2/20/20/2x1x1xxxxxxxx1x1x2/1xxx1x1xxxx1x1x1xxx1/2x1x1xxxxxxxx1x1x2/20 b"]
[Termination "unterminated"]

1. e3-e5 l18xl15 2. e6xl13 *
`
	if b.String() != want {
		t.Fatalf("PGN:\n%s\nwant:\n%s", b.String(), want)
	}
}

func TestWrap(t *testing.T) {
	if got := record.Wrap([]string{"1.", "e4", "e5", "2.", "Nf3"}, 8); got != "1. e4 e5\n2. Nf3" {
		t.Fatalf("wrap %q", got)
	}
}

func TestLine(t *testing.T) {
	v := variant(t, "gothic")
	start := v.Start(0)
	var r record.Record
	end := play(t, &r, start, "e4", "e5")
	moves := make([]rules.Move, 0, 3)
	h, _ := r.Replay(v)
	for _, st := range h.Steps {
		moves = append(moves, st.Move)
	}
	line, err := record.Line(start, moves)
	if err != nil || line.Position().String() != end.String() || len(line.Steps) != 2 || line.Steps[1].Side != rules.Black {
		t.Fatalf("line %+v: %v", line, err)
	}
	if got := strings.Join(record.Movetext(line.Notated().Steps), " "); got != "1. e4 e5" {
		t.Errorf("movetext %q", got)
	}
	_, err = record.Line(start, append(moves, moves[0]))
	var re *record.ReplayError
	if !errors.As(err, &re) || re.Index != 2 || !errors.Is(err, rules.ErrIllegalMove) {
		t.Fatalf("an illegal move in a line: %v", err)
	}
}

// The movetext WritePGN writes reads back, move by move, to the game played: wrapped
// lines, move numbers and all (the project has no PGN reader; this is its check).
func TestPGNRoundTrip(t *testing.T) {
	for _, key := range []string{"gothic", "keltic", "gess"} {
		v := variant(t, key)
		var r record.Record
		pos, _ := r.Position(v)
		for i := 0; i < 60 && !pos.Outcome().IsOver(); i++ {
			ms := pos.LegalMoves()
			var err error
			if pos, err = r.PlayMove(pos, pos.Turn(), ms[(i*13)%len(ms)], time.Time{}); err != nil {
				t.Fatal(err)
			}
		}
		h, err := r.Replay(v)
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		if err := record.WritePGN(&b, record.PGN{History: h}); err != nil {
			t.Fatal(err)
		}
		_, movetext, _ := strings.Cut(b.String(), "\n\n")
		for _, line := range strings.Split(strings.TrimSpace(movetext), "\n") {
			if len(line) > 79 {
				t.Errorf("%s: movetext line of %d characters", key, len(line))
			}
		}
		tokens := strings.Fields(movetext)
		back := record.Record{}
		pos, _ = back.Position(v)
		for _, tok := range tokens[:len(tokens)-1] {
			if strings.HasSuffix(tok, ".") {
				continue
			}
			if _, pos, err = back.Play(pos, pos.Turn(), tok, time.Time{}); err != nil {
				t.Fatalf("%s: reading %q back: %v", key, tok, err)
			}
		}
		if len(back.Moves) != len(r.Moves) {
			t.Fatalf("%s: read back %d moves of %d", key, len(back.Moves), len(r.Moves))
		}
		for i := range r.Moves {
			if back.Moves[i].Move != r.Moves[i].Move {
				t.Fatalf("%s: move %d reads back as %s, played %s", key, i+1, back.Moves[i].Move, r.Moves[i].Move)
			}
		}
	}
}

// A refusal of the record carries its sentence for the player as data.
func TestRefusalsCarrySentences(t *testing.T) {
	v := variant(t, "gothic")
	var r record.Record
	pos, _ := r.Position(v)
	_, _, err := r.Play(pos, rules.Black, "e5", time.Time{})
	var s rules.Sentencer
	if !errors.As(err, &s) || s.Sentence() != "It is white's turn, not black's." || !errors.Is(err, rules.ErrNotYourTurn) {
		t.Fatalf("wrong side: %v", err)
	}
}
