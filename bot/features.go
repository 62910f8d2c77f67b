package bot

import (
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/storage"
)

// builtin lists the service's own features: every command, one line each, in the
// order they are best listed, and what follows from a game's end, in the order it
// runs. Each is declared in its feature's file; this table is the one place that
// names them, and the core reaches them only through it.
func (s *Service) builtin() []Feature {
	return []Feature{
		{Commands: []Command{
			s.boardCommand(),
			s.gamesCommand(),
			s.nextCommand(),
			s.historyCommand(),
			s.pgnCommand(),
			s.gifCommand(),
			s.hintCommand(),
			s.rulesCommand(),
			s.leaderboardCommand(),
			s.profileCommand(),
			s.tournamentCommand(),
			s.matchCommand(),
			s.helpCommand(),
		}},
		{Buttons: pgnButton}, // views.go: PGN of a finished game
		{Lane: matchLane, EngineMoved: func(tx *Tx, g *storage.Game, side rules.Side) error { return s.matchCap(tx.Tx, tx.e, g, side) },
			EngineFailed: s.matchFailed, Threads: map[EventKind]func(*storage.Tx, string, string) error{EventMatch: setMatchThread}}, // matches.go
		{Threads: map[EventKind]func(*storage.Tx, string, string) error{EventTournament: setTournamentThread}}, // tournaments.go
		{GameEnded: rateGame},              // ratings.go: a rated game changes both ratings
		{GameEnded: s.tournamentGameEnded}, // tournaments.go: the result, standings, the next round
		{GameEnded: s.openWaitingGames},    // tournaments.go: room in the server for round-robin games waiting
		{GameEnded: s.matchGameEnded},      // matches.go: the result, the next game, the final score
		s.reviewFeature(),                  // review.go: /review, and a review of every game that ends
	}
}
