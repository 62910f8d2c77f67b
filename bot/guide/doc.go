// Package guide is how a player learns to play: /help lists the commands offered
// where it is asked, with a short guide to correspondence play, or explains one
// command's options; /rules shows a game's rules card, its house rules marked,
// with the draws, the notation, the clock, time banks, leave and offers.
package guide
