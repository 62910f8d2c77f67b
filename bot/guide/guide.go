package guide

import (
	"embed"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/i18n"
)

// localeFiles are the guide's messages, one file per language.
//
//go:embed locales/*.yaml
var localeFiles embed.FS

// Catalogue is the guide's message catalogue: /help's and the /rules cards'
// sentences, and the names of /help and /rules.
var Catalogue = i18n.MustLoad("guide", localeFiles)

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
	cmds := []bot.Command{f.rulesCommand(), f.helpCommand()}
	for i := range cmds {
		cmds[i].Spec = cmds[i].Spec.Localize(Catalogue)
	}
	return bot.Feature{Commands: cmds}
}
