package record_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/missivechess/missive/rules/record"
	"github.com/missivechess/missive/rules/variants"
)

// What WritePGN writes, ReadPGN reads back: the tags (escapes included), the start,
// every move and the final position, in Gothic, Keltic and Gess.
func TestReadPGNRoundTrip(t *testing.T) {
	reg := variants.Registry()
	for _, key := range []string{"gothic", "keltic", "gess"} {
		t.Run(key, func(t *testing.T) {
			v, _ := reg.Lookup(key)
			rec := record.Record{}
			pos := v.Start(0)
			for i := range 12 {
				ms := pos.LegalMoves()
				if len(ms) == 0 {
					break
				}
				m := ms[(i*7)%len(ms)]
				pos = play(t, &rec, pos, pos.UCI(m))
			}
			h, err := rec.Replay(v)
			if err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			extra := []record.Tag{{Name: "TimeControl", Value: "2592000+86400"}, {Name: "TimeBankCap", Value: "3888000"}}
			if err := record.WritePGN(&b, record.PGN{Event: `A "quoted" \\ event`, White: "alice", Black: "bob", Result: "*", Extra: extra, History: h}); err != nil {
				t.Fatal(err)
			}
			g, err := record.ReadPGN(strings.NewReader(b.String()+"\n[Event \"next game\"]\n"), reg)
			if err != nil {
				t.Fatalf("%v\n%s", err, b.String())
			}
			if ev, _ := g.Tag("Event"); ev != `A "quoted" \\ event` {
				t.Errorf("Event read as %q", ev)
			}
			for _, want := range extra {
				if got, ok := g.Tag(want.Name); !ok || got != want.Value {
					t.Errorf("%s read as %q", want.Name, got)
				}
			}
			if g.Position.String() != pos.String() || len(g.Moves) != len(rec.Moves) || g.Result != "*" {
				t.Errorf("read %d moves to %q, result %q; want %d to %q\n%s", len(g.Moves), g.Position.String(), g.Result, len(rec.Moves), pos.String(), b.String())
			}
		})
	}
}

// A game that is not as WritePGN writes it is refused, naming what is wrong.
func TestReadPGNRefuses(t *testing.T) {
	reg := variants.Registry()
	for text, want := range map[string]string{
		"[Variant \"chess\"]\n\n1. e4 *\n":                                            `the Variant tag "chess"`,
		"[Variant \"keltic\"]\n\n*\n":                                                 "no FEN tag",
		"[Variant \"gothic\"]\n[FEN \"nonsense\"]\n\n*\n":                             "the FEN tag",
		"[Variant \"gothic\" \n\n*\n":                                                 "is not a tag pair",
		"[Variant \"gothic\"]\n[FEN \"" + gothicStart(t) + "\"]\n\n1. e4 e5 2. Ke3 *": `move 3, "Ke3"`,
	} {
		if _, err := record.ReadPGN(strings.NewReader(text), reg); !errors.Is(err, record.ErrBadPGN) || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want an error saying %s", text, err, want)
		}
	}
}

// gothicStart is Gothic Chess's start position text.
func gothicStart(t *testing.T) string { return variant(t, "gothic").Start(0).String() }
