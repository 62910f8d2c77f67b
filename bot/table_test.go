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
