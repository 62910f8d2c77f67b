package render_test

import (
	"bytes"
	"image/gif"
	"math/rand/v2"
	"runtime"
	"runtime/metrics"
	"sync"
	"testing"
	"time"

	"github.com/missivechess/missive/render"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/variants"
)

// randomGame returns plies+1 positions of Gothic Chess reached by seeded random
// legal moves (a finished game starts again), and the moves between them.
func randomGame(t testing.TB, plies int, seed uint64) ([]rules.Position, []rules.Move) {
	t.Helper()
	v, err := variants.Registry().Lookup("gothic")
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(seed, 7))
	pos := v.Start(0)
	positions, moves := []rules.Position{pos}, []rules.Move{}
	for len(moves) < plies {
		legal := pos.LegalMoves()
		if pos.Outcome().IsOver() || len(legal) == 0 {
			pos = v.Start(0) // shown with the last move of the finished game
			positions, moves = append(positions, pos), append(moves, moves[len(moves)-1])
			continue
		}
		m := legal[r.IntN(len(legal))]
		if pos, err = pos.Play(m); err != nil {
			t.Fatal(err)
		}
		positions, moves = append(positions, pos), append(moves, m)
	}
	return positions, moves
}

// TestGIFStreamMatchesEncodeAll checks that the frame-by-frame GIF is byte for byte
// what image/gif's EncodeAll writes for the same frames, and decodes to them.
func TestGIFStreamMatchesEncodeAll(t *testing.T) {
	positions, moves := randomGame(t, 30, 1)
	for _, n := range []int{1, 2, len(positions)} {
		var b bytes.Buffer
		if err := render.New().GIFPositions(&b, positions[:n], moves[:n-1], render.GIFOptions{}); err != nil {
			t.Fatal(err)
		}
		g, err := gif.DecodeAll(bytes.NewReader(b.Bytes()))
		if err != nil {
			t.Fatalf("%d frames: decode: %v", n, err)
		}
		if len(g.Image) != n || g.Delay[n-1] != int(render.DefaultFinalDelay/(10*time.Millisecond)) {
			t.Fatalf("%d frames: decoded %d frames, delays %v", n, len(g.Image), g.Delay)
		}
		var again bytes.Buffer
		if err := gif.EncodeAll(&again, g); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(again.Bytes(), b.Bytes()) {
			t.Errorf("%d frames: the stream (%d bytes) differs from EncodeAll of its frames (%d bytes)", n, b.Len(), again.Len())
		}
	}
}

// heapObjects reads the bytes of live and not yet swept heap objects.
func heapObjects() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// BenchmarkGIF500 renders one 500-ply GIF.
func BenchmarkGIF500(b *testing.B) {
	positions, moves := randomGame(b, 500, 3)
	r := render.New()
	for b.Loop() {
		var out bytes.Buffer
		if err := r.GIFPositions(&out, positions, moves, render.GIFOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestGIFMemory renders eight 500-ply GIFs at once and checks that the heap grows by
// less than 150 MB in all (the GIFs themselves included).
func TestGIFMemory(t *testing.T) {
	if testing.Short() || raceDetector {
		t.Skip("renders 4,000 frames and measures the heap: run without -short and -race")
	}
	const n, plies, ceiling = 8, 500, 150 << 20
	games := make([][]rules.Position, n)
	moves := make([][]rules.Move, n)
	for i := range n {
		games[i], moves[i] = randomGame(t, plies, uint64(i))
	}
	r := render.New()
	runtime.GC()
	base := heapObjects()
	var peak uint64
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		for {
			if h := heapObjects(); h > peak {
				peak = h
			}
			select {
			case <-stop:
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
	}()
	var wg sync.WaitGroup
	sizes := make([]int, n)
	start := time.Now()
	for i := range n {
		wg.Go(func() {
			var b bytes.Buffer
			if err := r.GIFPositions(&b, games[i], moves[i], render.GIFOptions{}); err != nil {
				t.Error(err)
			}
			sizes[i] = b.Len()
		})
	}
	wg.Wait()
	close(stop)
	<-sampled
	grew := int64(peak) - int64(base)
	t.Logf("8 concurrent %d-ply GIFs: peak heap +%.1f MB in %v; GIF sizes %v", plies, float64(grew)/(1<<20), time.Since(start).Round(time.Millisecond), sizes)
	if grew > ceiling {
		t.Errorf("the heap grew by %.1f MB, more than %d MB", float64(grew)/(1<<20), ceiling>>20)
	}
}
