package i18ntest

import (
	"regexp"
	"strings"
)

// proseEnglish are words of English prose that none of the other languages writes
// (not "in", "an", "die", "was", "so", "as", "on", "or", "no", "me", nor "per",
// "final", "place", "message", "direct", "mention", "moment", "placement", "info"
// or "match": German, Portuguese, French and Spanish words too): a line of another
// language with one of them has English left in it.
var proseEnglish = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`the and your yours you with how play plays played playing game games
		opponent while after each there is are of to move moves moved written wins won lost
		by time left deadline turn challenge challenges accept decline cancel board picture
		only see this that reminder over begins days day hours casual rated now
		here not cannot can draw resign resigned resignation round rounds tournament standings
		review suggests white black it its has have been be
		will would for from what which who when yet still new all players player
		checkmate stalemate ran out joined withdrew finished blunder mistake decisive
		buttons refused choose chose square cell rules rule house
		accuracy evaluations better clock told again waiting until yes`) {
		proseEnglish[w] = true
	}
}

// notProse matches what is not prose in a line: commands (/move), options typed
// name:value, code in backticks, file paths, PGN tags, the engine's seat name (a
// stored name), links.
var notProse = regexp.MustCompile("`[^`]*`|<dir>\\S*|https?://\\S+|/[^\\s,;.()«»„“”]+|\\S+:\\S+|Missive engine \\(level \\d+\\)|^\\[[A-Z][A-Za-z]* \".*\"\\]$")

// EnglishLeft returns the English words of a line of another language, beyond
// names and notation (a word with a digit in it is notation: "Be3", "2d"): a test
// of a language's output says there is none.
func EnglishLeft(line string) []string {
	var out []string
	for _, token := range strings.Fields(notProse.ReplaceAllString(line, " ")) {
		if strings.ContainsAny(token, "0123456789") {
			continue
		}
		for _, w := range strings.FieldsFunc(token, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r > 127 && r != '\u202f' && r != '\u00a0')
		}) {
			if proseEnglish[strings.ToLower(w)] {
				out = append(out, w)
			}
		}
	}
	return out
}
