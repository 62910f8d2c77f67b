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
// the movetext starts from, in the variant's own position text), then for a game that
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
}

// pgnWidth is the longest movetext line.
const pgnWidth = 79

// WritePGN writes g as PGN text ending with a newline; a file of several games puts a
// blank line between them.
func WritePGN(w io.Writer, g PGN) error {
	h := g.History.Public()
	placement, moves := h.Placement(), h.Moves()
	fen := h.PlayStart().String()
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
		tag("PlacementFEN", h.Start.String())
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
	text = append(text, Movetext(moves)...)
	text = append(text, result)
	bw.WriteString(Wrap(text, pgnWidth))
	bw.WriteString("\n")
	return bw.Flush()
}

// escapeTag escapes a tag value's backslashes and quotes.
func escapeTag(s string) string {
	return strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s)
}
