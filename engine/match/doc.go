// Package match plays engine-versus-engine matches: N games with colours
// alternating and varied openings, adjudication (the rules' own outcome, plus a move
// cap), a PGN of all games and a summary with the score, the Elo difference and its
// 95% error margin. It is the one match stack: the bot's /match plays its games as
// stored games but takes its openings, colours, cap, score and Elo wording from here.
package match
