// Package bot is Missive's play service: everything a correspondence player does —
// challenges, moves, Go-Chess placement, draws, takebacks, clocks, reminders,
// boards, PGN and rules — independent of Discord. The Discord adapter (bot/discord)
// and the terminal console (bot/console) both drive it.
//
// An adapter turns each slash command, button press or console line into a Request
// (who, where, which command, its options as text) and calls Service.Handle, which
// answers with an adapter-neutral Reply: text, fields, a text board, attachments
// (board PNG, GIF, PGN), buttons and select menus, and whether only the asker may
// see it. Commands lists the commands and their options for registration, help and
// parsing; Complete suggests option values as the user types. Everything the
// service tells players outside replies (your move, draw offers, takeback requests,
// game over, reminders) goes through the Notifier the adapter implements, as each
// player's settings ask: a mention in the game's thread, a direct message, or both.
//
// The service decides who may do what (only a game's players act on it, only the
// player due to act moves, nobody accepts their own challenge, limits on games and
// challenges per player), never the adapters. Each change runs in one storage
// transaction together with the request's id, so a delivery seen twice is applied
// once; a panic in one request is logged and answered politely.
//
// The correspondence clock gives each move the game's days per move; Run (or Tick,
// with an injected clock in tests) drives deadlines, reminders, engine retries and
// challenge expiry from the store's next-deadline index, so a restart loses and
// repeats nothing. Run also checks the external engines (enginecheck.go): one that
// cannot play a game is logged and not offered as an opponent in it.
//
// A rated game that ends (on time too; an aborted game has no result) updates both
// players' Glicko-2 ratings (package bot/rating) in its variant on its server, with
// their wins, draws and losses, in the transaction that ends it; /leaderboard and
// /profile show them, a provisional rating marked "?". /tournament runs a server's
// round robins and Swiss events (package bot/tournament): the pairing state is stored
// with the tournament, a result is recorded and the next Swiss round created in the
// same transaction that ends a game, so a restart pairs nobody twice; standings and
// the final announcement are posted to the tournament's place. Creating and starting
// need the server-management permission (Request.Admin; local play needs none).
//
// Inside the package, a feature (challenges.go, play.go, views.go, offers.go,
// ratings.go, tournaments.go, matches.go, ...) declares each of its commands as one
// Command value (spec, whether its answer is private, handler, completers) and what
// follows from a game's end as Feature hooks, one run inside the transaction that
// ends the game and one after it commits. features.go lists them; the core
// (service.go, plugin.go, lifecycle.go, complete.go, options.go, events.go, ...)
// dispatches, lists and completes commands and runs the hooks from that table and
// names no feature. Config.Features plugs in more the same way.
//
// Engines (the built-in engine at levels 1 to 8 and configured external engines)
// play through the Engine interface (NewEngine); boards are drawn through the
// Renderer interface (NewRenderer).
package bot
