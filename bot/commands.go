package bot

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/storage"
)

// Args are a request's options by name, as text (a Discord option's value, the
// console's name:value pairs). User options hold the user's id.
type Args map[string]string

// Get returns the trimmed value of option name ("" when absent).
func (a Args) Get(name string) string { return strings.TrimSpace(a[name]) }

// Has reports whether option name was given with a non-empty value.
func (a Args) Has(name string) bool { return a.Get(name) != "" }

// With returns a copy of a with name set to value.
func (a Args) With(name, value string) Args {
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
	// NameIn holds the choice's name in other languages (Localize fills it).
	NameIn Texts
}

// Texts are one text in other languages than English, by language; a language
// without an entry reads the English.
type Texts map[i18n.Lang]string

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
	// Min and Max bound an integer option when Max > Min (Discord's min_value and
	// max_value); MaxLength bounds a string option's length in characters when
	// positive (Discord's max_length).
	Min, Max  int
	MaxLength int
	// NameIn and DescriptionIn are the option's name and description in other
	// languages (Localize fills them).
	NameIn, DescriptionIn Texts
}

// Bounded reports whether o has a range of allowed integers (Min..Max).
func (o OptionSpec) Bounded() bool { return o.Max > o.Min }

// Context is a kind of place where a command may be used; the values mirror
// Discord's interaction context types and are stable.
type Context string

// The contexts.
const (
	ContextGuild          Context = "guild"           // a server's channel or thread
	ContextBotDM          Context = "bot_dm"          // a direct message with the bot
	ContextPrivateChannel Context = "private_channel" // a DM or group DM between users (user-installed app)
)

// AllContexts are the contexts a command is offered in unless its spec says otherwise.
var AllContexts = []Context{ContextGuild, ContextBotDM, ContextPrivateChannel}

// Integration is a way the app is installed that makes a command available; the
// values mirror Discord's application integration types and are stable.
type Integration string

// The integrations.
const (
	IntegrationGuild Integration = "guild_install" // installed to a server
	IntegrationUser  Integration = "user_install"  // installed by a user, for use anywhere
)

// AllIntegrations are the integrations a command is offered through unless its spec
// says otherwise.
var AllIntegrations = []Integration{IntegrationGuild, IntegrationUser}

// SubcommandArg is the option under which a command with subcommands receives the
// chosen one (as the console's "/tournament create" and "action:create" both give it).
const SubcommandArg = "action"

// CommandSpec describes one command: the Discord adapter registers it as a slash
// CommandOf, the console prints it in /help and reads its options.
type CommandSpec struct {
	Name        string
	Description string
	Options     []OptionSpec
	// Admin marks a command only members who may manage the server should see (the
	// Discord adapter sets default member permissions); the service checks again.
	Admin bool
	// AdminActions lists the subcommands (the values of SubcommandArg) that only
	// such members may use (Discord sets permissions per command, so a command that
	// members also use is not marked Admin; their descriptions say so).
	AdminActions []string
	// Button marks a command that users normally reach through a reply's buttons;
	// the console accepts it as a command, the Discord adapter need not register it.
	Button bool
	// Private says that the command's answer is normally for the user alone (an
	// adapter that must acknowledge a slow command early acknowledges it privately).
	Private bool
	// Contexts are where the command is offered (empty: everywhere); the service
	// refuses it elsewhere. Local play (the console, no place at all) has them all.
	Contexts []Context
	// Integrations are the installs that offer the command (empty: both).
	Integrations []Integration
	// Subcommands, when not empty, are the command's actions, each with its own
	// options (Discord's subcommands); the handler receives the chosen one's name
	// under SubcommandArg and the command's own Options are left empty.
	Subcommands []CommandSpec
	// NameIn and DescriptionIn are the command's name and description in other
	// languages (Localize fills them from its feature's catalogue); Discord shows
	// each user the name in their language, and the handler still receives Name.
	NameIn, DescriptionIn Texts
}

// Localize returns c with the names, descriptions and choices its feature's
// catalogue translates (every language but English, the spec's own text). The
// catalogue's keys for a command "help", its option "command" and that option's
// choice of value "x" are:
//
//	command.help.name, command.help.desc
//	command.help.option.command.name, command.help.option.command.desc
//	command.help.option.command.choice.x
//
// and for a subcommand "create" of "tournament", command.tournament.create.name and
// so on. A key the catalogue lacks leaves the English for every language.
func (c CommandSpec) Localize(cat *i18n.Catalogue) CommandSpec {
	return c.localize(cat, "command."+c.Name)
}

func (c CommandSpec) localize(cat *i18n.Catalogue, key string) CommandSpec {
	c.NameIn, c.DescriptionIn = translations(cat, key+".name"), translations(cat, key+".desc")
	c.Options = slices.Clone(c.Options)
	for i, o := range c.Options {
		ok := key + ".option." + o.Name
		o.NameIn, o.DescriptionIn = translations(cat, ok+".name"), translations(cat, ok+".desc")
		o.Choices = slices.Clone(o.Choices)
		for j, ch := range o.Choices {
			ch.NameIn = translations(cat, ok+".choice."+ch.Value)
			o.Choices[j] = ch
		}
		c.Options[i] = o
	}
	c.Subcommands = slices.Clone(c.Subcommands)
	for i, sc := range c.Subcommands {
		c.Subcommands[i] = sc.localize(cat, key+"."+sc.Name)
	}
	return c
}

// translations returns message id in every language of cat that translates it (nil
// when none does).
func translations(cat *i18n.Catalogue, id string) Texts {
	var out Texts
	for _, l := range i18n.Langs[1:] {
		if s, ok := cat.For(l).Own(id); ok {
			if out == nil {
				out = Texts{}
			}
			out[l] = s
		}
	}
	return out
}

// In returns the text of t in language l, or english when t has none.
func (t Texts) In(l i18n.Lang, english string) string {
	if s, ok := t[l]; ok {
		return s
	}
	return english
}

// Where returns the contexts c is offered in.
func (c CommandSpec) Where() []Context {
	if len(c.Contexts) == 0 {
		return AllContexts
	}
	return c.Contexts
}

// Installs returns the integrations that offer c.
func (c CommandSpec) Installs() []Integration {
	if len(c.Integrations) == 0 {
		return AllIntegrations
	}
	return c.Integrations
}

// OfferedIn reports whether c may be used in context where; local play ("") has
// every command.
func (c CommandSpec) OfferedIn(where Context) bool {
	return where == "" || slices.Contains(c.Where(), where)
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

// Option returns the spec of option name (of any subcommand), and false when the
// CommandOf has none.
func (c CommandSpec) Option(name string) (OptionSpec, bool) {
	for _, o := range c.Options {
		if o.Name == name {
			return o, true
		}
	}
	for _, sc := range c.Subcommands {
		if o, ok := sc.Option(name); ok {
			return o, true
		}
	}
	return OptionSpec{}, false
}

// Subcommand returns the spec of subcommand name, and false when there is none.
func (c CommandSpec) Subcommand(name string) (CommandSpec, bool) {
	for _, sc := range c.Subcommands {
		if strings.EqualFold(sc.Name, name) {
			return sc, true
		}
	}
	return CommandSpec{}, false
}

// AllOptions returns the command's options and those of its subcommands, each name
// once, in order.
func (c CommandSpec) AllOptions() []OptionSpec {
	out := slices.Clone(c.Options)
	for _, sc := range c.Subcommands {
		for _, o := range sc.Options {
			if !slices.ContainsFunc(out, func(p OptionSpec) bool { return p.Name == o.Name }) {
				out = append(out, o)
			}
		}
	}
	return out
}

// Usage returns a one-line synopsis such as "/move move:<string> [game:<string>]"; a
// CommandOf with subcommands gives "/tournament create|join|...".
func (c CommandSpec) Usage() string { return c.UsageIn(i18n.English) }

// UsageIn is Usage in language l: the command, its subcommands and options under
// the names l's clients show, the options' kinds in l's words; choices are their
// values, which are typed as they are.
func (c CommandSpec) UsageIn(l i18n.Lang) string {
	name := "/" + c.NameIn.In(l, c.Name)
	if len(c.Subcommands) > 0 {
		names := make([]string, len(c.Subcommands))
		for i, sc := range c.Subcommands {
			names[i] = sc.NameIn.In(l, sc.Name)
		}
		return name + " " + strings.Join(names, "|")
	}
	return usageLine(l, name, c.Options)
}

// Help returns what /help says of the command: its synopsis, description and
// options, for each subcommand when it has them.
func (c CommandSpec) Help() string { return c.HelpIn(i18n.English) }

// HelpIn is Help in language l, under the names l's clients show (as /help and the
// console's /help NAME give it).
func (c CommandSpec) HelpIn(l i18n.Lang) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n  %s\n", c.UsageIn(l), c.DescriptionIn.In(l, c.Description))
	if len(c.Subcommands) == 0 {
		writeOptions(&b, l, c.Options)
		return b.String()
	}
	name := "/" + c.NameIn.In(l, c.Name)
	for _, sc := range c.Subcommands {
		fmt.Fprintf(&b, "%s\n  %s\n", usageLine(l, name+" "+sc.NameIn.In(l, sc.Name), sc.Options), sc.DescriptionIn.In(l, sc.Description))
		writeOptions(&b, l, sc.Options)
	}
	return b.String()
}

// writeOptions writes one line per option in language l: its name, description and
// whether it is required.
func writeOptions(b *strings.Builder, l i18n.Lang, opts []OptionSpec) {
	loc := catalogue.For(l)
	for _, o := range opts {
		desc := o.DescriptionIn.In(l, o.Description)
		if o.Required {
			desc = loc.T("usage.required", i18n.Data{"Description": desc})
		}
		fmt.Fprintf(b, "  %-10s %s\n", o.NameIn.In(l, o.Name)+":", desc)
	}
}

// usageLine writes head followed by each option as name:<kind> ([...] when
// optional), in language l.
func usageLine(l i18n.Lang, head string, opts []OptionSpec) string {
	loc := catalogue.For(l)
	var b strings.Builder
	b.WriteString(head)
	for _, o := range opts {
		val := "<" + loc.T("usage.type."+string(o.Type), nil) + ">"
		if len(o.Choices) > 0 {
			vals := make([]string, len(o.Choices))
			for i, ch := range o.Choices {
				vals[i] = ch.Value
			}
			val = strings.Join(vals, "|")
		}
		name := o.NameIn.In(l, o.Name)
		if o.Required {
			fmt.Fprintf(&b, " %s:%s", name, val)
		} else {
			fmt.Fprintf(&b, " [%s:%s]", name, val)
		}
	}
	return b.String()
}
