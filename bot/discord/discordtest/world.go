package discordtest

import (
	"fmt"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
)

// discordEpoch is the first millisecond of 2015, the zero of Discord's snowflakes.
const discordEpoch = 1420070400000

// snowflakeBase is the time the fake's ids start from, so ids are stable between runs.
var snowflakeBase = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli()

// snowflakes hands out increasing snowflake ids: (ms since 2015) << 22 | worker << 17 | n.
type snowflakes struct {
	mu sync.Mutex
	n  int64
}

func (g *snowflakes) next() string {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.n++
	return strconv.FormatInt((snowflakeBase+g.n-discordEpoch)<<22|1<<17|g.n%4096, 10)
}

// Permission sets of the default world. discordgo v0.28.1 names Discord's
// USE_APPLICATION_COMMANDS and MANAGE_GUILD PermissionUseSlashCommands and
// PermissionManageServer (v0.29 renames them; the bits are the same).
const (
	everyonePerms = discordgo.PermissionViewChannel | discordgo.PermissionSendMessages |
		discordgo.PermissionReadMessageHistory | discordgo.PermissionUseSlashCommands |
		discordgo.PermissionCreatePublicThreads | discordgo.PermissionSendMessagesInThreads |
		discordgo.PermissionEmbedLinks | discordgo.PermissionAttachFiles | discordgo.PermissionAddReactions
	// botPerms are the bot's managed role's permissions as a typical invite grants
	// them: the permissions the invite link asks for ("permissions" of the bot
	// authorization flow, https://discord.com/developers/docs/topics/oauth2#bot-authorization-flow),
	// which for a game bot are those to post, thread and attach, never Manage Threads
	// or Manage Messages; servers rarely add more. Tests that need more give it.
	botPerms    = everyonePerms | discordgo.PermissionCreatePrivateThreads
	adminPerms  = everyonePerms | discordgo.PermissionManageServer | discordgo.PermissionManageChannels
	threadPerms = discordgo.PermissionCreatePublicThreads | discordgo.PermissionCreatePrivateThreads
	// allPermissions is every permission bit Discord defines (up to Use External Apps).
	allPermissions = int64(1)<<51 - 1
)

// DefaultGuild is the world of a zero Config, ids left to the server: "Missive Test" with
// #general, #games and #no-threads (no threads for the bot) in a category, the roles
// @everyone, Admin (Manage Server) and the bot's managed Missive (without Manage Threads
// or Manage Messages, as a typical invite grants), and the members alice (en-US), bob
// (de), carol (fr; owner, Admin), dave (pt-BR; blocks DMs) and the bot.
func DefaultGuild() Guild {
	return Guild{
		Name:   "Missive Test",
		Locale: "en-US",
		Roles: []Role{
			{Name: "@everyone", Permissions: everyonePerms},
			{Name: "Admin", Permissions: adminPerms},
			{Name: "Missive", Permissions: botPerms, Managed: true},
		},
		Channels: []Channel{
			{Name: "Text Channels", Type: discordgo.ChannelTypeGuildCategory},
			{Name: "general", Type: discordgo.ChannelTypeGuildText, ParentID: "Text Channels"},
			{Name: "games", Type: discordgo.ChannelTypeGuildText, ParentID: "Text Channels"},
			{Name: "no-threads", Type: discordgo.ChannelTypeGuildText, ParentID: "Text Channels", DenyThreads: true},
		},
		Members: []Member{
			{User: User{Username: "alice", GlobalName: "Alice"}},
			{User: User{Username: "bob", GlobalName: "Bob", Locale: "de"}},
			{User: User{Username: "carol", GlobalName: "Carol", Locale: "fr"}, Roles: []string{"Admin"}},
			{User: User{Username: "dave", GlobalName: "Dave", BlocksDMs: true, Locale: "pt-BR"}},
		},
		OwnerID: "carol",
	}
}

// overwrite is a channel permission overwrite.
type overwrite struct {
	ID          string
	Type        discordgo.PermissionOverwriteType
	Allow, Deny int64
}

// guildState is a guild of the running fake.
type guildState struct {
	Guild
	joined  time.Time
	removed []Member // the bot's membership while it is removed (RemoveBot)
}

// channelState is a channel or thread of the running fake.
type channelState struct {
	Channel
	overwrites  []overwrite
	messages    []*messageState
	members     map[string]bool // thread members
	archived    bool
	locked      bool     // only members with Manage Threads may unarchive it or post
	deleted     bool     // every request about it gets Unknown Channel
	recipients  []string // a group DM's users (the bot is never one)
	autoArchive int
	invitable   bool
	created     time.Time
	sent        int // messages ever sent, a thread's total_message_sent
}

func (c *channelState) isThread() bool {
	switch c.Type {
	case discordgo.ChannelTypeGuildPublicThread, discordgo.ChannelTypeGuildPrivateThread, discordgo.ChannelTypeGuildNewsThread:
		return true
	}
	return false
}

func (c *channelState) lastMessageID() any {
	if len(c.messages) == 0 {
		return nil
	}
	return c.messages[len(c.messages)-1].ID
}

// everyone returns the @everyone role of g.
func (g *guildState) everyone() *Role {
	for i := range g.Roles {
		if g.Roles[i].ID == g.ID {
			return &g.Roles[i]
		}
	}
	return nil
}

func (g *guildState) member(userID string) *Member {
	for i := range g.Members {
		if g.Members[i].User.ID == userID {
			return &g.Members[i]
		}
	}
	return nil
}

func (g *guildState) role(id string) *Role {
	for i := range g.Roles {
		if g.Roles[i].ID == id {
			return &g.Roles[i]
		}
	}
	return nil
}

// basePermissions computes a member's guild-wide permissions as Discord does.
func (g *guildState) basePermissions(userID string) int64 {
	if userID == g.OwnerID {
		return allPermissions
	}
	m := g.member(userID)
	if m == nil {
		return 0
	}
	var p int64
	if e := g.everyone(); e != nil {
		p = e.Permissions
	}
	for _, id := range m.Roles {
		if r := g.role(id); r != nil {
			p |= r.Permissions
		}
	}
	if p&discordgo.PermissionAdministrator != 0 {
		return allPermissions
	}
	return p
}

// channelPermissions applies ch's overwrites (a thread's parent's) to the member's base.
func (g *guildState) channelPermissions(ch *channelState, parent *channelState, userID string) int64 {
	p := g.basePermissions(userID)
	if p&discordgo.PermissionAdministrator != 0 {
		return allPermissions
	}
	ows := ch.overwrites
	if ch.isThread() && parent != nil {
		ows = parent.overwrites
	}
	m := g.member(userID)
	for _, o := range ows {
		if o.Type == discordgo.PermissionOverwriteTypeRole && o.ID == g.ID {
			p = p&^o.Deny | o.Allow
		}
	}
	var allow, deny int64
	for _, o := range ows {
		if o.Type == discordgo.PermissionOverwriteTypeRole && o.ID != g.ID && m != nil && contains(m.Roles, o.ID) {
			allow |= o.Allow
			deny |= o.Deny
		}
	}
	p = p&^deny | allow
	for _, o := range ows {
		if o.Type == discordgo.PermissionOverwriteTypeMember && o.ID == userID {
			p = p&^o.Deny | o.Allow
		}
	}
	return p
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Wire format: JSON objects shaped as Discord's API v10 sends them.

func timestamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000000+00:00") }

func userJSON(u User) map[string]any {
	j := map[string]any{
		"id": u.ID, "username": u.Username, "discriminator": "0", "global_name": nilIfEmpty(u.GlobalName),
		"avatar": nil, "avatar_decoration_data": nil, "public_flags": 0, "flags": 0,
		"banner": nil, "accent_color": nil, "collectibles": nil, "primary_guild": nil,
	}
	if u.Bot {
		j["bot"] = true
		j["global_name"] = nil
	}
	return j
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func (g *guildState) memberJSON(m *Member, withUser bool) map[string]any {
	roles := []string{}
	for _, r := range m.Roles {
		if r != g.ID {
			roles = append(roles, r)
		}
	}
	j := map[string]any{
		"nick": nilIfEmpty(m.Nick), "avatar": nil, "banner": nil, "roles": roles,
		"joined_at": timestamp(g.joined), "premium_since": nil, "deaf": false, "mute": false,
		"flags": 0, "pending": false, "communication_disabled_until": nil,
	}
	if withUser {
		j["user"] = userJSON(m.User)
	}
	return j
}

func roleJSON(r Role, position int) map[string]any {
	j := map[string]any{
		"id": r.ID, "name": r.Name, "description": nil, "color": 0,
		"colors": map[string]any{"primary_color": 0, "secondary_color": nil, "tertiary_color": nil},
		"hoist":  false, "icon": nil, "unicode_emoji": nil, "position": position,
		"permissions": strconv.FormatInt(r.Permissions, 10), "managed": r.Managed, "mentionable": false, "flags": 0,
	}
	if r.Managed {
		j["tags"] = map[string]any{"bot_id": nil}
	}
	return j
}

func (s *Server) channelJSON(c *channelState) map[string]any {
	j := map[string]any{"id": c.ID, "type": int(c.Type), "flags": 0, "last_message_id": c.lastMessageID()}
	switch {
	case c.Type == discordgo.ChannelTypeDM:
		j["recipients"] = []any{userJSON(*s.users[c.RecipientID])}
		return j
	case c.Type == discordgo.ChannelTypeGroupDM:
		return s.groupDMJSON(c, j)
	case c.isThread():
		j["guild_id"] = c.GuildID
		j["parent_id"] = c.ParentID
		j["owner_id"] = c.OwnerID
		j["name"] = c.Name
		j["rate_limit_per_user"] = 0
		j["message_count"] = len(c.messages)
		j["total_message_sent"] = c.sent
		j["member_count"] = min(len(c.members), 50)
		j["member_ids_preview"] = []string{}
		meta := map[string]any{
			"archived": c.archived, "auto_archive_duration": c.autoArchive,
			"archive_timestamp": timestamp(c.created), "locked": c.locked, "create_timestamp": timestamp(c.created),
		}
		if c.Type == discordgo.ChannelTypeGuildPrivateThread {
			meta["invitable"] = c.invitable
		}
		j["thread_metadata"] = meta
		if c.members[s.bot.ID] {
			j["member"] = map[string]any{"id": c.ID, "user_id": s.bot.ID, "join_timestamp": timestamp(c.created), "flags": 1}
		}
		return j
	}
	j["guild_id"] = c.GuildID
	j["name"] = c.Name
	j["position"] = 0
	j["parent_id"] = nilIfEmpty(c.ParentID)
	j["nsfw"] = false
	ows := []any{}
	for _, o := range c.overwrites {
		ows = append(ows, map[string]any{"id": o.ID, "type": int(o.Type),
			"allow": strconv.FormatInt(o.Allow, 10), "deny": strconv.FormatInt(o.Deny, 10)})
	}
	j["permission_overwrites"] = ows
	if c.Type != discordgo.ChannelTypeGuildCategory {
		j["topic"] = nil
		j["rate_limit_per_user"] = 0
		j["default_thread_rate_limit_per_user"] = 0
		j["default_auto_archive_duration"] = 1440
	}
	return j
}

// guildCreateJSON is the GUILD_CREATE payload; the member list holds everyone only with
// the privileged Guild Members intent, as on Discord, and otherwise just the bot.
func (s *Server) guildCreateJSON(g *guildState, intents discordgo.Intent) map[string]any {
	roles := []any{}
	for i, r := range g.Roles {
		roles = append(roles, roleJSON(r, i))
	}
	channels, threads := []any{}, []any{}
	for _, c := range s.guildChannels(g.ID) {
		if c.deleted {
			continue
		}
		if c.isThread() {
			if !c.archived {
				threads = append(threads, s.channelJSON(c))
			}
			continue
		}
		channels = append(channels, s.channelJSON(c))
	}
	members := []any{}
	for i := range g.Members {
		m := &g.Members[i]
		if intents&discordgo.IntentGuildMembers != 0 || m.User.ID == s.bot.ID {
			members = append(members, g.memberJSON(m, true))
		}
	}
	var system any
	if len(channels) > 0 {
		for _, c := range s.guildChannels(g.ID) {
			if c.Type == discordgo.ChannelTypeGuildText {
				system = c.ID
				break
			}
		}
	}
	return map[string]any{
		"id": g.ID, "name": g.Name, "icon": nil, "splash": nil, "discovery_splash": nil, "banner": nil,
		"description": nil, "owner_id": g.OwnerID, "region": "deprecated", "afk_channel_id": nil,
		"afk_timeout": 300, "verification_level": 0, "default_message_notifications": 0,
		"explicit_content_filter": 0, "features": []string{}, "mfa_level": 0, "application_id": nil,
		"system_channel_id": system, "system_channel_flags": 0, "rules_channel_id": nil,
		"public_updates_channel_id": nil, "safety_alerts_channel_id": nil, "max_members": 500000,
		"max_video_channel_users": 25, "vanity_url_code": nil, "premium_tier": 0,
		"premium_subscription_count": 0, "preferred_locale": g.Locale, "nsfw_level": 0, "nsfw": false,
		"premium_progress_bar_enabled": false, "emojis": []any{}, "stickers": []any{}, "roles": roles,
		"joined_at": timestamp(g.joined), "large": false, "unavailable": false, "member_count": len(g.Members),
		"voice_states": []any{}, "members": members, "channels": channels, "threads": threads,
		"presences": []any{}, "stage_instances": []any{}, "guild_scheduled_events": []any{},
		"soundboard_sounds": []any{}, "embedded_activities": []any{}, "lazy": true,
	}
}

// buildWorld assigns ids and resolves names in the configured guilds.
func (s *Server) buildWorld() error {
	s.bot = s.cfg.Bot
	if s.bot.Username == "" {
		s.bot.Username = "Missive"
	}
	s.bot.Bot = true
	if s.bot.ID == "" {
		s.bot.ID = s.ids.next()
	}
	s.users[s.bot.ID] = &s.bot
	s.appID = s.cfg.ApplicationID
	if s.appID == "" {
		s.appID = s.bot.ID
	}
	guilds := s.cfg.Guilds
	if guilds == nil {
		guilds = []Guild{DefaultGuild()}
	}
	byName := map[string]*User{s.bot.Username: &s.bot}
	now := time.Now()
	for _, cg := range guilds {
		g := &guildState{Guild: cg, joined: now}
		g.Roles = append([]Role(nil), cg.Roles...)
		g.Channels = nil // kept in s.channels
		g.Members = nil
		if g.ID == "" {
			g.ID = s.ids.next()
		}
		if g.Locale == "" {
			g.Locale = "en-US"
		}
		// Roles: @everyone has the guild's id.
		roleIDs := map[string]string{}
		hasEveryone := false
		for i := range g.Roles {
			r := &g.Roles[i]
			if r.Name == "@everyone" || r.ID == g.ID {
				r.ID, r.Name, hasEveryone = g.ID, "@everyone", true
			}
			if r.ID == "" {
				r.ID = s.ids.next()
			}
			roleIDs[r.Name], roleIDs[r.ID] = r.ID, r.ID
		}
		if !hasEveryone {
			g.Roles = append([]Role{{ID: g.ID, Name: "@everyone", Permissions: everyonePerms}}, g.Roles...)
		}
		var botRole string
		for _, r := range g.Roles {
			if r.Managed && botRole == "" {
				botRole = r.ID
			}
		}
		// Members: one user per username across guilds; the bot is always a member.
		members := append([]Member(nil), cg.Members...)
		hasBot := false
		for _, m := range members {
			hasBot = hasBot || m.User.ID == s.bot.ID || m.User.Username == s.bot.Username
		}
		if !hasBot {
			bm := Member{User: s.bot}
			if botRole != "" {
				bm.Roles = []string{botRole}
			}
			members = append(members, bm)
		}
		for _, m := range members {
			u := byName[m.User.Username]
			if u == nil {
				nu := m.User
				if nu.ID == "" {
					nu.ID = s.ids.next()
				}
				u = &nu
				byName[u.Username] = u
				s.users[u.ID] = u
			}
			var roles []string
			for _, r := range m.Roles {
				id, ok := roleIDs[r]
				if !ok {
					return fmt.Errorf("guild %q: member %s has unknown role %q", g.Name, u.Username, r)
				}
				roles = append(roles, id)
			}
			g.Members = append(g.Members, Member{User: *u, Roles: roles, Nick: m.Nick})
		}
		switch owner := byName[g.OwnerID]; {
		case owner != nil:
			g.OwnerID = owner.ID
		case g.OwnerID == "" || s.users[g.OwnerID] == nil:
			g.OwnerID = g.Members[0].User.ID
		}
		// Channels: ids first, then parents by name or id.
		chans := make([]*channelState, len(cg.Channels))
		chanIDs := map[string]string{}
		for i, cc := range cg.Channels {
			c := &channelState{Channel: cc, created: now, autoArchive: 1440, members: map[string]bool{}}
			c.GuildID = g.ID
			if c.ID == "" {
				c.ID = s.ids.next()
			}
			chanIDs[c.Name], chanIDs[c.ID] = c.ID, c.ID
			chans[i] = c
		}
		for _, c := range chans {
			if c.ParentID != "" {
				id, ok := chanIDs[c.ParentID]
				if !ok {
					return fmt.Errorf("guild %q: channel %s has unknown parent %q", g.Name, c.Name, c.ParentID)
				}
				c.ParentID = id
			}
			if c.isThread() {
				c.members[s.bot.ID] = true
				if c.OwnerID == "" {
					c.OwnerID = s.bot.ID
				}
			}
			if c.DenyThreads {
				c.overwrites = append(c.overwrites, s.threadDenial(botRole))
			}
			s.channels[c.ID] = c
			s.channelOrder = append(s.channelOrder, c.ID)
		}
		s.guilds = append(s.guilds, g)
	}
	return nil
}

// threadDenial is the overwrite that takes thread creation from the bot: on its managed
// role, or on the bot member when it has none.
func (s *Server) threadDenial(botRole string) overwrite {
	if botRole != "" {
		return overwrite{ID: botRole, Type: discordgo.PermissionOverwriteTypeRole, Deny: threadPerms}
	}
	return overwrite{ID: s.bot.ID, Type: discordgo.PermissionOverwriteTypeMember, Deny: threadPerms}
}

func (s *Server) guild(id string) *guildState {
	for _, g := range s.guilds {
		if g.ID == id {
			return g
		}
	}
	return nil
}

// guildChannels lists a guild's channels and threads in creation order; s.mu is held.
func (s *Server) guildChannels(guildID string) []*channelState {
	var out []*channelState
	for _, id := range s.channelOrder {
		if c := s.channels[id]; c.GuildID == guildID {
			out = append(out, c)
		}
	}
	return out
}

// userLocked finds a user by id or username; s.mu is held.
func (s *Server) userLocked(ref string) *User {
	if u := s.users[ref]; u != nil {
		return u
	}
	for _, u := range s.users {
		if u.Username == ref {
			return u
		}
	}
	return nil
}

// channelLocked finds a channel or thread by id or name; s.mu is held.
func (s *Server) channelLocked(ref string) *channelState {
	if c := s.channels[ref]; c != nil {
		return c
	}
	for _, id := range s.channelOrder {
		if c := s.channels[id]; c.Name == ref {
			return c
		}
	}
	return nil
}

// User returns the user with the given username or id; it panics if there is none,
// since a test naming a missing user is wrong.
func (s *Server) User(ref string) User {
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.userLocked(ref)
	if u == nil {
		panic(fmt.Sprintf("discordtest: no user %q", ref))
	}
	return *u
}

// Channel returns the channel or thread with the given name or id; it panics if there is
// none.
func (s *Server) Channel(ref string) Channel {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.channelLocked(ref)
	if c == nil {
		panic(fmt.Sprintf("discordtest: no channel %q", ref))
	}
	return c.Channel
}

// Threads returns the threads whose parent is the channel with the given name or id,
// deleted ones left out.
func (s *Server) Threads(parent string) []Channel {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.channelLocked(parent)
	var out []Channel
	for _, id := range s.channelOrder {
		if c := s.channels[id]; p != nil && c.isThread() && c.ParentID == p.ID && !c.deleted {
			out = append(out, c.Channel)
		}
	}
	return out
}

// ThreadMembers returns the ids of the users who joined the thread.
func (s *Server) ThreadMembers(thread string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	if c := s.channelLocked(thread); c != nil {
		for id := range c.members {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out
}

// Guilds returns the guilds the bot is in, with their channels and threads.
func (s *Server) Guilds() []Guild {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Guild
	for _, g := range s.guilds {
		cg := g.Guild
		cg.Roles = append([]Role(nil), g.Roles...)
		cg.Members = append([]Member(nil), g.Members...)
		for _, c := range s.guildChannels(g.ID) {
			cg.Channels = append(cg.Channels, c.Channel)
		}
		out = append(out, cg)
	}
	return out
}

// Guild returns the first guild.
func (s *Server) Guild() Guild { return s.Guilds()[0] }

// Role returns the role with the given name or id in the first guild that has one; it
// panics if there is none.
func (s *Server) Role(ref string) Role {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, g := range s.guilds {
		for _, r := range g.Roles {
			if r.ID == ref || r.Name == ref {
				return r
			}
		}
	}
	panic(fmt.Sprintf("discordtest: no role %q", ref))
}

// DenyThreads gives or takes back the bot's permission to create threads in a channel
// (SetBotPermissions with Create Public and Private Threads denied, or no overwrite).
func (s *Server) DenyThreads(channel string, deny bool) {
	var d int64
	if deny {
		d = threadPerms
	}
	s.SetBotPermissions(channel, 0, d)
}

// BlockDMs makes messages to the user's DMs fail with 50007 (or work again).
func (s *Server) BlockDMs(user string, block bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.userLocked(user)
	if u == nil {
		panic(fmt.Sprintf("discordtest: no user %q", user))
	}
	u.BlocksDMs = block
	s.changedLocked()
}
