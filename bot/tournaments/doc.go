// Package tournaments is /tournament: a server's correspondence tournaments.
//
// An admin creates one (create: the game, round robin, double round robin or
// Swiss, the clock, whether leave may freeze its clocks, rated or casual, the most
// players, the engines that may enter) and starts it once players have joined
// (join, leave); anyone may see its standings (a picture of the table, or text)
// and its settings and players (info). The pairings come from the pure library
// bot/tournament below this package: its state is stored with the tournament, a
// result is recorded as each game ends, and the next games start in the same
// change: a round robin's a few per player at a time (Options.EventGames) and
// within the server's room for games (Options.GuildGames), a Swiss's next round
// once the last one is over. A player who withdraws from a running tournament
// resigns the games begun and forfeits the rest. The news (the games that start,
// the standings after each result, the final announcement with the winner) is
// posted to the tournament's place, in a thread of its own where the adapter
// opens one.
//
// Every sentence a player reads comes from the package's Catalogue, in the
// reader's language: a reply and a refusal in the asker's, the news (and the
// standings picture they carry) in the server's (local play: the organizer's),
// what the games a withdrawal ends say in each reader's (bot.Tx.EndIn: a direct
// message in its player's), as docs/i18n/README.md says.
package tournaments
