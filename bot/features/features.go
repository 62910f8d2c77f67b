package features

import (
	"slices"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/challenges"
	"github.com/missivechess/missive/bot/guide"
	"github.com/missivechess/missive/bot/matches"
	"github.com/missivechess/missive/bot/play"
	"github.com/missivechess/missive/bot/privacy"
	"github.com/missivechess/missive/bot/ratings"
	"github.com/missivechess/missive/bot/review"
	"github.com/missivechess/missive/bot/settings"
	"github.com/missivechess/missive/bot/tournaments"
	"github.com/missivechess/missive/bot/views"
)

// Options configure the features that take options; the zero value is the
// product's defaults.
type Options struct {
	// Tournaments bound how many games the tournaments start at once.
	Tournaments tournaments.Options
	// Review bounds the engine's game reviews (the zero value reviews every game
	// that ends, with the default limits).
	Review review.Options
}

// List returns the features, each as the constructor the service calls once it
// is built (bot.Config.Features), in the order their hooks run: what follows
// from a game's end runs ratings, tournaments, matches, conditional moves (play)
// and the review in that order, and the scheduler closes expired challenges
// before it ends leaves and sends digests.
func List(opts Options) []func(*bot.Service) bot.Feature {
	return []func(*bot.Service) bot.Feature{
		ratings.New, // /leaderboard, /profile; a rated game's end changes both ratings
		func(s *bot.Service) bot.Feature { return tournaments.New(s, opts.Tournaments) }, // /tournament: results, standings, the next games
		matches.New,    // /match: engine matches, their lane, their ply cap and their posts
		challenges.New, // challenges and rematches, the expiry of open challenges, the Rematch button
		views.New,      // /board, /games, /next, /history, /pgn, /gif, /hint; the PGN button
		guide.New,      // /rules, /help
		settings.New,   // /settings, /leave (leave freezes a player's clocks), the daily digest
		play.New,       // /move, /place, /resign, /draw, /takeback, /moretime, /abort, /conditional
		func(s *bot.Service) bot.Feature { return review.New(s, opts.Review) }, // /review, and a review of every game that ends
		privacy.New, // /privacy: what Missive keeps about a player, and deleting it
	}
}

// Order returns the commands in the order they are best listed (/help, the
// commands an adapter registers).
func Order() []string {
	return []string{
		"challenge", "accept", "decline", "cancel", "challenges", "move", "place", "board", "games", "next", "history",
		"resign", "draw", "takeback", "moretime", "abort", "pgn", "gif", "hint", "rules", "settings", "leave",
		"leaderboard", "profile", "tournament", "match", "rematch", "help", "conditional", "review", "privacy",
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
