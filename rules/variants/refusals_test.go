package variants_test

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/variants"
)

// maxSentence is the longest refusal a player should have to read.
const maxSentence = 300

// checkSentence fails unless err is a refusal whose sentence reads well for a player:
// a capital first, no package prefix, no sentinel trailer, a closing mark, short.
func checkSentence(t *testing.T, what string, err error) {
	t.Helper()
	if err == nil {
		t.Errorf("%s: accepted", what)
		return
	}
	var s rules.Sentencer
	if !errors.As(err, &s) {
		t.Errorf("%s: %v carries no sentence for the player", what, err)
		return
	}
	text := s.Sentence()
	first, _ := utf8.DecodeRuneInString(text)
	switch {
	case !unicode.IsUpper(first):
		t.Errorf("%s: %q does not start with a capital", what, text)
	case strings.Contains(text, "bad notation") || strings.Contains(text, ": illegal move") || strings.Contains(text, "bad position"):
		t.Errorf("%s: %q repeats the error kind", what, text)
	case !strings.HasSuffix(text, ".") && !strings.HasSuffix(text, "?") && !strings.HasSuffix(text, ")"):
		t.Errorf("%s: %q does not end a sentence", what, text)
	case utf8.RuneCountInString(text) > maxSentence:
		t.Errorf("%s: %d characters: %q", what, utf8.RuneCountInString(text), text)
	}
	for _, prefix := range []string{"chess:", "rules:", "gess:", "gochess:", "keltic:", "gothic:"} {
		if strings.Contains(text, prefix) {
			t.Errorf("%s: %q names the package %s", what, text, prefix)
		}
	}
}

// badTexts are inputs no variant reads as a position or a move.
var badTexts = []string{
	"", " ", "x", "hello world", "w", "1 2 3 4 5 6 7", "e4", "z9z9", "@", "?",
	"rnbqckabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQCKABNR", // no side to move
	strings.Repeat("e", 5000),
	strings.Repeat("Nf3 ", 1250),
	"Ka9", "e2e5", "O-O", "O-O-O", "Qxz1", "b8=K", "e9", "a0", "j11", "P@z9", "N@e4", "Q@", "e2e4e6",
	"m3-m30", "a1-a2", "m3xm6x", "t20-t21", "b2-b2",
}

// TestRefusalsAreSentences walks bad positions, bad moves and overlong input through
// every variant and checks that each refusal reads well for a player (issue 15).
func TestRefusalsAreSentences(t *testing.T) {
	reg := variants.Registry()
	r := rand.New(rand.NewPCG(15, 16))
	for _, key := range reg.Keys() {
		v, _ := reg.Lookup(key)
		start := v.Start(7)
		var fens []string
		fens = append(fens, badTexts...)
		// Mangled start positions: a field dropped, a character changed, extra fields.
		text := start.String()
		fields := strings.Fields(text)
		for i := range fields {
			fens = append(fens, strings.Join(append(append([]string{}, fields[:i]...), fields[i+1:]...), " "))
		}
		fens = append(fens, text+" 0 1 extra", strings.Replace(text, " w", " x", 1), strings.Replace(text, " b", " x", 1))
		for i := 0; i < 200; i++ {
			b := []byte(text)
			b[r.IntN(len(b))] = "xyzKQkqPp*/-0123456789 .o"[r.IntN(25)]
			fens = append(fens, string(b))
		}
		for _, fen := range fens {
			if _, err := v.ParsePosition(fen); err != nil {
				if !errors.Is(err, rules.ErrBadPosition) {
					t.Errorf("%s: ParsePosition(%.40q) = %v, want ErrBadPosition", key, fen, err)
				}
				checkSentence(t, key+": ParsePosition "+rules.Echo(fen), err)
			}
		}
		positions := []rules.Position{start}
		if sim, ok := start.(rules.Simultaneous); ok && len(sim.LegalMovesFor(rules.White)) > 0 {
			next, err := sim.PlayAs(rules.White, sim.LegalMovesFor(rules.White)[0])
			if err != nil {
				t.Fatal(err)
			}
			positions = append(positions, next)
		} else if moves := start.LegalMoves(); len(moves) > 0 {
			next, err := start.Play(moves[0])
			if err != nil {
				t.Fatal(err)
			}
			positions = append(positions, next)
		}
		for _, p := range positions {
			for _, in := range badTexts {
				m, err := p.ParseMove(in)
				if err == nil {
					if sim, ok := p.(rules.Simultaneous); ok {
						for _, side := range []rules.Side{rules.White, rules.Black} {
							if _, err := sim.PlayAs(side, m); err != nil {
								checkSentence(t, key+": PlayAs "+side.String()+" "+rules.Echo(in), err)
							}
						}
					}
					continue
				}
				checkSentence(t, key+": ParseMove "+rules.Echo(in), err)
				if strings.Contains(err.Error(), strings.Repeat("e", rules.EchoLimit+1)) {
					t.Errorf("%s: ParseMove repeats a long input in full: %.80s", key, err)
				}
			}
		}
	}
	for _, in := range []string{"", "chess", strings.Repeat("x", 5000)} {
		_, err := reg.Lookup(in)
		checkSentence(t, "Lookup "+rules.Echo(in), err)
	}
	_, err := rules.ParseSide("purple")
	checkSentence(t, "ParseSide", err)
	_, err = rules.Dims{Files: 10, Ranks: 8}.ParseSquare("k9")
	checkSentence(t, "ParseSquare", err)
}
