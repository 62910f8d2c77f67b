package record

import (
	"bufio"
	"io"
	"strconv"
	"strings"

	"github.com/missivechess/missive/rules"
)

// Tag is one PGN tag pair.
type Tag struct{ Name, Value string }

// PGN is one game as WritePGN writes it: its tags and result around a history.
//
// The tags come in this order: the Seven Tag Roster (Event, Site, Date, Round, White,
// Black, Result; "?" when empty), Variant (the variant's stable key, as Fairy-Stockfish
// names it: gothic, keltic, gochess, gess), SetUp "1" and FEN (the position
// the movetext starts from, in the variant's own position text, its shorter form
// where it has one, rules.CompactText, so that Gess's tag line keeps within the
// PGN standard's 255 characters), then for a game that
// began with a simultaneous round (Go-Chess placement) PlacementFEN (the start before
// any choice) and Seed, then Extra in order.
//
// The movetext is the history's public part: a comment before the first move lists
// the revealed rounds ("{Placement: 1. P@d4 P@e7 2. ...}"), then the moves numbered
// by Movetext and the result, wrapped at 79 characters. Choices still secret are
// never written; while a round is pending, FEN is the last revealed position.
type PGN struct {
	Event, Site, Date, Round, White, Black string
	Result                                 string // "1-0", "0-1", "1/2-1/2" or "*"; "*" when empty
	Seed                                   uint64 // the seed written for a game with simultaneous rounds
	Extra                                  []Tag
	History                                *History
	// Notes annotate moves, by step index (Step.Index); see Note.
	Notes map[int]Note
}

// Note annotates one move of a PGN: written after the move as its NAG, then a
// comment holding the evaluation ("{[%eval 0.35]}", the form Lichess and ChessBase
// read) and Comment, then Line as a variation, a move that could have been played
// instead ("(12... Qe7 13. Nf3)"). A move by the other side after a comment or a
// variation repeats its number ("12..."), as PGN readers expect.
type Note struct {
	NAG     int          // 0 for none; $6 inaccuracy ("?!"), $2 mistake ("?"), $4 blunder ("??")
	Eval    string       // "0.35", "-1.20", "#3", "#-2"; empty for none
	Comment string       // plain text; braces are dropped
	Line    []rules.Move // moves from the position before the annotated move
}

// The NAGs of a reviewed move.
const (
	NAGMistake    = 2
	NAGBlunder    = 4
	NAGInaccuracy = 6
)

// pgnWidth is the longest movetext line.
const pgnWidth = 79

// WritePGN writes g as PGN text ending with a newline; a file of several games puts a
// blank line between them.
func WritePGN(w io.Writer, g PGN) error {
	h := g.History.Public()
	placement, moves := h.Placement(), h.Moves()
	fen := rules.CompactText(h.PlayStart())
	bw := bufio.NewWriter(w)
	tag := func(name, value string) {
		bw.WriteString("[" + name + ` "` + escapeTag(value) + "\"]\n")
	}
	orUnknown := func(s string) string {
		if s == "" {
			return "?"
		}
		return s
	}
	result := g.Result
	if result == "" {
		result = "*"
	}
	for _, t := range []Tag{{"Event", g.Event}, {"Site", g.Site}, {"Date", g.Date}, {"Round", g.Round},
		{"White", g.White}, {"Black", g.Black}} {
		tag(t.Name, orUnknown(t.Value))
	}
	tag("Result", result)
	tag("Variant", h.Start.Variant().Key())
	tag("SetUp", "1")
	tag("FEN", fen)
	if _, ok := h.Start.(rules.Simultaneous); ok || len(placement) > 0 {
		tag("PlacementFEN", rules.CompactText(h.Start))
		tag("Seed", strconv.FormatUint(g.Seed, 10))
	}
	for _, t := range g.Extra {
		tag(t.Name, t.Value)
	}
	bw.WriteString("\n")
	var text []string
	if len(placement) > 0 {
		text = append(text, "{Placement: "+PlacementText(placement)+"}")
	}
	if len(moves) > 0 {
		num, opener := numbering(moves)
		var after func(i, num int) []string
		if len(g.Notes) > 0 {
			after = func(i, num int) []string { return noteTokens(g.Notes[moves[i].Index], moves[i], num, opener) }
		}
		text = append(text, movetext(moves, num, opener, after)...)
	}
	text = append(text, result)
	bw.WriteString(Wrap(text, pgnWidth))
	bw.WriteString("\n")
	return bw.Flush()
}

// escapeTag escapes a tag value's backslashes and quotes.
func escapeTag(s string) string {
	return strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s)
}

// noteTokens writes note n of move st (numbered num, like its variation) as movetext tokens; a line the
// rules refuse from st's position is left out.
func noteTokens(n Note, st Step, num int, opener rules.Side) []string {
	var out []string
	if n.NAG > 0 {
		out = append(out, "$"+strconv.Itoa(n.NAG))
	}
	var c []string
	if n.Eval != "" {
		c = append(c, "[%eval "+n.Eval+"]")
	}
	if t := strings.Join(strings.FieldsFunc(n.Comment, func(r rune) bool { return r == '{' || r == '}' || r == '\n' }), " "); t != "" {
		c = append(c, strings.TrimSpace(t))
	}
	if len(c) > 0 {
		out = append(out, "{"+strings.Join(c, " ")+"}")
	}
	if len(n.Line) > 0 {
		if h, err := Line(st.Before, n.Line); err == nil {
			line := movetext(h.Notated().Steps, num, opener, nil)
			line[0], line[len(line)-1] = "("+line[0], line[len(line)-1]+")"
			out = append(out, line...)
		}
	}
	return out
}
