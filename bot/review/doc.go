// Package review is the engine's review of a game, as a player sees it: /review,
// and by itself when a game ends, the built-in engine looks at every position of
// the game (engine.Review documents the classes, their thresholds and the
// accuracy) and the bot posts, in the game's place, a picture (the evaluation
// graph and each player's figures), the final board and an annotated PGN.
//
// Reviews run in the background on up to Options.Workers workers at once
// (default: half the cores, at least one; each review searches on one core),
// each within a time budget (Options), giving way to play while the service is
// busy. A review is stored (storage.Review), so asking again is instant. A
// review asked for is queued in the data file too (storage.ReviewRequest), in
// the transaction that asks (a game's end or /review), and taken off in the one
// that stores the review: one promised when the bot stops is made after it
// starts. A worker claims a request in the data file before it starts
// (storage.ReviewClaim, with a name new at each start), so no two workers make
// the same review, and a claim left by a process that stopped passes to the
// next. A game in progress is reviewed only where hints are allowed (casual
// games, or every game with bot.Config.HintsInRated); engine matches are not
// reviewed when they end.
//
// Order and backlog: reviews players ask for with /review go first, then the
// automatic ones of games that ended, each first asked first (a restart keeps
// the order: the request records who asked). When automatic reviews fall
// behind, their queue is bounded (Options.Backlog, default DefaultBacklog): a
// game that ends while that many wait is not reviewed by itself, and its
// players are told so and that /review game:ID still asks for its review. A
// request by a player is never refused for the backlog. The games waiting keep
// their places: the newest is the one skipped, so none waits without end.
//
// Throughput (BenchmarkReviewsPerDay, 80-ply Gothic games, on a 2-core
// machine): at the default per-position limits (200,000 nodes, at most a
// second) a review takes about 23 s of CPU, so one worker makes about 3,600
// reviews a day and two workers on two cores about 7,400; 100,000 nodes halve
// a review's time (about 13 s). Options.Limits sets the depth; what a lighter
// one costs (BenchmarkReviewAgreement, against the default's review of the same
// games): at 100,000 nodes 75% of moves keep their class and 83% of the
// mistakes and blunders are still found; at 50,000, 70% and 83%.
//
// The feature reviews with the service's engine when it is a Reviewer and draws
// with its renderer when it is a Renderer (bot.NewEngine's and bot.NewRenderer's
// are); New plugs it into the service.
package review
