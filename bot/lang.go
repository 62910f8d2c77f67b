package bot

import (
	"context"
	"errors"

	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/storage"
)

// The languages a feature speaks in: a feature looks its sentences up in its own
// catalogue (bot/i18n) with the localizer these give it, for the one who reads
// them. A reply is in the asker's language (AskerLocalizer), a post that many read
// (a game's thread, tournament news) in the server's (ServerLocalizer), a direct
// message in the player's (PlayerLocalizer). English is the fallback of each.

// PlayerLang returns the language of player p: the one they chose with /settings
// language, else that of their last interaction, else English.
func PlayerLang(p *storage.Player) i18n.Lang {
	if l, ok := i18n.Parse(p.Lang); ok {
		return l
	}
	return i18n.Of(p.Locale)
}

// AskerLang returns the language to answer req in: the asker's choice with
// /settings language when they made one, else their client's locale, else English.
func AskerLang(tx *storage.Tx, req Request) (i18n.Lang, error) {
	p, err := tx.Player(req.User.ID)
	switch {
	case errors.Is(err, storage.ErrNotFound):
	case err != nil:
		return i18n.English, err
	default:
		if l, ok := i18n.Parse(p.Lang); ok {
			return l, nil
		}
	}
	return i18n.Of(req.Locale), nil
}

// AskerLocalizer returns catalogue c's localizer for the one who sent req (see
// AskerLang); English when the player's settings cannot be read.
func (s *Service) AskerLocalizer(ctx context.Context, c *i18n.Catalogue, req Request) *i18n.Localizer {
	lang := i18n.Of(req.Locale)
	if err := s.Read(ctx, func(tx *storage.Tx) error {
		var err error
		lang, err = AskerLang(tx, req)
		return err
	}); err != nil {
		s.log.Warn("bot: the asker's language is unknown", "user", req.User.ID, "error", err)
	}
	return c.For(lang)
}

// ServerLocalizer returns catalogue c's localizer for a post in req's server: the
// server's language (Discord's guild_locale), else the asker's client's, else
// English.
func ServerLocalizer(c *i18n.Catalogue, req Request) *i18n.Localizer {
	if l, ok := i18n.Parse(req.GuildLocale); ok {
		return c.For(l)
	}
	return c.For(i18n.Of(req.Locale))
}

// PlayerLocalizer returns catalogue c's localizer for a direct message to player
// id (see PlayerLang); English for a player without settings.
func PlayerLocalizer(tx *storage.Tx, c *i18n.Catalogue, id string) (*i18n.Localizer, error) {
	p, err := Settings(tx, id)
	if err != nil {
		return c.For(i18n.English), err
	}
	return c.For(PlayerLang(p)), nil
}

// rememberLocale keeps the language of req's asker with their settings when it
// changed, so that what is sent to them unasked (a reminder, a digest) is in it.
// Only a player who has settings is remembered: no record is made for a locale.
func rememberLocale(tx *storage.Tx, req Request) error {
	lang, ok := i18n.Parse(req.Locale)
	if !ok || req.User.ID == "" {
		return nil
	}
	p, err := tx.Player(req.User.ID)
	if errors.Is(err, storage.ErrNotFound) || (err == nil && p.Locale == string(lang)) {
		return nil
	}
	if err != nil {
		return err
	}
	p.Locale = string(lang)
	return tx.PutPlayer(p)
}
