package discordtest

import (
	"fmt"
	"slices"
	"time"

	"github.com/bwmarrin/discordgo"
)

// Group DMs model where a user-installed app is used outside any server the bot is
// in. The bot is never a recipient: Discord delivers its commands there only when the
// command is registered for the private-channel context (2) and the user install
// (integration type 1), with context 2, the user (no member, no guild) and
// authorizing_integration_owners {"1": the user's id}; the bot answers through the
// interaction alone, and any REST request about the channel gets 50001 Missing Access
// (Discord's "Interaction Contexts" and "Installation Context" in the developer
// documentation).

// Interaction contexts and installation types, as Discord numbers them.
const (
	contextGuild          = 0
	contextBotDM          = 1
	contextPrivateChannel = 2
	installGuild          = 0
	installUser           = 1
)

// GroupDM creates a group DM named name between users (usernames or ids), which the
// bot is not part of, and returns its id; commands of the user-installed app can be
// run there with Command.
func (s *Server) GroupDM(name string, users ...string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := &channelState{Channel: Channel{ID: s.ids.next(), Name: name, Type: discordgo.ChannelTypeGroupDM},
		created: time.Now(), members: map[string]bool{}}
	for _, ref := range users {
		u := s.userLocked(ref)
		if u == nil {
			panic(fmt.Sprintf("discordtest: no user %q", ref))
		}
		c.recipients = append(c.recipients, u.ID)
	}
	s.channels[c.ID] = c
	s.channelOrder = append(s.channelOrder, c.ID)
	return c.ID
}

// channelContext is the interaction context of commands run in c.
func channelContext(c *channelState) int {
	switch c.Type {
	case discordgo.ChannelTypeDM:
		return contextBotDM
	case discordgo.ChannelTypeGroupDM:
		return contextPrivateChannel
	}
	return contextGuild
}

// offered reports whether Discord offers the global command c in channel ch: its
// contexts hold ch's, and in a private channel, or a server the bot is not in
// (botAbsent), it is installed for users.
func offered(c *commandState, ch *channelState, botAbsent bool) bool {
	ctx := channelContext(ch)
	if c.Contexts != nil && !slices.Contains(c.Contexts, ctx) {
		return false
	}
	if ctx == contextPrivateChannel || botAbsent {
		installs := c.IntegrationTypes
		if installs == nil {
			installs = []int{installGuild}
		}
		return slices.Contains(installs, installUser)
	}
	return true
}

// groupDMInteraction fills the part of an interaction's payload p particular to a
// group DM ch, where user u acts; s.mu is held.
func (s *Server) groupDMInteraction(st *interactionState, p map[string]any, u *User, ch *channelState) error {
	if !slices.Contains(ch.recipients, u.ID) {
		return fmt.Errorf("%s is not in group DM %s", u.Username, ch.Name)
	}
	p["user"] = userJSON(*u)
	p["context"] = contextPrivateChannel
	// What a user-installed app may do in the interaction's channel: answer.
	p["app_permissions"] = fmt.Sprint(discordgo.PermissionSendMessages | discordgo.PermissionEmbedLinks |
		discordgo.PermissionAttachFiles | discordgo.PermissionUseExternalEmojis)
	st.owners = map[string]any{fmt.Sprint(installUser): u.ID}
	return nil
}

// groupDMJSON is a group DM's channel object.
func (s *Server) groupDMJSON(c *channelState, j map[string]any) map[string]any {
	var rs []any
	for _, id := range c.recipients {
		rs = append(rs, userJSON(*s.users[id]))
	}
	j["recipients"], j["name"] = rs, c.Name
	return j
}
