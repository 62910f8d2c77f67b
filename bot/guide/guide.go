package guide

import "github.com/missivechess/missive/bot"

// The commands of the feature.
const (
	CmdHelp  = "help"
	CmdRules = "rules"
)

// feature is the guide: the list of commands and the rules cards.
type feature struct {
	svc *bot.Service
}

// New returns the guide: /rules and /help.
func New(s *bot.Service) bot.Feature {
	f := &feature{svc: s}
	return bot.Feature{Commands: []bot.Command{f.rulesCommand(), f.helpCommand()}}
}
