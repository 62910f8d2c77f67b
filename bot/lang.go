package bot

import (
	"context"
	"errors"
	"slices"

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
// /settings language when they made one, else their client's locale, else English;
// the server's (ServerLang) for a request whose answer is posted for many to read
// in a server (Request.Public).
func AskerLang(tx *storage.Tx, req Request) (i18n.Lang, error) {
	if req.Public && req.Place.Guild != "" {
		return ServerLang(tx, req.Place.Guild, req.GuildLocale)
	}
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
// posts no interaction carries. It runs before a write request's change and keeps
// the locale of a player who has a record; it reports whether the asker has none
// yet, for rememberNewPlayer to look at once the change is made.
func rememberLocale(tx *storage.Tx, req Request) (unknown bool, err error) {
	if err := rememberServerLocale(tx, req); err != nil {
		return false, err
	}
	lang, ok := i18n.Parse(req.Locale)
	if !ok || req.User.ID == "" {
		return false, nil
	}
	p, err := tx.Player(req.User.ID)
	switch {
	case errors.Is(err, storage.ErrNotFound):
		return true, nil
	case err != nil:
		return false, err
	case p.Locale == string(lang):
		return false, nil
	}
	p.Locale = string(lang)
	return false, tx.PutPlayer(p)
}

// rememberNewPlayer keeps the locale of req's asker, who had no record before the
// change req made, once that change is made: in the record the change gave them
// (their first /settings), else in a record of its own, which holds only the
// locale, when the change made them someone Missive will write to unasked — a
// player of a game in progress, of an open challenge, of a tournament of the
// server, or one who asked for a review. A request that changed nothing of theirs
// (a look at /settings, a refusal) makes no record; neither does an English
// client's (English is every player's fallback).
func rememberNewPlayer(tx *storage.Tx, req Request) error {
	lang, ok := i18n.Parse(req.Locale)
	if !ok || req.User.ID == "" {
		return nil
	}
	p, err := tx.Player(req.User.ID)
	switch {
	case err == nil:
		if p.Locale == string(lang) {
			return nil
		}
		p.Locale = string(lang)
		return tx.PutPlayer(p)
	case !errors.Is(err, storage.ErrNotFound):
		return err
	case lang == i18n.English:
		return nil
	}
	involved, err := writesTo(tx, req)
	if err != nil || !involved {
		return err
	}
	return tx.PutPlayer(&storage.Player{ID: req.User.ID, Locale: string(lang)})
}

// writesTo reports whether Missive may write to req's asker unasked: they play a
// game in progress, made or received an open challenge, entered or organise an
// open or running tournament of the request's server, or wait for a review they
// asked for. Each look is through an index, or at a short list.
func writesTo(tx *storage.Tx, req Request) (bool, error) {
	id := req.User.ID
	games, err := tx.PlayerActiveGames(id)
	if err != nil || len(games) > 0 {
		return len(games) > 0, err
	}
	challenges, err := tx.PlayerChallenges(id)
	if err != nil || len(challenges) > 0 {
		return len(challenges) > 0, err
	}
	tours, err := tx.GuildTournaments(req.Place.Guild, true)
	if err != nil {
		return false, err
	}
	for _, t := range tours {
		if t.Organizer == id || slices.ContainsFunc(t.Entrants, func(e storage.Entrant) bool { return e.Player.ID == id }) {
			return true, nil
		}
	}
	asked, err := tx.ReviewRequests()
	if err != nil {
		return false, err
	}
	return slices.ContainsFunc(asked, func(r *storage.ReviewRequest) bool { return r.By == id }), nil
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
