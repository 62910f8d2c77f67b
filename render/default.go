package render

import (
	"image"
	"io"

	"github.com/missivechess/missive/rules"
)

// shared is the Renderer behind the package-level functions; its caches are
// bounded and guarded by locks.
var shared = New()

// Board draws pos with the shared Renderer; see Renderer.Board.
func Board(pos rules.Position, opts Options) (*image.RGBA, error) { return shared.Board(pos, opts) }

// DrawBoard draws a board with the shared Renderer; see Renderer.DrawBoard.
func DrawBoard(look rules.Look, b rules.Board, opts Options) (*image.RGBA, error) {
	return shared.DrawBoard(look, b, opts)
}

// PNG draws pos as a PNG with the shared Renderer; see Renderer.PNG.
func PNG(w io.Writer, pos rules.Position, opts Options) error { return shared.PNG(w, pos, opts) }

// DrawPNG draws a board as a PNG with the shared Renderer; see Renderer.DrawPNG.
func DrawPNG(w io.Writer, look rules.Look, b rules.Board, opts Options) error {
	return shared.DrawPNG(w, look, b, opts)
}

// GIF writes an animated game with the shared Renderer; see Renderer.GIF.
func GIF(w io.Writer, start rules.Position, moves []rules.Move, opts GIFOptions) error {
	return shared.GIF(w, start, moves, opts)
}

// GIFPositions writes an animated game with the shared Renderer; see Renderer.GIFPositions.
func GIFPositions(w io.Writer, positions []rules.Position, moves []rules.Move, opts GIFOptions) error {
	return shared.GIFPositions(w, positions, moves, opts)
}

// TablePNG draws a table as a PNG with the shared Renderer; see Renderer.TablePNG.
func TablePNG(w io.Writer, t Table, opts TableOptions) error { return shared.TablePNG(w, t, opts) }
