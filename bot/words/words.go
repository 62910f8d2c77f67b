package words

import (
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/storage"
)

// Seat is a player's display name: the name when there is one, else the id.
func Seat(s storage.Seat) string {
	if s.Name != "" {
		return s.Name
	}
	return s.ID
}

// Time writes a time for people, in UTC: "Mon 2 Jan 15:04 UTC".
func Time(t time.Time) string { return English.Time(t) }

// Plural writes "1 day", "3 days".
func Plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// Clip shortens s to n runes, the last of them an ellipsis.
func Clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// Capitalize upper-cases the first letter of s.
func Capitalize(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}

// Period returns "." unless s already ends a sentence.
func Period(s string) string {
	if strings.HasSuffix(s, ".") || strings.HasSuffix(s, "!") || strings.HasSuffix(s, "?") || strings.HasSuffix(s, ")") {
		return ""
	}
	return "."
}

// ShownID writes an id a player typed (a game, challenge or tournament number) for
// a refusal: as typed when short and made of letters, digits, '-' and '_' only,
// else quoted, shortened and its control characters escaped by rules.Echo.
func ShownID(id string) string {
	plain := id != "" && !strings.ContainsFunc(id, func(r rune) bool {
		return r > unicode.MaxASCII || !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_')
	})
	if plain && utf8.RuneCountInString(id) <= rules.EchoLimit {
		return id
	}
	return rules.Echo(id)
}

// Outcome says how a game between players ended: "alice (white) wins by
// checkmate", "drawn by agreement", "aborted, no result".
func Outcome(players [2]storage.Seat, o rules.Outcome) string {
	if o.Reason == rules.Aborted {
		return "aborted, no result"
	}
	switch o.Status {
	case rules.Won:
		return fmt.Sprintf("%s (%s) wins %s", Seat(players[o.Winner&1]), o.Winner, Reason(o.Reason))
	case rules.Drawn:
		return "drawn " + Reason(o.Reason)
	}
	return "in progress"
}

// Reason says why a game ended, as a phrase after "wins" or "drawn".
func Reason(r rules.Reason) string {
	switch r {
	case rules.Checkmate:
		return "by checkmate"
	case rules.Stalemate:
		return "by stalemate"
	case rules.Threefold:
		return "by threefold repetition"
	case rules.FiftyMove:
		return "by the fifty-move rule"
	case rules.InsufficientMaterial:
		return "by insufficient material"
	case rules.RingLoss:
		return "by destroying the last ring"
	case rules.Agreement:
		return "by agreement"
	case rules.Resignation:
		return "by resignation"
	case rules.Timeout:
		return "on time"
	case rules.TimeoutDraw:
		return "on time, as the other side could not possibly win"
	case rules.Aborted:
		return "(aborted)"
	case rules.Adjudication:
		return "by adjudication at the match's ply cap"
	}
	return "(" + string(r) + ")"
}

// Move writes m for people: SAN, or drop notation for a placement choice.
func Move(pos rules.Position, m rules.Move) string {
	if m.IsDrop() {
		return string(m.Drop.Letter()) + "@" + pos.Variant().Dims().Name(m.To)
	}
	return pos.SAN(m)
}
