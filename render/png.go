package render

import (
	"fmt"
	"image"
	"image/png"
	"io"
	"sync"

	"github.com/missivechess/missive/rules"
)

// pngPool lends the PNG encoder its buffers; png.EncoderBufferPool asks for exactly this.
type pngPool struct{ p sync.Pool }

func (p *pngPool) Get() *png.EncoderBuffer  { b, _ := p.p.Get().(*png.EncoderBuffer); return b }
func (p *pngPool) Put(b *png.EncoderBuffer) { p.p.Put(b) }

var encoder = &png.Encoder{CompressionLevel: png.BestSpeed, BufferPool: &pngPool{}}

// EncodePNG writes img as a PNG tuned for board pictures: fast and small.
func EncodePNG(w io.Writer, img image.Image) error {
	if err := encoder.Encode(w, img); err != nil {
		return fmt.Errorf("render: encode png: %w", err)
	}
	return nil
}

// PNG draws pos (see Board) and writes it to w as a PNG with a palette fitted
// to the board's colours.
func (r *Renderer) PNG(w io.Writer, pos rules.Position, opts Options) error {
	return r.DrawPNG(w, rules.LookOf(pos.Variant()), pos.Board(), withPosition(pos, opts))
}

// DrawPNG draws a board (see DrawBoard) and writes it to w as a PNG.
func (r *Renderer) DrawPNG(w io.Writer, look rules.Look, b rules.Board, opts Options) error {
	sc, err := r.prepare(look, b, opts)
	if err != nil {
		return err
	}
	rgba := getRGBA(sc.bg.Bounds())
	defer rgbaPool.Put(rgba)
	sc.compose(rgba)
	pal := image.NewPaletted(rgba.Bounds(), sc.q.pal)
	sc.q.paletted(pal, rgba)
	return EncodePNG(w, pal)
}

// rgbaPool recycles the scratch pictures composed before quantizing.
var rgbaPool sync.Pool

func getRGBA(r image.Rectangle) *image.RGBA {
	if img, ok := rgbaPool.Get().(*image.RGBA); ok && img.Bounds() == r {
		return img
	}
	return image.NewRGBA(r)
}
