// Package storage keeps Missive's games, players, challenges, tournaments, ratings and
// idempotency records in one embedded bbolt file (go.etcd.io/bbolt), and its indexes
// beside them, so that a correspondence game survives restarts, crashes and upgrades.
//
// # Records
//
// A game is stored as its record (package rules/record, which plays, takes back and
// replays it; storage only stores and indexes it): its start (a variant seed, or a
// position text) plus the list of its moves in canonical notation (Position.UCI); a
// choice made in a simultaneous round (Go-Chess placement) also records the side that
// chose. Loading a game (Tx.Game) replays the record under the variant registry given
// to Open; a record that no
// longer replays is reported as a *ReplayError naming the game and the move, never
// accepted silently, and PutGame refuses to store one. Replayed positions are cached
// by content (variant, start and every move), so a hot game is not replayed on each
// move.
//
// Every record is a JSON object whose first member is its format, {"v":1,...}. JSON
// was chosen over gob or protobuf because a game lasts weeks and its record must stay
// readable by people and tools (bbolt's CLI, jq) when something goes wrong; because
// new optional fields need no migration; and because it is in the standard library.
// Its cost (tens of microseconds a record) is small beside the fsync of each commit,
// and listings read small summaries instead of whole games. Times are RFC 3339 in
// UTC. Enumerations are stored as fixed texts, never as numbers that could shift:
//
//	game status      ongoing | won | drawn                (rules.Status)
//	game reason      checkmate | stalemate | threefold | fifty-move |
//	                 insufficient-material | ring-loss | agreement | resignation |
//	                 timeout | timeout-insufficient-material | aborted |
//	                 adjudication  (rules.Reason)
//	sides            white | black                        (winner, to_move, offers, move side)
//	notify           "" (bot default) | mention | dm | both
//	challenge        open | accepted | declined | cancelled | expired; colour white | black | random
//	tournament       round-robin | double-round-robin | swiss; open | running | finished | cancelled
//	match            running | finished | stopped (an engine match, schema 2)
//	review class     best | good | inaccuracy | mistake | blunder (schema 4)
//
// A game's "clock" holds either "days" (days per move) or "bank" (a time bank in
// whole hours: {"base_h","inc_h","cap_h"}, the start, the gain after each move and
// the cap) with "left_s" ([white, black], each side's bank in seconds); "since" (when
// the current period began), "deadline", "wake" and "sent" (the scheduler's
// bookkeeping), "paused" (when leave froze the clock of the side to move), "no_leave"
// (leave does not freeze it), "given" ([by white, by black], days of extra time
// given) and "outage" (the id of the last outage given back to the game; outage.go). A record without "bank" is a days-per-move clock, and one without "since"
// began its period at its deadline less its days. Challenges, tournaments and game
// summaries hold the same "bank" beside "days"; a tournament's "no_leave" passes to
// its games.
//
// A player's "leave" ({"start","end"}) is the leave in progress; "leave_year" and
// "leave_used_h" count the hours of leave begun in that calendar year (UTC);
// "digest_hour" (0-23, UTC; absent: no digest) asks for a daily digest, next due at
// "digest_next", last sent on "digest_sent" (a date, 2006-01-02).
//
// A game record may hold the players' conditional lines (bot/conditional.go), an
// optional member that needs no migration:
//
//	"conditional": [{"side": "black", "ply": 23, "moves": ["g1f3", "c8e7", ...]}]
//
// side is the player who prepared the line; moves alternate the opponent's expected
// entry and that player's reply, in canonical notation, the first being entry ply
// (0-based) of the record. The lines are private to their player: no summary,
// listing, history or PGN includes them.
//
// The golden file testdata/game_v1.json shows a complete game record.
//
// # Buckets
//
// Keys join their parts with a NUL byte (ids may not contain one); "time" is 8
// big-endian bytes of Unix milliseconds, so byte order is time order. Ids the store
// assigns are decimal sequence numbers ("1", "2", ...), one sequence per bucket.
//
//	bucket                key                                 value
//	meta                  "schema" | "created" | "migrated"   schema version (decimal) and dates
//	                      "clock-offset"                      a console's /wait offset ("72h0m0s"; optional)
//	                      "web-secret"                        the key that signs web links (32 random
//	                                                          bytes, hex; made once; never logged)
//	                      "heartbeat"                         when the bot was last live and connected
//	                                                          (RFC 3339; written about once a minute;
//	                                                          optional), for fair clocks after an outage
//	                      "outage"                            the outage being given back to the running
//	                                                          games, and how far it got (outage.go)
//	games                 game id                             Game
//	players               player id                           Player (settings)
//	challenges            challenge id                        Challenge
//	tournaments           tournament id                       Tournament (settings, entrants, and the
//	                                                          pairing state of bot/tournament as JSON)
//	ratings               guild, variant, player              Rating (Glicko-2, per server and variant)
//	requests              interaction or command id           {"at": time, "result": base64 blob}
//	matches               match id                            Match (an engine match; schema 2)
//	outbox                8 big-endian bytes of a sequence    OutboxEntry: a notice still to deliver
//	                      number (queue order)                (schema 3; see "The outbox")
//	reviews               game id                             Review (the engine's review of a game:
//	                                                          per move its class, scores, better
//	                                                          move and line; schema 4)
//	review.queue          game id                             ReviewRequest: a review asked for (by
//	                                                          /review or a game's end) and not yet
//	                                                          stored, with the game's entries then;
//	                                                          deleted with the review's write (schema 6)
//	outage.players        player id                           OutageTally: what a player is told once an
//	                                                          outage is given back (only meanwhile)
//	counts                "state", status | "guild", guild    8 big-endian bytes: games in that state, or
//	                                                          in progress in that server, moved by every
//	                                                          write of a game (schema 7; counts.go)
//	analyses              game id, player id                  Analysis: a player's private analysis of a
//	                                                          game (variations and notes; schema 8)
//	web.tokens            game id, player id ("" for viewers) the generation of the game's web links
//	                                                          (decimal; revoking one raises it; schema 8)
//	servers               guild id                            Server: a server's settings (the language
//	                                                          an admin chose; schema 9)
//
// Indexes, rewritten in the same transaction as their record (Verify checks them):
//
//	idx.game.player       player, "a", game id                ongoing games of a player
//	                      player, "o", time ended, game id    finished games, by end time
//	idx.game.thread       thread id -> game id                unique: one game per thread
//	idx.game.due          time due, game id                   ongoing games with a clock, by Clock.Due
//	                                                          (the earlier of Wake and Deadline)
//	idx.game.active       game id                             ongoing games
//	idx.game.summary      game id -> GameSummary              every game, for listings
//	idx.game.tournament   tournament id, game id              games of a tournament
//	idx.challenge.open    guild, challenge id                 open challenges of a server
//	idx.challenge.player  player, challenge id                open challenges made or received
//	idx.challenge.expiry  time expires, challenge id          open challenges that expire
//	idx.tournament.guild  guild, "a"|"o", tournament id       open/running, or finished tournaments
//	idx.request.time      time recorded, request id           for expiring idempotency entries
//	idx.match.guild       guild, "a"|"o", match id            running, or finished engine matches
//	idx.player.due        time due, player id                 players on leave (by its end) and with a
//	                                                          daily digest (by the next one); schema 5
//
// # Transactions
//
// Store.View runs a read-only snapshot; Store.Update a write transaction committed with
// fsync. Every record carries a Version: writing a record read at an older version
// fails with ErrConflict, so two concurrent changes to one game cannot both apply.
// Store.UpdateGame and Store.DoGame change one game atomically: they load and replay
// it, call the change, prepare the new record and indexes outside the write
// transaction, and commit only if the stored game is still the one they read
// (starting again otherwise). Concurrent writers are committed together in groups
// (bbolt's Batch) while a lone writer commits at once, so callbacks may run more than
// once and must change nothing but their records.
//
// Store.Do and Store.DoGame store the id of an incoming interaction or command with a
// small result blob in the same transaction as the change, so a retried delivery
// returns the first result instead of moving twice. Entries expire after
// Options.RequestTTL (48 hours by default).
//
// # The outbox
//
// A notice for a player (your move, a reminder, an offer, a result, tournament news)
// is written to the outbox in the transaction of the change that causes it
// (Tx.PutOutbox), and deleted once delivered (Tx.DeleteOutbox), so a crash after the
// commit delays a notice but never loses it. An entry is
//
//	{"v":1,"id":"17","dest":"channel:123","queued":"2025-03-03T12:00:00Z","body":{...}}
//
// where id is its sequence number in decimal (never reused in a file; package bot
// sends it as the message nonce), dest the queue it is delivered in, in id order
// ("channel:ID" a channel or thread, "dm:USER" a player's direct messages, "event:
// KIND:ID" or "game:ID" when no place is known yet, "local" without any place), and
// body the notice in package bot's format, whose names are stable:
//
//	key, kind            what it is about ("move/7/black") and its notice kind
//	                     (turn | challenge | draw-offer | takeback | game-over |
//	                     reminder | info | tournament | match)
//	to                   {"ID","Name"} of the player told (empty for an event's post)
//	channel, direct      post in the place, and/or send a direct message
//	game                 {"id","guild","channel","thread"}: the game and its place
//	event                {"kind": tournament | match, "id", "name"}
//	title, text, fields  the message ({"name","value","inline"} fields)
//	actions              buttons: {"label","style","command","args","confirm",
//	                     "input","input_label","answers" (it answers its message)}
//	topic, final         what the buttons act on ("challenge/7"), and whether this is
//	                     the game's last word (its thread is then archived)
//	files                attachments: {"name","content_type","data" (base64),"alt"}
//	image                the picture, redrawn when sent, as of the moment it was
//	                     queued: {"name","alt","variant","position" (its text),
//	                     "viewer","theme","last_from","last_to","text_board"}; or,
//	                     for a position whose text does not read back (a placement
//	                     round's view), the drawn "png" and "board" text; or a
//	                     "table" {"title","note","columns","rows","text"}
//
// A position's text is stored rather than the picture because it is a hundred bytes
// against tens of kilobytes and takes microseconds to write inside the transaction,
// where drawing would hold every other writer back; and rather than the game's id and
// ply, because a takeback can change what the game held at that ply.
//
// # Opening, schema versions and damage
//
// Open waits Options.LockTimeout for the file's lock and then fails with ErrLocked
// ("is the bot already running?"). It refuses a truncated, empty or damaged file with
// ErrCorrupt, instead of crashing later: before bbolt reads the file, its own page
// check (pages.go) reads the tree with every bound checked: the root bucket, every
// bucket's header and branch pages, and for a file up to Options.FullCheckBelow
// (256 MB) every leaf page. A larger file's leaf pages, and every record, are checked
// after Open while the store serves (check.go, Store.Checked): a damaged page then
// makes every transaction fail with ErrCorrupt, as Open would have; a damaged record
// is logged by kind and id with the way out. It also reads bbolt's two meta pages itself:
// when one fails its checksum, bbolt would silently open the file as of the other
// (older) commit, so Open refuses it with ErrCorrupt, saying which transaction would
// be lost; BackupFile copies such a file as of the older commit and says so. The meta bucket records the schema version:
// Open runs the pending migrations in one transaction, after writing a snapshot
// (FILE.schema-N.bak), and refuses a file from a newer Missive with ErrSchema.
//
// # Backups
//
// Store.Backup writes a consistent snapshot from a read transaction while the bot
// keeps running. Because the running bot holds bbolt's exclusive lock, a store opened
// read-write also serves snapshots on a unix socket next to the data file (SocketPath,
// owner-only permissions), or in the owner's folder ~/.cache/missive (mode 0700, in a
// home folder no other user may write in, so no one else can have made it first) when
// other users may write next to the data file; BackupFile, behind "missive backup
// -o FILE [--data PATH]", uses that socket when the bot runs, trusting it only when the
// data file's owner made it in a folder no one else may write in, and opens the file
// read-only itself otherwise. Sources that are not regular files with contents are
// refused at once. It writes a temporary file (.FILE.missive-tmp-*, locked while in
// use; stale ones are removed), syncs it, verifies that it passes the page check and
// bbolt's consistency check and that every record decodes and every index matches
// its records (games are not replayed: that is Verify's audit, and the copy holds the
// very pages of the source), and only then renames
// it over FILE.
package storage
