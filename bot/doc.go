// Package bot is the kernel of Missive's play service, independent of Discord
// and naming no feature. The features (challenges, play, views, guide,
// settings, ratings, tournaments, matches, review) are packages of their own
// above it, listed once in package features; the Discord adapter (bot/discord)
// and the terminal console (bot/console) drive the service.
//
// An adapter turns each slash command, button press or console line into a
// Request (who, where, which command, its options as text) and calls
// Service.Handle, which dispatches it to the command's feature and answers with an
// adapter-neutral Reply: text, fields, a text board, attachments (board PNG, GIF,
// PGN), buttons and select menus, and whether only the asker may see it. Commands
// lists the commands and their options for registration, help and parsing;
// Complete suggests option values as the user types. Everything the service tells
// players outside replies goes through the Notifier the adapter implements, as
// each player's settings ask, by way of an outbox in the data file, so that a
// restart loses no notice.
//
// The kernel owns the life of a game — find it, act on it, play a move or a
// secret choice, save it, end it, announce it, create it — and what every feature
// shares: requests and replies, commands and the options several share (game,
// days, bank, level), notifications and the outbox, the scheduler (deadlines,
// reminders, engine retries), engine turns, liveness and outage grace. Each change
// runs in one storage transaction together with the request's id, so that a
// delivery seen twice is applied once; a panic in one request is logged and
// answered politely.
//
// # Adding a feature
//
// A feature is a package with its state on its own type and one constructor,
// such as
//
//	func New(s *bot.Service) bot.Feature
//
// returning the commands it adds (Command: spec, handler, completers) and the
// hooks it needs: GameEnded (inside the transaction that ends a game) and
// AfterGameEnded, Moved and TookBack, Saving (before a game is stored) and Moving
// (before a player's own move changes the clock), Tick (each scheduler pass),
// Buttons (under a game's board), Lane, EngineMoved and EngineFailed (engine
// turns), Threads (an event's thread) and Started. A command's handler runs its
// change with Service.Mutate, View or Act, which hand it a *Tx: the store's
// transaction, and what follows once it commits (the reply and its picture,
// notices to players or users, engine moves, after-commit work, a wake-up of the
// scheduler). Name the constructor once in bot/features/features.go, with the
// command's place in its Order; its tests sit beside it and use the one harness,
// bot/bottest. Package bot/bottest/tally is a whole feature written this way.
//
// Engines (the built-in engine and configured external engines) play through
// the Engine interface (NewEngine); boards are drawn through the Renderer
// interface (NewRenderer). Plain text and plain maths every feature shares live
// below the kernel, in bot/words and bot/clock.
package bot
