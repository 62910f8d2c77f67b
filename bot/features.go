package bot

import (
	"time"

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
			s.challengeCommand(),
			s.acceptCommand(),
			s.declineCommand(),
			s.cancelCommand(),
			s.challengesCommand(),
			s.moveCommand(),
			s.placeCommand(),
			s.boardCommand(),
			s.gamesCommand(),
			s.nextCommand(),
			s.historyCommand(),
			s.resignCommand(),
			s.drawCommand(),
			s.takebackCommand(),
			s.moreTimeCommand(), // moretime.go: give the opponent one more day
			s.abortCommand(),
			s.pgnCommand(),
			s.gifCommand(),
			s.hintCommand(),
			s.rulesCommand(),
			s.settingsCommand(),
			s.leaveCommand(), // leave.go: leave freezes a player's clocks
			s.leaderboardCommand(),
			s.profileCommand(),
			s.matchCommand(),
			s.rematchCommand(),
			s.helpCommand(),
		}},
		{Tick: s.expireChallenges}, // challenges.go: challenges that expire
		{Buttons: playButtons},     // play.go: move, draw, resign, place
		{Buttons: pgnButton},       // views.go: PGN of a finished game
		{Buttons: rematchButton},   // rematch.go: a rematch of a finished game
		{Saving: func(tx *Tx, g *storage.Game, now time.Time) error { return syncPause(tx.Tx, g, now) }, // leave.go: leave freezes clocks
			Moving: func(tx *Tx, g *storage.Game, side rules.Side, now time.Time) error {
				return s.moveEndsLeave(tx.Tx, tx.e, g, side, now)
			},
			Tick: s.duePlayers}, // leave.go, digest.go: leaves that end, daily digests
		{Lane: matchLane, EngineMoved: func(tx *Tx, g *storage.Game, side rules.Side) error { return s.matchCap(tx.Tx, tx.e, g, side) },
			EngineFailed: s.matchFailed, Threads: map[EventKind]func(*storage.Tx, string, string) error{EventMatch: setMatchThread}}, // matches.go
		{GameEnded: rateGame},         // ratings.go: a rated game changes both ratings
		{GameEnded: s.matchGameEnded}, // matches.go: the result, the next game, the final score
		s.conditionalFeature(),        // conditional.go: /conditional; replies played, lines moved on or cleared
		s.reviewFeature(),             // review.go: /review, and a review of every game that ends
	}
}
