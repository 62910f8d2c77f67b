// Package words writes what every feature of the play service says the same way:
// players' names, how a game ended, times and durations, counted nouns, lists,
// shortened text and the echo of an id a player typed. It is plain text work with
// no state, below the service's kernel (package bot) and its features.
package words
