package tournaments_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/tournaments"
)

// Standings as text stop at textRows rows, short enough for one Discord
// message, and say how many players the picture adds.
func TestStandingsTextIsCapped(t *testing.T) {
	tbl := bot.Table{Columns: []bot.Column{{Header: "#", Right: true}, {Header: "Player", Max: 26}, {Header: "Pts", Right: true}}, Note: "Tie-breaks: none."}
	for i := range 100 {
		tbl.Rows = append(tbl.Rows, bot.TableRow{Cells: []string{fmt.Sprint(i + 1), strings.Repeat("x", 40), "0"}})
	}
	text := tournaments.StandingsText(tbl, true)
	if n := strings.Count(text, "\n"); n != tournaments.TextRows+4 {
		t.Errorf("%d lines:\n%s", n, text)
	}
	if !strings.Contains(text, "… and 60 more players") || !strings.HasSuffix(text, "Tie-breaks: none.") || len(text) > 4000 {
		t.Errorf("text of %d bytes:\n%s", len(text), text)
	}
}
