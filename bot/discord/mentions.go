package discord

import (
	"regexp"
	"strings"

	"github.com/bwmarrin/discordgo"
)

// commandIDs are the registered commands by name: their ids and subcommand names,
// for command mentions.
type commandIDs map[string]registered

// registered is one registered command as a mention needs it.
type registered struct {
	id   string
	subs []string
}

// idsOf collects the ids Discord gave the commands it registered.
func idsOf(cmds []*discordgo.ApplicationCommand) commandIDs {
	out := commandIDs{}
	for _, c := range cmds {
		if c == nil || c.ID == "" {
			continue
		}
		r := registered{id: c.ID}
		for _, o := range c.Options {
			if o.Type == discordgo.ApplicationCommandOptionSubCommand {
				r.subs = append(r.subs, o.Name)
			}
		}
		out[c.Name] = r
	}
	return out
}

// namedRE finds a command named in text: a slash at a word's start and a name, with
// an optional following word (a subcommand, such as "/tournament create") and an
// optional "action:" before it (as the console writes a subcommand).
var namedRE = regexp.MustCompile(`(^|[\s(“"'])/([a-z][a-z0-9_-]*)((?: (?:action:)?[a-z][a-z0-9_-]*)?)`)

// mentionCommands rewrites the commands named in text ("/move") as Discord's
// clickable command mentions ("</move:ID>"), using the registered ids; a command
// with subcommands becomes one when a subcommand follows ("</tournament
// create:ID>"). Names not registered and text in code spans or blocks stay as they
// are.
func mentionCommands(text string, ids commandIDs) string {
	if len(ids) == 0 || !strings.Contains(text, "/") {
		return text
	}
	// Code spans and blocks are kept as they are: split on backticks, each of which
	// opens or closes code (three in a row toggle three times, like one), and
	// rewrite only the parts outside code.
	parts := strings.Split(text, "`")
	inCode := false
	for i := range parts {
		if !inCode {
			parts[i] = namedRE.ReplaceAllStringFunc(parts[i], func(m string) string { return mention(m, ids) })
		}
		if i < len(parts)-1 {
			inCode = !inCode
		}
	}
	return strings.Join(parts, "`")
}

// mention rewrites one match of namedRE.
func mention(m string, ids commandIDs) string {
	sm := namedRE.FindStringSubmatch(m)
	lead, name, rest := sm[1], sm[2], sm[3]
	c, ok := ids[name]
	if !ok {
		return m
	}
	if len(c.subs) == 0 {
		return lead + "</" + name + ":" + c.id + ">" + rest
	}
	sub := strings.TrimPrefix(strings.TrimSpace(rest), "action:")
	for _, s := range c.subs {
		if s == sub {
			return lead + "</" + name + " " + sub + ":" + c.id + ">"
		}
	}
	return m // a command with subcommands is mentioned only with one of them
}
