package render

import (
	"bytes"
	"flag"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// Golden images are compared pixel by pixel: a pixel differs when any channel is
// off by more than pixelTolerance, and at most maxDiffShare of the pixels may differ
// (font rasterising and anti-aliasing may move a little between library versions).
const (
	pixelTolerance = 24
	maxDiffShare   = 0.005
)

// checkGoldenPNG compares the PNG in got with testdata/name.png, or rewrites it with -update.
func checkGoldenPNG(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name+".png")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	wantData, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./render -update to create it)", err)
	}
	want, err := png.Decode(bytes.NewReader(wantData))
	if err != nil {
		t.Fatalf("golden %s: %v", path, err)
	}
	img, err := png.Decode(bytes.NewReader(got))
	if err != nil {
		t.Fatalf("rendered %s is not a PNG: %v", name, err)
	}
	n, share := diffImages(want, img)
	if n < 0 || share > maxDiffShare {
		out := filepath.Join(t.TempDir(), name+".png")
		_ = os.WriteFile(out, got, 0o644)
		if n < 0 {
			t.Fatalf("%s: size %v, golden %v; got written to %s", name, img.Bounds(), want.Bounds(), out)
		}
		t.Fatalf("%s: %d pixels (%.2f%%) differ from the golden image; got written to %s", name, n, 100*share, out)
	}
}

// diffImages counts the pixels of a and b that differ by more than pixelTolerance
// in a channel; it returns -1 when the sizes differ.
func diffImages(a, b image.Image) (int, float64) {
	if a.Bounds() != b.Bounds() {
		return -1, 1
	}
	r := a.Bounds()
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if !closeColour(a.At(x, y), b.At(x, y), pixelTolerance) {
				n++
			}
		}
	}
	return n, float64(n) / float64(r.Dx()*r.Dy())
}

func closeColour(a, b interface{ RGBA() (r, g, b, a uint32) }, tol int) bool {
	ar, ag, ab, aa := a.RGBA()
	br, bg, bb, ba := b.RGBA()
	for _, d := range [...][2]uint32{{ar, br}, {ag, bg}, {ab, bb}, {aa, ba}} {
		diff := int(d[0]>>8) - int(d[1]>>8)
		if diff > tol || diff < -tol {
			return false
		}
	}
	return true
}

// checkGoldenText compares got with testdata/name.txt, or rewrites it with -update.
func checkGoldenText(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".txt")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./render -update to create it)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs from %s:\n got:\n%s\nwant:\n%s", name, path, got, want)
	}
}
