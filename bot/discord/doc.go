// Package discord is Missive's Discord adapter: it connects the play service
// (package bot) to Discord through a discordgo session that asks only for the
// Guilds intent.
//
// At start-up Bot.Open registers every slash command of Service.Commands with one
// bulk overwrite, globally or per configured server. Each INTERACTION_CREATE becomes
// a bot.Request whose ID is the interaction id (so a delivery seen twice is applied
// once, and the adapter answers it once): slash commands with their typed options,
// autocomplete (at most 25 suggestions from Service.Complete), buttons, select menus
// and modal submissions. Answers go out at once when the service is quick and are
// otherwise deferred, then completed by editing the original response, always
// inside Discord's 3 seconds; refusals and private replies are ephemeral. Board
// pictures and animations are attached as files and shown in the embed.
//
// A reply's buttons, confirmations, Move modal and select menus are Discord
// components whose custom ids (at most 100 characters) encode
// kind|command|input|arguments, so they keep working after a restart; confirmation
// questions and modal labels, which do not fit, are remembered in memory and fall
// back to a generic wording after a restart.
//
// An accepted challenge opens a public thread named after the game, where the board,
// notifications and talk go (Service.SetThread records it); where the bot may not
// create threads (Discord error 50013) the game stays in the channel, and the bot
// says so once per channel. Bot implements bot.Notifier: mentions in the game's
// thread, direct messages for players who chose them, and a mention in the thread
// for a player whose direct messages are closed (50007).
package discord
