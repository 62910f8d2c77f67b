package console

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// plain turns the light Markdown of a reply (Discord's: bold, italics, underline,
// strike-through, code spans and code blocks, backslash escapes) into the plain
// text a terminal shows. Only Markdown is taken away: the text inside code spans
// and code blocks is kept as it is, as is a word that is a position (a FEN), and
// an emphasis marker that closes nothing, or opens nothing, stays.
func plain(s string) string {
	lines := strings.Split(s, "\n")
	out := lines[:0]
	inBlock := false
	for _, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			rest := strings.TrimPrefix(strings.TrimSpace(l), "```")
			if !inBlock && strings.HasSuffix(rest, "```") && len(rest) >= 3 {
				out = append(out, strings.TrimSuffix(rest, "```")) // a one-line block
				continue
			}
			inBlock = !inBlock
			if !inBlock && rest != "" {
				out = append(out, rest)
			}
			continue // a fence line, with its language name
		}
		if inBlock {
			out = append(out, l)
			continue
		}
		out = append(out, inline(l))
	}
	return strings.Join(out, "\n")
}

// positionWord matches a word that is a position, such as a FEN's board field
// (perhaps written as an option, fen:"..."): at least three ranks separated by '/'.
var positionWord = regexp.MustCompile("^[^\\s/`]*[A-Za-z0-9*.]+(/[A-Za-z0-9*.]+){2,}\\S*$")

// span is a piece of a line: literal text, or a run of emphasis markers.
type span struct {
	text      string
	mark      rune // '*', '_' or '~' for a run of markers; 0 for text
	n         int  // the markers of the run not (yet) matched
	open, end bool // whether the run can open, close emphasis
}

// inline drops the inline Markdown of one line.
func inline(l string) string {
	var spans []span
	lit := func(s string) {
		if n := len(spans); n > 0 && spans[n-1].mark == 0 {
			spans[n-1].text += s
			return
		}
		spans = append(spans, span{text: s})
	}
	for i := 0; i < len(l); {
		c := l[i]
		if i == 0 || l[i-1] == ' ' {
			if end := wordEnd(l, i); positionWord.MatchString(l[i:end]) {
				lit(l[i:end])
				i = end
				continue
			}
		}
		switch c {
		case '\\':
			if i+1 < len(l) && strings.IndexByte("\\`*_~|>#-", l[i+1]) >= 0 {
				lit(l[i+1 : i+2])
				i += 2
				continue
			}
		case '`':
			n := run(l, i, '`')
			if j := closingTicks(l, i+n, n); j >= 0 {
				code := l[i+n : j]
				if len(code) > 1 && code[0] == ' ' && code[len(code)-1] == ' ' && strings.Trim(code, " ") != "" {
					code = code[1 : len(code)-1]
				}
				lit(code)
				i = j + n
				continue
			}
			lit(l[i : i+n])
			i += n
			continue
		case '*', '_', '~':
			n := run(l, i, rune(c))
			before, _ := utf8.DecodeLastRuneInString(l[:i])
			after, _ := utf8.DecodeRuneInString(l[i+n:])
			if i == 0 {
				before = ' '
			}
			if i+n == len(l) {
				after = ' '
			}
			sp := span{text: l[i : i+n], mark: rune(c), n: n, open: !unicode.IsSpace(after), end: !unicode.IsSpace(before)}
			if c == '_' && isWordRune(before) && isWordRune(after) {
				sp.open, sp.end = false, false // inside a word, such as max_plies
			}
			if c == '~' && n != 2 {
				sp.open, sp.end = false, false
			}
			spans = append(spans, sp)
			i += n
			continue
		}
		lit(l[i : i+1])
		i++
	}
	match(spans)
	var b strings.Builder
	for _, sp := range spans {
		if sp.mark == 0 {
			b.WriteString(sp.text)
		} else {
			b.WriteString(strings.Repeat(string(sp.mark), sp.n))
		}
	}
	return b.String()
}

// match pairs the runs of markers: each closing run with the nearest opening run of
// the same marker before it, two markers at a time where both have two (bold,
// underline), else one (italics). What is matched is dropped; the rest stays.
func match(spans []span) {
	for c := range spans {
		for spans[c].mark != 0 && spans[c].end && spans[c].n > 0 {
			o := -1
			for j := c - 1; j >= 0; j-- {
				if spans[j].mark == spans[c].mark && spans[j].open && spans[j].n > 0 {
					o = j
					break
				}
			}
			if o < 0 {
				break
			}
			k := 1
			if spans[o].n >= 2 && spans[c].n >= 2 {
				k = 2
			}
			spans[o].n -= k
			spans[c].n -= k
			for j := o + 1; j < c; j++ {
				if spans[j].mark != 0 {
					spans[j].open = false // emphasis does not overlap
				}
			}
		}
	}
}

// run counts the bytes c repeats from l[i].
func run(l string, i int, c rune) int {
	n := 0
	for i+n < len(l) && rune(l[i+n]) == c {
		n++
	}
	return n
}

// closingTicks returns where a run of exactly n backticks begins at or after from,
// or -1.
func closingTicks(l string, from, n int) int {
	for i := from; i < len(l); {
		if l[i] != '`' {
			i++
			continue
		}
		m := run(l, i, '`')
		if m == n {
			return i
		}
		i += m
	}
	return -1
}

// wordEnd returns where the word beginning at l[i] ends.
func wordEnd(l string, i int) int {
	if j := strings.IndexByte(l[i:], ' '); j >= 0 {
		return i + j
	}
	return len(l)
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
