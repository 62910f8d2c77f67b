package i18n

import (
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	goi18n "github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/language"
	"gopkg.in/yaml.v3"
)

// Dir and Pattern locate a catalogue's files in the file system it is loaded from:
// locales/active.<lang>.yaml, one per language.
const (
	Dir     = "locales"
	Pattern = "active.*.yaml"
)

// Catalogue is one feature package's messages in every language it has, loaded
// from its embedded files.
type Catalogue struct {
	name   string
	bundle *goi18n.Bundle
	// files holds each file's messages by language; unknown lists the files of
	// languages Missive does not speak.
	files   map[Lang][]*goi18n.Message
	unknown []string
	locs    map[Lang]*Localizer
}

// Load reads the catalogue called name (its package's name, for messages) from
// fsys's locales/active.<lang>.yaml files.
func Load(name string, fsys fs.FS) (*Catalogue, error) {
	c := &Catalogue{name: name, bundle: goi18n.NewBundle(language.English), files: map[Lang][]*goi18n.Message{}, locs: map[Lang]*Localizer{}}
	c.bundle.RegisterUnmarshalFunc("yaml", yaml.Unmarshal)
	paths, err := fs.Glob(fsys, path.Join(Dir, Pattern))
	if err != nil {
		return nil, fmt.Errorf("i18n: %s: %w", name, err)
	}
	for _, p := range paths {
		code := strings.TrimSuffix(strings.TrimPrefix(path.Base(p), "active."), ".yaml")
		if !slices.Contains(Langs, Lang(code)) {
			c.unknown = append(c.unknown, p)
			continue
		}
		mf, err := c.bundle.LoadMessageFileFS(fsys, p)
		if err != nil {
			return nil, fmt.Errorf("i18n: %s: %w", name, err)
		}
		c.files[Lang(code)] = mf.Messages
	}
	if _, ok := c.files[English]; !ok {
		return nil, fmt.Errorf("i18n: %s: no %s", name, path.Join(Dir, "active.en.yaml"))
	}
	for _, l := range Langs {
		c.locs[l] = &Localizer{lang: l, cat: c, l: goi18n.NewLocalizer(c.bundle, string(l))}
	}
	return c, nil
}

// MustLoad is Load for a package's embedded files, which are part of the program:
// it panics when they do not load.
func MustLoad(name string, fsys fs.FS) *Catalogue {
	c, err := Load(name, fsys)
	if err != nil {
		panic(err)
	}
	register(c)
	return c
}

// Name returns the catalogue's name.
func (c *Catalogue) Name() string { return c.name }

// For returns the localizer of language l (English when Missive does not speak l).
func (c *Catalogue) For(l Lang) *Localizer {
	if loc, ok := c.locs[l]; ok {
		return loc
	}
	return c.locs[English]
}

// Has reports whether the English catalogue has message id.
func (c *Catalogue) Has(id string) bool {
	return slices.ContainsFunc(c.files[English], func(m *goi18n.Message) bool { return m.ID == id })
}

// placeholder finds the fields a template reads ({{.Count}}, {{ .Name | f }}).
var (
	action      = regexp.MustCompile(`\{\{.*?\}\}`)
	placeholder = regexp.MustCompile(`\.([A-Za-z_][A-Za-z0-9_]*)`)
)

// forms returns the plural forms of m that have text.
func forms(m *goi18n.Message) []string {
	var out []string
	for _, f := range []string{m.Zero, m.One, m.Two, m.Few, m.Many, m.Other} {
		if f != "" {
			out = append(out, f)
		}
	}
	return out
}

// placeholders returns the sorted set of fields m's forms read.
func placeholders(m *goi18n.Message) []string {
	set := map[string]bool{}
	for _, f := range forms(m) {
		for _, a := range action.FindAllString(f, -1) {
			for _, p := range placeholder.FindAllStringSubmatch(a, -1) {
				set[p[1]] = true
			}
		}
	}
	out := make([]string, 0, len(set))
	for p := range set {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// plural reports whether m is a message with plural forms (more than Other).
func plural(m *goi18n.Message) bool { return m.Zero+m.One+m.Two+m.Few+m.Many != "" }

// pluralProbes are the counts a plural message is tried with in every language:
// those of docs/i18n/README.md (0, 1, 2, 5, 11, 21, 1.5) and those that reach the
// rarer CLDR categories (Russian's few and many, the many of whole millions).
var pluralProbes = []any{0, 1, 2, 3, 4, 5, 11, 12, 21, 22, 25, 101, 111, "0.5", "1.5", 1000000}

// Problems lists what is wrong with the catalogue, one sentence each: a language
// without a file or a file of a language Missive does not speak; a message missing
// from a language or one the English does not have; a translation whose
// placeholders differ from the English; a plural message that lacks a form its
// language's plural rules need. Nil: nothing.
func (c *Catalogue) Problems() []string {
	var out []string
	for _, p := range c.unknown {
		out = append(out, fmt.Sprintf("%s: %s is not a language Missive speaks", c.name, p))
	}
	en := map[string]*goi18n.Message{}
	for _, m := range c.files[English] {
		en[m.ID] = m
	}
	for _, l := range Langs[1:] {
		msgs, ok := c.files[l]
		if !ok {
			out = append(out, fmt.Sprintf("%s: no catalogue for %s (active.%s.yaml)", c.name, l, l))
			continue
		}
		seen := map[string]bool{}
		for _, m := range msgs {
			seen[m.ID] = true
			e, ok := en[m.ID]
			if !ok {
				out = append(out, fmt.Sprintf("%s: %s has %s, which the English does not", c.name, l, m.ID))
				continue
			}
			if a, b := placeholders(e), placeholders(m); !slices.Equal(a, b) {
				out = append(out, fmt.Sprintf("%s: %s's %s has placeholders %v, the English %v", c.name, l, m.ID, b, a))
			}
			if plural(e) {
				out = append(out, c.pluralProblems(l, m.ID)...)
			}
			if p := commandProblem(m); p != "" {
				out = append(out, fmt.Sprintf("%s: %s's %s %s", c.name, l, m.ID, p))
			}
		}
		for _, m := range c.files[English] {
			if !seen[m.ID] {
				out = append(out, fmt.Sprintf("%s: %s lacks %s", c.name, l, m.ID))
			}
		}
	}
	for _, m := range c.files[English] {
		if plural(m) {
			out = append(out, c.pluralProblems(English, m.ID)...)
		}
	}
	return out
}

// discordName is Discord's rule for command and option names
// (https://discord.com/developers/docs/interactions/application-commands#application-command-object-application-command-naming).
var discordName = regexp.MustCompile(`^[-_'\p{L}\p{N}\p{Devanagari}\p{Thai}]{1,32}$`)

// commandProblem says what Discord would refuse in a command's localised name or
// description (keys command.….name and command.….desc, bot.CommandSpec.Localize),
// "" when nothing: a name of 1-32 letters, digits, - _ ', in lower case; a
// description of 1-100 characters.
func commandProblem(m *goi18n.Message) string {
	if !strings.HasPrefix(m.ID, "command.") {
		return ""
	}
	switch {
	case strings.HasSuffix(m.ID, ".name") && !strings.Contains(m.ID, ".choice."):
		if !discordName.MatchString(m.Other) || strings.ToLower(m.Other) != m.Other {
			return fmt.Sprintf("%q is not a name Discord takes (1-32 lower-case letters, digits, - _ ')", m.Other)
		}
	case strings.HasSuffix(m.ID, ".desc"):
		if n := utf8.RuneCountInString(m.Other); n < 1 || n > 100 {
			return fmt.Sprintf("has %d characters; Discord takes 1-100", n)
		}
	}
	return ""
}

// pluralProblems tries message id of language l with each probe count.
func (c *Catalogue) pluralProblems(l Lang, id string) []string {
	var out []string
	for _, n := range pluralProbes {
		_, err := c.For(l).l.Localize(&goi18n.LocalizeConfig{MessageID: id, PluralCount: n, TemplateData: map[string]any{}})
		if err != nil {
			out = append(out, fmt.Sprintf("%s: %s's %s with count %v: %v", c.name, l, id, n, err))
			break
		}
	}
	return out
}
