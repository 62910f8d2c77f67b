package features

import (
	"slices"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/tournaments"
)

// Options configure the features that take options.
type Options struct {
	// Tournaments bound how many games the tournaments start at once.
	Tournaments tournaments.Options
}

// List returns the features, each as the constructor the service calls once it
// is built (bot.Config.Features), in the order their hooks run.
func List(opts Options) []func(*bot.Service) bot.Feature {
	return []func(*bot.Service) bot.Feature{
		// After the ratings, before the engine matches: the result, the standings,
		// the next games.
		func(s *bot.Service) bot.Feature { return tournaments.New(s, opts.Tournaments) },
	}
}

// Order returns the commands in the order they are best listed (/help, the
// commands an adapter registers).
func Order() []string {
	return []string{
		"challenge", "accept", "decline", "cancel", "challenges", "move", "place", "board", "games", "next", "history",
		"resign", "draw", "takeback", "moretime", "abort", "pgn", "gif", "hint", "rules", "settings", "leave",
		"leaderboard", "profile", "tournament", "match", "rematch", "help", "conditional", "review",
	}
}

// Apply plugs the features into cfg, before any it already has, and sets the
// order of their commands.
func Apply(cfg *bot.Config, opts Options) {
	cfg.Features = append(List(opts), cfg.Features...)
	cfg.Order = slices.Concat(Order(), cfg.Order)
}

// With returns cfg with the features plugged in (Apply).
func With(cfg bot.Config, opts Options) bot.Config {
	Apply(&cfg, opts)
	return cfg
}
