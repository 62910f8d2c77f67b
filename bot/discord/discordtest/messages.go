package discordtest

import (
	"bytes"
	"context"
	"fmt"
	"image"
	_ "image/gif" // attachment sizes
	_ "image/jpeg"
	_ "image/png"
	"net/http"
	"regexp"
	"slices"
	"time"

	"github.com/bwmarrin/discordgo"
)

// Discord's limits on message uploads for a guild without boosts.
const (
	maxFiles    = 10
	maxFileSize = 10 << 20
)

// messageState is a message with what the fake needs to answer for it.
type messageState struct {
	Message
	rawEmbeds     []any
	rawComponents []any
	edited        time.Time
	interaction   *interactionState // the interaction it answers, if any
}

// copyMessage returns a deep enough copy of m for a test to read without races.
func copyMessage(m *messageState) *Message {
	c := m.Message
	c.Embeds = slices.Clone(m.Embeds)
	c.Components = slices.Clone(m.Components)
	c.Attachments = slices.Clone(m.Attachments)
	c.Mentions = slices.Clone(m.Mentions)
	return &c
}

// Messages returns the messages of a channel or thread (given by name or id), oldest
// first, deleted ones included (see Message.Deleted).
func (s *Server) Messages(channel string) []*Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.channelLocked(channel)
	if c == nil {
		return nil
	}
	var out []*Message
	for _, m := range c.messages {
		out = append(out, copyMessage(m))
	}
	return out
}

// Message returns the message with the given id.
func (s *Server) Message(id string) (*Message, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.messages[id]
	if m == nil {
		return nil, false
	}
	return copyMessage(m), true
}

// WaitMessage waits until the channel (name or id) has a live message for which match
// returns true (any message when match is nil), and returns it.
func (s *Server) WaitMessage(ctx context.Context, channel string, match func(*Message) bool) (*Message, error) {
	var found *Message
	err := s.Wait(ctx, func() bool {
		for _, m := range s.Messages(channel) {
			if !m.Deleted && (match == nil || match(m)) {
				found = m
				return true
			}
		}
		return false
	})
	return found, err
}

// DMChannel returns the id of the DM channel between the bot and a user (name or id),
// creating it if needed.
func (s *Server) DMChannel(user string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.userLocked(user)
	if u == nil {
		panic(fmt.Sprintf("discordtest: no user %q", user))
	}
	return s.dmLocked(u).ID
}

func (s *Server) dmLocked(u *User) *channelState {
	if id, ok := s.dms[u.ID]; ok {
		return s.channels[id]
	}
	c := &channelState{Channel: Channel{ID: s.ids.next(), Type: discordgo.ChannelTypeDM, RecipientID: u.ID},
		created: time.Now(), members: map[string]bool{}}
	s.channels[c.ID] = c
	s.channelOrder = append(s.channelOrder, c.ID)
	s.dms[u.ID] = c.ID
	return c
}

// content is the message content a request sets, parsed.
type content struct {
	set             map[string]bool
	Content         string
	Embeds          []Embed
	rawEmbeds       []any
	Components      []Component
	rawComponents   []any
	Flags           discordgo.MessageFlags
	attachments     []any // the attachments field: attachments to keep, descriptions
	allowedMentions map[string]any
}

// parseBody reads the message fields of a body, or says why Discord would refuse them.
func parseBody(body map[string]any) (*content, *reply) {
	c, err := parseContent(body)
	if err != nil {
		r := apiError(http.StatusBadRequest, discordgo.ErrCodeInvalidFormBody, "Invalid Form Body: "+err.Error())
		return nil, &r
	}
	return c, nil
}

// parseContent reads the message fields of a create or edit body.
func parseContent(body map[string]any) (*content, error) {
	c := &content{set: map[string]bool{}}
	for k := range body {
		c.set[k] = true
	}
	c.Content, _ = body["content"].(string)
	c.rawEmbeds, _ = body["embeds"].([]any)
	if err := decodeInto(c.rawEmbeds, &c.Embeds); err != nil {
		return nil, fmt.Errorf("embeds: %v", err)
	}
	c.rawComponents, _ = body["components"].([]any)
	if err := decodeInto(c.rawComponents, &c.Components); err != nil {
		return nil, fmt.Errorf("components: %v", err)
	}
	if err := checkComponents(c.Components); err != nil {
		return nil, err
	}
	if f, ok := body["flags"].(float64); ok {
		c.Flags = discordgo.MessageFlags(f)
	}
	if err := checkMessageLimits(c); err != nil {
		return nil, err
	}
	c.attachments, _ = body["attachments"].([]any)
	c.allowedMentions, _ = body["allowed_mentions"].(map[string]any)
	return c, nil
}

// checkFiles applies Discord's upload limits.
func checkFiles(files []File) *reply {
	if len(files) > maxFiles {
		r := apiError(http.StatusBadRequest, discordgo.ErrCodeInvalidFormBody, fmt.Sprintf("Invalid Form Body (%d files; at most %d)", len(files), maxFiles))
		return &r
	}
	for _, f := range files {
		if len(f.Data) > maxFileSize {
			r := apiError(http.StatusRequestEntityTooLarge, discordgo.ErrCodeRequestEntityTooLarge, "Request entity too large")
			return &r
		}
	}
	return nil
}

// newMessageLocked creates a bot message in ch from a request body; s.mu is held.
func (s *Server) newMessageLocked(ch *channelState, c *content, files []File) (*messageState, *reply) {
	if r := checkFiles(files); r != nil {
		return nil, r
	}
	m := &messageState{Message: Message{
		ID: s.ids.next(), ChannelID: ch.ID, GuildID: ch.GuildID, AuthorID: s.bot.ID,
		Content: c.Content, Embeds: c.Embeds, Components: c.Components, Flags: c.Flags,
		Ephemeral: c.Flags&discordgo.MessageFlagsEphemeral != 0, Created: time.Now(),
	}, rawEmbeds: c.rawEmbeds, rawComponents: c.rawComponents}
	m.Attachments = s.attachments(nil, c, files)
	if m.Content == "" && len(m.Embeds) == 0 && len(m.Components) == 0 && len(m.Attachments) == 0 && !c.set["poll"] && !c.set["sticker_ids"] {
		r := apiError(http.StatusBadRequest, discordgo.ErrCodeCannotSendEmptyMessage, "Cannot send an empty message")
		return nil, &r
	}
	m.Mentions = s.mentions(m.Content, c.allowedMentions)
	s.addMessageLocked(ch, m)
	return m, nil
}

func (s *Server) addMessageLocked(ch *channelState, m *messageState) {
	ch.messages = append(ch.messages, m)
	ch.sent++
	s.messages[m.ID] = m
}

// editLocked applies an edit body to m; s.mu is held.
func (s *Server) editLocked(m *messageState, c *content, files []File) *reply {
	if r := checkFiles(files); r != nil {
		return r
	}
	if c.set["content"] {
		m.Content = c.Content
		m.Mentions = s.mentions(m.Content, c.allowedMentions)
	}
	if c.set["embeds"] {
		m.Embeds, m.rawEmbeds = c.Embeds, c.rawEmbeds
	}
	if c.set["components"] {
		m.Components, m.rawComponents = c.Components, c.rawComponents
	}
	if c.set["flags"] {
		// Only SUPPRESS_EMBEDS can change; ephemerality is fixed at creation.
		m.Flags = m.Flags&^discordgo.MessageFlagsSuppressEmbeds | c.Flags&discordgo.MessageFlagsSuppressEmbeds
	}
	if c.set["attachments"] || len(files) > 0 {
		m.Attachments = s.attachments(m.Attachments, c, files)
	}
	if !m.Deferred {
		m.Edits++
		m.edited = time.Now()
	}
	m.Deferred = false
	return nil
}

// attachments computes a message's attachments: the old ones the attachments field keeps
// (all of them when it is absent), then the uploaded files.
func (s *Server) attachments(old []Attachment, c *content, files []File) []Attachment {
	var out []Attachment
	descriptions := map[string]string{}
	if c.set["attachments"] {
		keep := map[string]bool{}
		for _, a := range c.attachments {
			am, _ := a.(map[string]any)
			id := fmt.Sprint(am["id"])
			keep[id] = true
			if d, ok := am["description"].(string); ok {
				descriptions[id] = d
			}
		}
		for _, a := range old {
			if keep[a.ID] {
				out = append(out, a)
			}
		}
	} else {
		out = append(out, old...)
	}
	for i, f := range files {
		out = append(out, Attachment{ID: s.ids.next(), Filename: f.Name, ContentType: f.ContentType,
			Description: descriptions[fmt.Sprint(i)], Size: len(f.Data), Data: f.Data})
	}
	return out
}

var mentionRE = regexp.MustCompile(`<@!?(\d+)>`)

// mentions are the users content pings, honouring allowed_mentions as Discord does.
func (s *Server) mentions(text string, allowed map[string]any) []string {
	users := map[string]bool{}
	for _, m := range mentionRE.FindAllStringSubmatch(text, -1) {
		if s.users[m[1]] != nil {
			users[m[1]] = true
		}
	}
	if allowed != nil {
		parse, _ := allowed["parse"].([]any)
		list, _ := allowed["users"].([]any)
		if !slices.Contains(parse, any("users")) {
			ok := map[string]bool{}
			for _, u := range list {
				ok[fmt.Sprint(u)] = true
			}
			for u := range users {
				if !ok[u] {
					delete(users, u)
				}
			}
		}
	}
	var out []string
	for u := range users {
		out = append(out, u)
	}
	slices.Sort(out)
	return out
}

// messageJSON is a message as Discord's API returns it.
func (s *Server) messageJSON(m *messageState) map[string]any {
	atts := []any{}
	for _, a := range m.Attachments {
		j := map[string]any{
			"id": a.ID, "filename": a.Filename, "size": a.Size,
			"url":       "https://cdn.discordapp.com/attachments/" + m.ChannelID + "/" + a.ID + "/" + a.Filename,
			"proxy_url": "https://media.discordapp.net/attachments/" + m.ChannelID + "/" + a.ID + "/" + a.Filename,
		}
		if a.ContentType != "" {
			j["content_type"] = a.ContentType
		}
		if a.Description != "" {
			j["description"] = a.Description
		}
		if cfg, _, err := image.DecodeConfig(bytes.NewReader(a.Data)); err == nil {
			j["width"], j["height"] = cfg.Width, cfg.Height
		}
		atts = append(atts, j)
	}
	mentions := []any{}
	for _, id := range m.Mentions {
		mentions = append(mentions, userJSON(*s.users[id]))
	}
	var edited any
	if !m.edited.IsZero() {
		edited = timestamp(m.edited)
	}
	j := map[string]any{
		"id": m.ID, "type": int(m.Type), "channel_id": m.ChannelID, "author": userJSON(s.bot),
		"content": m.Content, "timestamp": timestamp(m.Created), "edited_timestamp": edited,
		"tts": false, "mention_everyone": false, "mentions": mentions, "mention_roles": []any{},
		"attachments": atts, "embeds": orEmpty(m.rawEmbeds), "components": orEmpty(m.rawComponents),
		"pinned": false, "flags": int(m.Flags),
	}
	if m.Nonce != "" {
		j["nonce"] = m.Nonce
	}
	if m.ThreadID != "" {
		if t := s.channels[m.ThreadID]; t != nil {
			j["thread"] = s.channelJSON(t)
		}
	}
	if ch := s.channels[m.ChannelID]; ch != nil && ch.isThread() {
		j["position"] = slices.Index(ch.messages, m)
	}
	if in := m.interaction; in != nil {
		j["application_id"] = s.appID
		j["webhook_id"] = s.appID
		j["interaction_metadata"] = map[string]any{
			"id": in.ID, "type": int(in.Type), "user": userJSON(*s.users[in.UserID]),
			"authorizing_integration_owners": in.owners,
		}
	}
	return j
}

func orEmpty(v []any) []any {
	if v == nil {
		return []any{}
	}
	return v
}

// checkComponents applies the rules Discord enforces on components beyond its API
// description: interactive components need a custom_id unique in the message, link
// buttons a url and no custom_id, and a select menu fills its action row alone.
func checkComponents(cs []Component) error {
	seen := map[string]bool{}
	var walk func(cs []Component, path string) error
	walk = func(cs []Component, path string) error {
		for i, c := range cs {
			p := fmt.Sprintf("%s/%d", path, i)
			switch {
			case c.Type == discordgo.ButtonComponent && c.Style == int(discordgo.LinkButton):
				if c.URL == "" || c.CustomID != "" {
					return fmt.Errorf("components%s: a link button needs a url and no custom_id", p)
				}
			case c.Type == discordgo.ButtonComponent && c.Style == 6: // premium
			case c.Type == discordgo.ButtonComponent, isSelect(c.Type), c.Type == discordgo.TextInputComponent:
				if c.CustomID == "" {
					return fmt.Errorf("components%s: component type %d needs a custom_id", p, c.Type)
				}
				if seen[c.CustomID] {
					return fmt.Errorf("components%s: custom_id %q is used twice", p, c.CustomID)
				}
				seen[c.CustomID] = true
			case c.Type == discordgo.ActionsRowComponent:
				for _, sub := range c.Components {
					if isSelect(sub.Type) && len(c.Components) > 1 {
						return fmt.Errorf("components%s: a select menu must be alone in its action row", p)
					}
				}
			}
			if c.Type == discordgo.SelectMenuComponent && (len(c.Options) == 0 || len(c.Options) > 25) {
				return fmt.Errorf("components%s: a string select needs 1 to 25 options, has %d", p, len(c.Options))
			}
			if err := walk(c.Components, p+"/components"); err != nil {
				return err
			}
			for _, sub := range []*Component{c.Component, c.Accessory} {
				if sub != nil {
					if err := walk([]Component{*sub}, p+"/component"); err != nil {
						return err
					}
				}
			}
		}
		return nil
	}
	return walk(cs, "")
}
