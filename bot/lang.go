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

// ServerLang returns the language of the posts many read in server guild: the one
// an admin chose with /settings server_language, else the server's own (Discord's
// guild_locale: guildLocale when a request carries it, else the one last seen),
// else English.
func ServerLang(tx *storage.Tx, guild, guildLocale string) (i18n.Lang, error) {
	sv, err := tx.Server(guild)
	switch {
	case errors.Is(err, storage.ErrNotFound) || guild == "":
	case err != nil:
		return i18n.English, err
	default:
		if l, ok := i18n.Parse(sv.Lang); ok {
			return l, nil
		}
		if guildLocale == "" {
			guildLocale = sv.Locale
		}
	}
	return i18n.Of(guildLocale), nil
}

// ServerLocalizer returns catalogue c's localizer for a post in server guild (see
// ServerLang); guildLocale is the request's when there is one ("" for the
// scheduler's posts).
func ServerLocalizer(tx *storage.Tx, c *i18n.Catalogue, guild, guildLocale string) (*i18n.Localizer, error) {
	l, err := ServerLang(tx, guild, guildLocale)
	return c.For(l), err
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
// changed, so that what is sent to them unasked (a reminder, a digest) is in it,
// and the server's language (guild_locale) with the server's settings, for the
// posts no interaction carries. Only a player who has settings is remembered: no
// player record is made for a locale.
func rememberLocale(tx *storage.Tx, req Request) error {
	if err := rememberServerLocale(tx, req); err != nil {
		return err
	}
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

// rememberServerLocale keeps req's guild_locale with its server's settings when it
// changed (a language Missive does not speak is kept as English would be: not at all).
func rememberServerLocale(tx *storage.Tx, req Request) error {
	lang, ok := i18n.Parse(req.GuildLocale)
	if !ok || req.Place.Guild == "" {
		return nil
	}
	sv, err := tx.Server(req.Place.Guild)
	switch {
	case errors.Is(err, storage.ErrNotFound):
		sv = &storage.Server{ID: req.Place.Guild}
	case err != nil:
		return err
	case sv.Locale == string(lang):
		return nil
	}
	sv.Locale = string(lang)
	return tx.PutServer(sv)
}
