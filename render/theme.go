package render

import (
	"fmt"
	"image/color"
	"sort"
	"strings"
)

// DefaultTheme is the key of the theme used when Options.Theme is empty.
const DefaultTheme = "classic"

// theme holds every colour of one look. Keys are stable: they are stored in
// user preferences.
type theme struct {
	key         string
	light, dark color.NRGBA // chessboard squares
	frame       color.NRGBA // the margin around the board
	label       color.NRGBA // coordinates
	lastMove    color.NRGBA // tint laid over the from and to squares
	check       color.NRGBA // glow under a king in check
	arrow       color.NRGBA // hint arrows
	blockA      color.NRGBA // blocked cell: stone face
	blockB      color.NRGBA // blocked cell: hatching
	blockEdge   color.NRGBA // blocked cell: bevel shadow
	goBoard     color.NRGBA // Gess: the 18x18 playing area
	goRing      color.NRGBA // Gess: the outer ring of the frame
	goLine      color.NRGBA // Gess: grid lines and star points
	ringBlack   color.NRGBA // Gess: halo of Black's rings
	ringWhite   color.NRGBA // Gess: halo of White's rings
	footprint   color.NRGBA // Gess: tint of the moved 3x3 footprint
}

func rgb(r, g, b uint8) color.NRGBA     { return color.NRGBA{r, g, b, 255} }
func rgba(r, g, b, a uint8) color.NRGBA { return color.NRGBA{r, g, b, a} }

var themes = map[string]*theme{
	"classic": {
		key:   "classic",
		light: rgb(240, 217, 181), dark: rgb(181, 136, 99),
		frame: rgb(58, 43, 32), label: rgb(240, 222, 190),
		lastMove: rgba(155, 199, 0, 105), check: rgb(230, 20, 20), arrow: rgba(21, 120, 27, 200),
		blockA: rgb(120, 116, 110), blockB: rgb(84, 80, 76), blockEdge: rgb(40, 38, 36),
		goBoard: rgb(222, 184, 106), goRing: rgb(176, 134, 70), goLine: rgb(60, 40, 18),
		ringBlack: rgba(214, 40, 40, 220), ringWhite: rgba(30, 110, 220, 220),
		footprint: rgba(155, 199, 0, 110),
	},
	"ocean": {
		key:   "ocean",
		light: rgb(222, 227, 230), dark: rgb(140, 162, 173),
		frame: rgb(33, 49, 62), label: rgb(214, 226, 234),
		lastMove: rgba(250, 210, 50, 120), check: rgb(230, 20, 20), arrow: rgba(0, 95, 180, 200),
		blockA: rgb(96, 104, 112), blockB: rgb(66, 72, 80), blockEdge: rgb(28, 32, 36),
		goBoard: rgb(196, 214, 224), goRing: rgb(140, 166, 184), goLine: rgb(34, 54, 72),
		ringBlack: rgba(214, 40, 40, 220), ringWhite: rgba(40, 90, 210, 230),
		footprint: rgba(250, 210, 50, 130),
	},
	"night": {
		key:   "night",
		light: rgb(124, 138, 156), dark: rgb(82, 95, 112),
		frame: rgb(24, 27, 33), label: rgb(176, 188, 204),
		lastMove: rgba(250, 200, 70, 100), check: rgb(255, 40, 40), arrow: rgba(90, 220, 140, 210),
		blockA: rgb(46, 46, 50), blockB: rgb(30, 30, 33), blockEdge: rgb(10, 10, 12),
		goBoard: rgb(92, 104, 120), goRing: rgb(56, 64, 76), goLine: rgb(190, 200, 214),
		ringBlack: rgba(255, 80, 80, 230), ringWhite: rgba(80, 200, 255, 230),
		footprint: rgba(250, 200, 70, 100),
	},
}

// Themes returns the keys of the available colour themes in sorted order.
func Themes() []string {
	keys := make([]string, 0, len(themes))
	for k := range themes {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// lookupTheme returns the theme with key (DefaultTheme when empty, letter case ignored).
func lookupTheme(key string) (*theme, error) {
	k := strings.ToLower(strings.TrimSpace(key))
	if k == "" {
		k = DefaultTheme
	}
	if t, ok := themes[k]; ok {
		return t, nil
	}
	return nil, fmt.Errorf("render: no theme %q: choose one of %s: %w", key, strings.Join(Themes(), ", "), ErrBadOptions)
}
