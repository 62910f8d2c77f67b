package render

import (
	"errors"
	"testing"

	"github.com/missivechess/missive/rules"
)

func TestTextBoards(t *testing.T) {
	cases := []struct {
		name, variant string
		b             rules.Board
		viewer        rules.Side
	}{
		{"gothic_white", "gothic", boardFromText(t, 10, 8, gothicStart), rules.White},
		{"gothic_black", "gothic", boardFromText(t, 10, 8, gothicMiddle), rules.Black},
		{"keltic_white", "keltic", boardFromText(t, 9, 7, kelticStart), rules.White},
		{"gochess_white", "gochess", boardFromText(t, 10, 10, gochessBoard), rules.White},
		{"gess_white", "gess", gessStart(), rules.White},
	}
	for _, c := range cases {
		got, err := TextBoard(lookOf(c.variant), c.b, c.viewer)
		if err != nil {
			t.Fatal(err)
		}
		checkGoldenText(t, "text_"+c.name, got)
	}
	if _, err := TextBoard(lookOf("gothic"), rules.Board{Dims: rules.Dims{Files: 3, Ranks: 3}}, rules.White); !errors.Is(err, ErrBadOptions) {
		t.Errorf("TextBoard of a board without cells: %v", err)
	}
}

func TestTextWithRings(t *testing.T) {
	g := gessStart()
	pos := fakeGessPos{fakePos{v: fakeVariant{"gess", g.Dims}, b: g}, [2][]rules.Square{{sq(t, g.Dims, "l18")}, nil}}
	got, err := Text(pos, rules.Black)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := TextBoard(lookOf("gess"), g, rules.Black)
	want += "rings: white l18; black none\n"
	if got != want {
		t.Errorf("Text =\n%s\nwant\n%s", got, want)
	}
}
