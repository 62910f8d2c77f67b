package console

import (
	"regexp"
	"strings"
	"testing"
)

// plain takes away Markdown only: never what is inside code, nor a position.
func TestPlain(t *testing.T) {
	for in, want := range map[string]string{
		"alice (white) played **Nc3**.":                  "alice (white) played Nc3.",
		"**How to play**\n1. Challenge":                  "How to play\n1. Challenge",
		"*italic* and _also_ and __under__ and ~~gone~~": "italic and also and under and gone",
		"max_plies and first_level stay":                 "max_plies and first_level stay",
		"Type `/move e2e4` now":                          "Type /move e2e4 now",
		"start: `fen:\"***bkb***/**rnqnr**/ppppppppp/9/PPPPPPPPP/**RNQNR**/***BKB*** w - - 0 1\"`.": "start: fen:\"***bkb***/**rnqnr**/ppppppppp/9/PPPPPPPPP/**RNQNR**/***BKB*** w - - 0 1\".",
		"bare ***bkb***/**rnqnr**/ppppppppp/9/PPPPPPPPP/**RNQNR**/***BKB*** w":                      "bare ***bkb***/**rnqnr**/ppppppppp/9/PPPPPPPPP/**RNQNR**/***BKB*** w",
		"10/6*3/10/4*3*1/7*2/8*1 placement":                                                         "10/6*3/10/4*3*1/7*2/8*1 placement",
		"```\n**kept** in a block\n```":                                                             "**kept** in a block",
		"2 * 3 = 6, a lone ** stays":                                                                "2 * 3 = 6, a lone ** stays",
		`an escaped \*star\*`:                                                                       "an escaped *star*",
		"``a ` tick``":                                                                              "a ` tick",
		"an open `tick":                                                                             "an open `tick",
	} {
		if got := plain(in); got != want {
			t.Errorf("plain(%q)\n = %q\nwant %q", in, got, want)
		}
	}
}

// The refusal of a bad FEN shows the starting position of each game, whole, as an
// option that the console then accepts.
func TestBadFENExampleIsAccepted(t *testing.T) {
	t.Parallel()
	example := regexp.MustCompile(`like the starting position: (fen:"[^"]+")`)
	for _, v := range []string{"gothic", "keltic", "gochess", "gess"} {
		s := newSession(t)
		out := s.line("/challenge " + v + " bob fen:xx")
		m := example.FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("%s: no example in\n%s", v, out)
		}
		if v == "keltic" && !strings.Contains(m[1], "***bkb***") {
			t.Errorf("the Keltic example lost its blocked cells: %s", m[1])
		}
		got := s.line("/challenge " + v + " bob " + m[1])
		if strings.Contains(got, "[refused]") || !strings.Contains(got, "challenges bob") {
			t.Errorf("%s: the example %s was refused:\n%s", v, m[1], got)
		}
	}
}
