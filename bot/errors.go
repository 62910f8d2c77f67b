package bot

import (
	"errors"
	"fmt"
	"github.com/missivechess/missive/bot/i18n"
	"strings"

	"github.com/missivechess/missive/bot/words"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/storage"
)

// Sentinel errors that classify refusals for callers of the typed operations; the
// Refusal's text says what was wrong and how to do it right.
var (
	// ErrRefused: the request was understood but is not allowed or not possible now.
	ErrRefused = errors.New("refused")
	// ErrNotPlayer: the user does not play in the game.
	ErrNotPlayer = errors.New("not a player of this game")
	// ErrExpired: the challenge has expired.
	ErrExpired = errors.New("challenge expired")
	// ErrLimit: a per-player limit (active games, open challenges) is reached.
	ErrLimit = errors.New("limit reached")
	// ErrEngineResigned: an engine player resigned its game instead of moving.
	ErrEngineResigned = errors.New("bot: the engine resigned")
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

// Refuse returns a refusal of kind with a message for the user.
func Refuse(kind error, format string, args ...any) error {
	return &userError{msg: fmt.Sprintf(format, args...), kind: kind}
}

// UserText returns the sentence to show the user for err and true, or false when
// err is an internal failure that the user cannot fix. A refusal carries its
// sentence (a rules.Sentencer: this package's refusals, rules.Error); an error of a
// rules kind that carries none is an internal failure (a caller misused the rules,
// as when a stored game no longer replays), never a sentence recovered from its
// text.
func UserText(err error) (string, bool) {
	var se rules.Sentencer
	if errors.As(err, &se) {
		return se.Sentence(), true
	}
	if errors.Is(err, storage.ErrConflict) {
		return catalogue.For(i18n.English).T("refusal.conflict", nil), true
	}
	return "", false
}

// Reword returns err's refusal with prefix (format with args) before its
// sentence, such as "First engine: ", or err itself when it is an internal failure.
func Reword(err error, format string, args ...any) error {
	msg, ok := UserText(err)
	if !ok {
		return err
	}
	return Refuse(ErrRefused, format+"%s", append(args, msg)...)
}

// FailureText describes an engine's failure to move for the match's report: the
// Refusal's sentence, else the error's own text (for the admins who run the
// match), as a sentence.
func FailureText(err error) string {
	if msg, ok := UserText(err); ok {
		return msg
	}
	msg := strings.TrimSpace(err.Error())
	return words.Capitalize(msg) + words.Period(msg)
}
