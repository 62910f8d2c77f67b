package match

import (
	"testing"

	"github.com/missivechess/missive/rules"
)

// The greedy player counts material by the variant's own piece values, in pawns.
func TestMaterialUsesVariantValues(t *testing.T) {
	for _, tc := range []struct {
		variant, fen string
		want         float64 // White's material minus Black's
	}{
		{"gothic", "rnbqckabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/R1BQCKABNR w KQkq - 0 1", -2.5},
		{"gothic", "k9/10/10/10/10/10/10/KC8 w - - 0 1", 8.25},
		{"keltic", "***bk1***/**rnqnr**/ppppppppp/9/PPPPPPPPP/**RNQNR**/***BKB*** w - - 0 1", 7},
		{"gochess", "k9/n9/10/10/10/**********/10/10/10/KB8 w - - 0 1", 0.2},
		{"gess", "", 0},
	} {
		v := lookup(t, tc.variant)
		p := v.Start(0)
		if tc.fen != "" {
			var err error
			if p, err = v.ParsePosition(tc.fen); err != nil {
				t.Fatal(err)
			}
		}
		if got := Material(p, rules.White); got != tc.want {
			t.Errorf("%s %s: Material(White) = %v, want %v", tc.variant, tc.fen, got, tc.want)
		}
		if got := Material(p, rules.Black); got != -tc.want {
			t.Errorf("%s %s: Material(Black) = %v, want %v", tc.variant, tc.fen, got, -tc.want)
		}
	}
}
