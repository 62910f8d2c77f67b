package bot

import (
	"context"
	"fmt"
	"strings"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/storage"
)

// CmdHelp is /help.
const CmdHelp = "help"

// helpCommand is /help: the list of commands and a short guide, or one command's
// options. Its answer is private.
func (s *Service) helpCommand() Command {
	return Command{Handle: s.cmdHelp, Complete: map[string]Completer{"command": s.completeCommand},
		Spec: CommandSpec{Name: CmdHelp, Description: "The commands and how to play, or one command's options", Private: true, Options: []OptionSpec{
			{Name: "command", Description: "The command to explain, such as move", Type: OptString, Autocomplete: true, MaxLength: 32},
		}}}
}

// guide is /help's short guide to correspondence play.
const guide = `**How to play**
1. Challenge someone with /challenge (name an opponent, or leave it out to challenge anyone in a server), or play the engine with /challenge engine:builtin.
2. The opponent answers with the challenge's buttons, or with /accept or /decline.
3. Make your moves with /move, such as /move move:e2e4; each player has a few days per move.
4. /games lists your games and whose move it is; /board shows a board; /rules explains a game.
5. /resign, /draw and /takeback end or change a game; /settings chooses how you hear of your games.
6. /next shows the game most urgently waiting for you; while you wait, /conditional add prepares replies to your opponent's likely moves; after a game, /rematch plays it again with colours swapped.`

// cmdHelp answers /help.
func (s *Service) cmdHelp(_ context.Context, req Request) Reply {
	if name := req.Args.Get("command"); name != "" {
		c, ok := s.command(name)
		if !ok {
			return Refusal(fmt.Sprintf("There is no command %s; /help lists them.", rules.Echo(name)))
		}
		return Reply{Private: true, Title: "/" + c.Spec.Name, Text: c.Spec.Help()}
	}
	var b strings.Builder
	for _, c := range s.commands {
		if !c.Spec.OfferedIn(req.Where()) {
			continue
		}
		fmt.Fprintf(&b, "/%s: %s\n", c.Spec.Name, c.Spec.Description)
	}
	b.WriteString("\n" + guide)
	if !req.Local() && req.Place.Guild == "" {
		b.WriteString("\nTournaments and engine matches are run in servers, with /tournament and /match.")
	}
	return Reply{Private: true, Title: "Missive: correspondence Gothic Chess, Keltic Chess, Go-Chess and Gess", Text: b.String()}
}

// completeCommand suggests the names of the commands offered where the request is.
func (s *Service) completeCommand(_ *storage.Tx, req Request, add func(label, value string) bool) {
	for _, c := range s.commands {
		if c.Spec.OfferedIn(req.Where()) && !add("/"+c.Spec.Name+": "+c.Spec.Description, c.Spec.Name) {
			return
		}
	}
}
