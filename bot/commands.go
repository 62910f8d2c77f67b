package bot

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
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
}

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

// Command names; the Discord adapter and the console use these.
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
)

// Commands returns the specs of every command the service handles, in the order
// they are best listed. Variant choices come from the registry, themes from the
// renderer.
func (s *Service) Commands() []CommandSpec {
	variantChoices := make([]OptionChoice, 0, len(s.reg.Keys()))
	for _, v := range s.reg.Variants() {
		variantChoices = append(variantChoices, OptionChoice{Name: v.Name(), Value: v.Key()})
	}
	days := make([]OptionChoice, len(DaysChoices))
	for i, d := range DaysChoices {
		days[i] = OptionChoice{Name: plural(d, "day") + " per move", Value: strconv.Itoa(d)}
	}
	var themes []OptionChoice
	for _, t := range s.render.Themes() {
		themes = append(themes, OptionChoice{Name: t, Value: t})
	}
	game := OptionSpec{Name: "game", Description: "The game (needed only when you play several and are not in its thread)", Type: OptString, Autocomplete: true}
	challenge := OptionSpec{Name: "challenge", Description: "The challenge's number (needed only when there are several)", Type: OptString, Autocomplete: true}
	return []CommandSpec{
		{Name: CmdChallenge, Description: "Challenge a player, anyone, or the engine to a correspondence game", Options: []OptionSpec{
			{Name: "variant", Description: "The game to play", Type: OptString, Required: true, Choices: variantChoices},
			{Name: "opponent", Description: "Whom to challenge (leave out to challenge anyone here)", Type: OptUser},
			{Name: "engine", Description: "Play the engine instead: builtin, or a configured engine's name", Type: OptString, Autocomplete: true},
			{Name: "level", Description: "The engine's strength, 1 (weakest) to 8", Type: OptInteger},
			{Name: "color", Description: "Your colour", Type: OptString, Choices: []OptionChoice{{"White", "white"}, {"Black", "black"}, {"Random", "random"}}},
			{Name: "days", Description: "Days per move (default 3)", Type: OptInteger, Choices: days},
			{Name: "rated", Description: "Rated game (default: casual)", Type: OptBoolean},
			{Name: "fen", Description: "Start from this position (FEN, or Gess position text); such games are casual", Type: OptString},
		}},
		{Name: CmdAccept, Description: "Accept a challenge", Options: []OptionSpec{challenge}, Button: true},
		{Name: CmdDecline, Description: "Decline a challenge made to you", Options: []OptionSpec{challenge}, Button: true},
		{Name: CmdCancel, Description: "Withdraw a challenge you made", Options: []OptionSpec{challenge}, Button: true},
		{Name: CmdChallenges, Description: "List the open challenges here and those made to you"},
		{Name: CmdMove, Description: "Play a move (SAN such as Nf3, or coordinates such as g1f3)", Options: []OptionSpec{
			{Name: "move", Description: "The move", Type: OptString, Required: true, Autocomplete: true}, game}},
		{Name: CmdPlace, Description: "Go-Chess placement: choose the cell for this round's piece (secret until both chose)", Options: []OptionSpec{
			{Name: "cell", Description: "The cell, such as d4", Type: OptString, Required: true, Autocomplete: true}, game}},
		{Name: CmdBoard, Description: "Show a game's board", Options: []OptionSpec{game}},
		{Name: CmdGames, Description: "Your games, those waiting for your move first, with the time left"},
		{Name: CmdHistory, Description: "A game's moves, numbered", Options: []OptionSpec{game}},
		{Name: CmdResign, Description: "Resign a game", Options: []OptionSpec{game}},
		{Name: CmdDraw, Description: "Offer a draw, or accept or decline your opponent's offer", Options: []OptionSpec{
			{Name: "action", Description: "What to do (default: offer, or accept when your opponent offered)", Type: OptString,
				Choices: []OptionChoice{{"Offer", "offer"}, {"Accept", "accept"}, {"Decline", "decline"}}}, game}},
		{Name: CmdTakeback, Description: "Casual games: ask to take back your last move, or answer such a request", Options: []OptionSpec{
			{Name: "action", Description: "What to do (default: request, or accept when your opponent asked)", Type: OptString,
				Choices: []OptionChoice{{"Request", "request"}, {"Accept", "accept"}, {"Decline", "decline"}}}, game}},
		{Name: CmdAbort, Description: "Call off a game before both sides have moved (no result)", Options: []OptionSpec{game}},
		{Name: CmdPGN, Description: "Export a game as PGN", Options: []OptionSpec{game}},
		{Name: CmdGIF, Description: "An animation of a game, one frame per move", Options: []OptionSpec{game}},
		{Name: CmdHint, Description: "The engine's suggestion for your move (private; not in rated games)", Options: []OptionSpec{game}},
		{Name: CmdRules, Description: "The rules of a game, with Missive's house rules", Options: []OptionSpec{
			{Name: "variant", Description: "The game", Type: OptString, Required: true, Choices: variantChoices}}},
		{Name: CmdSettings, Description: "Your notification style, board theme and reminders (shown when given no options)", Options: []OptionSpec{
			{Name: "notify", Description: "How to tell you about your games", Type: OptString,
				Choices: []OptionChoice{{"Mention in the game's thread", "mention"}, {"Direct message", "dm"}, {"Both", "both"}}},
			{Name: "theme", Description: "Board colours", Type: OptString, Choices: themes},
			{Name: "reminders", Description: "Hours before a deadline to remind you, such as 24,2 (or none)", Type: OptString},
		}},
		{Name: CmdLeaderboard, Description: "The best rated players of a game on this server", Options: []OptionSpec{
			{Name: "variant", Description: "The game", Type: OptString, Required: true, Choices: variantChoices},
			{Name: "top", Description: "How many players to list (default 20, at most 50)", Type: OptInteger}}},
		{Name: CmdProfile, Description: "A player's ratings, games, wins, draws and losses per game", Options: []OptionSpec{
			{Name: "player", Description: "Whose card (default: yours)", Type: OptUser}}},
		tournamentSpec(variantChoices, days),
		matchSpec(variantChoices),
	}
}

// Spec returns the spec of command name, and false when there is none.
func (s *Service) Spec(name string) (CommandSpec, bool) {
	cmds := s.Commands()
	i := slices.IndexFunc(cmds, func(c CommandSpec) bool { return c.Name == name })
	if i < 0 {
		return CommandSpec{}, false
	}
	return cmds[i], true
}
