package render_test

import (
	"bytes"
	"fmt"

	"github.com/missivechess/missive/render"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/variants"
)

// Draw Keltic Chess's start position as text and as a PNG seen from Black's side.
func Example() {
	v, err := variants.Registry().Lookup("keltic")
	if err != nil {
		panic(err)
	}
	pos := v.Start(0)
	text, err := render.Text(pos, rules.White)
	if err != nil {
		panic(err)
	}
	fmt.Print(text)

	var png bytes.Buffer
	if err := render.PNG(&png, pos, render.Options{Viewer: rules.Black, Theme: "night"}); err != nil {
		panic(err)
	}
	fmt.Println("PNG under 150 KB:", png.Len() < 150<<10)
	// Output:
	//     a b c d e f g h i
	//  7        b k b        7
	//  6      r n q n r      6
	//  5  p p p p p p p p p  5
	//  4  . . . . . . . . .  4
	//  3  P P P P P P P P P  3
	//  2      R N Q N R      2
	//  1        B K B        1
	//     a b c d e f g h i
	// PNG under 150 KB: true
}
