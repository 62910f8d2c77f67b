package engine

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/missivechess/missive/rules"
)

// LevelError is a strength level that is not a whole number from 1 to MaxLevel; it
// carries the text given, and its sentence for a player.
type LevelError struct {
	Text string // the level as given
}

// Error returns the text for logs.
func (e *LevelError) Error() string {
	return fmt.Sprintf("engine: level %s is not from 1 to %d", rules.Echo(e.Text), MaxLevel)
}

// Sentence returns the sentence a player reads, the same wherever a level is given.
func (e *LevelError) Sentence() string {
	return fmt.Sprintf("The engine's level must be a number from 1 to %d, not %s.", MaxLevel, rules.Echo(e.Text))
}

// Refusal returns the sentence as a refusal of the rules' catalogue (key
// engine.level, rules.Error), so that a player reads it in their language
// (bot.RulesSentence); its Text is Sentence.
func (e *LevelError) Refusal() *rules.Error {
	return &rules.Error{Kind: rules.ErrBadNotation, Text: e.Sentence(), Cause: e,
		Key: "engine.level", Args: rules.Args{"Most": strconv.Itoa(MaxLevel), "Text": rules.Echo(e.Text)}}
}

// ParseLevel reads a strength level given as text: a whole number from 1 to
// MaxLevel, or a *LevelError.
func ParseLevel(text string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(text))
	if err != nil || n < 1 || n > MaxLevel {
		return 0, &LevelError{Text: text}
	}
	return n, nil
}
