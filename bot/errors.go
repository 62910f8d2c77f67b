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

// userError is a refusal whose message is meant for the user. Like a rules.Error,
// it is a rules.Sentencer: one errors.As finds the sentence of either.
type userError struct {
	msg  string
	kind error // a sentinel of this package or of rules
}

func (e *userError) Error() string { return "bot: " + e.msg }

func (e *userError) Unwrap() error { return e.kind }

// Sentence returns the sentence the user reads.
func (e *userError) Sentence() string { return e.msg }

// refuse returns a refusal of kind with a message for the user.
func refuse(kind error, format string, args ...any) error {
	return &userError{msg: fmt.Sprintf(format, args...), kind: kind}
}

// userText returns the sentence to show the user for err and true, or false when
// err is an internal failure that the user cannot fix.
func userText(err error) (string, bool) {
	var se rules.Sentencer
	if errors.As(err, &se) {
		return se.Sentence(), true
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

// sentenceOf is the sentence for people of any error: its own when it carries one
// (a rules.Sentencer), else its text made into one by sentence.
func sentenceOf(err error) string {
	var se rules.Sentencer
	if errors.As(err, &se) {
		return se.Sentence()
	}
	return sentence(err, nil)
}

// sentence turns an error that carries no sentence into a sentence for people: the
// package prefixes ("chess: ") and the trailing text of sentinel (when not nil) are
// removed and it is capitalised. It goes once every rules error carries its
// sentence (rules.Error).
func sentence(err, sentinel error) string {
	msg := err.Error()
	if sentinel != nil {
		msg = strings.TrimSuffix(msg, ": "+sentinel.Error())
	}
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
