package discordtest

import (
	"net/http"

	"github.com/bwmarrin/discordgo"
)

// editChannel is PATCH /channels/{channel_id} for threads: archived, locked,
// auto_archive_duration and name, as a bot closes a finished game's thread. Archiving
// or locking needs Manage Threads unless the bot created the thread; a locked thread
// can be reopened only with Manage Threads. Other channels' settings are not modelled.
func (s *Server) editChannel(c *call) reply {
	s.mu.Lock()
	ch, r := s.visibleChannel(c.params["channel_id"])
	if r != nil {
		s.mu.Unlock()
		return *r
	}
	if !ch.isThread() {
		s.mu.Unlock()
		s.fail("discordtest: PATCH /channels/%s: only threads are modelled", ch.ID)
		return apiError(http.StatusBadRequest, discordgo.ErrCodeCannotExecuteActionOnThisChannelType, "Cannot execute action on this channel type")
	}
	manage := s.botPerms(ch)&discordgo.PermissionManageThreads != 0
	if !manage && (ch.locked || (ch.OwnerID != s.bot.ID && (c.body["archived"] != nil || c.body["locked"] != nil))) {
		s.mu.Unlock()
		return missingPermissions()
	}
	if v, ok := c.body["archived"].(bool); ok {
		ch.archived = v
	}
	if v, ok := c.body["locked"].(bool); ok {
		ch.locked = v
	}
	if v, ok := c.body["auto_archive_duration"].(float64); ok {
		ch.autoArchive = int(v)
	}
	if v, ok := c.body["name"].(string); ok {
		ch.Name = v
	}
	s.changedLocked()
	j := s.channelJSON(ch)
	s.mu.Unlock()
	s.Dispatch("THREAD_UPDATE", j)
	return okJSON(j)
}

// Archived reports whether the thread (name or id) is archived.
func (s *Server) Archived(thread string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.channelLocked(thread)
	return c != nil && c.archived
}
