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
func DrawBoard(variant string, b rules.Board, opts Options) (*image.RGBA, error) {
	return shared.DrawBoard(variant, b, opts)
}

// PNG draws pos as a PNG with the shared Renderer; see Renderer.PNG.
func PNG(w io.Writer, pos rules.Position, opts Options) error { return shared.PNG(w, pos, opts) }
