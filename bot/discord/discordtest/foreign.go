package discordtest

import (
	"fmt"
	"net/http"
	"time"

	"github.com/bwmarrin/discordgo"
)

// Servers the bot is not in. A user who installed the app can run its commands in any
// server, where the app's bot is not a member: Discord offers there the commands
// registered for the guild context (0) and the user install (1), and sends their
// interactions with the guild, the member and authorizing_integration_owners holding
// only the user install ({"1": the user's id}); the bot sees none of the server's
// channels (every REST request about them gets 50001 Missing Access), and "Apps are
// limited to 5 followup messages per interaction if it was initiated from a
// user-installed app and isn't installed in the server (meaning the authorizing
// integration owners object only contains USER_INSTALL)"
// (https://discord.com/developers/docs/interactions/receiving-and-responding#followup-messages
// and #interaction-object-authorizing-integration-owners-object).

// maxForeignFollowups is the followup limit of an interaction from a server the app is
// not installed in.
const maxForeignFollowups = 5

// ForeignGuild creates a server named name that the bot is not in, with the members
// users (usernames or ids of the fake's users) and one text channel, #lounge, whose id
// it returns with the server's; the users may run the user-installed app's commands
// there with Command.
func (s *Server) ForeignGuild(name string, users ...string) (guild, channel string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	g := &guildState{Guild: Guild{ID: s.ids.next(), Name: name, Locale: "en-US"}, joined: time.Now()}
	g.Roles = []Role{{ID: g.ID, Name: "@everyone", Permissions: everyonePerms}}
	for _, ref := range users {
		u := s.userLocked(ref)
		if u == nil {
			s.mu.Unlock()
			panic(fmt.Sprintf("discordtest: no user %q", ref))
		}
		g.Members = append(g.Members, Member{User: *u})
	}
	g.OwnerID = g.Members[0].User.ID
	c := &channelState{Channel: Channel{ID: s.ids.next(), Name: "lounge", Type: discordgo.ChannelTypeGuildText, GuildID: g.ID},
		created: time.Now(), autoArchive: 1440, members: map[string]bool{}}
	s.channels[c.ID] = c
	s.channelOrder = append(s.channelOrder, c.ID)
	s.guilds = append(s.guilds, g)
	return g.ID, c.ID
}

// botAbsent reports whether the bot is not a member of guild g (a ForeignGuild, or
// one it was removed from); s.mu is held.
func (s *Server) botAbsent(g *guildState) bool { return g.member(s.bot.ID) == nil }

// foreignInteraction shapes the payload p of an interaction in a server the bot is not
// in, as for a user-installed app; s.mu is held.
func (s *Server) foreignInteraction(st *interactionState, p map[string]any, u *User) {
	p["app_permissions"] = fmt.Sprint(discordgo.PermissionSendMessages | discordgo.PermissionEmbedLinks |
		discordgo.PermissionAttachFiles | discordgo.PermissionUseExternalEmojis)
	st.owners = map[string]any{fmt.Sprint(installUser): u.ID}
}

// foreignFollowupLocked refuses a followup beyond the fifth to an interaction from a
// server the bot is not in; s.mu is held.
func (s *Server) foreignFollowupLocked(st *interactionState) *reply {
	if _, guild := st.owners[fmt.Sprint(installGuild)]; guild || st.GuildID == "" || len(st.followups) < maxForeignFollowups {
		return nil
	}
	r := apiError(http.StatusBadRequest, 0, "Maximum number of followup messages reached for an app not installed in this server")
	return &r
}
