package guide

import (
	"context"
	"fmt"
	"strings"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/storage"
)

// helpCommand is /help: the list of commands and a short guide, or one command's
// options. Its answer is private.
func (f *feature) helpCommand() bot.Command {
	return bot.Command{Handle: f.cmdHelp, Complete: map[string]bot.Completer{"command": f.completeCommand},
		Spec: bot.CommandSpec{Name: CmdHelp, Description: "The commands and how to play, or one command's options", Private: true, Options: []bot.OptionSpec{
			{Name: "command", Description: "The command to explain, such as move", Type: bot.OptString, Autocomplete: true, MaxLength: 32},
		}}}
}

// cmdHelp answers /help.
// The list of commands gives each command's description in the asker's language
// when its feature's catalogue has it (in English until then); the guide's own
// sentences come from its catalogue (locales/), and every language but English adds
// that moves are typed in English notation.
func (f *feature) cmdHelp(ctx context.Context, req bot.Request) bot.Reply {
	loc := f.svc.AskerLocalizer(ctx, Catalogue, req)
	if name := req.Args.Get("command"); name != "" {
		// The command as the asker's client names it, or its English name.
		c, ok := f.svc.CommandOf(i18n.EnglishCommand(loc.Lang(), "", strings.TrimPrefix(strings.TrimSpace(name), "/")))
		if !ok {
			return bot.Refusal(loc.T("help.nocommand", i18n.Data{"Name": rules.Echo(name)}))
		}
		return bot.Reply{Private: true, Title: "/" + c.Spec.NameIn.In(loc.Lang(), c.Spec.Name), Text: commandHelp(loc, c.Spec)}
	}
	var b strings.Builder
	for _, c := range f.svc.Commands() {
		if !c.OfferedIn(req.Where()) {
			continue
		}
		fmt.Fprintf(&b, "/%s: %s\n", c.NameIn.In(loc.Lang(), c.Name), c.DescriptionIn.In(loc.Lang(), c.Description))
	}
	b.WriteString("\n" + loc.T("help.how", nil))
	if loc.Lang() != i18n.English {
		b.WriteString("\n" + loc.T("help.notation", nil))
	}
	if !req.Local() && req.Place.Guild == "" {
		b.WriteString("\n" + loc.T("help.servers", nil))
	}
	return bot.Reply{Private: true, Title: loc.T("help.title", nil), Text: b.String()}
}

// completeCommand suggests the names of the commands offered where the request is,
// each described in the asker's language.
func (f *feature) completeCommand(tx *storage.Tx, req bot.Request, add func(label, value string) bool) {
	lang, err := bot.AskerLang(tx, req)
	if err != nil {
		lang = i18n.English
	}
	for _, c := range f.svc.Commands() {
		if c.OfferedIn(req.Where()) && !add("/"+c.NameIn.In(lang, c.Name)+": "+c.DescriptionIn.In(lang, c.Description), c.Name) {
			return
		}
	}
}

// commandHelp is what /help says of one command, in loc's language: its synopsis,
// description and options, for each subcommand when it has them, under the names
// the reader's client shows (spec.Help in English, as the console prints it).
func commandHelp(loc *i18n.Localizer, spec bot.CommandSpec) string {
	l := loc.Lang()
	if l == i18n.English {
		return spec.Help()
	}
	name := "/" + spec.NameIn.In(l, spec.Name)
	var b strings.Builder
	if len(spec.Subcommands) == 0 {
		fmt.Fprintf(&b, "%s\n  %s\n", usageIn(loc, name, spec.Options), spec.DescriptionIn.In(l, spec.Description))
		optionsIn(&b, loc, spec.Options)
		return b.String()
	}
	subs := make([]string, len(spec.Subcommands))
	for i, sc := range spec.Subcommands {
		subs[i] = sc.NameIn.In(l, sc.Name)
	}
	fmt.Fprintf(&b, "%s %s\n  %s\n", name, strings.Join(subs, "|"), spec.DescriptionIn.In(l, spec.Description))
	for i, sc := range spec.Subcommands {
		fmt.Fprintf(&b, "%s\n  %s\n", usageIn(loc, name+" "+subs[i], sc.Options), sc.DescriptionIn.In(l, sc.Description))
		optionsIn(&b, loc, sc.Options)
	}
	return b.String()
}

// usageIn writes head followed by each option as name:<type> ([...] when optional),
// in loc's language; choices are their values, which are typed as they are.
func usageIn(loc *i18n.Localizer, head string, opts []bot.OptionSpec) string {
	var b strings.Builder
	b.WriteString(head)
	for _, o := range opts {
		val := "<" + loc.T("help.type."+string(o.Type), nil) + ">"
		if len(o.Choices) > 0 {
			vals := make([]string, len(o.Choices))
			for i, ch := range o.Choices {
				vals[i] = ch.Value
			}
			val = strings.Join(vals, "|")
		}
		if o.Required {
			fmt.Fprintf(&b, " %s:%s", o.NameIn.In(loc.Lang(), o.Name), val)
		} else {
			fmt.Fprintf(&b, " [%s:%s]", o.NameIn.In(loc.Lang(), o.Name), val)
		}
	}
	return b.String()
}

// optionsIn writes one line per option, in loc's language: its name, description
// and whether it is required.
func optionsIn(b *strings.Builder, loc *i18n.Localizer, opts []bot.OptionSpec) {
	for _, o := range opts {
		desc := o.DescriptionIn.In(loc.Lang(), o.Description)
		if o.Required {
			desc = loc.T("help.required", i18n.Data{"Description": desc})
		}
		fmt.Fprintf(b, "  %-10s %s\n", o.NameIn.In(loc.Lang(), o.Name)+":", desc)
	}
}
