package rules

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Error is a refusal from the rules: the sentence a player reads, carried as data,
// the sentinel that classifies it, and an optional cause for logs.
//
// Callers test the kind with errors.Is (ErrIllegalMove, ErrBadNotation, ...) and show
// Text as it is; nothing is recovered by trimming the string of Error.
//
// Key and Args carry the same sentence for players of other languages: Key names
// it in the rules' message catalogue (LocaleFiles: locales/active.<lang>.yaml, one
// sentence a key, placeholders {{.Name}}), Args are its placeholders' values.
// Values are notation, numbers and names, which every language writes alike; an
// arg whose name ends in "Piece" holds a piece kind's stable name ("knight"), one
// ending in "Side" a side's ("white") and one ending in "Variant" a variant's key,
// which the reader's language words itself. An arg named <Form>Piece (such as
// NonePiece, "no knight") holds a kind's stable name too, worded by the catalogue's
// piece.<form>.<kind> (lower case), the kind's name as that sentence of the
// language needs it (its case, its article); likewise <Form>Side (OfSide) a
// side's, worded by side.<form>.<side>. An arg ending in "List" holds items
// (notation) separated by new lines, listed with commas; when the list was cut
// short its last item is "+N" (ListArg), worded "and N more". One ending in "Or"
// or "And" holds items separated by new lines, listed with the language's "or" or
// "and". One ending in "Pieces" holds kinds' stable names separated by new lines,
// listed with their letters: "K (king), Q (queen)". One ending in "Outcome" holds OutcomeArg's text, worded by the
// catalogue's outcome.<status>.<reason>. An arg named Count makes the sentence a
// plural message, chosen by that number. An Error without a Key is shown as Text
// in every language.
type Error struct {
	Kind  error  // one of this package's sentinels
	Text  string // the sentence for a player, in English: starts with a capital, ends a sentence
	Cause error  // what went wrong underneath, for logs; may be nil
	Key   string // the sentence's key in the rules' catalogue; "" when it has none
	Args  Args   // the values of the sentence's placeholders, by name
}

// Args are the values of a refusal's placeholders, by name (see Error).
type Args map[string]string

// Error returns the package-prefixed text for logs: "rules: <kind>: <sentence>".
func (e *Error) Error() string {
	s := "rules: " + e.Kind.Error() + ": " + e.Text
	if e.Cause != nil {
		s += " (" + e.Cause.Error() + ")"
	}
	return s
}

// Unwrap returns the kind and the cause, so that errors.Is sees both.
func (e *Error) Unwrap() []error {
	if e.Cause == nil {
		return []error{e.Kind}
	}
	return []error{e.Kind, e.Cause}
}

// Sentence returns the sentence a player reads.
func (e *Error) Sentence() string { return e.Text }

// Refuse returns an *Error of kind whose sentence is format with args.
func Refuse(kind error, format string, args ...any) error {
	return &Error{Kind: kind, Text: fmt.Sprintf(format, args...)}
}

// RefuseAs is Refuse for a sentence of the rules' catalogue: key and args name it
// for every language (see Error), format and a write it in English.
func RefuseAs(kind error, key string, args Args, format string, a ...any) error {
	return &Error{Kind: kind, Text: fmt.Sprintf(format, a...), Key: key, Args: args}
}

// Sentencer is implemented by errors that carry a sentence for a player.
type Sentencer interface {
	error
	Sentence() string
}

// SentenceOf returns the sentence err carries (see Sentencer), or its text when
// it carries none: for tools that report any error in words, not for players.
func SentenceOf(err error) string {
	var s Sentencer
	if errors.As(err, &s) {
		return s.Sentence()
	}
	return err.Error()
}

// EchoLimit is how many characters of a player's input Echo repeats back.
const EchoLimit = 32

// Echo quotes a player's input for a refusal, shortened to EchoLimit characters with
// "…" so that a long paste is never repeated back in full.
func Echo(text string) string {
	if utf8.RuneCountInString(text) > EchoLimit {
		r := []rune(text)
		text = string(r[:EchoLimit]) + "…"
	}
	return strconv.Quote(text)
}

// ListArg returns the value of a list arg (see Error): items separated by new
// lines, then "+more" when more items were left out.
func ListArg(items []string, more int) string {
	s := strings.Join(items, "\n")
	if more > 0 {
		s += "\n+" + strconv.Itoa(more)
	}
	return s
}

// OutcomeArg returns the value of an outcome arg (see Error): "won.white.checkmate",
// "drawn.threefold".
func OutcomeArg(o Outcome) string {
	if o.Status == Won {
		return string(o.Status) + "." + o.Winner.String() + "." + string(o.Reason)
	}
	return string(o.Status) + "." + string(o.Reason)
}

// GameOver refuses a move in a decided game: "The game is over (white wins by
// checkmate), so no move can be played."
func GameOver(o Outcome) *Error {
	return &Error{Kind: ErrGameOver, Text: fmt.Sprintf("The game is over (%s), so no move can be played.", o),
		Key: "game.over", Args: Args{"Outcome": OutcomeArg(o)}}
}
