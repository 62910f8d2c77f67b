package guide

import (
	"context"
	"fmt"
	"strings"

	"github.com/missivechess/missive/bot"
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

// howToPlay is /help's short guide to correspondence play.
const howToPlay = `**How to play**
1. Challenge someone with /challenge (name an opponent, or leave it out to challenge anyone in a server), or play the engine with /challenge engine:builtin.
2. The opponent answers with the challenge's buttons, or with /accept or /decline.
3. Make your moves with /move, such as /move move:e2e4; each player has a few days per move.
4. /games lists your games and whose move it is; /board shows a board; /rules explains a game.
5. /resign, /draw and /takeback end or change a game; /settings chooses how you hear of your games.
6. /next shows the game most urgently waiting for you; while you wait, /conditional add prepares replies to your opponent's likely moves; after a game, /rematch plays it again with colours swapped.`

// cmdHelp answers /help.
func (f *feature) cmdHelp(_ context.Context, req bot.Request) bot.Reply {
	if name := req.Args.Get("command"); name != "" {
		c, ok := f.svc.CommandOf(name)
		if !ok {
			return bot.Refusal(fmt.Sprintf("There is no command %s; /help lists them.", rules.Echo(name)))
		}
		return bot.Reply{Private: true, Title: "/" + c.Spec.Name, Text: c.Spec.Help()}
	}
	var b strings.Builder
	for _, c := range f.svc.Commands() {
		if !c.OfferedIn(req.Where()) {
			continue
		}
		fmt.Fprintf(&b, "/%s: %s\n", c.Name, c.Description)
	}
	b.WriteString("\n" + howToPlay)
	if !req.Local() && req.Place.Guild == "" {
		b.WriteString("\nTournaments and engine matches are run in servers, with /tournament and /match.")
	}
	return bot.Reply{Private: true, Title: "Missive: correspondence Gothic Chess, Keltic Chess, Go-Chess and Gess", Text: b.String()}
}

// completeCommand suggests the names of the commands offered where the request is.
func (f *feature) completeCommand(_ *storage.Tx, req bot.Request, add func(label, value string) bool) {
	for _, c := range f.svc.Commands() {
		if c.OfferedIn(req.Where()) && !add("/"+c.Name+": "+c.Description, c.Name) {
			return
		}
	}
}
