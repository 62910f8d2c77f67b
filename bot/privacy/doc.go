// Package privacy lets a player see what Missive keeps about them and have it
// deleted, as Discord's Developer Policy asks of every app
// (https://support-dev.discord.com/hc/en-us/articles/8563934450327-Discord-Developer-Policy:
// an app tells its users what data it keeps about them and deletes that data
// when they ask).
//
// /privacy show answers, privately, with a summary and a JSON file of
// everything stored about the player: their settings, ratings, games (with the
// conditional lines they prepared, private to them), challenges, tournaments,
// the notices still to deliver to them and the reviews they asked for.
//
// /privacy delete first says what it will delete and asks for a press of its
// button; then it deletes the player's settings, ratings, challenges,
// conditional lines, queued notices and review requests. Their finished games
// stay, as records of the opponents' play, with the player's seat given to "a
// former player" (an id of the form former:HEX that says nothing of the person);
// so do the finished tournaments they played. Game reviews stay with their
// games: they are the engine's analysis of a public record and name nobody.
// While the player has a game in progress or plays in an open or running
// tournament the deletion is refused, naming the commands that end those
// (/resign, /tournament leave): a game in progress needs its player. Answers to
// commands kept for retried deliveries (storage's requests, 48 hours) expire by
// themselves.
//
// The answers are in the asker's language (locales/, Catalogue); the file is data
// and stays as it is stored.
//
// New returns the feature; bot/features lists it.
package privacy
