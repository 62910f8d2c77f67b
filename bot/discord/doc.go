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
// inside Discord's 3 seconds, counted from the interaction's arrival: the channel's
// kind comes with the interaction, so nothing is asked of Discord first. Refusals and
// private replies are ephemeral. Board pictures and animations are attached as files
// and shown in the embed. An answer always comes: a failed answer is posted in the
// channel with a mention (a private one goes by direct message), and a failed edit of a
// deferred answer becomes a followup, or that post. Messages keep to Discord's limits:
// at most five action rows, and embeds shortened, with a note, to 6,000 characters.
//
// A reply's buttons, confirmations, Move modal and select menus are Discord
// components whose custom ids (at most 100 characters) encode
// kind|command|input|arguments, so they keep working after a restart; confirmation
// questions and modal labels, which do not fit, are remembered in memory and fall
// back to a generic wording after a restart.
//
// An accepted challenge opens a public thread named after the game, where the board,
// notifications and talk go (Service.SetThread records it); in a forum or media
// channel the game gets a post instead. Where the bot may not create threads (Discord
// error 50013) or the server has all the active threads it may (160006) the game stays
// in the channel, and the bot says so once per channel for the first. A challenge, its
// acceptance, and starting a tournament or match are refused, with a sentence naming
// the permissions, where the interaction's app_permissions lack Send Messages, Send
// Messages in Threads (where games get threads), Attach Files or Embed Links.
//
// Bot implements bot.Notifier: mentions in the game's thread, direct messages for
// players who chose them, and a mention in the thread for a player whose direct
// messages are closed (50007; the bot then sends that player no direct message for an
// hour). Posting in an archived thread unarchives it; a game's thread that is deleted
// (10003) or hidden (50001) is replaced by a new one (recorded with Service.SetThread),
// or else the parent channel is used; a thread that exists but takes no messages from
// the bot (locked, 160005, or Send Messages in Threads denied, 50013) is remembered and
// its notices go to the parent channel, and the server's owner is told once what
// permission the bot needs; a channel that refused threads is not asked again. Both are
// forgotten when Discord reports the permission back (CHANNEL_UPDATE, THREAD_UPDATE), so
// the bot makes no request Discord would refuse again with 403 (each counts toward
// Discord's ban on 10,000 invalid requests in 10 minutes). A server the bot was removed
// from (GUILD_DELETE) or a deleted channel (CHANNEL_DELETE) is asked nothing more: its
// games' players are told by direct message and their notices come that way, and the
// service starts no game there (bot.Service.GuildLeft) until the bot is back; a server
// in an outage holds its posts in the outbox; a deleted thread (THREAD_DELETE) is
// replaced without a request to it (gone.go). A user-installed command run in a server
// the app is not installed in (authorizing_integration_owners without the server) is
// played as in a group DM: answered through the interaction, the game in the players'
// direct messages, nothing asked of the server (contexts.go, outsideServer). Each post of
// a notification carries its outbox id as the message nonce with enforce_nonce, and
// each part that arrived is remembered under its key, so delivering it again after an
// error sends only what failed. Notify's errors keep bot.Notifier's contract, after
// Classify: a 429 is a *bot.RetryAfter (not waited out by discordgo, so a slow channel
// holds no worker); so is a game's or event's thread that Discord's thread-creation
// limit holds back (a 429, or discordgo's bucket already spent: startThread never
// sleeps), and its notice waits for the thread rather than going to the channel; a permanent failure (a deleted channel, a missing permission...)
// is bot.ErrPermanent, others are retried; each names its kind (bot.FailureReason). Failures counts the
// failed requests to Discord by kind, for metrics.
package discord
