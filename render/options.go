package render

import (
	"errors"
	"fmt"

	"github.com/missivechess/missive/rules"
)

// ErrBadOptions is wrapped by every error about options or a board or table the renderer cannot draw.
var ErrBadOptions = errors.New("bad render options")

// Width limits and the default width of a picture in pixels.
const (
	DefaultWidth = 800
	MinWidth     = 240
	MaxWidth     = 2400
)

// Options say how to draw a board. The zero value draws White's view in the
// default theme at the default width with no marks.
type Options struct {
	// Viewer is the side whose home is at the bottom of the picture; the board is
	// turned 180 degrees when the variant's Look puts the other side's home there
	// (Black's view of a chessboard, White's of Gess).
	Viewer rules.Side
	// Theme is a key from Themes ("classic", "ocean", "night"); empty means DefaultTheme.
	Theme string
	// Width is the width of the picture in pixels; 0 means DefaultWidth.
	Width int
	// LastMove, when not nil, is highlighted: its from and to squares, only the
	// to square of a placement, and in Gess the 3x3 footprints of both centres.
	LastMove *rules.Move
	// Placed lists cells highlighted as the last move's, for pieces that appeared
	// together (a Go-Chess placement round reveals both players' pieces at once).
	Placed []rules.Square
	// Check lists squares to mark as a king in check. Board fills it from the
	// position (the king of the side to move when it is in check).
	Check []rules.Square
	// Rings lists the centres of each side's Gess rings, indexed by Side. Board
	// fills it from a position that has a Rings method.
	Rings [2][]rules.Square
	// Arrows are hint arrows drawn over the board.
	Arrows []Arrow
}

// Arrow is a hint arrow from one square (or Gess centre) to another.
type Arrow struct {
	From, To rules.Square
}

// resolved is Options after checking, with the theme looked up and the width set.
type resolved struct {
	Options
	theme *theme
}

func (o Options) resolve(d rules.Dims) (resolved, error) {
	t, err := lookupTheme(o.Theme)
	if err != nil {
		return resolved{}, err
	}
	if o.Width == 0 {
		o.Width = DefaultWidth
	}
	if o.Width < MinWidth || o.Width > MaxWidth {
		return resolved{}, fmt.Errorf("render: width %d is out of range: choose %d to %d pixels: %w", o.Width, MinWidth, MaxWidth, ErrBadOptions)
	}
	if o.Viewer != rules.White && o.Viewer != rules.Black {
		return resolved{}, fmt.Errorf("render: viewer %v is not white or black: %w", o.Viewer, ErrBadOptions)
	}
	check := func(what string, sq rules.Square) error {
		if !d.Contains(sq) {
			return fmt.Errorf("render: %s square %d is off the %dx%d board: %w", what, sq, d.Files, d.Ranks, ErrBadOptions)
		}
		return nil
	}
	if m := o.LastMove; m != nil {
		if m.From != rules.NoSquare {
			if err := check("last move's from", m.From); err != nil {
				return resolved{}, err
			}
		}
		if err := check("last move's to", m.To); err != nil {
			return resolved{}, err
		}
	}
	for _, sq := range o.Placed {
		if err := check("placed", sq); err != nil {
			return resolved{}, err
		}
	}
	for _, sq := range o.Check {
		if err := check("check", sq); err != nil {
			return resolved{}, err
		}
	}
	for _, side := range o.Rings {
		for _, sq := range side {
			if err := check("ring", sq); err != nil {
				return resolved{}, err
			}
		}
	}
	for _, a := range o.Arrows {
		if err := check("arrow's from", a.From); err != nil {
			return resolved{}, err
		}
		if err := check("arrow's to", a.To); err != nil {
			return resolved{}, err
		}
	}
	return resolved{Options: o, theme: t}, nil
}
