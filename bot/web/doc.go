// Package web is the adapter that shows every game on a web page: the board of
// each of the four games drawn in the pictures' pieces and colours, the move list
// with stepping, flip, clocks, PGN and GIF downloads, live updates as moves are
// played, moves by click for the player to move, and a private analysis board
// whose variations and notes are kept per player and game in the data file.
//
// Like the console it drives the service through its exported API only: a move
// made on the page is a Request handled by Service.Handle exactly as /move and
// /place are, so validation, conditional moves, notices and the clock take the
// one path. Legal moves, for the board and for the analysis, come from the rules
// packages on the server; the page's script has no rules of its own.
//
// Pages open only with a signed link (token.go): a view link for those who may
// see the game, and a personal link for a player (their analysis, their hidden
// placement, their moves). A request without a valid link is answered as for a
// game that does not exist. Links are signed with a key kept in the data file
// (storage.Tx.WebSecret) and can be revoked (the /web command). Every response
// carries security headers (a Content-Security-Policy without inline scripts or
// styles), and requests are rate-limited per address.
//
// The page's files (assets/) are plain HTML, CSS and JavaScript embedded in the
// binary: no build step and no third-party host.
//
// A page speaks its viewer's language (lang.go, locales/): the one its lang
// parameter names, else the browser's (Accept-Language), else that of the player
// a personal link was made for, else the game's server's, else English. The page
// (game.html, a template) is written in it, with <html lang> set and the
// sentences its script writes in a JSON element (the script stays the page's only
// one, as the Content-Security-Policy wants); the script sends the language back
// with every call, so that the status line, the refusals and the replies of moves
// made on the page come in it too.
package web
