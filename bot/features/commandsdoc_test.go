package features_test

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/bottest"
	"github.com/missivechess/missive/bot/i18n"
)

var update = flag.Bool("update", false, "rewrite docs/i18n/commands.md from the commands' localisations")

// commandsDoc is the page that lists every command, subcommand and option under
// the names each language's Discord clients show.
const commandsDoc = "../../docs/i18n/commands.md"

// commandsTable writes the names of svc's commands in every language, a row a
// command, subcommand and option.
func commandsTable(svc *bot.Service) string {
	var b strings.Builder
	b.WriteString("# Missive's commands in every language\n\n")
	b.WriteString("The names each language's Discord clients show for Missive's commands, their\n")
	b.WriteString("subcommands and options, as the feature catalogues give them (`command.….name`\n")
	b.WriteString("keys, see README.md). Sentences name commands in English and readers see them under\n")
	b.WriteString("these names; the console reads every language's names. This page is written by\n")
	b.WriteString("`go test ./bot/features -run TestCommandsDoc -update`, and the test fails when it is\n")
	b.WriteString("out of date. A name changes in its catalogue, then here, and in the glossary's\n")
	b.WriteString("*Command names* table.\n\n")
	b.WriteString("| English |")
	for _, l := range i18n.Langs[1:] {
		fmt.Fprintf(&b, " %s |", l.Name())
	}
	b.WriteString("\n| --- |" + strings.Repeat(" --- |", len(i18n.Langs)-1) + "\n")
	row := func(prefix, name string, in bot.Texts) {
		fmt.Fprintf(&b, "| %s%s |", prefix, name)
		for _, l := range i18n.Langs[1:] {
			fmt.Fprintf(&b, " %s%s |", prefix, in.In(l, name))
		}
		b.WriteString("\n")
	}
	options := func(prefix string, opts []bot.OptionSpec) {
		for _, o := range opts {
			fmt.Fprintf(&b, "| %s`%s:` |", prefix, o.Name)
			for _, l := range i18n.Langs[1:] {
				fmt.Fprintf(&b, " %s`%s:` |", prefix, o.NameIn.In(l, o.Name))
			}
			b.WriteString("\n")
		}
	}
	for _, c := range svc.Commands() {
		if c.Button {
			continue
		}
		row("", "**/"+c.Name+"**", prefixed("**/", c.NameIn, "**"))
		options("· ", c.Options)
		for _, sc := range c.Subcommands {
			row("· ", sc.Name, sc.NameIn)
			options("· · ", sc.Options)
		}
	}
	return b.String()
}

// prefixed returns texts with before and after around each.
func prefixed(before string, t bot.Texts, after string) bot.Texts {
	out := bot.Texts{}
	for l, s := range t {
		out[l] = before + s + after
	}
	return out
}

// docs/i18n/commands.md lists the commands as the catalogues name them today.
func TestCommandsDoc(t *testing.T) {
	h := bottest.New(t)
	got := commandsTable(h.Svc)
	if *update {
		if err := os.WriteFile(commandsDoc, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(commandsDoc)
	if err != nil || string(want) != got {
		t.Fatalf("%s is out of date (%v): run go test ./bot/features -run TestCommandsDoc -update", commandsDoc, err)
	}
}
