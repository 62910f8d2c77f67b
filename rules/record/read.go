package record

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/missivechess/missive/rules"
)

// ErrBadPGN is wrapped by ReadPGN's errors about text that is not a game as WritePGN
// writes it.
var ErrBadPGN = errors.New("record: not a game as Missive writes PGN")

// ReadGame is one game read back from PGN: its tags in order, the position its
// movetext starts from (the FEN tag) and the moves replayed from it, and its result.
type ReadGame struct {
	Tags     []Tag
	Start    rules.Position
	Moves    []rules.Move
	Position rules.Position // after Moves
	Result   string
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

// ReadPGN reads the first game of r as WritePGN writes it: the tag pairs, then the
// movetext, whose moves (in any notation the variant reads) are replayed under the
// rules of the Variant tag from the FEN tag's position. Move numbers, comments (the
// Go-Chess placement comment among them) and the result are skipped; a move that does
// not parse or is not legal there is an error naming it.
func ReadPGN(r io.Reader, reg *rules.Registry) (*ReadGame, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 4<<20)
	g := &ReadGame{}
	var movetext []string
	inTags := true
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if inTags {
			if strings.HasPrefix(line, "[") {
				t, err := parseTag(line)
				if err != nil {
					return nil, err
				}
				g.Tags = append(g.Tags, t)
				continue
			}
			if line == "" {
				inTags = len(g.Tags) == 0
				continue
			}
			inTags = false
		}
		if line == "" {
			if len(movetext) > 0 {
				break // the blank line after a game's movetext ends it
			}
			continue
		}
		movetext = append(movetext, line)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("record: reading PGN: %w", err)
	}
	key, _ := g.Tag("Variant")
	v, err := reg.Lookup(key)
	if err != nil {
		return nil, fmt.Errorf("%w: the Variant tag %q names no game Missive plays", ErrBadPGN, key)
	}
	fen, ok := g.Tag("FEN")
	if !ok {
		return nil, fmt.Errorf("%w: no FEN tag", ErrBadPGN)
	}
	if g.Start, err = v.ParsePosition(fen); err != nil {
		return nil, fmt.Errorf("%w: the FEN tag: %w", ErrBadPGN, err)
	}
	g.Position = g.Start
	for _, tok := range movetextTokens(strings.Join(movetext, " ")) {
		switch tok {
		case "1-0", "0-1", "1/2-1/2", "*":
			g.Result = tok
			continue
		}
		m, err := g.Position.ParseMove(tok)
		if err == nil {
			var next rules.Position
			if next, err = g.Position.Play(m); err == nil {
				g.Moves, g.Position = append(g.Moves, m), next
				continue
			}
		}
		return nil, fmt.Errorf("%w: move %d, %q: %w", ErrBadPGN, len(g.Moves)+1, tok, err)
	}
	return g, nil
}

// parseTag reads a tag pair line: [Name "value"], the value with \" and \\ escapes.
func parseTag(line string) (Tag, error) {
	name, rest, ok := strings.Cut(strings.TrimSuffix(strings.TrimPrefix(line, "["), "]"), " ")
	rest = strings.TrimSpace(rest)
	if !ok || !strings.HasSuffix(line, "]") || len(rest) < 2 || rest[0] != '"' || rest[len(rest)-1] != '"' {
		return Tag{}, fmt.Errorf("%w: %q is not a tag pair", ErrBadPGN, line)
	}
	var b strings.Builder
	body := rest[1 : len(rest)-1]
	for i := 0; i < len(body); i++ {
		if body[i] == '\\' && i+1 < len(body) {
			i++
		}
		b.WriteByte(body[i])
	}
	return Tag{Name: name, Value: b.String()}, nil
}

// movetextTokens splits movetext into moves and the result, leaving out comments
// ({...} and ; to the end of a line is not written by WritePGN, so not read) and
// move numbers ("12.", "12...", or glued to the move: "12.e4").
func movetextTokens(text string) []string {
	var out []string
	depth := 0
	for _, f := range strings.Fields(strings.NewReplacer("{", " { ", "}", " } ").Replace(text)) {
		switch {
		case f == "{":
			depth++
			continue
		case f == "}":
			depth = max(depth-1, 0)
			continue
		case depth > 0:
			continue
		}
		if i := strings.IndexFunc(f, func(r rune) bool { return r != '.' && (r < '0' || r > '9') }); i > 0 && strings.Contains(f[:i], ".") {
			f = f[i:] // a move number glued to its move
		} else if i < 0 && strings.HasSuffix(f, ".") {
			continue // a move number alone
		}
		out = append(out, f)
	}
	return out
}
