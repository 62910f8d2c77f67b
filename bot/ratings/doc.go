// Package ratings is what a player sees of ratings: /leaderboard, the best rated
// players of a game on a server, /profile, a player's ratings, games and results
// per game, and the end of every rated game changing both players' Glicko-2
// ratings (the maths is bot/rating's).
package ratings
