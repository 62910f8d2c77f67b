package discord

import (
	"context"
	"errors"

	"github.com/bwmarrin/discordgo"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/bot/words"
	"github.com/missivechess/missive/storage"
)

// Places that went away. Discord tells a bot when it is removed from a server
// (GUILD_DELETE without "unavailable"), when a server becomes unavailable in an outage
// (GUILD_DELETE with "unavailable": true, until its GUILD_CREATE), and when a channel
// or thread is deleted (CHANNEL_DELETE, THREAD_DELETE):
// https://discord.com/developers/docs/events/gateway-events#guild-delete,
// #channel-delete and #thread-delete. The bot then makes no request there that Discord
// would refuse: a removed server's or deleted channel's notices go to the players by
// direct message (each player told once, per game, why), an unavailable server's wait
// in the outbox until it is back, and a deleted thread is replaced without asking it
// first. The service stops starting games (tournament pairings) in a server the bot
// left (bot.Service.GuildLeft) and starts again when it is back.

var (
	// errUnavailable is a post held back while its server is in an outage: transient.
	errUnavailable = errors.New("discord: the server is unavailable (a Discord outage)")
	// errThreadDeleted is a post not made in a thread Discord said was deleted.
	errThreadDeleted = errors.New("discord: the thread was deleted")
)

// placeState is what the bot knows of places that went away (guarded by Bot.mu).
type placeState struct {
	removed     map[string]bool // servers the bot was removed from
	unavailable map[string]bool // servers in an outage
	deleted     map[string]bool // channels and threads deleted
}

func (b *Bot) onGuildDelete(_ *discordgo.Session, e *discordgo.GuildDelete) {
	if e.Guild == nil {
		return
	}
	b.mu.Lock()
	if e.Unavailable {
		b.places.unavailable[e.ID] = true
		b.mu.Unlock()
		return
	}
	b.places.removed[e.ID] = true
	b.mu.Unlock()
	b.log.Info("discord: removed from a server; its games go on by direct message", "guild", e.ID)
	svc := b.service()
	if svc == nil {
		return
	}
	b.tellPlayers(func(g *storage.GameSummary) bool { return g.Guild == e.ID }, "gone.server")
	svc.GuildLeft(e.ID, true)
}

func (b *Bot) onGuildCreate(_ *discordgo.Session, e *discordgo.GuildCreate) {
	if e.Guild == nil {
		return
	}
	b.mu.Lock()
	was := b.places.removed[e.ID]
	delete(b.places.removed, e.ID)
	delete(b.places.unavailable, e.ID)
	b.mu.Unlock()
	if svc := b.service(); was && svc != nil {
		svc.GuildLeft(e.ID, false)
	}
}

func (b *Bot) onChannelDelete(_ *discordgo.Session, e *discordgo.ChannelDelete) {
	if e.Channel == nil {
		return
	}
	b.mu.Lock()
	b.places.deleted[e.ID] = true
	b.mu.Unlock()
	if isThread(e.Type) {
		return
	}
	b.tellPlayers(func(g *storage.GameSummary) bool { return g.Channel == e.ID }, "gone.channel")
}

func (b *Bot) onThreadDelete(_ *discordgo.Session, e *discordgo.ThreadDelete) {
	if e.Channel == nil {
		return
	}
	b.mu.Lock()
	b.places.deleted[e.ID] = true
	b.mu.Unlock()
}

// placeGone reports whether the server or channel of place is gone for the bot: it
// was removed from the server, or the channel was deleted (a deleted thread is not:
// the game gets a new one).
func (b *Bot) placeGone(p bot.Place) bool {
	b.mu.Lock()
	gone := b.places.removed[p.Guild] || b.places.deleted[p.Channel]
	unavailable := b.places.unavailable[p.Guild]
	b.mu.Unlock()
	return gone || p.Guild != "" && !unavailable && !b.inGuild(p.Guild)
}

// inGuild reports whether the shards' states hold guild, once they have READY: READY
// lists every server the bot is in (as unavailable, until its GUILD_CREATE), so a
// server missing then is one the bot left, even while it was not running. Before
// READY it says true.
func (b *Bot) inGuild(guild string) bool {
	for _, ds := range b.shards {
		st := ds.State
		if stateUser(st) == "" {
			return true
		}
		if _, err := st.Guild(guild); err == nil {
			return true
		}
	}
	return false
}

// placeUnavailable reports whether place's server is in an outage.
func (b *Bot) placeUnavailable(p bot.Place) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.places.unavailable[p.Guild]
}

// threadDeleted reports whether Discord said thread was deleted.
func (b *Bot) threadDeleted(thread string) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.places.deleted[thread]
}

// tellPlayers queues, through the outbox, a direct message to each human player of
// the active games that match, saying (message why of the catalogue, in the
// player's language) why the game's news comes by direct message from now on.
func (b *Bot) tellPlayers(match func(*storage.GameSummary) bool, why string) {
	svc := b.service()
	if svc == nil {
		return
	}
	err := svc.Update(context.Background(), func(tx *bot.Tx) error {
		return tx.ActiveGames(func(g *storage.GameSummary) error {
			if !match(g) {
				return nil
			}
			for _, p := range g.Players {
				if p.ID == "" || p.IsEngine() {
					continue
				}
				loc, err := bot.PlayerLocalizer(tx.Tx, catalogue, p.ID)
				if err != nil {
					return err
				}
				title := loc.T("gone.title", i18n.Data{"Variant": words.In(loc.Lang()).Variant(g.Variant, svc.VariantName(g.Variant)), "Game": g.ID})
				tx.Send(bot.Notification{Key: "gone/" + g.ID + "/" + p.ID, Kind: bot.NoticeInfo, Direct: true,
					To:    bot.User{ID: p.ID, Name: p.Name},
					Game:  &bot.GameRef{ID: g.ID, Place: bot.Place{Guild: g.Guild, Channel: g.Channel, Thread: g.Thread}},
					Reply: bot.Reply{Title: title, Text: loc.T(why, i18n.Data{"Game": g.ID})}}, nil)
			}
			return nil
		})
	})
	if err != nil {
		b.log.Error("discord: telling players their game's place is gone failed", "error", err)
	}
}

// stateUser is the bot's user id in st, "" before READY; discordgo sets it under the
// state's lock on each READY.
func stateUser(st *discordgo.State) string {
	if st == nil {
		return ""
	}
	st.RLock()
	defer st.RUnlock()
	if st.User == nil {
		return ""
	}
	return st.User.ID
}
