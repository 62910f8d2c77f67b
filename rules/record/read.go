package record

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"github.com/missivechess/missive/rules"
)

// ErrBadPGN is wrapped by the PGN reader's errors about text that is not a game it
// can read.
var ErrBadPGN = errors.New("record: not a PGN game Missive can read")

// ReadGame is one game read back from PGN: its tags in order, the position its
// movetext starts from (the FEN tag) and the moves replayed from it, and its result.
type ReadGame struct {
	Tags     []Tag
	Start    rules.Position
	Moves    []rules.Move
	Position rules.Position // after Moves
	Result   string         // the game termination marker; empty when the game had none
	// Notes holds what the movetext says about each move, by its index in Moves (not
	// a record's entry index, as PGN.Notes): the first NAG (a suffix such as "?!"
	// read as its NAG), the evaluation and the text of its comments, and its first
	// variation. Comments before the first move (the Go-Chess placement comment)
	// belong to no move and are skipped.
	Notes map[int]Note
}

// Tag returns the value of tag name, and false when the game has none.
func (g *ReadGame) Tag(name string) (string, bool) {
	for _, t := range g.Tags {
		if t.Name == name {
			return t.Value, true
		}
	}
	return "", false
}

// ReadPGN reads the first game of r (see PGNReader); a text without any game is
// an error.
func ReadPGN(r io.Reader, reg *rules.Registry) (*ReadGame, error) {
	g, err := NewPGNReader(r, reg).Next()
	if errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%w: the text holds no game", ErrBadPGN)
	}
	return g, err
}

// PGNReader reads the games of a PGN text one after another, in the import format
// of the PGN standard (sections 8 and 7): tag pairs, then movetext, whose moves (in
// any notation the variant reads: SAN or coordinates) are replayed under the rules
// of the Variant tag from the FEN tag's position. The movetext may hold move number
// indications ("12.", "12...", "12.e4", "12. ... e5"), NAGs ("$2") and suffix
// annotations ("Nf3!?"), comments in braces and from ';' to the end of the line,
// variations in parentheses (nested to any depth; each variation's moves are
// checked from the position before the move it replaces) and ends with a game
// termination marker ("1-0", "0-1", "1/2-1/2", "*"), or where the next game's tags
// begin, or at the end of the text. A line starting with '%' is skipped (the
// standard's escape). A move that does not parse or is not legal where it stands is
// an error naming it; the reader then skips to the end of that game, so that Next
// reads on from the following one.
type PGNReader struct {
	lx  *lexer
	reg *rules.Registry
}

// NewPGNReader returns a reader of the games of r under the rules in reg.
func NewPGNReader(r io.Reader, reg *rules.Registry) *PGNReader {
	return &PGNReader{lx: newLexer(r), reg: reg}
}

// Next reads the next game; io.EOF when no game is left.
func (p *PGNReader) Next() (*ReadGame, error) {
	g := &ReadGame{}
	tok, err := p.lx.next()
	for err == nil && tok.kind == tokOpenTag {
		t, err := p.tag(tok.line)
		if err != nil {
			p.skipGame()
			return nil, err
		}
		g.Tags = append(g.Tags, t)
		tok, err = p.lx.next()
	}
	switch {
	case errors.Is(err, io.EOF) && len(g.Tags) == 0:
		return nil, io.EOF
	case err != nil && !errors.Is(err, io.EOF):
		p.skipGame()
		return nil, err
	}
	p.lx.unread(tok)
	if err := g.setUp(p.reg); err != nil {
		p.skipGame()
		return nil, err
	}
	if err := p.movetext(g); err != nil {
		p.skipGame()
		return nil, err
	}
	return g, nil
}

// tag reads the rest of a tag pair after its '[': a name, a string, ']'. A token
// that does not fit is left for the next read.
func (p *PGNReader) tag(line int) (Tag, error) {
	var toks []token
	for _, want := range []tokenKind{tokSymbol, tokString, tokCloseTag} {
		tok, err := p.lx.next()
		if err != nil && !errors.Is(err, io.EOF) {
			return Tag{}, err
		}
		if err != nil || tok.kind != want {
			p.lx.unread(tok)
			var got []string
			for _, t := range toks {
				got = append(got, t.quoted())
			}
			return Tag{}, fmt.Errorf("%w: line %d: [%s is not a tag pair ([Name \"value\"])", ErrBadPGN, line, strings.Join(got, " "))
		}
		toks = append(toks, tok)
	}
	return Tag{Name: toks[0].text, Value: toks[1].text}, nil
}

// setUp finds g's variant and start from its Variant and FEN tags.
func (g *ReadGame) setUp(reg *rules.Registry) error {
	key, _ := g.Tag("Variant")
	v, err := reg.Lookup(key)
	if err != nil {
		return fmt.Errorf("%w: the Variant tag %s names no game Missive plays", ErrBadPGN, rules.Echo(key))
	}
	fen, ok := g.Tag("FEN")
	if !ok {
		return fmt.Errorf("%w: no FEN tag", ErrBadPGN)
	}
	if g.Start, err = v.ParsePosition(fen); err != nil {
		return fmt.Errorf("%w: the FEN tag: %w", ErrBadPGN, err)
	}
	g.Position = g.Start
	return nil
}

// line is one line of play being read: the main line or a variation.
type line struct {
	pos, before rules.Position // now, and before the last move
	moves       int            // moves read in this line
	first       []rules.Move   // a variation's moves at depth 1, for its note
}

// evalCommand is the evaluation in a comment: [%eval 0.35].
var evalCommand = regexp.MustCompile(`\[%eval\s+([^\]\s]+)\s*\]`)

// movetext reads g's movetext up to its termination, replaying the moves.
func (p *PGNReader) movetext(g *ReadGame) error {
	stack := []*line{{pos: g.Position}}
	note := func(f func(n *Note)) {
		if len(stack) == 1 && stack[0].moves > 0 {
			if g.Notes == nil {
				g.Notes = map[int]Note{}
			}
			n := g.Notes[len(g.Moves)-1]
			f(&n)
			g.Notes[len(g.Moves)-1] = n
		}
	}
	for {
		tok, err := p.lx.next()
		if errors.Is(err, io.EOF) || err == nil && tok.kind == tokOpenTag {
			p.lx.unread(tok)
			if len(stack) > 1 {
				return fmt.Errorf("%w: line %d: a variation is not closed", ErrBadPGN, p.lx.line)
			}
			return nil // the next game, or the end: no termination marker
		}
		if err != nil {
			return err
		}
		cur := stack[len(stack)-1]
		switch tok.kind {
		case tokResult:
			if len(stack) > 1 {
				return fmt.Errorf("%w: line %d: the result %s inside a variation", ErrBadPGN, tok.line, tok.text)
			}
			g.Result = tok.text
			return nil
		case tokNumber, tokPeriod:
		case tokNAG:
			note(func(n *Note) {
				if n.NAG == 0 {
					n.NAG = tok.nag
				}
			})
		case tokComment:
			note(func(n *Note) {
				text := tok.text
				if m := evalCommand.FindStringSubmatch(text); m != nil && n.Eval == "" {
					n.Eval = m[1]
					text = strings.Replace(text, m[0], "", 1)
				}
				if text = strings.Join(strings.Fields(text), " "); text != "" {
					n.Comment = strings.TrimSpace(n.Comment + " " + text)
				}
			})
		case tokOpenVariation:
			if cur.moves == 0 {
				return fmt.Errorf("%w: line %d: a variation before any move it could replace", ErrBadPGN, tok.line)
			}
			stack = append(stack, &line{pos: cur.before})
		case tokCloseVariation:
			if len(stack) == 1 {
				return fmt.Errorf("%w: line %d: a ')' closes no variation", ErrBadPGN, tok.line)
			}
			stack = stack[:len(stack)-1]
			note(func(n *Note) {
				if len(n.Line) == 0 {
					n.Line = cur.first
				}
			})
		case tokSymbol:
			m, next, err := play(cur.pos, tok.text)
			if err != nil {
				if len(stack) == 1 {
					return fmt.Errorf("%w: line %d: move %d, %s: %w", ErrBadPGN, tok.line, len(g.Moves)+1, rules.Echo(tok.text), err)
				}
				return fmt.Errorf("%w: line %d: %s in a variation after move %d: %w", ErrBadPGN, tok.line, rules.Echo(tok.text), len(g.Moves), err)
			}
			cur.before, cur.pos = cur.pos, next
			cur.moves++
			if len(stack) == 1 {
				g.Moves, g.Position = append(g.Moves, m), next
			} else if len(stack) == 2 {
				cur.first = append(cur.first, m)
			}
		default:
			return fmt.Errorf("%w: line %d: %s is out of place in movetext", ErrBadPGN, tok.line, tok.quoted())
		}
	}
}

// play reads text as a move in pos and plays it.
func play(pos rules.Position, text string) (rules.Move, rules.Position, error) {
	m, err := pos.ParseMove(text)
	if err != nil {
		return rules.NullMove, nil, err
	}
	next, err := pos.Play(m)
	return m, next, err
}

// skipGame skips the rest of a game that could not be read: up to its termination
// marker at the top level, or to the next tag pair, or the end.
func (p *PGNReader) skipGame() {
	depth := 0
	for {
		tok, err := p.lx.next()
		if errors.Is(err, io.EOF) {
			return
		}
		if err != nil {
			continue // a token that cannot be read is skipped with the game
		}
		switch {
		case tok.kind == tokOpenTag && depth == 0:
			p.lx.unread(tok)
			return
		case tok.kind == tokResult && depth == 0:
			return
		case tok.kind == tokOpenVariation:
			depth++
		case tok.kind == tokCloseVariation && depth > 0:
			depth--
		}
	}
}

// tokenKind is the kind of a PGN token (the PGN standard, section 7).
type tokenKind int

const (
	tokNone           tokenKind = iota
	tokOpenTag                  // [
	tokCloseTag                 // ]
	tokString                   // "value", unescaped
	tokSymbol                   // a move, or a tag name
	tokNumber                   // the integer of a move number indication
	tokPeriod                   // .
	tokNAG                      // $2, or a suffix annotation ("?!")
	tokComment                  // {...} or ; to the end of the line
	tokOpenVariation            // (
	tokCloseVariation           // )
	tokResult                   // 1-0, 0-1, 1/2-1/2, *
)

// token is one PGN token and the line it starts on.
type token struct {
	kind tokenKind
	text string
	nag  int
	line int
}

// quoted writes tok for a message.
func (t token) quoted() string {
	switch t.kind {
	case tokString:
		return strconv.Quote(t.text)
	case tokComment:
		return "a comment"
	}
	return rules.Echo(t.text)
}

// singles are the tokens of one character.
var singles = map[byte]tokenKind{'[': tokOpenTag, ']': tokCloseTag, '(': tokOpenVariation, ')': tokCloseVariation, '.': tokPeriod, '*': tokResult}

// suffixNAGs are the suffix annotations of the import format and their NAGs
// (section 8.2.3.8).
var suffixNAGs = map[string]int{"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}

// maxToken bounds a token's length (a comment, a tag value), so that a damaged
// file cannot make the reader hold it all.
const maxToken = 1 << 20

// lexer splits PGN text into tokens.
type lexer struct {
	r       *bufio.Reader
	line    int  // the current line, from 1
	bol     bool // at the beginning of a line, where '%' escapes it
	pending []token
}

// newLexer returns a lexer of r, skipping a UTF-8 byte order mark at its start.
func newLexer(r io.Reader) *lexer {
	br := bufio.NewReader(r)
	if bom, err := br.Peek(3); err == nil && string(bom) == "\ufeff" {
		br.Discard(3)
	}
	return &lexer{r: br, line: 1, bol: true}
}

// unread gives tok back, to be read next; the zero token (end of text) is not kept.
func (l *lexer) unread(tok token) {
	if tok.kind != tokNone {
		l.pending = append(l.pending, tok)
	}
}

// errAt is a lexical error on line.
func errAt(line int, format string, args ...any) error {
	return fmt.Errorf("%w: line %d: %s", ErrBadPGN, line, fmt.Sprintf(format, args...))
}

// next returns the next token; io.EOF at the end of the text. After an error the
// text that caused it has been consumed.
func (l *lexer) next() (token, error) {
	if n := len(l.pending); n > 0 {
		tok := l.pending[n-1]
		l.pending = l.pending[:n-1]
		return tok, nil
	}
	for {
		c, err := l.r.ReadByte()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return token{}, io.EOF
			}
			return token{}, fmt.Errorf("record: reading PGN: %w", err)
		}
		if c == '%' && l.bol {
			l.skipLine()
			continue
		}
		if c == '\n' {
			l.line++
			l.bol = true
			continue
		}
		l.bol = false
		line := l.line
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f':
		case singles[c] != tokNone:
			return token{kind: singles[c], text: string(c), line: line}, nil
		case c == '{':
			text, ok := l.until('}')
			if !ok {
				return token{}, errAt(line, "a comment opened with { is not closed")
			}
			return token{kind: tokComment, text: text, line: line}, nil
		case c == ';':
			text, _ := l.until('\n')
			l.line++
			l.bol = true
			return token{kind: tokComment, text: text, line: line}, nil
		case c == '"':
			return l.str(line)
		case c == '$':
			digits := l.while(isDigit)
			n, err := strconv.Atoi(digits)
			if err != nil || n > 255 {
				return token{}, errAt(line, "$%s is not a NAG (a number from 0 to 255 after $)", digits)
			}
			return token{kind: tokNAG, text: "$" + digits, nag: n, line: line}, nil
		case c == '!' || c == '?':
			return l.suffix(string(c), line)
		case isSymbolStart(c):
			text := string(c) + l.while(isSymbolChar)
			if len(text) > maxToken {
				return token{}, errAt(line, "a move of %d characters", len(text))
			}
			if ann := l.while(func(c byte) bool { return c == '!' || c == '?' }); ann != "" {
				nag, err := l.suffix(ann, line)
				if err != nil {
					return token{}, err
				}
				l.unread(nag)
			}
			switch {
			case text == "1-0" || text == "0-1" || text == "1/2-1/2":
				return token{kind: tokResult, text: text, line: line}, nil
			case strings.Trim(text, "0123456789") == "":
				return token{kind: tokNumber, text: text, line: line}, nil
			}
			return token{kind: tokSymbol, text: text, line: line}, nil
		default:
			return token{}, errAt(line, "the character %q means nothing in PGN here", c)
		}
	}
}

// suffix reads a suffix annotation as its NAG.
func (l *lexer) suffix(text string, line int) (token, error) {
	if rest := l.while(func(c byte) bool { return c == '!' || c == '?' }); rest != "" {
		text += rest
	}
	nag, ok := suffixNAGs[text]
	if !ok {
		return token{}, errAt(line, "%s is not an annotation (!, ?, !!, ??, !? or ?!)", rules.Echo(text))
	}
	return token{kind: tokNAG, text: text, nag: nag, line: line}, nil
}

// str reads a string token after its opening quote: \" and \\ are escapes; it ends
// on its line.
func (l *lexer) str(line int) (token, error) {
	var b strings.Builder
	for {
		c, err := l.r.ReadByte()
		switch {
		case err != nil || c == '\n':
			if err == nil {
				l.line++
				l.bol = true
			}
			return token{}, errAt(line, "a tag value is not closed with \" on its line")
		case c == '"':
			return token{kind: tokString, text: b.String(), line: line}, nil
		case c == '\\':
			if n, err := l.r.ReadByte(); err == nil && (n == '"' || n == '\\') {
				c = n
			} else if err == nil {
				l.r.UnreadByte()
			}
		}
		if b.Len() >= maxToken {
			return token{}, errAt(line, "a tag value longer than %d characters", maxToken)
		}
		b.WriteByte(c)
	}
}

// until reads up to and without end, consuming it; false when the text ends first.
func (l *lexer) until(end byte) (string, bool) {
	var b strings.Builder
	for {
		c, err := l.r.ReadByte()
		if err != nil {
			return b.String(), false
		}
		if c == end {
			return b.String(), true // a '\n' ending it is counted by the caller
		}
		if c == '\n' {
			l.line++
		}
		if b.Len() < maxToken {
			b.WriteByte(c)
		}
	}
}

// skipLine skips the rest of an escaped line.
func (l *lexer) skipLine() {
	l.until('\n')
	l.line++
	l.bol = true
}

// while reads the bytes that keep ok.
func (l *lexer) while(ok func(byte) bool) string {
	var b strings.Builder
	for {
		c, err := l.r.ReadByte()
		if err != nil {
			return b.String()
		}
		if !ok(c) {
			l.r.UnreadByte()
			return b.String()
		}
		if b.Len() <= maxToken {
			b.WriteByte(c)
		}
	}
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// isSymbolStart reports whether c starts a symbol: a letter or a digit.
func isSymbolStart(c byte) bool { return isDigit(c) || c|0x20 >= 'a' && c|0x20 <= 'z' }

// isSymbolChar reports whether c continues a symbol: the standard's letters, digits
// and "_+#=:-", with '/' for the result "1/2-1/2" and '@' for drop notation.
func isSymbolChar(c byte) bool { return isSymbolStart(c) || strings.IndexByte("_+#=:-/@", c) >= 0 }
