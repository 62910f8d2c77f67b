package render

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/fogleman/gg"
)

// A path is written in a small subset of SVG path data, absolute coordinates only,
// on a 100x100 box with y pointing down:
//
//	M x y              move to
//	L x y [x y ...]    lines
//	C x1 y1 x2 y2 x y  cubic Bézier (repeatable)
//	Q x1 y1 x y        quadratic Bézier (repeatable)
//	Z                  close the sub-path
//	O cx cy r          a whole circle (not SVG: our shorthand)
type pathOp struct {
	cmd  byte
	args []float64
}

var pathArity = map[byte]int{'M': 2, 'L': 2, 'C': 6, 'Q': 4, 'Z': 0, 'O': 3}

// parsePath reads path data; the piece set is fixed, so an error is a programming error
// caught by the tests.
func parsePath(d string) ([]pathOp, error) {
	fields := strings.Fields(strings.ReplaceAll(d, ",", " "))
	var ops []pathOp
	var cmd byte
	for i := 0; i < len(fields); {
		f := fields[i]
		if n, ok := pathArity[f[0]]; ok && len(f) == 1 {
			cmd = f[0]
			i++
			if n == 0 {
				ops = append(ops, pathOp{cmd: cmd})
				continue
			}
		} else if cmd == 0 || cmd == 'Z' {
			return nil, fmt.Errorf("render: path %q: number %q without a command", d, f)
		}
		n := pathArity[cmd]
		if i+n > len(fields) {
			return nil, fmt.Errorf("render: path %q: %c needs %d numbers", d, cmd, n)
		}
		args := make([]float64, n)
		for j := range args {
			v, err := strconv.ParseFloat(fields[i+j], 64)
			if err != nil {
				return nil, fmt.Errorf("render: path %q: %w", d, err)
			}
			args[j] = v
		}
		ops = append(ops, pathOp{cmd: cmd, args: args})
		i += n
		if cmd == 'M' {
			cmd = 'L' // as in SVG, numbers after a move are lines
		}
	}
	return ops, nil
}

// tracePath adds ops to dc's current path, mapping box coordinates through m.
func tracePath(dc *gg.Context, ops []pathOp, m xform) {
	for _, op := range ops {
		a := op.args
		switch op.cmd {
		case 'M':
			dc.NewSubPath()
			dc.MoveTo(m.apply(a[0], a[1]))
		case 'L':
			dc.LineTo(m.apply(a[0], a[1]))
		case 'C':
			x1, y1 := m.apply(a[0], a[1])
			x2, y2 := m.apply(a[2], a[3])
			x3, y3 := m.apply(a[4], a[5])
			dc.CubicTo(x1, y1, x2, y2, x3, y3)
		case 'Q':
			x1, y1 := m.apply(a[0], a[1])
			x2, y2 := m.apply(a[2], a[3])
			dc.QuadraticTo(x1, y1, x2, y2)
		case 'Z':
			dc.ClosePath()
		case 'O':
			cx, cy := m.apply(a[0], a[1])
			dc.NewSubPath()
			dc.DrawCircle(cx, cy, a[2]*m.s)
			dc.NewSubPath()
		}
	}
}

// xform scales by s then moves by (dx, dy).
type xform struct{ s, dx, dy float64 }

func (m xform) apply(x, y float64) (float64, float64) { return x*m.s + m.dx, y*m.s + m.dy }

// then returns the transform that applies inner first, then m.
func (m xform) then(inner xform) xform {
	return xform{s: m.s * inner.s, dx: inner.dx*m.s + m.dx, dy: inner.dy*m.s + m.dy}
}

func hypot(x, y float64) float64 { return math.Sqrt(x*x + y*y) }
