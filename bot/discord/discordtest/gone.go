package discordtest

import (
	"fmt"

	"github.com/bwmarrin/discordgo"
)

// RemoveBot removes the bot from the guild (name or id), as an admin who kicks it
// does: the bot is told with GUILD_DELETE without "unavailable" ("If the unavailable
// field is not set, the user was removed from the guild":
// https://discord.com/developers/docs/events/gateway-events#guild-delete), and every
// later request about the guild's channels gets 403 Missing Access (50001), as the bot
// sees none of them; such a request fails the test, since a bot told it was removed
// has no reason to make it.
func (s *Server) RemoveBot(guild string) {
	s.mu.Lock()
	g := s.guildLocked(guild)
	var kept []Member
	for _, m := range g.Members {
		if m.User.ID != s.bot.ID {
			kept = append(kept, m)
		} else {
			g.removed = append(g.removed, m)
		}
	}
	g.Members = kept
	s.changedLocked()
	s.notifyLocked()
	id := g.ID
	s.mu.Unlock()
	s.Dispatch("GUILD_DELETE", map[string]any{"id": id})
}

// AddBot puts the bot back in a guild it was removed from (RemoveBot), with the role
// it had, and tells it with GUILD_CREATE, as Discord does when a bot joins a server
// (https://discord.com/developers/docs/events/gateway-events#guild-create).
func (s *Server) AddBot(guild string) {
	s.mu.Lock()
	g := s.guildLocked(guild)
	g.Members = append(g.Members, g.removed...)
	g.removed = nil
	s.changedLocked()
	s.notifyLocked()
	s.mu.Unlock()
	s.mu.Lock()
	ev := s.guildCreateJSON(g, discordgo.IntentsGuilds)
	s.mu.Unlock()
	s.Dispatch("GUILD_CREATE", ev)
}

// guildLocked finds a guild by id or name; s.mu is held (and released on a panic).
func (s *Server) guildLocked(ref string) *guildState {
	for _, g := range s.guilds {
		if g.ID == ref || g.Name == ref {
			return g
		}
	}
	s.mu.Unlock()
	panic(fmt.Sprintf("discordtest: no guild %q", ref))
}
