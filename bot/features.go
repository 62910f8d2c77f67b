package bot

import (
	"github.com/missivechess/missive/storage"
)

// builtin lists the service's own features: every command, one line each, in the
// order they are best listed, and what follows from a game's end, in the order it
// runs. Each is declared in its feature's file; this table is the one place that
// names them, and the core reaches them only through it.
func (s *Service) builtin() []Feature {
	return []Feature{
		{Commands: []Command{
			s.tournamentCommand(),
		}},
		{Threads: map[EventKind]func(*storage.Tx, string, string) error{EventTournament: setTournamentThread}}, // tournaments.go
		{GameEnded: s.tournamentGameEnded}, // tournaments.go: the result, standings, the next round
		{GameEnded: s.openWaitingGames},    // tournaments.go: room in the server for round-robin games waiting
	}
}
