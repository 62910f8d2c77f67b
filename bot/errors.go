package bot

import (
	"errors"
	"fmt"
	"strings"

	"github.com/missivechess/missive/bot/i18n"
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
	// say words the refusal in a reader's language (nil: msg in every language);
	// msg is its English.
	say func(l i18n.Lang) string
}

func (e *userError) Error() string { return "bot: " + e.msg }

func (e *userError) Unwrap() error { return e.kind }

// Sentence returns the sentence the user reads.
func (e *userError) Sentence() string { return e.msg }

// In returns the refusal's sentence in language l.
func (e *userError) In(l i18n.Lang) string {
	if e.say != nil {
		return e.say(l)
	}
	return e.msg
}

// Refuse returns a refusal of kind with a message for the user.
func Refuse(kind error, format string, args ...any) error {
	return &userError{msg: fmt.Sprintf(format, args...), kind: kind}
}

// RefuseIn returns a refusal of kind that say words in the language of whoever
// reads it: Service.Fail answers with say(the asker's language), and its English
// (say(i18n.English)) is its Sentence, as UserText gives it.
func RefuseIn(kind error, say func(l i18n.Lang) string) error {
	return &userError{msg: say(i18n.English), kind: kind, say: say}
}

// refusal is a refusal of kind worded by the kernel's catalogue message id, its
// placeholders data in the words of the reader's language (nil for none).
func refusal(kind error, id string, data func(w words.W) i18n.Data) error {
	return RefuseIn(kind, func(l i18n.Lang) string {
		var d i18n.Data
		if data != nil {
			d = data(words.In(l))
		}
		return catalogue.For(l).T(id, d)
	})
}

// refusalIn is UserText in language l for the refusals made with RefuseIn: their
// sentence in l; every other error as UserText gives it. UserTextIn ends with it,
// so that it words the kernel's refusals and a feature's RefuseIn too.
func refusalIn(l i18n.Lang, err error) (string, bool) {
	var se rules.Sentencer
	if errors.As(err, &se) { // the first sentence of the chain: the kernel's words it in l
		if in, ok := se.(interface{ In(i18n.Lang) string }); ok {
			return in.In(l), true
		}
	}
	return UserText(err)
}

// SentenceIn is UserTextIn that also words the refusals made with RefuseIn (the
// kernel's own, and a feature's) in language l: the sentence to show a reader of
// l for err and true, or false for an internal failure.
func SentenceIn(l i18n.Lang, err error) (string, bool) {
	var ue *userError
	if errors.As(err, &ue) && ue.say != nil {
		var re *rules.Error
		if !errors.As(err, &re) {
			return refusalIn(l, err)
		}
	}
	return UserTextIn(l, err)
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

// RewordIn returns err's refusal said again within a sentence of the reader's
// language: say(l, reason) with reason err's sentence in l ("Erste Engine: …"), or
// err itself when it is an internal failure.
func RewordIn(err error, say func(l i18n.Lang, reason string) string) error {
	if _, ok := UserText(err); !ok {
		return err
	}
	return RefuseIn(ErrRefused, func(l i18n.Lang) string {
		m, _ := SentenceIn(l, err)
		return say(l, m)
	})
}

// FailureTextIn describes an engine's failure to move for a match's report in
// language l: a refusal's sentence in l, else the error's own text (for the
// admins who run the match, in English).
func FailureTextIn(l i18n.Lang, err error) string {
	if msg, ok := SentenceIn(l, err); ok {
		return msg
	}
	msg := strings.TrimSpace(err.Error())
	return words.Capitalize(msg) + words.Period(msg)
}
