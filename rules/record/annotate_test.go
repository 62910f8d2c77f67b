package record_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/record"
)

// pgnMove is a move read back from movetext with what followed it.
type pgnMove struct {
	san      string
	nag      string
	comments []string
	lines    [][]string // variations: their moves' SAN
}

var moveNumber = regexp.MustCompile(`^[0-9]+\.(\.\.)?$`)

// readMovetext is a reader of PGN's movetext grammar (the export format of the PGN
// standard, section 8.2): comments in braces, variations in parentheses (nested),
// NAGs, move numbers, the result. It fails the test on anything else.
func readMovetext(t *testing.T, text string) []pgnMove {
	t.Helper()
	var out []pgnMove
	depth := 0
	var cur []string // the variation being read at depth 1
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c == ' ' || c == '\n':
			i++
		case c == '{':
			j := strings.IndexByte(text[i:], '}')
			if j < 0 {
				t.Fatalf("unclosed comment at %d", i)
			}
			if depth == 0 && len(out) > 0 {
				out[len(out)-1].comments = append(out[len(out)-1].comments, text[i+1:i+j])
			}
			i += j + 1
		case c == '(':
			if depth == 0 && len(out) == 0 {
				t.Fatal("a variation before any move")
			}
			depth++
			cur = nil
			i++
		case c == ')':
			if depth == 0 {
				t.Fatalf("unbalanced ) at %d", i)
			}
			if depth--; depth == 0 {
				out[len(out)-1].lines = append(out[len(out)-1].lines, cur)
			}
			i++
		default:
			j := i
			for j < len(text) && !strings.ContainsRune(" \n{}()", rune(text[j])) {
				j++
			}
			tok := text[i:j]
			i = j
			switch {
			case moveNumber.MatchString(tok):
			case strings.HasPrefix(tok, "$"):
				if depth == 0 {
					out[len(out)-1].nag = tok
				}
			case tok == "1-0" || tok == "0-1" || tok == "1/2-1/2" || tok == "*":
				if depth != 0 || i != len(strings.TrimRight(text, " \n")) {
					t.Fatalf("result %q inside the movetext", tok)
				}
			case depth == 0:
				out = append(out, pgnMove{san: tok})
			case depth == 1:
				cur = append(cur, tok)
			}
		}
	}
	if depth != 0 {
		t.Fatal("unclosed variation")
	}
	return out
}

// An annotated PGN reads back: every move, its NAG and evaluation where noted, and
// each variation, played from the position before its move, is the line noted.
func TestAnnotatedPGNRoundTrip(t *testing.T) {
	for _, key := range []string{"gothic", "keltic", "gess"} {
		v := variant(t, key)
		var r record.Record
		pos, _ := r.Position(v)
		for i := 0; i < 40 && !pos.Outcome().IsOver(); i++ {
			ms := pos.LegalMoves()
			var err error
			if pos, err = r.PlayMove(pos, pos.Turn(), ms[(i*13)%len(ms)], time.Time{}); err != nil {
				t.Fatal(err)
			}
		}
		h, _ := r.Replay(v)
		notes := map[int]record.Note{}
		for i, st := range h.Steps {
			n := record.Note{Eval: fmt.Sprintf("%.2f", float64(i)/10-1)}
			if i%3 == 1 {
				n.NAG = []int{record.NAGInaccuracy, record.NAGMistake, record.NAGBlunder}[i%9/3]
				// Two moves from the position before: the first legal move and a reply.
				m := st.Before.LegalMoves()[0]
				next, _ := st.Before.Play(m)
				n.Line = []rules.Move{m}
				if !next.Outcome().IsOver() {
					n.Line = append(n.Line, next.LegalMoves()[0])
				}
				n.Comment = "Better {was} this"
			}
			notes[st.Index] = n
		}
		var b strings.Builder
		if err := record.WritePGN(&b, record.PGN{History: h, Notes: notes}); err != nil {
			t.Fatal(err)
		}
		_, movetext, _ := strings.Cut(b.String(), "\n\n")
		got := readMovetext(t, movetext)
		if len(got) != len(h.Steps) {
			t.Fatalf("%s: read %d moves of %d:\n%s", key, len(got), len(h.Steps), movetext)
		}
		for i, st := range h.Steps {
			g, n := got[i], notes[i]
			if g.san != st.SAN {
				t.Fatalf("%s: move %d reads %q, want %q", key, i+1, g.san, st.SAN)
			}
			if want := "[%eval " + n.Eval + "]"; len(g.comments) != 1 || !strings.HasPrefix(g.comments[0], want) {
				t.Fatalf("%s: move %d comments %q, want %s", key, i+1, g.comments, want)
			}
			if (n.NAG == 0) != (g.nag == "") || n.NAG != 0 && g.nag != fmt.Sprintf("$%d", n.NAG) {
				t.Fatalf("%s: move %d NAG %q, want %d", key, i+1, g.nag, n.NAG)
			}
			if len(n.Line) == 0 {
				if len(g.lines) != 0 {
					t.Fatalf("%s: move %d has a variation", key, i+1)
				}
				continue
			}
			if len(g.lines) != 1 || len(g.lines[0]) != len(n.Line) {
				t.Fatalf("%s: move %d variations %q", key, i+1, g.lines)
			}
			p := st.Before
			for k, san := range g.lines[0] {
				m, err := p.ParseMove(san)
				if err != nil || m != n.Line[k] {
					t.Fatalf("%s: move %d variation move %q reads %v (%v), want %s", key, i+1, san, m, err, p.UCI(n.Line[k]))
				}
				p, _ = p.Play(m)
			}
		}
	}
}

// The movetext of an annotated game, as written.
func TestAnnotatedMovetext(t *testing.T) {
	v := variant(t, "gothic")
	var r record.Record
	pos, _ := r.Position(v)
	play(t, &r, pos, "d4", "e5", "dxe5", "Qg5", "Bxg5")
	h, _ := r.Replay(v)
	qe7, _ := h.Steps[3].Before.ParseMove("Qe7")
	nf3, _ := h.Steps[2].After.ParseMove("Nf3") // not played: the line is refused and left out
	notes := map[int]record.Note{
		2: {Eval: "0.45"},
		3: {NAG: record.NAGBlunder, Eval: "-9.16", Comment: "Blunder.", Line: []rules.Move{qe7}},
		4: {Eval: "9.54", Line: []rules.Move{nf3}},
	}
	var b strings.Builder
	if err := record.WritePGN(&b, record.PGN{History: h, Notes: notes}); err != nil {
		t.Fatal(err)
	}
	_, movetext, _ := strings.Cut(b.String(), "\n\n")
	want := "1. d4 e5 2. dxe5 {[%eval 0.45]} 2... Qg5 $4 {[%eval -9.16] Blunder.} (2... Qe7)\n3. Bxg5 {[%eval 9.54]} *\n"
	if movetext != want {
		t.Fatalf("movetext\n%q\nwant\n%q", movetext, want)
	}
}
