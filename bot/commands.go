package bot

import (
	"context"
	"fmt"
	"strings"

	"github.com/missivechess/missive/storage"
)

// Args are a request's options by name, as text (a Discord option's value, the
// console's name:value pairs). User options hold the user's id.
type Args map[string]string

// Get returns the trimmed value of option name ("" when absent).
func (a Args) Get(name string) string { return strings.TrimSpace(a[name]) }

// Has reports whether option name was given with a non-empty value.
func (a Args) Has(name string) bool { return a.Get(name) != "" }

// with returns a copy of a with name set to value.
func (a Args) with(name, value string) Args {
	out := make(Args, len(a)+1)
	for k, v := range a {
		out[k] = v
	}
	out[name] = value
	return out
}

// OptionType is the type of a command option, as the adapters present it.
type OptionType string

// The option types.
const (
	OptString  OptionType = "string"
	OptInteger OptionType = "integer"
	OptBoolean OptionType = "boolean"
	OptUser    OptionType = "user"
)

// OptionChoice is one allowed value of an option with a fixed set.
type OptionChoice struct {
	Name  string
	Value string
}

// OptionSpec describes one option of a command.
type OptionSpec struct {
	Name        string
	Description string
	Type        OptionType
	Required    bool
	// Choices, when not empty, is the fixed set of allowed values.
	Choices []OptionChoice
	// Autocomplete says that Service.Complete suggests values as the user types.
	Autocomplete bool
}

// CommandSpec describes one command: the Discord adapter registers it as a slash
// command, the console prints it in /help and reads its options.
type CommandSpec struct {
	Name        string
	Description string
	Options     []OptionSpec
	// Admin marks a command only members who may manage the server should see (the
	// Discord adapter sets default member permissions); the service checks again.
	Admin bool
	// AdminActions lists the values of the command's "action" option that only such
	// members may use (Discord sets permissions per command, so a command that members
	// also use is not marked Admin; the adapter may hide or label these choices).
	AdminActions []string
	// Button marks a command that users normally reach through a reply's buttons;
	// the console accepts it as a command, the Discord adapter need not register it.
	Button bool
	// Private says that the command's answer is normally for the user alone (an
	// adapter that must acknowledge a slow command early acknowledges it privately).
	Private bool
}

// Command is one command of the service, declared by the feature it belongs to: its
// spec, its handler and the completers of its autocompleted options.
type Command struct {
	Spec CommandSpec
	// Handle runs the command. It may panic: Service.Handle recovers.
	Handle func(ctx context.Context, req Request) Reply
	// Complete holds the completers of the spec's Autocomplete options, by option
	// name. An option name means the same in every command that has it.
	Complete map[string]Completer
}

// Completer suggests values for one option as the user types: it calls add with
// each suggestion, best first, until add returns false (enough suggestions). Add
// keeps only the suggestions that fit what the user has typed.
type Completer func(tx *storage.Tx, req Request, add func(label, value string) bool)

// Option returns the spec of option name, and false when the command has none.
func (c CommandSpec) Option(name string) (OptionSpec, bool) {
	for _, o := range c.Options {
		if o.Name == name {
			return o, true
		}
	}
	return OptionSpec{}, false
}

// Usage returns a one-line synopsis such as "/move move:<text> [game:<text>]".
func (c CommandSpec) Usage() string {
	var b strings.Builder
	b.WriteString("/" + c.Name)
	for _, o := range c.Options {
		val := "<" + string(o.Type) + ">"
		if len(o.Choices) > 0 {
			vals := make([]string, len(o.Choices))
			for i, ch := range o.Choices {
				vals[i] = ch.Value
			}
			val = strings.Join(vals, "|")
		}
		if o.Required {
			fmt.Fprintf(&b, " %s:%s", o.Name, val)
		} else {
			fmt.Fprintf(&b, " [%s:%s]", o.Name, val)
		}
	}
	return b.String()
}

// DaysChoices are the days per move a correspondence clock may have, as on the
// large correspondence servers.
var DaysChoices = []int{1, 2, 3, 5, 7, 10, 14}

// DefaultDays is the clock of a challenge that names none.
const DefaultDays = 3

// Command names, for adapters, tests and the buttons of replies; the command
// itself is declared by its feature (see features.go).
const (
	CmdChallenge   = "challenge"
	CmdAccept      = "accept"
	CmdDecline     = "decline"
	CmdCancel      = "cancel"
	CmdChallenges  = "challenges"
	CmdMove        = "move"
	CmdPlace       = "place"
	CmdBoard       = "board"
	CmdGames       = "games"
	CmdHistory     = "history"
	CmdResign      = "resign"
	CmdDraw        = "draw"
	CmdTakeback    = "takeback"
	CmdAbort       = "abort"
	CmdPGN         = "pgn"
	CmdGIF         = "gif"
	CmdHint        = "hint"
	CmdRules       = "rules"
	CmdSettings    = "settings"
	CmdLeaderboard = "leaderboard"
	CmdProfile     = "profile"
	CmdTournament  = "tournament"
	CmdMatch       = "match"
)
