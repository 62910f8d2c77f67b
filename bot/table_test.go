package bot

import (
	"fmt"
	"strings"
	"testing"
)

func TestTableText(t *testing.T) {
	tbl := Table{Columns: []Column{{Header: "#", Right: true}, {Header: "Player", Max: 8}, {Header: "Pts", Right: true}}}
	for i := range 3 {
		tbl.Rows = append(tbl.Rows, TableRow{Cells: []string{fmt.Sprint(i + 1), strings.Repeat("n", 4+3*i), fmt.Sprint(10 - i)}})
	}
	want := "" +
		"#  Player    Pts\n" +
		"1  nnnn       10\n" +
		"2  nnnnnnn     9\n" +
		"3  nnnnnnn…    8\n"
	if got := tbl.Text(0); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if got := tbl.Text(1); got != "#  Player  Pts\n1  nnnn     10\n" {
		t.Errorf("one row:\n%s", got)
	}
}

// Standings as text stop at textRows rows, short enough for one Discord
// message, and say how many players the picture adds.
func TestStandingsTextIsCapped(t *testing.T) {
	tbl := Table{Columns: []Column{{Header: "#", Right: true}, {Header: "Player", Max: 26}, {Header: "Pts", Right: true}}, Note: "Tie-breaks: none."}
	for i := range 100 {
		tbl.Rows = append(tbl.Rows, TableRow{Cells: []string{fmt.Sprint(i + 1), strings.Repeat("x", 40), "0"}})
	}
	text := standingsText(tbl, true)
	if n := strings.Count(text, "\n"); n != textRows+4 {
		t.Errorf("%d lines:\n%s", n, text)
	}
	if !strings.Contains(text, "… and 60 more players") || !strings.HasSuffix(text, "Tie-breaks: none.") || len(text) > 4000 {
		t.Errorf("text of %d bytes:\n%s", len(text), text)
	}
}
