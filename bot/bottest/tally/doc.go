// Package tally is a feature written outside the play service's kernel as any
// feature is, to prove the seam: it reaches the service only through package
// bot's exported API and is plugged in through bot.Config.Features. It adds
// /tally, which says how many of the user's games have ended (with its option
// autocompleted), counts each game that ends for both players inside the
// transaction that ends it, tells each player their new count, and reads the
// count back once the end has committed. Tests use it; the product does not.
package tally
