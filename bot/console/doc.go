// Package console is a terminal adapter for the play service: it reads slash-style
// commands, runs them as one of several local identities, and prints the replies
// with text boards, writing pictures and PGN files to a folder.
//
// A line is a command and its options as name:value pairs, or bare values (a bare
// value goes to the option whose fixed choices include it, else to the next option
// in order); quote a value with spaces:
//
//	/challenge variant:gothic opponent:bob days:3
//	/challenge gothic bob
//	/move e2e4
//	/challenge variant:gothic fen:"k9/10/3Q6/10/10/10/10/K9 w - - 0 1"
//
// A line without a slash is a move (/move), perhaps with game:NUMBER, unless its
// first word names a command: then it is that command ("help", "games"); other
// words are refused. Typed so, a command that ends or changes a game (resign, abort,
// draw) asks for a yes first, as Discord's buttons do. The console's own commands
// are /as NAME (act as another player), /wait DURATION (move the clock on, such as
// 3d, 25h or 90m, and run the scheduler), /help [COMMAND] and /quit.
//
// With Options.Locale (--locale de) the console speaks that language: its own lines
// come from its catalogue (locales/), the service answers in it, and the service
// keeps it with every identity that plays (a game, a challenge, a tournament), as
// it keeps a Discord client's locale, for what it sends them unasked.
// Commands, subcommands and options may then be typed as the language names them
// (/zug partie:2 zug:e4 is /move game:2 move:e4; /als bob is /as bob), and yes and no
// in it; the values, such as moves, stay as they are typed.
//
// Replies are light Markdown; the console shows them as plain text (plain): only the
// Markdown goes, never what is inside code or a position. Whatever it prints has its
// control characters escaped (safe). An engine match runs in the background, as in
// the bot: its news is printed as it comes, and the end of a script waits for it.
package console
