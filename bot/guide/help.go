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
		return bot.Reply{Private: true, Title: "/" + c.Spec.NameIn.In(loc.Lang(), c.Spec.Name), Text: c.Spec.HelpIn(loc.Lang())}
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
