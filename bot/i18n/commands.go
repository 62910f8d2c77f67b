package i18n

import (
	"regexp"
	"slices"
	"strings"
	"sync"
)

// Sentences name commands as Missive's English does ("/move move:e2e4", "/tournament
// join"), in every language; the reader sees them as their Discord client shows
// them. A Localizer's T and N write each command, subcommand and option a sentence
// names in the localizer's language (Commands), from the names the feature
// catalogues give them (command.<cmd>.name, command.<cmd>.<sub>.name,
// command.<cmd>.option.<opt>.name: bot.CommandSpec.Localize). The console reads
// the names of every language back (EnglishCommand, EnglishOption).

// commandIndex knows every command name the loaded catalogues translate.
type commandIndex struct {
	// local maps an English path ("move", "tournament.join", "move.option.game")
	// to its name in each language.
	local map[string]map[Lang]string
	// english maps a language's name of a path's last part back to the English path,
	// within its parent: parent + "\x00" + local name -> English name.
	english map[Lang]map[string]string
}

var (
	registryMu sync.Mutex
	registry   []*Catalogue // the catalogues of the program's packages (MustLoad), set up at start
	indexed    int          // how many of registry index holds
	index      *commandIndex
)

// register adds c to the catalogues whose command names Commands writes.
func register(c *Catalogue) {
	registryMu.Lock()
	defer registryMu.Unlock()
	registry = append(registry, c)
}

// commands returns the index of every registered catalogue's command names.
func commands() *commandIndex {
	registryMu.Lock()
	defer registryMu.Unlock()
	if index != nil && indexed == len(registry) {
		return index
	}
	idx := &commandIndex{local: map[string]map[Lang]string{}, english: map[Lang]map[string]string{}}
	for _, c := range registry {
		for _, m := range c.files[English] {
			if !strings.HasPrefix(m.ID, "command.") || !strings.HasSuffix(m.ID, ".name") || strings.Contains(m.ID, ".choice.") {
				continue
			}
			path := strings.TrimSuffix(strings.TrimPrefix(m.ID, "command."), ".name")
			names := map[Lang]string{English: m.Other}
			for _, l := range Langs[1:] {
				if s, ok := c.For(l).Own(m.ID); ok {
					names[l] = s
				}
			}
			idx.local[path] = names
			parent, last := parentOf(path)
			for l, s := range names {
				if idx.english[l] == nil {
					idx.english[l] = map[string]string{}
				}
				idx.english[l][parent+"\x00"+s] = last
			}
		}
	}
	index, indexed = idx, len(registry)
	return idx
}

// parentOf splits a path into its parent and last part: "move.option.game" into
// "move.option" and "game".
func parentOf(path string) (string, string) {
	if i := strings.LastIndexByte(path, '.'); i >= 0 {
		return path[:i], path[i+1:]
	}
	return "", path
}

// name returns path's name in l, or its English last part.
func (x *commandIndex) name(l Lang, path string) (string, bool) {
	names, ok := x.local[path]
	if !ok {
		return "", false
	}
	if s, ok := names[l]; ok {
		return s, true
	}
	return names[English], true
}

// mention finds a command mention: "/name", then words and name:value options.
var mention = regexp.MustCompile(`(^|[\s(«„“"'\x60*_\[])/([\p{Ll}\p{N}_'-]+)((?: [\p{Ll}\p{N}_'-]+(?::[^\s,;)]*)?)*)`)

// Commands returns text with the commands it names written in language l: each
// "/command", its subcommand and its options "option:value" as l's Discord
// clients show them; what is not a command Missive has is left as it is, and so
// is every value.
func Commands(l Lang, text string) string {
	if l == English || !strings.Contains(text, "/") {
		return text
	}
	x := commands()
	return mention.ReplaceAllStringFunc(text, func(m string) string {
		sub := mention.FindStringSubmatch(m)
		lead, cmd, rest := sub[1], sub[2], sub[3]
		name, ok := x.name(l, cmd)
		if !ok {
			return m
		}
		path := cmd
		var b strings.Builder
		b.WriteString(lead + "/" + name)
		words := strings.Split(rest, " ")[1:] // rest starts with a space when not empty
		for i, w := range words {
			opt, value, isOpt := strings.Cut(w, ":")
			switch {
			case isOpt:
				if local, ok := x.name(l, path+".option."+opt); ok {
					b.WriteString(" " + local + ":" + value)
					continue
				}
			case i == 0:
				if local, ok := x.name(l, path+"."+w); ok {
					path += "." + w
					b.WriteString(" " + local)
					continue
				}
			}
			b.WriteString(" " + w)
		}
		return b.String()
	})
}

// EnglishCommand returns the English name of a command, subcommand (parent: its
// command, "tournament") or option (parent: "move.option", "tournament.join.option")
// that a player of l typed as l's clients show it; name itself when it is English
// or unknown.
func EnglishCommand(l Lang, parent, name string) string {
	x := commands()
	if en, ok := x.english[l][parent+"\x00"+name]; ok {
		return en
	}
	return name
}

// Catalogues returns the catalogues of the program's packages (those loaded with
// MustLoad), for a test that reads every message of every package.
func Catalogues() []*Catalogue {
	registryMu.Lock()
	defer registryMu.Unlock()
	return slices.Clone(registry)
}

// Messages returns the ids and English texts of c's messages (each plural form's
// text), for a test that reads every message.
func (c *Catalogue) Messages(l Lang) map[string][]string {
	out := map[string][]string{}
	for _, m := range c.files[l] {
		out[m.ID] = forms(m)
	}
	return out
}
