package bot

import (
	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/bot/words"
	"github.com/missivechess/missive/storage"
)

// What several features say of the stored records: a challenge's terms, the
// order of games by deadline.

// ChallengeTermsIn describes a challenge's settings in language l.
func ChallengeTermsIn(l i18n.Lang, c *storage.Challenge) string {
	loc := catalogue.For(l)
	kind := loc.T("game.casual", nil)
	if c.Rated {
		kind = loc.T("game.rated", nil)
	}
	col := loc.T("challenge.random", nil)
	if c.Color != storage.ColorRandom {
		col = loc.T("challenge.plays."+string(c.Color), i18n.Data{"Player": c.Challenger.Name})
	}
	return loc.T("challenge.terms", i18n.Data{"Clock": ClockTextIn(l, c.DaysPerMove, c.Bank), "Kind": kind, "Colour": col})
}

// ChallengeLineIn describes an open challenge in one line, in language l.
func (s *Service) ChallengeLineIn(l i18n.Lang, c *storage.Challenge) string {
	loc := catalogue.For(l)
	to := loc.T("challenge.anyone", nil)
	if c.Opponent.ID != "" {
		to = words.Seat(c.Opponent)
	}
	return loc.T("challenge.line", i18n.Data{"Challenge": c.ID, "Variant": s.VariantNameIn(l, c.Variant), "Challenger": words.Seat(c.Challenger),
		"Opponent": to, "Terms": ChallengeTermsIn(l, c), "Until": words.In(l).Time(c.ExpiresAt)})
}

// DeadlineKey orders games by deadline, those without one last.
func DeadlineKey(g *storage.GameSummary) int64 {
	if g.Deadline.IsZero() {
		return 1 << 62
	}
	return g.Deadline.UnixMilli()
}
