package challenges

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/storage"
)

// expire closes challenge id if it is still open and its time has passed.
func (f *feature) expire(ctx context.Context, id string) error {
	return f.svc.Update(ctx, func(tx *bot.Tx) error {
		c, err := tx.Challenge(id)
		if err != nil {
			return err
		}
		if c.Status != storage.ChallengeOpen || c.ExpiresAt.IsZero() || f.svc.Now().Before(c.ExpiresAt) {
			return nil
		}
		c.Status = storage.ChallengeExpired
		if err := tx.PutChallenge(c); err != nil {
			return err
		}
		return tx.TellUser(bot.Notice{To: c.Challenger, Kind: bot.NoticeChallenge,
			TitleIn: f.titlePhrase(c), TextIn: phrase("expired", i18n.Data{"ID": c.ID}), Key: "expired/" + c.ID,
			Place: bot.Place{Guild: c.Guild, Channel: c.Channel}})
	})
}

// expireChallenges closes the challenges whose time has passed at now.
func (f *feature) expireChallenges(ctx context.Context, now time.Time) error {
	var expired []*storage.Challenge
	if err := f.svc.Read(ctx, func(tx *storage.Tx) (err error) {
		expired, err = tx.ExpiredChallenges(now)
		return err
	}); err != nil {
		return err
	}
	var errs []error
	for _, c := range expired {
		if err := f.expire(ctx, c.ID); err != nil {
			errs = append(errs, fmt.Errorf("challenge %s: %w", c.ID, err))
		}
	}
	return errors.Join(errs...)
}
