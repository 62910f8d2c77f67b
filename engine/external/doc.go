// Package external runs external chess engines (UCI or XBoard programs such as
// Fairy-Stockfish and Fairy-Max) as opponents: it starts the process, handshakes,
// selects the variant, sends the game, asks for a move within a time limit (or,
// of a UCI engine, a number of nodes) and checks the answer against Missive's
// rules. Every read has a deadline; a crashed or hung engine is a clear error,
// the game is untouched, and the next request restarts it. Each engine runs in a
// process group of its own under a guard that ends the group when the bot dies,
// even by SIGKILL (guard.go).
package external
