package render

import (
	"image"
	"image/color"

	"github.com/fogleman/gg"
	"github.com/missivechess/missive/rules"
)

// The piece set is Missive's own: every piece is drawn from the path data below
// (see path.go for the format) on a 100x100 box, y down, base at y = 90.
// The two compound pieces fuse a knight's head with the piece it adds to:
// the Chancellor with a rook's tower, the Archbishop with a bishop's mitre.

// stroke says how a layer is painted.
type stroke uint8

const (
	body   stroke = iota // filled with the body colour and outlined
	detail               // a line in the detail colour
	spot                 // filled with the detail colour
)

type layer struct {
	how stroke
	d   string
	at  *xform // nil for the identity
}

// placed returns ls moved by m.
func placed(m xform, ls ...layer) []layer {
	out := make([]layer, len(ls))
	for i, l := range ls {
		t := m
		if l.at != nil {
			t = m.then(*l.at)
		}
		l.at = &t
		out[i] = l
	}
	return out
}

func join(parts ...[]layer) []layer {
	var out []layer
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

var (
	plinth     = layer{body, "M 20 91 L 80 91 L 80 85 C 80 82 78 80 75 80 L 25 80 C 22 80 20 82 20 85 Z", nil}
	widePlinth = layer{body, "M 12 91 L 88 91 L 88 85 C 88 82 86 80 83 80 L 17 80 C 14 80 12 82 12 85 Z", nil}
	crownBand  = layer{body, "M 26 80 L 74 80 C 72 76 72 72 74 67 L 26 67 C 28 72 28 76 26 80 Z", nil}

	knightHead = []layer{
		{body, "M 76 80 C 80 60 78 36 60 22 L 57 8 L 49 18 C 40 20 30 28 24 40 C 19 47 14 54 17 59 " +
			"C 20 64 27 64 31 61 C 37 58 43 56 48 52 C 42 62 35 70 32 80 Z", nil},
		{detail, "M 61 25 C 70 36 73 52 71 70", nil},
		{detail, "M 17.5 58.5 L 25 57", nil},
		{spot, "O 40 32 3.6", nil},
		{spot, "O 22.5 49.5 2", nil},
	}
	towerParts = []layer{
		{body, "M 25 80 L 75 80 L 72 72 L 28 72 Z", nil},
		{body, "M 32 72 L 68 72 L 66 38 L 34 38 Z", nil},
		{body, "M 26 38 L 74 38 L 74 14 L 63 14 L 63 22 L 55.5 22 L 55.5 14 L 44.5 14 L 44.5 22 L 37 22 L 37 14 L 26 14 Z", nil},
	}
	mitreParts = []layer{
		{body, "M 36 80 C 38 75 40 71 40 66 L 60 66 C 60 71 62 75 64 80 Z", nil},
		{body, "M 38 60 L 62 60 C 66 60 67 62 67 63.5 C 67 65 66 67 62 67 L 38 67 C 34 67 33 65 33 63.5 C 33 62 34 60 38 60 Z", nil},
		{body, "M 50 19 C 62 27 70 39 68 50 C 67 55 65 58 62 60 L 38 60 C 35 58 33 55 32 50 C 30 39 38 27 50 19 Z", nil},
		{body, "O 50 14 5.5", nil},
		{detail, "M 57 31 L 45 46", nil},
	}
)

// pieceLayers is the drawing of each kind; Stone is drawn separately (stones.go).
var pieceLayers = map[rules.PieceKind][]layer{
	rules.Pawn: {
		plinth,
		{body, "M 38 49 C 38 62 30 70 27 80 L 73 80 C 70 70 62 62 62 49 Z", nil},
		{body, "M 39 40 L 61 40 C 65 40 67 42 67 44.5 C 67 47 65 49 61 49 L 39 49 C 35 49 33 47 33 44.5 C 33 42 35 40 39 40 Z", nil},
		{body, "O 50 27 13", nil},
	},
	rules.Knight: join([]layer{plinth}, knightHead),
	rules.Bishop: join([]layer{plinth}, mitreParts),
	rules.Rook:   join([]layer{{body, "M 18 91 L 82 91 L 82 85 C 82 82 80 80 77 80 L 23 80 C 20 80 18 82 18 85 Z", nil}}, towerParts),
	rules.Queen: {
		plinth, crownBand,
		{body, "M 27 67 L 15 32 L 29 50 L 33 22 L 42 45 L 50 15 L 58 45 L 67 22 L 71 50 L 85 32 L 73 67 Z", nil},
		{body, "O 15 29 5", nil}, {body, "O 33 19 5", nil}, {body, "O 50 12 5", nil},
		{body, "O 67 19 5", nil}, {body, "O 85 29 5", nil},
		{detail, "M 30 61 C 43 58 57 58 70 61", nil},
	},
	rules.King: {
		plinth, crownBand,
		{body, "M 26 67 C 13 56 15 37 30 35 C 40 34 47 41 50 50 C 53 41 60 34 70 35 C 85 37 87 56 74 67 Z", nil},
		{body, "M 50 50 C 43 42 42 32 50 25 C 58 32 57 42 50 50 Z", nil},
		{body, "M 47 26 L 47 19 L 42 19 L 42 13.5 L 47 13.5 L 47 7 L 53 7 L 53 13.5 L 58 13.5 L 58 19 L 53 19 L 53 26 Z", nil},
		{detail, "M 30 61 C 43 58 57 58 70 61", nil},
	},
	rules.Chancellor: join(
		[]layer{
			widePlinth,
			{body, "M 56 80 L 86 80 L 83 34 L 59 34 Z", nil},
			{body, "M 52 34 L 90 34 L 90 8 L 82 8 L 82 16 L 75 16 L 75 8 L 67 8 L 67 16 L 60 16 L 60 8 L 52 8 Z", nil},
		},
		placed(compoundHorse, knightHead...),
	),
	rules.Archbishop: join(
		[]layer{
			widePlinth,
			{body, "M 64 80 C 66 74 67 70 67 65 L 79 65 C 79 70 80 74 82 80 Z", nil},
			{body, "M 62 58 L 84 58 C 88 58 89 60 89 61.5 C 89 63 88 65 84 65 L 62 65 C 58 65 57 63 57 61.5 C 57 60 58 58 62 58 Z", nil},
			{body, "M 73 16 C 85 24 92 36 90 47 C 89 52 87 56 83 58 L 63 58 C 59 56 57 52 56 47 C 54 36 61 24 73 16 Z", nil},
			{body, "O 73 10.5 5", nil},
			{detail, "M 80 29 L 69 43", nil},
		},
		placed(compoundHorse, knightHead...),
	),
}

// compoundHorse places the knight's head on the left of a compound piece.
var compoundHorse = xform{s: 0.72, dx: 2, dy: 22.4}

// inks are the colours of one side's pieces.
type inks struct {
	fill    color.NRGBA // body
	outline color.NRGBA // the silhouette's outer edge
	inner   color.NRGBA // edges between parts inside the silhouette
	detail  color.NRGBA // eyes, slits, mane
}

var pieceInks = [2]inks{
	rules.White: {fill: rgb(252, 249, 240), outline: rgb(20, 20, 20), inner: rgb(20, 20, 20), detail: rgb(20, 20, 20)},
	rules.Black: {fill: rgb(44, 44, 46), outline: rgb(6, 6, 6), inner: rgb(170, 170, 166), detail: rgb(236, 236, 232)},
}

// drawPiece draws kind for side centred in a size x size sprite. The outline is
// laid first as a wide stroke under every part, so the silhouette has one dark
// edge, then the parts are filled in order with their inner edges on top.
func drawPiece(kind rules.PieceKind, side rules.Side, size int) *image.RGBA {
	dc := gg.NewContext(size, size)
	ink := pieceInks[side]
	scale := float64(size) / 100
	lw := max(3.2*scale, 1.2)
	dc.SetLineJoinRound()
	dc.SetLineCapRound()
	layers := pieceLayers[kind]
	trace := func(l layer) {
		m := xform{s: scale}
		if l.at != nil {
			m = m.then(*l.at)
		}
		ops, err := parsePath(l.d)
		if err != nil {
			panic(err) // the set is fixed; TestPiecePaths parses every path
		}
		tracePath(dc, ops, m)
	}
	dc.SetColor(ink.outline)
	dc.SetLineWidth(2 * lw)
	for _, l := range layers {
		if l.how == body {
			trace(l)
			dc.Stroke()
		}
	}
	for _, l := range layers {
		trace(l)
		switch l.how {
		case body:
			dc.SetColor(ink.fill)
			dc.FillPreserve()
			dc.SetColor(ink.inner)
			dc.SetLineWidth(lw * 0.75)
			dc.Stroke()
		case detail:
			dc.SetColor(ink.detail)
			dc.SetLineWidth(lw * 0.8)
			dc.Stroke()
		case spot:
			dc.SetColor(ink.detail)
			dc.Fill()
		}
	}
	return dc.Image().(*image.RGBA)
}
