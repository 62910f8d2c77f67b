package bot

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/missivechess/missive/rules/variants"
)

// TestGIFRendersAreBounded checks that at most maxGIFRenders animations are drawn at
// once: one more waits, and is refused with a sentence when no slot frees in time.
func TestGIFRendersAreBounded(t *testing.T) {
	v, err := variants.Registry().Lookup("gothic")
	if err != nil {
		t.Fatal(err)
	}
	r := NewRenderer().(renderer)
	r.wait = 50 * time.Millisecond
	frames := []Frame{{Position: v.Start(0)}}
	for range maxGIFRenders {
		r.gifs <- struct{}{} // animations under way
	}
	start := time.Now()
	err = r.GIF(&bytes.Buffer{}, frames, BoardOptions{})
	msg, ok := UserText(err)
	if !errors.Is(err, ErrLimit) || !ok || !strings.Contains(msg, "/gif again") {
		t.Fatalf("a GIF beyond the limit: %v", err)
	}
	if took := time.Since(start); took > time.Second {
		t.Fatalf("refusing took %v", took)
	}
	<-r.gifs // one finishes: the next is drawn
	var b bytes.Buffer
	if err := r.GIF(&b, frames, BoardOptions{}); err != nil || b.Len() == 0 {
		t.Fatalf("a GIF within the limit: %v", err)
	}
	if len(r.gifs) != maxGIFRenders-1 {
		t.Fatalf("the slot was not given back: %d in use", len(r.gifs))
	}
}
