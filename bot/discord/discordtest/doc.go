// Package discordtest is a fake Discord for end-to-end tests of the Discord adapter: a
// REST API and a gateway on 127.0.0.1 that the real discordgo client talks to, checking
// every request against Discord's official OpenAPI description.
//
// # Pointing discordgo at the fake
//
// discordgo builds its URLs from package-level variables (discordgo.EndpointAPI and
// dozens of others concatenated from it when the package initialises), so redirecting it
// by reassigning them would mean rewriting every derived variable, and would be a shared
// mutable global: a data race under -race and a leak between parallel tests, each with
// its own server. Instead each session gets its own plumbing, through fields discordgo
// exposes for this:
//
//   - Session.Client is Server.HTTPClient: its transport sends requests for discord.com
//     (and discordapp.com) to the fake's address, and refuses and reports any other host,
//     so nothing leaves the machine.
//   - Session.Dialer is Server.Dialer: it dials only the fake. GET /gateway answers the
//     fake's ws:// URL, which discordgo then dials.
//
// Server.Attach sets both; Server.NewSession returns an attached session with the Guilds
// intent. Tests stay parallel and -race clean.
//
// # Gateway
//
// The gateway speaks Discord's protocol with JSON encoding: HELLO with the configured
// heartbeat interval, IDENTIFY (token, intents, shard; Identifies exposes what was sent,
// and a privileged intent the application lacks closes the connection with 4014),
// heartbeat ACKs, READY (session id, resume_gateway_url, user, application, guilds) and one
// GUILD_CREATE per guild of the shard with its channels, threads, roles and members (all
// members only with the Guild Members intent, as on Discord). Events carry sequence
// numbers and are kept per session, so Disconnect (a dropped connection) is followed by
// RESUME with the missed events replayed, then RESUMED. The resume address
// (ResumeGatewayURL) differs from the connect address, as Discord's does, and a RESUME
// on the connect address fails the test (unless the resume address was unreachable, or
// Config.AnyResumeURL for a bare discordgo session, which ignores it); Reconnect sends opcode 7 and
// InvalidateSession opcode 9. discordgo v0.28.1 asks for API v9 and payload compression,
// so dispatches are zlib-compressed binary frames; zlib-stream transport compression is
// supported too. Events the bot's intents exclude (MESSAGE_CREATE without Guild
// Messages) are not sent.
//
// Tests inject interactions shaped as Discord v10 sends them (snowflake ids, member with
// user and permissions, app_permissions, token, version 1): Command and Autocomplete
// type their options from the command the bot registered and check them as the Discord
// client would; Click and Select press components of a message the bot posted; and
// SubmitModal fills in a modal the bot opened. Redeliver sends an interaction twice.
// Users and channels are named by username or channel name, or given by id; DMChannel
// gives the id of a user's DM channel with the bot, for interactions in DMs, and
// GroupDM makes a group DM the bot is not in, where only commands registered for the
// private-channel context and the user install are offered, with the interaction shaped
// as for a user-installed app (context 2, user, authorizing_integration_owners) and
// every REST request about the channel refused with 50001 Missing Access.
//
// Sharding is modelled as Discord does it in one process: each IDENTIFY names its
// shard, each server's events and interactions go to shard (guild_id >> 22) %
// num_shards and everything without a server (direct messages) to shard 0; ShardOf
// computes it and ShardEvents lists what a shard's session was sent.
//
// # REST
//
// The fake implements the routes a slash-command bot uses: command registration (bulk
// overwrite, global and per guild), interaction callbacks of every type, the original
// response and followups, messages (JSON or multipart with payload_json and files[n]),
// threads with and without a message, thread members, DM channels, and the identity
// routes. It keeps a model (channels, threads, messages, commands, interaction
// responses) that tests query: Messages, Original, Followups, Callbacks, Commands,
// Threads, with Wait helpers. It behaves as Discord does where a bot must cope: a
// second answer to an interaction gets 40060, an answer after 3 seconds 10062, a DM to a
// user who blocks them 50007 (Config user BlocksDMs or BlockDMs), and a thread in a
// channel where the bot may not create threads 403 Missing Permissions 50013 (Channel
// DenyThreads or Server.DenyThreads, a real permission overwrite the bot sees in its
// state). SetLatency slows answers and FailNext plants errors and rate limits.
//
// # As strict as Discord
//
// By default (Config.Unlimited turns them off, for tests that say why) the fake applies
// Discord's global limit of 50 requests a second outside the interaction endpoints, a
// per-channel bucket on Create Message (5 per 5 seconds) and a per-server limit on
// thread creation (10 per 10 seconds, a "shared" scope); gives the bot's role what a
// typical invite grants (no Manage Threads, no Manage Messages); delivers interactions
// in the users' locales (en-US, de, fr, pt-BR in DefaultGuild); and refuses
// application commands and component interactions in archived threads, as Discord and
// its web and mobile clients do (such an interaction fails the test). The
// 2,000-character content limit comes with the API description.
//
// The fake enforces Discord's rules where they bite a bot, each citing Discord's
// documentation where it is enforced (strict.go): per-route rate-limit buckets per
// channel, guild or webhook (SetRateLimit) with X-RateLimit-* headers, 429, retry_after
// and Retry-After, and a thread-creation limit shared per server (SetThreadCreateLimit);
// archived threads, which a post unarchives, and locked ones, which refuse a bot without
// Manage Threads with 160005 (ArchiveThread); deleted channels and threads, 10003
// (DeleteChannel); forum and media channels, which refuse messages (40058) and take posts
// through POST /channels/{id}/threads with a message; the server's cap on active
// threads, 160006 (SetMaxActiveThreads); interaction tokens that expire after 15
// minutes, 50027 (InteractionTokenLifetime, ExpireInteraction); the 6,000-character total
// of a message's embeds and its five action rows; and bursts of 5xx answers and dropped
// connections on demand (FailNextN, Failure.Drop). RateLimited counts the 429s answered.
// A message created with a nonce and enforce_nonce, in JSON or a multipart
// payload_json, returns the bot's earlier message with that nonce from the past few
// minutes (SetNonceWindow) instead of creating another; NonceHits counts those answers.
// ForeignGuild makes a server the bot is not in, where the user-installed app's
// commands are offered (guild context, user install) and their interactions come with
// authorizing_integration_owners holding only the user install, REST about its
// channels gets 50001 and an interaction takes at most 5 followups (foreign.go).
// RemoveBot and AddBot take the bot out of a server and back (GUILD_DELETE, then
// GUILD_CREATE); DeleteChannel sends CHANNEL_DELETE or THREAD_DELETE.
// BotThread makes a thread as the bot would have, for a bot process killed before it
// recorded it. SetBotPermissions changes the bot's permission overwrite on a channel mid-test (its
// threads follow), with CHANNEL_UPDATE. InvalidRequests counts the answers Discord counts
// toward its ban of 10,000 invalid requests (401, 403, 429) in 10 minutes (invalid.go),
// and a request refused with 401 or 403 again with nothing changed in the world since
// (no permission, archive, lock, deletion or DM setting changed) fails the test: a correct bot would not have made it (AvoidableInvalidRequests,
// AllowRepeatedInvalid).
//
// # Validation
//
// Every request is matched to an operation of Discord's openapi.json (path template with
// literal segments winning, method), its path and query parameters are validated against
// their schemas, and its JSON body, or the payload_json and files of a multipart body,
// against the operation's requestBody schema, using github.com/santhosh-tekuri/jsonschema
// (JSON Schema 2020-12, the dialect of OpenAPI 3.1) with format assertions and a
// "snowflake" format. A violation fails the test with the route and the JSON pointer of
// the offending value, and the request gets Discord's 400 Invalid Form Body. The one
// known gap between the description and the API is bridged: default_member_permissions
// may be a decimal string (Discord's docs and discordgo use strings; the description
// says integer). The fake also enforces rules the description cannot express: command
// and option names, descriptions, option order and counts, and component custom ids.
//
// The description is the repository's copy, testdata/openapi.json (from
// discord/discord-api-spec under its MIT licence; testdata/README.md names the commit),
// compiled into the test binary, so no test reads anything outside the repository and
// none is skipped for want of it. $DISCORD_OPENAPI names another copy to use instead; if
// that file cannot be read, New fails the test. The description is loaded once per test
// binary (DefaultSpec) and each operation's schema is compiled once, when first needed.
//
// # What fails a test
//
// New reports to t.Error every request that does not fit the description, every error
// the fake answers that a correct bot would never get (unknown interaction, double
// acknowledgement, late answer, unknown message, wrong token, an unimplemented route),
// and every scenario Discord would never deliver (a command the bot did not register, an
// option outside its choices, a click on a disabled or missing button). Errors a bot must
// handle (50007, 50013, planted failures) are answered without failing the test.
package discordtest
