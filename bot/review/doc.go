// Package review is the engine's review of a game, as a player sees it: /review,
// and by itself when a game ends, the built-in engine looks at every position of
// the game (engine.Review documents the classes, their thresholds and the
// accuracy) and the bot posts, in the game's place, a picture (the evaluation
// graph and each player's figures), the final board and an annotated PGN.
//
// Reviews run in the background, one at a time, first asked first, each within a
// time budget (Options), giving way to play while the service is busy. A review is
// stored (storage.Review), so asking again is instant. A review asked for is
// queued in the data file too (storage.ReviewRequest), in the transaction that
// asks (a game's end or /review), and taken off in the one that stores the review:
// one promised when the bot stops is made after it starts. A game in progress is
// reviewed only where hints are allowed (casual games, or every game with
// bot.Config.HintsInRated); engine matches are not reviewed when they end.
//
// The feature reviews with the service's engine when it is a Reviewer and draws
// with its renderer when it is a Renderer (bot.NewEngine's and bot.NewRenderer's
// are); New plugs it into the service.
package review
