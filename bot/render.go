package bot

import (
	"fmt"
	"io"

	"github.com/missivechess/missive/render"
	"github.com/missivechess/missive/rules"
)

// NewRenderer returns package render's board renderer as the service's Renderer.
func NewRenderer() Renderer { return renderer{r: render.New()} }

// renderer adapts *render.Renderer to Renderer.
type renderer struct{ r *render.Renderer }

func options(o BoardOptions) render.Options {
	ro := render.Options{Viewer: o.Viewer, Theme: o.Theme, LastMove: o.LastMove}
	if h := o.Hint; h != nil && h.From != rules.NoSquare {
		ro.Arrows = []render.Arrow{{From: h.From, To: h.To}}
	}
	return ro
}

// PNG draws pos.
func (a renderer) PNG(w io.Writer, pos rules.Position, o BoardOptions) error {
	return a.r.PNG(w, pos, options(o))
}

// GIF animates frames; a frame without a last move repeats the previous position's
// highlight-free look.
func (a renderer) GIF(w io.Writer, frames []Frame, o BoardOptions) error {
	if len(frames) == 0 {
		return fmt.Errorf("bot: a GIF needs at least one frame")
	}
	positions := make([]rules.Position, len(frames))
	moves := make([]rules.Move, 0, len(frames)-1)
	for i, f := range frames {
		positions[i] = f.Position
		if i == 0 {
			continue
		}
		m := rules.Move{From: rules.NoSquare, To: rules.NoSquare}
		if f.LastMove != nil {
			m = *f.LastMove
		}
		moves = append(moves, m)
	}
	if len(positions) > render.MaxGIFFrames {
		positions = positions[len(positions)-render.MaxGIFFrames:]
		moves = moves[len(moves)-(render.MaxGIFFrames-1):]
	}
	return a.r.GIFPositions(w, positions, moves, render.GIFOptions{Options: options(BoardOptions{Viewer: o.Viewer, Theme: o.Theme})})
}

// Text draws pos as monospace text; a board the text drawer refuses falls back to
// the position text.
func (a renderer) Text(pos rules.Position, o BoardOptions) string {
	s, err := render.Text(pos, o.Viewer)
	if err != nil {
		return pos.String()
	}
	return s
}

// Themes lists render's themes.
func (a renderer) Themes() []string { return render.Themes() }

// TablePNG draws t with render's table drawing.
func (a renderer) TablePNG(w io.Writer, t Table) error {
	rt := render.Table{Title: t.Title, Note: t.Note}
	for _, c := range t.Columns {
		al := render.AlignLeft
		if c.Right {
			al = render.AlignRight
		}
		rt.Columns = append(rt.Columns, render.Column{Header: c.Header, Align: al})
	}
	for _, r := range t.Rows {
		rt.Rows = append(rt.Rows, render.Row{Cells: r.Cells, Muted: r.Muted})
	}
	return a.r.TablePNG(w, rt, render.TableOptions{})
}
