// Package settings is what a player sets about themselves rather than about a
// game: /settings (how they are told about their games, by a mention in the
// game's thread or a direct message, the board's theme, the reminders before a
// deadline and the hour of the daily digest), /leave (days off: while a player is
// on leave their clocks are frozen in every game that allows it, their opponents
// are told, and a move of their own, /leave end or the leave's end runs them
// again) and the daily digest (one direct message a day, at the hour chosen,
// listing the games waiting for the player's move).
//
// New returns the feature; bot/features lists it.
package settings
