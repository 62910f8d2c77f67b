package bot

import (
	"strings"
	"unicode/utf8"

	"github.com/missivechess/missive/bot/words"
)

// Table is text in columns, such as a tournament's standings: drawn as a
// picture by Renderer.TablePNG or as monospace text by Text.
type Table struct {
	Title   string
	Columns []Column
	Rows    []TableRow
	// Note is a line under the table, such as a legend of its abbreviations.
	Note string
}

// Column is a Table's column: its header, and whether its cells line up on the
// right (numbers) rather than the left (names).
type Column struct {
	Header string
	Right  bool
	// Max, when above zero, caps the column's width in the text drawing, in
	// characters; longer cells are shortened with "…".
	Max int
}

// TableRow is one line of a Table; a Muted row (a withdrawn player) is drawn
// greyed.
type TableRow struct {
	Cells []string
	Muted bool
}

// Text draws the table as monospace text, without its title and note, showing
// the header and at most maxRows rows (all when maxRows is 0); the caller says
// what was left out.
func (t Table) Text(maxRows int) string {
	widths := make([]int, len(t.Columns))
	cell := func(c int, s string) string {
		if m := t.Columns[c].Max; m > 0 {
			s = words.Clip(s, m)
		}
		return s
	}
	rows := t.Rows
	if maxRows > 0 && len(rows) > maxRows {
		rows = rows[:maxRows]
	}
	for c, col := range t.Columns {
		widths[c] = utf8.RuneCountInString(col.Header)
		for _, r := range rows {
			if c < len(r.Cells) {
				widths[c] = max(widths[c], utf8.RuneCountInString(cell(c, r.Cells[c])))
			}
		}
	}
	var b strings.Builder
	line := func(cells []string) {
		var parts []string
		for c := range t.Columns {
			s := ""
			if c < len(cells) {
				s = cell(c, cells[c])
			}
			pad := strings.Repeat(" ", widths[c]-utf8.RuneCountInString(s))
			if t.Columns[c].Right {
				parts = append(parts, pad+s)
			} else {
				parts = append(parts, s+pad)
			}
		}
		b.WriteString(strings.TrimRight(strings.Join(parts, "  "), " "))
		b.WriteString("\n")
	}
	headers := make([]string, len(t.Columns))
	for c, col := range t.Columns {
		headers[c] = col.Header
	}
	line(headers)
	for _, r := range rows {
		line(r.Cells)
	}
	return b.String()
}
