package render

import (
	"bytes"
	"testing"

	"github.com/missivechess/missive/rules"
)

func benchPNG(b *testing.B, variant string, board rules.Board, opts Options) {
	r := New()
	var buf bytes.Buffer
	b.ReportAllocs()
	for b.Loop() {
		buf.Reset()
		if err := r.DrawPNG(&buf, lookOf(variant), board, opts); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(buf.Len())/1024, "KB/png")
}

// BenchmarkGothicPNG draws and encodes a Gothic middlegame with a last move and a check.
func BenchmarkGothicPNG(b *testing.B) {
	board := boardFromText(b, 10, 8, "r1bq1k1bnr/pp1ppApppp/2n7/2p2C4/4P5/10/PPPP1PPPPP/RNBQ1K1BNR")
	m := rules.Move{From: sq(b, board.Dims, "e1"), To: sq(b, board.Dims, "f7")}
	benchPNG(b, "gothic", board, Options{LastMove: &m, Check: []rules.Square{sq(b, board.Dims, "f8")}})
}

// BenchmarkGessPNG draws and encodes Gess's start position with both rings and a last move.
func BenchmarkGessPNG(b *testing.B) {
	board := gessStart()
	m := rules.Move{From: sq(b, board.Dims, "e4"), To: sq(b, board.Dims, "e7")}
	benchPNG(b, "gess", board, Options{LastMove: &m, Rings: [2][]rules.Square{{sq(b, board.Dims, "l18")}, {sq(b, board.Dims, "l3")}}})
}

// BenchmarkGothicCold draws a Gothic board with empty caches: backgrounds, sprites and palette.
func BenchmarkGothicCold(b *testing.B) {
	board := boardFromText(b, 10, 8, gothicStart)
	var buf bytes.Buffer
	for b.Loop() {
		buf.Reset()
		if err := New().DrawPNG(&buf, lookOf("gothic"), board, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
