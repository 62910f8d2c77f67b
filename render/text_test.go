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

func TestTextWithRingsInOtherWords(t *testing.T) {
	g := gessStart()
	pos := fakeGessPos{fakePos{v: fakeVariant{"gess", g.Dims}, b: g}, [2][]rules.Square{{sq(t, g.Dims, "l18")}, {sq(t, g.Dims, "l3"), sq(t, g.Dims, "c3")}}}
	board, _ := TextBoard(lookOf("gess"), g, rules.White)
	cases := []struct {
		name string
		w    TextWords
		want string
	}{
		{"english", TextWords{}, "rings: white l18; black l3 c3\n"},
		{"english spelt out", TextWords{Rings: "rings: white {white}; black {black}", NoRings: "none"}, "rings: white l18; black l3 c3\n"},
		{"german", TextWords{Rings: "Ringe: Weiß {white}; Schwarz {black}", NoRings: "keiner"}, "Ringe: Weiß l18; Schwarz l3 c3\n"},
		{"russian", TextWords{Rings: "кольца: белые {white}; чёрные {black}", NoRings: "нет"}, "кольца: белые l18; чёрные l3 c3\n"},
		{"black first", TextWords{Rings: "{black} / {white}"}, "l3 c3 / l18\n"},
	}
	for _, c := range cases {
		got, err := TextIn(pos, rules.White, c.w)
		if err != nil {
			t.Fatal(err)
		}
		if got != board+c.want {
			t.Errorf("%s: TextIn ends\n%q\nwant\n%q", c.name, got[len(board):], c.want)
		}
	}
	// A side without rings: the words' own "none", else English.
	pos.rings[rules.White] = nil
	for _, c := range []struct {
		w    TextWords
		want string
	}{
		{TextWords{Rings: "Ringe: Weiß {white}; Schwarz {black}", NoRings: "keiner"}, "Ringe: Weiß keiner; Schwarz l3 c3\n"},
		{TextWords{Rings: "кольца: белые {white}; чёрные {black}", NoRings: "нет"}, "кольца: белые нет; чёрные l3 c3\n"},
		{TextWords{Rings: "Ringe: Weiß {white}; Schwarz {black}"}, "Ringe: Weiß none; Schwarz l3 c3\n"},
	} {
		if got, _ := TextIn(pos, rules.White, c.w); got != board+c.want {
			t.Errorf("TextIn ends %q, want %q", got[len(board):], c.want)
		}
	}
	// No words outside Gess: the board alone, whatever the words.
	other := fakePos{v: fakeVariant{"gothic", rules.Dims{Files: 10, Ranks: 8}}, b: boardFromText(t, 10, 8, gothicStart)}
	en, _ := Text(other, rules.White)
	if de, _ := TextIn(other, rules.White, TextWords{Rings: "Ringe: {white} {black}", NoRings: "keiner"}); de != en {
		t.Errorf("TextIn of a Gothic board differs from Text:\n%s\n%s", de, en)
	}
}
