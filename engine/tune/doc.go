// Package tune fits the weights of the chess-family evaluation to game results by
// the Texel method: it replays PGN games, keeps their quiet positions, labels each
// with the game's result, extracts each position's feature vector once, fits the
// scale K of the win-probability curve, then the weights by minimising the logistic
// loss with Adam, and writes the weights file the engine embeds. See README.md.
package tune
