package record_test

import (
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/record"
	"github.com/missivechess/missive/rules/variants"
)

// What WritePGN writes, ReadPGN reads back: the tags (escapes included), the start,
// every move and the final position, in Gothic, Keltic and Gess.
func TestReadPGNRoundTrip(t *testing.T) {
	reg := variants.Registry()
	for _, key := range []string{"gothic", "keltic", "gess"} {
		t.Run(key, func(t *testing.T) {
			v, _ := reg.Lookup(key)
			rec := record.Record{}
			pos := v.Start(0)
			for i := range 12 {
				ms := pos.LegalMoves()
				if len(ms) == 0 {
					break
				}
				m := ms[(i*7)%len(ms)]
				pos = play(t, &rec, pos, pos.UCI(m))
			}
			h, err := rec.Replay(v)
			if err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			extra := []record.Tag{{Name: "TimeControl", Value: "2592000+86400"}, {Name: "TimeBankCap", Value: "3888000"}}
			if err := record.WritePGN(&b, record.PGN{Event: `A "quoted" \\ event`, White: "alice", Black: "bob", Result: "*", Extra: extra, History: h}); err != nil {
				t.Fatal(err)
			}
			g, err := record.ReadPGN(strings.NewReader(b.String()+"\n[Event \"next game\"]\n"), reg)
			if err != nil {
				t.Fatalf("%v\n%s", err, b.String())
			}
			if ev, _ := g.Tag("Event"); ev != `A "quoted" \\ event` {
				t.Errorf("Event read as %q", ev)
			}
			for _, want := range extra {
				if got, ok := g.Tag(want.Name); !ok || got != want.Value {
					t.Errorf("%s read as %q", want.Name, got)
				}
			}
			if g.Position.String() != pos.String() || len(g.Moves) != len(rec.Moves) || g.Result != "*" {
				t.Errorf("read %d moves to %q, result %q; want %d to %q\n%s", len(g.Moves), g.Position.String(), g.Result, len(rec.Moves), pos.String(), b.String())
			}
		})
	}
}

// A game that is not as WritePGN writes it is refused, naming what is wrong.
func TestReadPGNRefuses(t *testing.T) {
	reg := variants.Registry()
	for text, want := range map[string]string{
		"[Variant \"chess\"]\n\n1. e4 *\n":                                            `the Variant tag "chess"`,
		"[Variant \"keltic\"]\n\n*\n":                                                 "no FEN tag",
		"[Variant \"gothic\"]\n[FEN \"nonsense\"]\n\n*\n":                             "the FEN tag",
		"[Variant \"gothic\" \n\n*\n":                                                 "is not a tag pair",
		"[Variant \"gothic\"]\n[FEN \"" + gothicStart(t) + "\"]\n\n1. e4 e5 2. Ke3 *": `move 3, "Ke3"`,
	} {
		if _, err := record.ReadPGN(strings.NewReader(text), reg); !errors.Is(err, record.ErrBadPGN) || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want an error saying %s", text, err, want)
		}
	}
}

// gothicStart is Gothic Chess's start position text.
func gothicStart(t *testing.T) string { return variant(t, "gothic").Start(0).String() }

// playedGame plays up to plies moves of key (a Go-Chess game first through its
// whole placement), choosing moves by a fixed pattern, and returns its history.
func playedGame(t testing.TB, key string, seed uint64, plies int) *record.History {
	t.Helper()
	v := variant(t, key)
	r := record.Record{Seed: seed}
	pos, err := r.Position(v)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; ; i++ {
		if sim, ok := record.Round(pos); ok {
			side := sim.Awaiting()[0]
			ms := sim.LegalMovesFor(side)
			if pos, err = r.PlayMove(pos, side, ms[(i*7+int(seed))%len(ms)], time.Time{}); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if plies == 0 || pos.Outcome().IsOver() {
			break
		}
		plies--
		ms := pos.LegalMoves()
		if pos, err = r.PlayMove(pos, pos.Turn(), ms[(i*13+int(seed))%len(ms)], time.Time{}); err != nil {
			t.Fatal(err)
		}
	}
	h, err := r.Replay(v)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// annotate gives every move of h a note as the review writes them: an evaluation,
// and on every third move a NAG, a comment and a two-move variation.
func annotate(h *record.History) map[int]record.Note {
	notes := map[int]record.Note{}
	for i, st := range h.Moves() {
		n := record.Note{Eval: fmt.Sprintf("%.2f", float64(i)/10-1)}
		if i%3 == 1 {
			n.NAG = []int{record.NAGInaccuracy, record.NAGMistake, record.NAGBlunder}[i%9/3]
			m := st.Before.LegalMoves()[0]
			n.Line = []rules.Move{m}
			if next, _ := st.Before.Play(m); !next.Outcome().IsOver() {
				n.Line = append(n.Line, next.LegalMoves()[0])
			}
			n.Comment = "Better was this."
		}
		notes[st.Index] = n
	}
	return notes
}

// The PGN Missive writes of each of the four games, plain (/pgn) and annotated
// (the review: NAGs, evaluations, comments, variations), reads back: every tag,
// every move, the position reached, the result, and every note as written.
func TestReadWrittenPGN(t *testing.T) {
	reg := variants.Registry()
	for _, key := range []string{"gothic", "keltic", "gochess", "gess"} {
		for _, annotated := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s annotated=%v", key, annotated), func(t *testing.T) {
				h := playedGame(t, key, 3, 30)
				p := record.PGN{Event: "Missive rated game", White: "alice", Black: "Missive engine (level 3)", Result: "*", Seed: 3, History: h,
					Extra: []record.Tag{{Name: "TimeControl", Value: "1/259200"}, {Name: "Termination", Value: "unterminated"}}}
				if annotated {
					p.Notes = annotate(h)
				}
				var b strings.Builder
				if err := record.WritePGN(&b, p); err != nil {
					t.Fatal(err)
				}
				g, err := record.ReadPGN(strings.NewReader(b.String()), reg)
				if err != nil {
					t.Fatalf("%v\n%s", err, b.String())
				}
				moves := h.Moves()
				if len(g.Moves) != len(moves) || g.Position.String() != h.Position().String() || g.Result != "*" {
					t.Fatalf("read %d moves to %s (result %q); want %d to %s\n%s", len(g.Moves), g.Position, g.Result, len(moves), h.Position(), b.String())
				}
				for i, st := range moves {
					if g.Moves[i] != st.Move {
						t.Fatalf("move %d read as %s, want %s", i+1, st.Before.UCI(g.Moves[i]), st.SAN)
					}
					want := p.Notes[st.Index]
					if got := g.Notes[i]; !reflect.DeepEqual(got, want) {
						t.Fatalf("move %d (%s): note read as %+v, want %+v\n%s", i+1, st.SAN, got, want, b.String())
					}
				}
				for i, l := range strings.Split(b.String(), "\n") {
					if len(l)+1 > 255 {
						t.Errorf("line %d is %d characters with its newline, more than the PGN standard's 255: %.40s...", i+1, len(l)+1, l)
					}
				}
				if tc, _ := g.Tag("TimeControl"); tc != "1/259200" {
					t.Errorf("TimeControl read as %q", tc)
				}
			})
		}
	}
}

// The import format's whole grammar: escaped lines, both kinds of comment, NAGs and
// suffix annotations, nested variations, every form of move number, several games
// in one file, and each result.
func TestReadPGNGrammar(t *testing.T) {
	reg := variants.Registry()
	start := gothicStart(t)
	text := "% an escaped line, skipped: [Event \"no\"] 1. e4\n" +
		"[Event \"one\"] [Site \"?\"]\n[Variant \"gothic\"]\n[FEN \"" + start + "\"]\n\n" +
		"1.e4 e5 ; a comment to the end of the line (with a parenthesis\n" +
		"2. Nh3!? $14 {a comment\nover two lines} 2... Nc6 (2... d6 3. d4 (3. c3 f6 (3... g6)) 3... exd4) (2...f6?)\n" +
		"3.d4 3. ... Nj6 $2 4. c3 1-0\n" +
		"\n[Event \"two\"]\n[Variant \"gothic\"]\n[FEN \"" + start + "\"]\n1. d4 d5 1/2-1/2\n" +
		"[Event \"three\"][Variant \"gothic\"][FEN \"" + start + "\"] 1. c4 *\n" +
		"[Event \"four\"]\n[Variant \"gothic\"]\n[FEN \"" + start + "\"]\n\n1. b4 0-1\n" +
		"[Event \"five, without a result\"]\n[Variant \"gothic\"]\n[FEN \"" + start + "\"]\n\n1. a4 a5\n"
	pr := record.NewPGNReader(strings.NewReader("\ufeff"+text), reg) // a byte order mark first, as some editors save
	for _, want := range []struct {
		event, moves, result string
	}{
		{"one", "e4 e5 Nh3 Nc6 d4 Nj6 c3", "1-0"},
		{"two", "d4 d5", "1/2-1/2"},
		{"three", "c4", "*"},
		{"four", "b4", "0-1"},
		{"five, without a result", "a4 a5", ""},
	} {
		g, err := pr.Next()
		if err != nil {
			t.Fatalf("game %q: %v", want.event, err)
		}
		var sans []string
		pos := g.Start
		for _, m := range g.Moves {
			sans = append(sans, strings.TrimRight(pos.SAN(m), "+#"))
			pos, _ = pos.Play(m)
		}
		if ev, _ := g.Tag("Event"); ev != want.event || strings.Join(sans, " ") != want.moves || g.Result != want.result {
			t.Errorf("read %q: %s, %q; want %q: %s, %q", ev, sans, g.Result, want.event, want.moves, want.result)
		}
		if want.event == "one" {
			if n := g.Notes[2]; n.NAG != 5 || n.Comment != "a comment over two lines" {
				t.Errorf("Nh3!? $14 {...}: note %+v", n)
			}
			if n := g.Notes[1]; n.Comment != "a comment to the end of the line (with a parenthesis" {
				t.Errorf("e5 ; ...: note %+v", n)
			}
			if n := g.Notes[3]; len(n.Line) != 3 || n.NAG != 0 {
				t.Errorf("Nc6 (2... d6 3. d4 ... 3... exd4) (2... f6?): note %+v, want the first variation's 3 moves", n)
			}
			if n := g.Notes[5]; n.NAG != 2 {
				t.Errorf("Nj6 $2: note %+v", n)
			}
		}
	}
	if _, err := pr.Next(); !errors.Is(err, io.EOF) {
		t.Errorf("after the last game: %v, want io.EOF", err)
	}
}

// A game that cannot be read is an error naming where and why, and the reader goes
// on with the next game.
func TestPGNReaderSkipsABadGame(t *testing.T) {
	start := gothicStart(t)
	game := func(movetext string) string {
		return "[Variant \"gothic\"]\n[FEN \"" + start + "\"]\n\n" + movetext + "\n\n"
	}
	for movetext, want := range map[string]string{
		"1. e4 e5 2. Ke3 *":        `line 4: move 3, "Ke3"`,
		"1. e4 (1. d4 (Ke3)) e5 *": `"Ke3" in a variation after move 1`,
		"(1. e4) *":                "a variation before any move",
		"1. e4 ) *":                "closes no variation",
		"1. e4 (1. d4 *) *":        "inside a variation",
		"1. e4 {never closed *":    "is not closed",
		"1. e4 $ *":                "is not a NAG",
		"1. e4 e5?!? *":            `"?!?" is not an annotation`,
		"1. e4 \"a string\" *":     "out of place",
		"1. e4 (1. d4 (1. c4)\n":   "a variation is not closed",
		"1. e4 & *":                `the character '&'`,
	} {
		pr := record.NewPGNReader(strings.NewReader(game(movetext)+game("1. h4 *")), variants.Registry())
		if _, err := pr.Next(); !errors.Is(err, record.ErrBadPGN) || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want an error saying %s", movetext, err, want)
			continue
		}
		if want == "is not closed" {
			continue // the comment ran over the next game
		}
		if g, err := pr.Next(); err != nil || len(g.Moves) != 1 {
			t.Errorf("%q: the next game: %v", movetext, err)
		}
	}
}

// FuzzReadPGN: no text makes the reader panic or stop making progress, and every
// game it reads is a game: written again (WritePGN) and read back, it is the same
// start, the same moves and the same position.
func FuzzReadPGN(f *testing.F) {
	reg := variants.Registry()
	for i, key := range []string{"gothic", "keltic", "gochess", "gess"} {
		h := playedGame(f, key, uint64(i), 8) // small: the fuzzer's mutator stalls on large inputs
		var b strings.Builder
		if err := record.WritePGN(&b, record.PGN{History: h, Notes: annotate(h), Result: "1-0"}); err != nil {
			f.Fatal(err)
		}
		f.Add(b.String())
	}
	f.Add("% x\n[A \"b\\\"\"] ; c\n{d} 1. e4 (1... e5 (1... d5)) $1 e5!? 1/2-1/2 [")
	f.Fuzz(func(t *testing.T, text string) {
		pr := record.NewPGNReader(strings.NewReader("\ufeff"+text), reg) // a byte order mark first, as some editors save
		for n := 0; ; n++ {
			if n > len(text)+1 {
				t.Fatalf("%d games read from %d bytes", n, len(text))
			}
			g, err := pr.Next()
			if errors.Is(err, io.EOF) {
				return
			}
			if err != nil {
				if !errors.Is(err, record.ErrBadPGN) {
					t.Fatalf("an error that is not ErrBadPGN: %v", err)
				}
				continue
			}
			h, err := record.Line(g.Start, g.Moves)
			if err != nil {
				t.Fatalf("the moves read do not replay: %v", err)
			}
			if h.Position().String() != g.Position.String() {
				t.Fatalf("read position %s, replayed %s", g.Position, h.Position())
			}
			var b strings.Builder
			if err := record.WritePGN(&b, record.PGN{History: h.Notated(), Result: g.Result}); err != nil {
				t.Fatal(err)
			}
			again, err := record.ReadPGN(strings.NewReader(b.String()), reg)
			if err != nil {
				t.Fatalf("the game written again does not read: %v\n%s", err, b.String())
			}
			if again.Start.String() != g.Start.String() || !reflect.DeepEqual(again.Moves, g.Moves) || again.Position.String() != g.Position.String() {
				t.Fatalf("written again and read, the game differs:\n%s", b.String())
			}
		}
	})
}
