// Package matches is what a player sees of engine matches: /match (admins) runs an
// engine-versus-engine match in a thread of its own, shows its score or stops it.
//
// The two engines play the games one after another as ordinary stored games
// (unrated, a day per move so that the scheduler retries an engine after a
// restart), colours alternating, each pair of games from the same seeded random
// opening (Go-Chess: the same blocked cells). Each result is posted with the final
// board and the running score; the last with the score, the Elo difference and its
// 95% margin, and the PGN of every game attached. The match record (storage.Match)
// and the next game are written in the transaction that ends a game, so a restart
// loses nothing and starts no game twice. A game that reaches the ply cap is drawn
// by adjudication; an engine that fails to move loses that game. Match games take
// turns in an engine lane of their own (bot.Feature.Lane), apart from people's
// games.
//
// The match itself (the seeded openings, the colours, the score and the Elo
// estimate with its wording) is engine/match's, shared with "missive match"; this
// package keeps what is the bot's: stored games, the match's thread and its posts.
//
// The replies to /match are in the asker's language and the match's posts in the
// server's (locales/, Catalogue); the Elo estimate is worded here in every
// language, as engine/match words it in English for the command line.
package matches
