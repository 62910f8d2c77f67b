package bot

import (
	"fmt"

	"github.com/missivechess/missive/bot/clock"
	"github.com/missivechess/missive/bot/words"
	"github.com/missivechess/missive/storage"
)

// What several features say of the stored records: a challenge's terms, the
// order of games by deadline.

// ChallengeTerms describes a challenge's settings.
func ChallengeTerms(c *storage.Challenge) string {
	kind := "casual"
	if c.Rated {
		kind = "rated"
	}
	col := "colours drawn at random"
	if c.Color != storage.ColorRandom {
		col = fmt.Sprintf("%s plays %s", c.Challenger.Name, c.Color)
	}
	return fmt.Sprintf("%s, %s, %s", clock.Text(c.DaysPerMove, c.Bank), kind, col)
}

// ChallengeLine describes an open challenge in one line.
func (s *Service) ChallengeLine(c *storage.Challenge) string {
	to := "anyone"
	if c.Opponent.ID != "" {
		to = words.Seat(c.Opponent)
	}
	return fmt.Sprintf("#%s %s: %s → %s, %s (until %s)", c.ID, s.VariantName(c.Variant), words.Seat(c.Challenger), to, ChallengeTerms(c), words.Time(c.ExpiresAt))
}

// DeadlineKey orders games by deadline, those without one last.
func DeadlineKey(g *storage.GameSummary) int64 {
	if g.Deadline.IsZero() {
		return 1 << 62
	}
	return g.Deadline.UnixMilli()
}
