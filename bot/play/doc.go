// Package play is what a player does in a game in progress: /move plays a move
// (and offers the promotions when a move leaves them open), /place makes a
// Go-Chess placement choice (secret until both have chosen), /resign, /draw
// (offer, accept, decline; an engine opponent judges the offer), /takeback
// (casual games), /abort (before both sides have moved), /moretime (one more
// day on the opponent's clock) and /conditional (replies prepared while the
// opponent thinks, played at once when a line matches). Under the board of a
// game in progress it puts the Move (or Place), draw and Resign buttons.
//
// The move itself (clock, storage, announcement, hooks) is the kernel's
// (bot.Tx.Play, bot.Tx.Choose); this package decides when a player may act and
// says so.
package play
