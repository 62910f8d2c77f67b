// Package challenges is how players start games with each other and with the
// engine. A player challenges someone, anyone in a server, or the engine with
// /challenge (the variant, colour, days per move or a time bank, rated or casual,
// a starting position); the opponent answers with the challenge's Accept and
// Decline buttons or with /accept and /decline, and its maker withdraws it with
// /cancel. /challenges lists the open challenges here and those made to the
// player. A challenge to the engine starts its game at once. An open challenge
// that nobody answers expires after a week (Limits.ChallengeTTL), and its maker is
// told. After a game, the Rematch button under its board, or /rematch, offers the
// same game again with colours swapped; answering the opponent's own rematch offer
// with /rematch accepts it.
//
// New returns the feature; package bot/features lists it.
package challenges
