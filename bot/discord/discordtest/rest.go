package discordtest

import (
	"net/http"
	"time"

	"github.com/bwmarrin/discordgo"
)

// restRoutes lists the REST routes the fake implements, with Discord's path templates.
func (s *Server) restRoutes() []restRoute {
	r := func(method, tmpl string, auth bool, h func(*call) reply) restRoute {
		return restRoute{pathTemplate: newTemplate(tmpl), method: method, auth: auth, h: h}
	}
	const (
		cmds      = "/applications/{application_id}/commands"
		guildCmds = "/applications/{application_id}/guilds/{guild_id}/commands"
		msgs      = "/channels/{channel_id}/messages"
		msg       = "/channels/{channel_id}/messages/{message_id}"
		hook      = "/webhooks/{webhook_id}/{webhook_token}"
	)
	return []restRoute{
		r("GET", "/gateway", false, s.getGateway),
		r("GET", "/gateway/bot", true, s.getGatewayBot),
		r("GET", "/users/@me", true, s.getMe),
		r("GET", "/users/{user_id}", true, s.getUser),
		r("GET", "/applications/@me", true, s.getApplication),
		r("GET", "/oauth2/applications/@me", true, s.getApplication), // discordgo's Session.Application
		r("POST", "/users/@me/channels", true, s.createDM),
		r("GET", "/channels/{channel_id}", true, s.getChannel),
		r("PATCH", "/channels/{channel_id}", true, s.editChannel),
		r("POST", msgs, true, s.createMessage),
		r("GET", msgs, true, s.listMessages),
		r("GET", msg, true, s.getMessage),
		r("PATCH", msg, true, s.editMessage),
		r("DELETE", msg, true, s.deleteMessage),
		r("POST", msg+"/threads", true, s.threadFromMessage),
		r("POST", "/channels/{channel_id}/threads", true, s.threadWithoutMessage),
		r("PUT", "/channels/{channel_id}/thread-members/@me", true, s.joinThread),
		r("PUT", "/channels/{channel_id}/thread-members/{user_id}", true, s.addThreadMember),
		r("GET", cmds, true, s.listCommands),
		r("PUT", cmds, true, s.overwriteCommands),
		r("POST", cmds, true, s.createCommand),
		r("GET", guildCmds, true, s.listCommands),
		r("PUT", guildCmds, true, s.overwriteCommands),
		r("POST", guildCmds, true, s.createCommand),
		r("POST", "/interactions/{interaction_id}/{interaction_token}/callback", false, s.interactionCallback),
		r("POST", hook, false, s.followup),
		r("GET", hook+"/messages/@original", false, s.webhookMessage),
		r("PATCH", hook+"/messages/@original", false, s.webhookMessage),
		r("DELETE", hook+"/messages/@original", false, s.webhookMessage),
		r("GET", hook+"/messages/{message_id}", false, s.webhookMessage),
		r("PATCH", hook+"/messages/{message_id}", false, s.webhookMessage),
		r("DELETE", hook+"/messages/{message_id}", false, s.webhookMessage),
	}
}

func unknownChannel() reply {
	return apiError(http.StatusNotFound, discordgo.ErrCodeUnknownChannel, "Unknown Channel")
}

func unknownMessage() reply {
	return apiError(http.StatusNotFound, discordgo.ErrCodeUnknownMessage, "Unknown Message")
}

func missingPermissions() reply {
	return apiError(http.StatusForbidden, discordgo.ErrCodeMissingPermissions, "Missing Permissions").expected()
}

func missingAccess() reply {
	return apiError(http.StatusForbidden, discordgo.ErrCodeMissingAccess, "Missing Access")
}

func (s *Server) getGateway(*call) reply { return okJSON(map[string]any{"url": s.GatewayURL()}) }

func (s *Server) getGatewayBot(*call) reply {
	return okJSON(map[string]any{"url": s.GatewayURL(), "shards": 1, "session_start_limit": map[string]any{
		"total": 1000, "remaining": 999, "reset_after": 86400000, "max_concurrency": 1}})
}

func (s *Server) getMe(*call) reply {
	j := userJSON(s.bot)
	j["verified"], j["mfa_enabled"], j["locale"], j["email"] = true, false, "en-US", nil
	return okJSON(j)
}

func (s *Server) getUser(c *call) reply {
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.users[c.params["user_id"]]
	if u == nil {
		return apiError(http.StatusNotFound, discordgo.ErrCodeUnknownUser, "Unknown User")
	}
	return okJSON(userJSON(*u))
}

func (s *Server) getApplication(*call) reply {
	return okJSON(map[string]any{
		"id": s.appID, "name": s.bot.Username, "icon": nil, "description": "", "summary": "",
		"type": nil, "bot_public": true, "bot_require_code_grant": false, "verify_key": "0000000000000000000000000000000000000000000000000000000000000000",
		"flags": 0, "hook": true, "is_monetized": false, "team": nil, "bot": userJSON(s.bot),
		"owner":                    map[string]any{"id": "1", "username": "owner", "discriminator": "0", "global_name": nil, "avatar": nil, "public_flags": 0, "flags": 0},
		"integration_types_config": map[string]any{"0": map[string]any{}},
		"install_params":           map[string]any{"scopes": []string{"bot", "applications.commands"}, "permissions": "0"},
	})
}

func (s *Server) createDM(c *call) reply {
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.users[c.str("recipient_id")]
	if u == nil || u.Bot {
		return apiError(http.StatusBadRequest, discordgo.ErrCodeUnknownUser, "Unknown User")
	}
	return okJSON(s.channelJSON(s.dmLocked(u)))
}

// visibleChannel finds a channel the bot can see; s.mu is held.
func (s *Server) visibleChannel(id string) (*channelState, *reply) {
	ch := s.channels[id]
	if ch == nil {
		r := unknownChannel()
		return nil, &r
	}
	if ch.deleted {
		// A channel deleted while the bot knew it: 10003, which a bot must cope with
		// (https://discord.com/developers/docs/topics/opcodes-and-status-codes#json-json-error-codes).
		r := unknownChannel().expected()
		return nil, &r
	}
	if ch.GuildID != "" && s.botPerms(ch)&discordgo.PermissionViewChannel == 0 || ch.Type == discordgo.ChannelTypeGroupDM {
		// The bot sees no channel of a server it is not in, and no group DM.
		r := missingAccess()
		return nil, &r
	}
	return ch, nil
}

// botPerms are the bot's permissions in a guild channel; s.mu is held.
func (s *Server) botPerms(ch *channelState) int64 {
	g := s.guild(ch.GuildID)
	if g == nil {
		return 0
	}
	return g.channelPermissions(ch, s.channels[ch.ParentID], s.bot.ID)
}

// userPerms are a user's permissions in a channel; s.mu is held.
func (s *Server) userPerms(ch *channelState, userID string) int64 {
	g := s.guild(ch.GuildID)
	if g == nil {
		return discordgo.PermissionAllText
	}
	return g.channelPermissions(ch, s.channels[ch.ParentID], userID)
}

func (s *Server) getChannel(c *call) reply {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch, r := s.visibleChannel(c.params["channel_id"])
	if r != nil {
		return *r
	}
	return okJSON(s.channelJSON(ch))
}

func (s *Server) createMessage(c *call) reply {
	s.mu.Lock()
	ch, r := s.visibleChannel(c.params["channel_id"])
	if r != nil {
		s.mu.Unlock()
		return *r
	}
	switch {
	case ch.Type == discordgo.ChannelTypeDM:
		if s.users[ch.RecipientID].BlocksDMs {
			s.mu.Unlock()
			return apiError(http.StatusForbidden, discordgo.ErrCodeCannotSendMessagesToThisUser, "Cannot send messages to this user").expected()
		}
	case ch.Type == discordgo.ChannelTypeGuildCategory:
		s.mu.Unlock()
		return apiError(http.StatusBadRequest, discordgo.ErrCodeCannotExecuteActionOnThisChannelType, "Cannot execute action on this channel type")
	case isForum(ch):
		// Forum and media channels hold only posts (threads); a message goes in a post,
		// or starts one through POST /channels/{id}/threads with a message:
		// https://discord.com/developers/docs/topics/threads#forums and
		// https://discord.com/developers/docs/resources/channel#start-thread-in-forum-or-media-channel
		s.mu.Unlock()
		return apiError(http.StatusBadRequest, codeForumMessage, "Cannot send messages in a forum channel")
	case ch.isThread() && ch.locked && s.botPerms(ch)&discordgo.PermissionManageThreads == 0:
		// A locked thread takes messages only from members with Manage Threads, who
		// alone may unarchive it: https://discord.com/developers/docs/topics/threads
		// (Archiving & Unarchiving), error 160005 "Thread is locked".
		s.mu.Unlock()
		return apiError(http.StatusBadRequest, discordgo.ErrCodeThreadIsLocked, "Thread is locked").expected()
	case ch.isThread() && s.botPerms(ch)&discordgo.PermissionSendMessagesInThreads == 0,
		!ch.isThread() && s.botPerms(ch)&discordgo.PermissionSendMessages == 0:
		s.mu.Unlock()
		return missingPermissions()
	}
	cont, r := parseBody(c.body)
	if r != nil {
		s.mu.Unlock()
		return *r
	}
	if cont.Flags&discordgo.MessageFlagsEphemeral != 0 {
		s.mu.Unlock()
		return apiError(http.StatusBadRequest, discordgo.ErrCodeInvalidFormBody, "Invalid Form Body: only interaction responses can be ephemeral")
	}
	nonce, r := messageNonce(c.body)
	if r != nil {
		s.mu.Unlock()
		return *r
	}
	now := time.Now()
	if old := s.nonceMessageLocked(nonce, c.body, now); old != nil {
		j := s.messageJSON(old)
		s.mu.Unlock()
		return okJSON(j)
	}
	unarchived := false
	if ch.isThread() {
		// Sending a message in an archived thread unarchives it, for anyone with Send
		// Messages in Threads when the thread is not locked:
		// https://discord.com/developers/docs/topics/threads (Archiving & Unarchiving).
		unarchived = ch.archived
		ch.archived = false
		ch.members[s.bot.ID] = true
	}
	m, r := s.newMessageLocked(ch, cont, c.files)
	if r != nil {
		s.mu.Unlock()
		return *r
	}
	if nonce != "" {
		m.Nonce = nonce
		s.nonces[s.bot.ID+":"+nonce] = nonceState{message: m.ID, at: now}
	}
	j := s.messageJSON(m)
	ev, intent := s.messageEventLocked(ch, j)
	var update map[string]any
	if unarchived {
		update = s.channelJSON(ch)
	}
	s.mu.Unlock()
	if update != nil {
		s.Dispatch("THREAD_UPDATE", update)
	}
	s.dispatchIntent("MESSAGE_CREATE", ev, intent)
	return okJSON(j)
}

// isForum reports whether ch is a forum or media channel, which holds only posts.
func isForum(ch *channelState) bool {
	return ch.Type == discordgo.ChannelTypeGuildForum || ch.Type == discordgo.ChannelTypeGuildMedia
}

// messageEventLocked is the MESSAGE_CREATE event for a message and the intent it needs.
func (s *Server) messageEventLocked(ch *channelState, j map[string]any) (map[string]any, discordgo.Intent) {
	ev := map[string]any{}
	for k, v := range j {
		ev[k] = v
	}
	if ch.GuildID != "" {
		ev["guild_id"] = ch.GuildID
		if g := s.guild(ch.GuildID); g != nil {
			if m := g.member(s.bot.ID); m != nil {
				ev["member"] = g.memberJSON(m, false)
			}
		}
		return ev, discordgo.IntentGuildMessages
	}
	return ev, discordgo.IntentDirectMessages
}

// botMessage finds a live message of the bot in the channel of the call; s.mu is held.
func (s *Server) botMessage(c *call) (*messageState, *reply) {
	ch, r := s.visibleChannel(c.params["channel_id"])
	if r != nil {
		return nil, r
	}
	m := s.messages[c.params["message_id"]]
	if m == nil || m.ChannelID != ch.ID || m.Deleted || m.Ephemeral {
		r := unknownMessage()
		return nil, &r
	}
	return m, nil
}

func (s *Server) getMessage(c *call) reply {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, r := s.botMessage(c)
	if r != nil {
		return *r
	}
	return okJSON(s.messageJSON(m))
}

func (s *Server) editMessage(c *call) reply {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, r := s.botMessage(c)
	if r != nil {
		return *r
	}
	if m.AuthorID != s.bot.ID || m.interaction != nil {
		return apiError(http.StatusForbidden, discordgo.ErrCodeCannotEditFromAnotherUser, "Cannot edit a message authored by another user")
	}
	cont, r := parseBody(c.body)
	if r != nil {
		return *r
	}
	if r := s.editLocked(m, cont, c.files); r != nil {
		return *r
	}
	return okJSON(s.messageJSON(m))
}

func (s *Server) deleteMessage(c *call) reply {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, r := s.botMessage(c)
	if r != nil {
		return *r
	}
	m.Deleted = true
	return noContent()
}

func (s *Server) threadFromMessage(c *call) reply {
	s.mu.Lock()
	ch, r := s.threadParent(c, discordgo.ChannelTypeGuildPublicThread)
	if r != nil {
		s.mu.Unlock()
		return *r
	}
	m := s.messages[c.params["message_id"]]
	if m == nil || m.ChannelID != ch.ID || m.Deleted {
		s.mu.Unlock()
		return unknownMessage()
	}
	if m.ThreadID != "" {
		s.mu.Unlock()
		return apiError(http.StatusBadRequest, discordgo.ErrCodeThreadAlreadyCreatedForThisMessage, "A thread has already been created for this message")
	}
	typ := discordgo.ChannelTypeGuildPublicThread
	if ch.Type == discordgo.ChannelTypeGuildNews {
		typ = discordgo.ChannelTypeGuildNewsThread
	}
	t := s.newThreadLocked(ch, m.ID, typ, c)
	t.StarterMessageID = m.ID
	m.ThreadID = t.ID
	return s.threadCreated(t)
}

func (s *Server) threadWithoutMessage(c *call) reply {
	s.mu.Lock()
	if ch := s.channels[c.params["channel_id"]]; ch != nil && !ch.deleted && isForum(ch) {
		return s.forumPost(c, ch) // releases s.mu
	}
	s.mu.Unlock()
	typ := discordgo.ChannelTypeGuildPrivateThread // Discord's default for this route
	if v, ok := c.body["type"].(float64); ok {
		typ = discordgo.ChannelType(v)
	}
	if typ != discordgo.ChannelTypeGuildPublicThread && typ != discordgo.ChannelTypeGuildPrivateThread && typ != discordgo.ChannelTypeGuildNewsThread {
		return apiError(http.StatusBadRequest, discordgo.ErrCodeInvalidFormBody, "Invalid Form Body: type must be a thread type")
	}
	s.mu.Lock()
	ch, r := s.threadParent(c, typ)
	if r != nil {
		s.mu.Unlock()
		return *r
	}
	t := s.newThreadLocked(ch, s.ids.next(), typ, c)
	if inv, ok := c.body["invitable"].(bool); ok {
		t.invitable = inv
	} else {
		t.invitable = true
	}
	if typ == discordgo.ChannelTypeGuildPublicThread {
		// Discord announces a public thread made without a message in its channel.
		sys := &messageState{Message: Message{ID: s.ids.next(), ChannelID: ch.ID, GuildID: ch.GuildID,
			AuthorID: s.bot.ID, Content: t.Name, Created: time.Now(), Type: discordgo.MessageTypeThreadCreated}}
		s.addMessageLocked(ch, sys)
	}
	return s.threadCreated(t)
}

// threadParent checks that the bot may create a thread of type typ in the call's channel;
// s.mu is held.
func (s *Server) threadParent(c *call, typ discordgo.ChannelType) (*channelState, *reply) {
	ch, r := s.visibleChannel(c.params["channel_id"])
	if r != nil {
		return nil, r
	}
	if isForum(ch) {
		// A forum or media channel takes posts only with their first message:
		// https://discord.com/developers/docs/resources/channel#start-thread-in-forum-or-media-channel
		r := apiError(http.StatusBadRequest, discordgo.ErrCodeInvalidFormBody, "Invalid Form Body: message is required to start a thread in a forum or media channel")
		return nil, &r
	}
	if ch.Type != discordgo.ChannelTypeGuildText && ch.Type != discordgo.ChannelTypeGuildNews {
		r := apiError(http.StatusBadRequest, discordgo.ErrCodeCannotExecuteActionOnThisChannelType, "Cannot execute action on this channel type")
		return nil, &r
	}
	need := int64(discordgo.PermissionCreatePublicThreads)
	if typ == discordgo.ChannelTypeGuildPrivateThread {
		need = discordgo.PermissionCreatePrivateThreads
	}
	if s.botPerms(ch)&need == 0 {
		r := missingPermissions()
		return nil, &r
	}
	if r := s.threadCapLocked(ch.GuildID); r != nil {
		return nil, r
	}
	return ch, nil
}

// forumPost starts a post (a public thread with its first message) in a forum or media
// channel, which needs Send Messages there rather than Create Public Threads:
// https://discord.com/developers/docs/resources/channel#start-thread-in-forum-or-media-channel
// s.mu is held and released here.
func (s *Server) forumPost(c *call, forum *channelState) reply {
	if _, r := s.visibleChannel(forum.ID); r != nil {
		s.mu.Unlock()
		return *r
	}
	if s.botPerms(forum)&discordgo.PermissionSendMessages == 0 {
		s.mu.Unlock()
		return missingPermissions()
	}
	if r := s.threadCapLocked(forum.GuildID); r != nil {
		s.mu.Unlock()
		return *r
	}
	msg, ok := c.body["message"].(map[string]any)
	if !ok {
		s.mu.Unlock()
		return apiError(http.StatusBadRequest, discordgo.ErrCodeInvalidFormBody, "Invalid Form Body: message is required to start a thread in a forum or media channel")
	}
	cont, r := parseBody(msg)
	if r != nil {
		s.mu.Unlock()
		return *r
	}
	t := s.newThreadLocked(forum, s.ids.next(), discordgo.ChannelTypeGuildPublicThread, c)
	// The first message of a post has the post's id.
	m, r := s.newMessageLocked(t, cont, c.files)
	if r != nil {
		delete(s.channels, t.ID)
		s.channelOrder = s.channelOrder[:len(s.channelOrder)-1]
		s.mu.Unlock()
		return *r
	}
	delete(s.messages, m.ID)
	m.ID = t.ID
	s.messages[m.ID] = m
	t.StarterMessageID = m.ID
	j := s.channelJSON(t)
	j["message"] = s.messageJSON(m)
	ev := s.channelJSON(t)
	ev["newly_created"] = true
	s.notifyLocked()
	s.mu.Unlock()
	s.Dispatch("THREAD_CREATE", ev)
	return reply{status: http.StatusCreated, body: j}
}

func (s *Server) newThreadLocked(parent *channelState, id string, typ discordgo.ChannelType, c *call) *channelState {
	t := &channelState{Channel: Channel{ID: id, Name: c.str("name"), Type: typ, GuildID: parent.GuildID,
		ParentID: parent.ID, OwnerID: s.bot.ID}, members: map[string]bool{s.bot.ID: true},
		created: time.Now(), autoArchive: 1440}
	if v, ok := c.body["auto_archive_duration"].(float64); ok {
		t.autoArchive = int(v)
	}
	s.channels[t.ID] = t
	s.channelOrder = append(s.channelOrder, t.ID)
	return t
}

// threadCreated answers a thread creation and sends THREAD_CREATE; s.mu is held and
// released here.
func (s *Server) threadCreated(t *channelState) reply {
	j := s.channelJSON(t)
	ev := s.channelJSON(t)
	ev["newly_created"] = true
	s.notifyLocked()
	s.mu.Unlock()
	s.Dispatch("THREAD_CREATE", ev)
	return reply{status: http.StatusCreated, body: j}
}

func (s *Server) joinThread(c *call) reply {
	c.params["user_id"] = s.bot.ID
	return s.addThreadMember(c)
}

func (s *Server) addThreadMember(c *call) reply {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, r := s.visibleChannel(c.params["channel_id"])
	if r != nil {
		return *r
	}
	if !t.isThread() {
		return apiError(http.StatusBadRequest, discordgo.ErrCodeCannotExecuteActionOnThisChannelType, "Cannot execute action on this channel type")
	}
	g := s.guild(t.GuildID)
	if g.member(c.params["user_id"]) == nil {
		return apiError(http.StatusNotFound, discordgo.ErrCodeUnknownMember, "Unknown Member")
	}
	if c.params["user_id"] != s.bot.ID && s.botPerms(t)&discordgo.PermissionSendMessagesInThreads == 0 {
		return missingPermissions()
	}
	t.members[c.params["user_id"]] = true
	return noContent()
}
