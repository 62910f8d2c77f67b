package discordtest

import (
	"fmt"
	"time"

	"github.com/bwmarrin/discordgo"
)

// BotThread creates a public thread named name in the channel parent (name or id) as
// the bot would have, and tells connected sessions with THREAD_CREATE: the thread a bot
// process made just before it was killed, before it could record it. A bot started
// afterwards sees it among the active threads of GUILD_CREATE, as on Discord ("threads"
// of the Guild Create event: https://discord.com/developers/docs/events/gateway-events#guild-create).
func (s *Server) BotThread(parent, name string) Channel {
	s.mu.Lock()
	p := s.channelLocked(parent)
	if p == nil || p.isThread() || p.GuildID == "" {
		s.mu.Unlock()
		panic(fmt.Sprintf("discordtest: no channel %q for a thread", parent))
	}
	t := &channelState{Channel: Channel{ID: s.ids.next(), Name: name, Type: discordgo.ChannelTypeGuildPublicThread,
		GuildID: p.GuildID, ParentID: p.ID, OwnerID: s.bot.ID}, members: map[string]bool{s.bot.ID: true},
		created: time.Now(), autoArchive: 10080, invitable: true}
	s.channels[t.ID] = t
	s.channelOrder = append(s.channelOrder, t.ID)
	sys := &messageState{Message: Message{ID: s.ids.next(), ChannelID: p.ID, GuildID: p.GuildID,
		AuthorID: s.bot.ID, Content: name, Created: time.Now(), Type: discordgo.MessageTypeThreadCreated}}
	s.addMessageLocked(p, sys)
	ch := t.Channel
	s.threadCreated(t) // releases s.mu
	return ch
}
