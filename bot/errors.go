package bot

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/storage"
)

// Sentinel errors that classify refusals for callers of the typed operations; the
// refusal's text says what was wrong and how to do it right.
var (
	// ErrRefused: the request was understood but is not allowed or not possible now.
	ErrRefused = errors.New("refused")
	// ErrNotPlayer: the user does not play in the game.
	ErrNotPlayer = errors.New("not a player of this game")
	// ErrExpired: the challenge has expired.
	ErrExpired = errors.New("challenge expired")
	// ErrLimit: a per-player limit (active games, open challenges) is reached.
	ErrLimit = errors.New("limit reached")
)

// userError is a refusal whose message is meant for the user.
type userError struct {
	msg  string
	kind error // a sentinel of this package or of rules
}

func (e *userError) Error() string { return "bot: " + e.msg }

func (e *userError) Unwrap() error { return e.kind }

// refuse returns a refusal of kind with a message for the user.
func refuse(kind error, format string, args ...any) error {
	return &userError{msg: fmt.Sprintf(format, args...), kind: kind}
}

// userText returns the sentence to show the user for err and true, or false when
// err is an internal failure that the user cannot fix.
func userText(err error) (string, bool) {
	var ue *userError
	if errors.As(err, &ue) {
		return ue.msg, true
	}
	var s rules.Sentencer
	if errors.As(err, &s) {
		return s.Sentence(), true
	}
	for _, s := range []error{rules.ErrIllegalMove, rules.ErrAmbiguousMove, rules.ErrBadNotation,
		rules.ErrBadPosition, rules.ErrGameOver, rules.ErrNotYourTurn, rules.ErrUnknownVariant} {
		if errors.Is(err, s) {
			return sentence(err, s), true
		}
	}
	if errors.Is(err, storage.ErrConflict) {
		return "The game changed while your command was running; look at the board and try again.", true
	}
	return "", false
}

// sentence turns a rules error into a sentence for people: the package prefixes
// ("chess: ") and the trailing sentinel text are removed and it is capitalised.
func sentence(err, sentinel error) string {
	msg := err.Error()
	msg = strings.TrimSuffix(msg, ": "+sentinel.Error())
	for {
		i := strings.Index(msg, ": ")
		if i <= 0 || i > 12 || strings.ContainsFunc(msg[:i], func(r rune) bool { return !unicode.IsLower(r) }) {
			break
		}
		msg = msg[i+2:]
	}
	return capitalize(strings.TrimSpace(msg)) + period(msg)
}

// capitalize upper-cases the first letter of s.
func capitalize(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}

// period returns "." unless s already ends a sentence.
func period(s string) string {
	if strings.HasSuffix(s, ".") || strings.HasSuffix(s, "!") || strings.HasSuffix(s, "?") || strings.HasSuffix(s, ")") {
		return ""
	}
	return "."
}
