package bot_test

import (
	"errors"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/bot/i18n/i18ntest"
	"github.com/missivechess/missive/engine"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/record"
	"github.com/missivechess/missive/rules/variants"
)

func TestCatalogue(t *testing.T)      { i18ntest.Check(t, bot.Catalogue()) }
func TestRulesCatalogue(t *testing.T) { i18ntest.Check(t, bot.RulesCatalogue) }

// rulesCase is one input a player could give: a move (Text) in a position of a
// variant (FEN "" for the start, after Moves), or a position text (Parse).
type rulesCase struct {
	Variant, FEN string
	Moves        []string
	Text         string
	Parse        string
}

// rulesCases are inputs that between them bring every refusal of the rules'
// catalogue about, besides the sweeps of rulesRefusals.
var rulesCases = []rulesCase{
	// Chess family: notation, ambiguity, castling, promotion, pieces.
	{Variant: "gothic", Text: ""},
	{Variant: "gothic", Text: "zz"},
	{Variant: "gothic", Text: "Qh5"},
	{Variant: "gothic", Text: "O-O"},
	{Variant: "gothic", Text: "O-O-O"},
	{Variant: "gothic", Text: "e4e5"},
	{Variant: "gothic", Text: "Nd3"},
	{Variant: "gothic", Text: "Ngd3"},
	{Variant: "gothic", Text: "N1d3"},
	{Variant: "gothic", Text: "Ng1d3"},
	{Variant: "gothic", Text: "e5"},
	{Variant: "gothic", Text: "Pe5"},
	{Variant: "gothic", Text: "e2e4q"},
	{Variant: "gothic", Text: "e2e4"},
	{Variant: "gothic", Text: "e1e2"},
	{Variant: "gothic", Text: "Kxe8"},
	{Variant: "gothic", Text: "e7e5"},
	{Variant: "gothic", Text: "Nf3=Q"},
	{Variant: "gothic", Text: "e3=K"},
	{Variant: "gothic", FEN: "4k5/P9/10/10/10/10/10/4K5 w - - 0 1", Text: "a7a8"},
	{Variant: "gothic", FEN: "4k5/P9/10/10/10/10/10/4K5 w - - 0 1", Text: "a8"},
	{Variant: "gothic", FEN: "4k5/10/10/10/10/10/P9/4K5 w - - 0 1", Text: "a2a3q"},
	{Variant: "gothic", FEN: "4k5/10/10/10/10/10/P9/4K5 w - - 0 1", Text: "a2a3z"},
	{Variant: "gothic", FEN: "4k5/10/10/3p6/4P5/10/10/4K5 w - - 0 1", Text: "d5"},
	{Variant: "gothic", FEN: "4k5/10/10/10/10/10/10/R4K3R w KQ - 0 1", Text: "O-O"},
	{Variant: "gothic", FEN: "4k5/10/10/10/10/10/10/R4K3R w KQ - 0 1", Text: "O-O-O"},
	{Variant: "gothic", FEN: "4k5/10/10/10/10/10/10/R4K3R w - - 0 1", Text: "O-O"},
	{Variant: "gothic", FEN: "4k5/10/10/10/10/10/10/R4K3R w - - 0 1", Text: "O-O-O"},
	{Variant: "gothic", FEN: "1k3r4/10/10/10/10/10/10/R4K3R w KQ - 0 1", Text: "O-O"},
	{Variant: "gothic", FEN: "1k3r4/10/10/10/10/10/10/R4K3R w KQ - 0 1", Text: "f1i1"},
	{Variant: "gothic", FEN: "1k5r2/10/10/10/10/10/10/R4K3R w KQ - 0 1", Text: "O-O"},
	{Variant: "gothic", FEN: "1k5r2/10/10/10/10/10/10/R4K3R w KQ - 0 1", Text: "f1i1"},
	{Variant: "gothic", FEN: "4k5/10/10/10/10/10/4r5/4K5 w - - 0 1", Text: "Kf2"},
	{Variant: "gothic", FEN: "4k5/4r5/10/10/10/10/4B5/4K5 w - - 0 1", Text: "Bd3"},
	{Variant: "gothic", FEN: "4k5/4r5/10/10/10/10/4B5/4K5 w - - 0 1", Text: "e2d3"},
	{Variant: "gothic", FEN: "9k/10/10/10/4Q5/10/10/4K5 w - - 0 1", Text: "Qa1"},
	{Variant: "gothic", FEN: "9k/10/10/10/4Q5/10/10/4K5 w - - 0 1", Text: "e4a1"},
	{Variant: "gothic", FEN: "4k5/10/10/10/10/10/PP8/RK8 w - - 0 1", Text: "Rb1"},
	{Variant: "gothic", FEN: "4k5/10/10/10/10/10/PP8/RK8 w - - 0 1", Text: "a1b1"},
	{Variant: "gothic", FEN: "4k5/10/10/10/10/10/PP8/RK8 w - - 0 1", Text: "Rab1"},
	{Variant: "gothic", FEN: "4k5/10/10/10/10/10/PP8/RK8 w - - 0 1", Text: "R1b1"},
	{Variant: "gothic", FEN: "4k5/10/10/10/10/10/PP8/RK8 w - - 0 1", Text: "Ra1b1"},
	{Variant: "gothic", FEN: "9k/10/10/10/4Q5/10/10/4K5 w - - 0 1", Text: "Nf3"},
	{Variant: "gothic", FEN: "b3k5/1P8/10/3K6/10/10/10/10 w - - 0 1", Text: "b7b8"},
	{Variant: "gothic", FEN: "b3k5/1P8/10/3K6/10/10/10/10 w - - 0 1", Text: "b7b8q"},
	{Variant: "gothic", FEN: "4k5/9p/10/10/10/2N3N3/10/4K5 w - - 0 1", Text: "ne4"},
	{Variant: "gothic", FEN: "4k5/9p/10/10/10/2N3N3/10/4K5 w - - 0 1", Text: "Ne4"},
	{Variant: "gothic", FEN: "9k/10/10/10/10/10/5q4/7K2 b - - 0 1", Text: "Qg2"},
	{Variant: "gothic", FEN: "9k/10/10/10/10/10/5qq3/7K2 w - - 0 1", Text: "Kh2"},
	{Variant: "keltic", Text: "a1a2"},
	{Variant: "keltic", Text: "Na1"},
	{Variant: "keltic", Text: "e3e4q"},
	{Variant: "gochess", FEN: "4*4*/3*6/10/3*3*2/3*6/4k5/3*6/P9/10/1**1K*4 w - - 0 1", Text: "e1e2q"},
	{Variant: "gochess", FEN: "4*4*/3*6/10/3*3*2/3*6/4k5/3*6/P9/10/1**1K*4 w - - 0 1", Text: "e1d4"},
	{Variant: "gochess", FEN: "4*4*/3*6/10/3*3*2/3*6/4k5/3*6/P9/10/1**1K*4 w - - 0 1", Text: "Kd4"},
	{Variant: "gochess", FEN: "4*4*/3*6/10/3*3*2/3*6/4k5/3*6/P9/10/1**1K*4 w - - 0 1", Text: "P@e2"},
	{Variant: "gochess", FEN: "4*4*/3*6/10/3*3*2/3*6/4k5/3*6/P9/10/1**1K*4 w - - 0 1", Text: "e1e2=Q"},
	{Variant: "gochess", FEN: "4*4*/3*6/10/3*3*2/3*6/4k5/3*6/P9/10/1**1K*4 w - - 0 1", Text: "a3a4q"},
	// Games that are over.
	{Variant: "gothic", FEN: "4k5/4Q5/4K5/10/10/10/10/10 b - - 0 1", Text: "e8d8"},
	{Variant: "gothic", FEN: "4k5/4P5/4K5/10/10/10/10/10 b - - 0 1", Text: "e8d8"},
	{Variant: "gothic", FEN: "4k5/10/4K5/10/10/10/10/10 b - - 0 1", Text: "e8d8"},
	{Variant: "gothic", FEN: "4k5/10/4K5/10/10/10/10/9R b - - 100 80", Text: "e8d8"},
	{Variant: "gothic", Moves: []string{"Nh3", "Nh6", "Ni1", "Ni8", "Nh3", "Nh6", "Ni1", "Ni8"}, Text: "Nh3"},
	// FEN.
	{Variant: "gothic", Parse: strings.Repeat("1", 600)},
	{Variant: "gothic", Parse: "rnbqckabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQCKABNR"},
	{Variant: "gothic", Parse: "rnbqcabnr1/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQCKABNR w - - 0 1"},
	{Variant: "gothic", Parse: "4k5/10/10/10/10/10/10/P3K5 w - - 0 1"},
	{Variant: "gothic", Parse: "4k5/10/10/10/10/10/10/4K5 x - - 0 1"},
	{Variant: "gothic", Parse: "4k5/10/10/10/10/10/10/4K5 w - - x 1"},
	{Variant: "gothic", Parse: "4k5/10/10/10/10/10/10/4K5 w - - 0 x"},
	{Variant: "gothic", Parse: "4k5/4R5/10/10/10/10/10/4K5 w - - 0 1"},
	{Variant: "gothic", Parse: "4k5/10/10/4r5/10/3n1n4/10/4K5 w - - 0 1"},
	{Variant: "gothic", Parse: "4k5/10/10/10/10/10/10/4K5/10 w - - 0 1"},
	{Variant: "gothic", Parse: "4k5 w - - 0 1"},
	{Variant: "gothic", Parse: "4k005/10/10/10/10/10/10/4K5 w - - 0 1"},
	{Variant: "gothic", Parse: "4k5/10/10/10/10/10/10/4K4Z w - - 0 1"},
	{Variant: "gothic", Parse: "4k6/10/10/10/10/10/10/4K5 w - - 0 1"},
	{Variant: "gothic", Parse: "4k4/10/10/10/10/10/10/4K5 w - - 0 1"},
	{Variant: "gothic", Parse: "4k4*/10/10/10/10/10/10/4K5 w - - 0 1"},
	{Variant: "gothic", Parse: "4k5/10/10/10/10/10/10/5K3R w KK - 0 1"},
	{Variant: "gothic", Parse: "4k5/10/10/10/10/P9/PPPPPPPPPP/4K5 w - - 0 1"},
	{Variant: "gothic", Parse: "4k5/10/10/10/10/10/10/4K5 w X - 0 1"},
	{Variant: "gothic", Parse: "4k5/10/10/10/10/10/10/5K4 w Q - 0 1"},
	{Variant: "gothic", Parse: "4k5/10/10/10/10/10/10/4K5 w K - 0 1"},
	{Variant: "gothic", Parse: "4k5/10/10/10/10/10/10/4K5 w - z9 0 1"},
	{Variant: "gothic", Parse: "4k5/10/10/10/10/10/10/4K5 w - e4 0 1"},
	{Variant: "gothic", Parse: "4k5/10/10/10/10/10/10/4K5 w - e6 0 1"},
	{Variant: "gothic", Parse: "4k5/10/10/10/10/10/10/4K5 w - e9 0 1"},
	{Variant: "gothic", Parse: "4k5/10/10/10/10/10/PPPPPPPPPP/PPP1K5 w - - 0 1"},
	{Variant: "gothic", Parse: "4k5/10/10/10/10/10/PPPPPPPPPP/QQ2K5 w - - 0 1"},
	{Variant: "keltic", Parse: "***bkb***/**rnqnr**/ppppppppp/9/PPPPPPPPP/**RNQNR**/**NBKB*** w - - 0 1"},
	{Variant: "keltic", Parse: "***bkb***/**rnqnr**/ppppppppp/9/PPPPPPPPP/**RNQNR**/1**BKB*** w - - 0 1"},
	{Variant: "keltic", Parse: "***bkb***/**rnqnr**/ppppppppp/9/PPPPPPPPP/**RNQNR**/***BKB*** w KQ - 0 1"},
	{Variant: "keltic", Parse: "***bkb***/**rnqnr**/ppppppppp/9/PPPPPPPPP/**RNQNR**/***BKB*** w - e4 0 1"},
	{Variant: "keltic", Parse: "***bkb***/**rnqnr**/ppppppppp/9/PPPPPPPPP/**RNNNR**/***BKB*** w - - 0 1"},
	{Variant: "gochess", Parse: "4*4*/3*6/10/3*3*2/3*6/10/3*6/10/10/1**1K*4 w - - 0 1"},
	{Variant: "gochess", Parse: "4*4*/3*6/10/3*3*2/3*6/4k5/3*6/10/10/1**1K*3* w - - 0 1"},
	{Variant: "gochess", Parse: "4*4*/3*6/10/3*3*2/3*6/4k5/3*6/10/10/1**1K*B1B1 w - - 0 1"},
	{Variant: "gochess", Parse: "4*4*/3*6/10/3*3*2/3*6/4k5/3*6/10/10/NNN*K**3 w - - 0 1"},
	// Gess.
	{Variant: "gess", Text: ""},
	{Variant: "gess", FEN: gessText(map[string]byte{"d4": 'o', "e4": 'o', "f4": 'o', "d5": 'o', "f5": 'o', "d6": 'o', "e6": 'o', "f6": 'o', "k10": 'x'}, "b"), Text: "k10-k11"},
	{Variant: "gess", Text: "zz"},
	{Variant: "gess", Text: "z3-m6"},
	{Variant: "gess", Text: "m3-z6"},
	{Variant: "gess", Parse: " "},
	{Variant: "gess", Parse: "x"},
	{Variant: "gess", Parse: "20/20 q"},
	{Variant: "gess", Parse: "20/20 b"},
	{Variant: "gess", Parse: "20/20/20/20/20/20/20/20/20/20/20/20/20/20/20/20/20/20/20/19 b"},
	{Variant: "gess", Parse: "20/20/20/20/20/20/20/20/20/20/20/20/20/20/20/20/20/20/20/0 b"},
	{Variant: "gess", Parse: "20/20/20/20/20/20/20/20/20/20/20/20/20/20/20/20/20/20/20/q19 b"},
	{Variant: "gess", Parse: "20/20/20/20/20/20/20/20/20/20/20/20/20/20/20/20/20/20/20/x19 b"},
	{Variant: "gess", Parse: "20/" + strings.Repeat("1"+strings.Repeat("x", 18)+"1/", 3) + "20/20/20/20/20/20/20/20/20/20/20/20/20/20/20/20 b"},
	// Go-Chess placement texts.
	{Variant: "gochess", Parse: "4*4*/3*6/10/3*3*2/3*6/10/3*6/10/10/1**2*4 placement 1 -"},
	{Variant: "gochess", Parse: "4*4*/3*6/10/3*3*2/3*6/10/3*6/10/10/1**2*4 placement 99 - -/- -/-"},
	{Variant: "gochess", Parse: "4*4*/3*6/10/3*3*2/3*6/10/3*6/10/10/1**2*4 placement 1 - - -/-"},
	{Variant: "gochess", Parse: "4*4*/3*6/10/3*3*2/3*6/10/3*6/10/10/1**2*4 placement 1 - a1/- -/-"},
	{Variant: "gochess", Parse: "4*4*/3*6/10/3*3*2/3*6/10/3*6/10/10/1**2*4 placement 1 b1 -/- -/-"},
	{Variant: "gochess", Parse: "4*4*/3*6/10/3*3*2/3*6/10/3*6/10/10/1**2*4 placement 1 - -/- -"},
	{Variant: "gochess", Parse: "4*4*/3*6/10/3*3*2/3*6/10/3*6/10/10/1**2*4 placement 1 - -/- ?/-"},
	{Variant: "gochess", Parse: "4*4*/3*6/10/3*3*2/3*6/10/3*6/10/10/1**2*4 placement 1 - -/- zz/-"},
	{Variant: "gochess", Parse: "4*4*/3*6/10/3*3*2/3*6/10/3*6/10/10/1**2*4 placement 1 - -/- b1/-"},
	{Variant: "gochess", Parse: "4*4*/3*6/10/3*3*2/3*6/10/3*6/10/10/1**2*4 placement 1 - -/- a2/a9"},
	{Variant: "gochess", Parse: "4*4*/3*6/10/3*3*2/3*6/10/3*6/10/10/1**2*4 placement 1 zz -/- -/-"},
	{Variant: "gochess", Parse: "4*4*/3*6/10/3*3*2/3*6/10/3*6/10/10/1**2*4 placement 1 b2,a2 -/- -/-"},
	{Variant: "gochess", Parse: "4*4*/3*6/10/3*3*2/3*6/10/3*6/10/10/1**2*4 placement 1 - zz/- -/-"},
	{Variant: "gochess", Parse: "4*4*/3*6/10/3*3*2/3*6/10/3*6/10/10/1**2*4 placement 1 - b2,a2/- -/-"},
	{Variant: "gochess", Parse: "4*4*/3*6/10/3*3*2/3*6/10/3*6/10/10/P**2*4 placement 1 - -/- -/-"},
	{Variant: "gochess", Parse: "4*4*/b2*6/pppppppp2/3*3*2/3*6/10/3*6/10/PPPPPPPP2/B**B1*4 placement 10 - -/- -/-"},
	{Variant: "gochess", Parse: "4*4*/bb1*6/pppppppp2/3*3*2/3*6/10/3*6/10/PPPPPPPP2/B**1B*4 placement 11 - -/- -/-"},
	// Go-Chess placements, after the text of the round.
	{Variant: "gochess", Text: ""},
	{Variant: "gochess", Text: "Q@e4"},
	{Variant: "gochess", Text: "Z@e4"},
	{Variant: "gochess", Text: "zz"},
	{Variant: "gochess", Text: "b1"},
	{Variant: "gochess", Text: "a3"},
	{Variant: "gochess", FEN: "4*4*/b2*6/pppppppp2/3*3*2/3*6/10/3*6/10/PPPPPPPP2/B**2*4 placement 10 - -/- -/-", Text: "c3"},
	{Variant: "gochess", FEN: "4*4*/b2*6/pppppppp2/3*3*2/3*6/10/3*6/10/PPPPPPPP2/1**2*3B placement 10 - -/- -/-", Text: "d3"},
	{Variant: "gochess", FEN: "4*4*/bb1*rrnnq1/pppppppp2/3*3*2/3*6/10/3*6/10/PPPPPPPP2/B**BR*RNNQ placement 16 a5 a4/- -/-", Text: "i3"},
	{Variant: "gochess", FEN: "4*4*/bb1*rrnnq1/pppppppp2/3*3*2/3*6/10/3*6/10/PPPPPPPP2/B**BR*RNNQ placement 16 a5 a4/- -/-", Text: "a4"},
	{Variant: "gochess", FEN: "4*4*/bb1*rrnnq1/pppppppp2/3*3*2/3*6/10/3*6/10/PPPPPPPP2/B**BR*RNNQ placement 16 a5 a4/- -/-", Text: "a5"},
	{Variant: "gochess", FEN: "4*4*/bb1*rrnnq1/pppppppp2/3*3*2/3*6/10/3*6/10/PPPPPPPP2/B**BR*RNNQ placement 16 a5 a4/- -/-", Text: "a2"},
}

// rulesRefusals are refusals of the rules for input a player could type: bad
// notation, illegal and ambiguous moves, bad positions, unknown games, in each
// variant (rulesCases, and every move between two squares of some positions),
// with the few that only the bot's own calls can cause; at most a few of each key.
func rulesRefusals(t *testing.T) []*rules.Error {
	t.Helper()
	reg := variants.Registry()
	var out []*rules.Error
	seen := map[string]int{}
	add := func(err error) {
		var re *rules.Error
		if errors.As(err, &re) {
			kind := re.Key + "|" + re.Args["Outcome"] + "|" + re.Args["Direction"] + "|" + re.Args["CanDirections"]
			if seen[kind]++; re.Key == "" || seen[kind] <= 3 {
				out = append(out, re)
			}
		}
	}
	_, err := reg.Lookup("chess960")
	add(err)
	_, err = rules.ParseSide("purple")
	add(err)
	_, err = engine.ParseLevel("99")
	var le *engine.LevelError
	if errors.As(err, &le) {
		add(le.Refusal())
	}
	position := func(c rulesCase) rules.Position {
		v, err := reg.Lookup(c.Variant)
		if err != nil {
			t.Fatal(err)
		}
		pos := v.Start(1)
		if c.FEN != "" {
			if pos, err = v.ParsePosition(c.FEN); err != nil {
				t.Errorf("%s: %v", c.FEN, err)
				return nil
			}
		}
		for _, text := range c.Moves {
			m, err := pos.ParseMove(text)
			if err == nil {
				pos, err = pos.Play(m)
			}
			if err != nil {
				t.Errorf("%s: %v", text, err)
				return nil
			}
		}
		return pos
	}
	play := func(pos rules.Position, text string) {
		m, err := pos.ParseMove(text)
		if err != nil {
			add(err)
			return
		}
		if s, ok := pos.(rules.Simultaneous); ok {
			next, err := s.PlayAs(rules.White, m)
			add(err)
			if err == nil {
				_, err = next.(rules.Simultaneous).PlayAs(rules.White, m)
				add(err)
			}
			return
		}
		_, err = pos.Play(m)
		add(err)
	}
	// sweep plays every move between two squares (Gess: two centres) of pos.
	sweep := func(pos rules.Position) {
		if _, ok := pos.(rules.Simultaneous); ok {
			return
		}
		d := pos.Variant().Dims()
		for from := rules.Square(0); int(from) < d.Cells(); from++ {
			for to := rules.Square(0); int(to) < d.Cells(); to++ {
				if df, dr := d.File(to)-d.File(from), d.Rank(to)-d.Rank(from); max(df, -df, dr, -dr) > 4 {
					continue // Gess's faults all show within four squares
				}
				_, err := pos.Play(rules.Move{From: from, To: to})
				add(err)
			}
		}
	}
	for _, c := range rulesCases {
		if c.Parse != "" {
			v, _ := reg.Lookup(c.Variant)
			_, err := v.ParsePosition(c.Parse)
			add(err)
			continue
		}
		if pos := position(c); pos != nil {
			play(pos, c.Text)
		}
	}
	for _, key := range reg.Keys() {
		v, _ := reg.Lookup(key)
		pos := v.Start(1)
		if key == "gess" {
			// The start with White to move too, whose pieces lack other perimeter stones.
			white, err := v.ParsePosition(strings.TrimSuffix(pos.String(), "b") + "w")
			if err != nil {
				t.Fatal(err)
			}
			sweep(white)
		}
		sweep(pos)
		for _, text := range []string{"", "zz", "e2e9", "Qh5", "N", "a1a1", "O-O", "e4e5", "m3-m6", "Kxe8", "P@z9", "e7e5", "xx-yy", "a9", "Nf3"} {
			play(pos, text)
		}
		_, err := v.Dims().ParseSquare("z99")
		add(err)
	}
	// What only the bot's own calls can cause: a Gess move with a promotion, a
	// placement off the board or of another kind, a record played out of turn or
	// after the end.
	gess, _ := reg.Lookup("gess")
	_, err = gess.Start(1).Play(rules.Move{From: 42, To: 45, Promotion: rules.Queen})
	add(err)
	gochess, _ := reg.Lookup("gochess")
	placing := gochess.Start(1).(rules.Simultaneous)
	_, err = placing.PlayAs(rules.White, rules.Move{From: rules.NoSquare, To: 500, Drop: rules.Pawn})
	add(err)
	_, err = placing.PlayAs(rules.White, rules.Move{From: 3, To: 40, Drop: rules.Pawn})
	add(err)
	gothic, _ := reg.Lookup("gothic")
	start := gothic.Start(1)
	_, err = start.Play(rules.Move{From: rules.NoSquare, To: 40, Drop: rules.Pawn})
	add(err)
	_, err = start.Play(rules.Move{From: 12, To: 500})
	add(err)
	var r record.Record
	pos, _ := r.StartPosition(gothic)
	_, _, err = r.Play(pos, rules.Black, "e4", fixedTime)
	add(err)
	over, _ := gothic.ParsePosition("4k5/4Q5/4K5/10/10/10/10/10 b - - 0 1")
	_, _, err = r.Play(over, rules.Black, "Kd8", fixedTime)
	add(err)
	return out
}

// fixedTime is when the records of rulesRefusals are played.
var fixedTime = time.Date(2025, 3, 3, 12, 0, 0, 0, time.UTC)

// Every rules refusal with a Key says in English exactly what its Text says, so
// that the catalogue's English is the sentence the rules wrote; in every other
// language it is another sentence, with no placeholder left.
func TestRulesSentences(t *testing.T) {
	refusals := rulesRefusals(t)
	keyed := 0
	for _, e := range refusals {
		if e.Key == "" {
			continue
		}
		keyed++
		if got := bot.RulesSentence(i18n.English, e); got != e.Text {
			t.Errorf("%s in English:\n%q\nthe rules' Text\n%q", e.Key, got, e.Text)
		}
		for _, l := range i18n.Langs[1:] {
			if got := bot.RulesSentence(l, e); got == e.Text || strings.Contains(got, "{{") || strings.Contains(got, "<no value>") || strings.Contains(got, e.Key) {
				t.Errorf("%s in %s: %q", e.Key, l, got)
			}
		}
	}
	if keyed == 0 {
		t.Fatalf("no rules refusal has a key (of %d)", len(refusals))
	}
}

// rulesKeys are the keys of the rules' English catalogue.
func rulesKeys(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile("../rules/locales/active.en.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, m := range regexp.MustCompile(`(?m)^([a-z][a-zA-Z0-9.-]*):`).FindAllStringSubmatch(string(data), -1) {
		keys = append(keys, m[1])
	}
	return keys
}

// Every refusal a player can cause has a Key, and every key of the rules'
// catalogue is used: a sentence key by a refusal of rulesRefusals, a phrase
// (list.more, outcome.*, direction.*, piece.<form>.*, side.<form>.*) by one of
// their args. A piece or side form counts as used for every kind and side once a
// refusal uses it for one, since which a sentence names depends only on the
// position.
func TestRulesKeysProduced(t *testing.T) {
	used := map[string]bool{}
	for _, e := range rulesRefusals(t) {
		if e.Key == "" {
			t.Errorf("a refusal without a key: %q", e.Text)
			continue
		}
		used[e.Key] = true
		for k, v := range e.Args {
			items := strings.Split(v, "\n")
			switch {
			case strings.HasSuffix(k, "Piece") && k != "Piece":
				used["piece."+pieceForm(strings.TrimSuffix(k, "Piece"))+".*"] = true
			case strings.HasSuffix(k, "Side"):
				used["side."+pieceForm(strings.TrimSuffix(k, "Side"))+".*"] = true
			case strings.HasSuffix(k, "Direction"), strings.HasSuffix(k, "Directions"):
				for _, it := range items {
					used["direction."+it] = true
				}
			case strings.HasSuffix(k, "Outcome"):
				parts := strings.Split(v, ".")
				if len(parts) == 3 {
					parts = []string{parts[0], parts[2]}
				}
				used["outcome."+strings.Join(parts, ".")] = true
			case strings.HasSuffix(k, "List") && strings.HasPrefix(items[len(items)-1], "+"):
				used["list.more"] = true
			}
		}
	}
	for _, key := range rulesKeys(t) {
		form := key
		if strings.HasPrefix(key, "piece.") || strings.HasPrefix(key, "side.") && key != "side.unknown" {
			form = key[:strings.LastIndex(key, ".")] + ".*"
		}
		if !used[key] && !used[form] {
			t.Errorf("no refusal of rulesRefusals says %s", key)
		}
	}
}

// pieceForm is bot's: the form a piece arg's prefix names, its last word in lower case.
func pieceForm(prefix string) string {
	i := strings.LastIndexFunc(prefix, func(r rune) bool { return r >= 'A' && r <= 'Z' })
	if i < 0 {
		return ""
	}
	return strings.ToLower(prefix[i:])
}

// gessText writes a Gess position text with stones ('x' black, 'o' white) on
// the squares named and side (b or w) to move.
func gessText(stones map[string]byte, side string) string {
	rows := make([][]byte, 20)
	for i := range rows {
		rows[i] = []byte(strings.Repeat(".", 20))
	}
	for name, c := range stones {
		rank := 0
		for _, d := range name[1:] {
			rank = rank*10 + int(d-'0')
		}
		rows[20-rank][name[0]-'a'] = c
	}
	var b []string
	for _, r := range rows {
		b = append(b, string(r))
	}
	return strings.Join(b, "/") + " " + side
}

// An engine level refused is worded in the reader's language, its English as the
// engine wrote it.
func TestRulesLevelIn(t *testing.T) {
	_, err := engine.ParseLevel("99")
	en, ok := bot.UserTextIn(i18n.English, err)
	var le *engine.LevelError
	if !ok || !errors.As(err, &le) || en != le.Sentence() {
		t.Fatalf("English: %q, %v", en, ok)
	}
	if de, _ := bot.UserTextIn(i18n.German, err); de == en || !strings.Contains(de, `"99"`) {
		t.Errorf("German: %q", de)
	}
}
