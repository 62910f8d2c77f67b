package bot

import (
	"fmt"
	"io"
	"time"

	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/render"
	"github.com/missivechess/missive/rules"
)

// Bounds on animations: how many are drawn at once (each keeps a processor busy for
// seconds), and how long a request waits for its turn before it is refused.
const (
	maxGIFRenders = 2
	gifWait       = 10 * time.Second
)

// NewRenderer returns package render's board renderer as the service's Renderer.
func NewRenderer() Renderer {
	return renderer{r: render.New(), gifs: make(chan struct{}, maxGIFRenders), wait: gifWait}
}

// renderer adapts *render.Renderer to Renderer.
type renderer struct {
	r    *render.Renderer
	gifs chan struct{} // a slot per animation being drawn
	wait time.Duration // how long GIF waits for a slot
}

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
// Highlight-free look.
func (a renderer) GIF(w io.Writer, frames []Frame, o BoardOptions) error {
	if len(frames) == 0 {
		return fmt.Errorf("bot: a GIF needs at least one frame")
	}
	t := time.NewTimer(a.wait)
	defer t.Stop()
	select {
	case a.gifs <- struct{}{}:
		defer func() { <-a.gifs }()
	case <-t.C:
		n := cap(a.gifs)
		return RefuseIn(ErrLimit, func(l i18n.Lang) string { return catalogue.For(l).N("refusal.gifs", n, nil) })
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

// Text draws pos as monospace text, its words in o.Lang; a board the text drawer
// refuses falls back to the position text.
func (a renderer) Text(pos rules.Position, o BoardOptions) string {
	s, err := render.TextIn(pos, o.Viewer, textWords(o.Lang))
	if err != nil {
		return pos.String()
	}
	return s
}

// textWords are the text board's words in language l (English for "").
func textWords(l i18n.Lang) render.TextWords {
	loc := catalogue.For(l)
	return render.TextWords{Rings: loc.T("text.rings", i18n.Data{"White": "{white}", "Black": "{black}"}), NoRings: loc.T("text.rings.none", nil)}
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

// ReviewPNG draws rv with render's review drawing.
func (a renderer) ReviewPNG(w io.Writer, rv render.Review, theme string) error {
	return a.r.ReviewPNG(w, rv, render.TableOptions{Theme: theme})
}
