package naive

import "testing"

// The reference must agree with the published counts before it is trusted.
func TestPublishedCounts(t *testing.T) {
	for _, tc := range []struct {
		game  Game
		fen   string
		depth int
		want  uint64
	}{
		{Gothic, "rnbqckabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQCKABNR w KQkq - 0 1", 3, 25283},
		{Gothic, "r4k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/R4K3R w KQkq - 0 1", 2, 961},
		{Gothic, "5k4/4P5/10/10/10/10/10/5K4 w - - 0 1", 3, 492},
		{Keltic, "***bkb***/**rnqnr**/ppppppppp/9/PPPPPPPPP/**RNQNR**/***BKB*** w - - 0 1", 1, 13},
		{Keltic, "***bkb***/**rnqnr**/ppppppppp/9/PPPPPPPPP/**RNQNR**/***BKB*** w - - 0 1", 2, 180},
	} {
		p, err := Parse(tc.game, tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.Perft(tc.depth); got != tc.want {
			t.Errorf("perft(%d) of %s = %d, want %d", tc.depth, tc.fen, got, tc.want)
		}
	}
}
