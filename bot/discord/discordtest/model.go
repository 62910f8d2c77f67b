package discordtest

import (
	"encoding/json"
	"time"

	"github.com/bwmarrin/discordgo"
)

// User is a Discord user of the fake world.
type User struct {
	ID         string
	Username   string
	GlobalName string
	Bot        bool
	// BlocksDMs makes messages to this user's DM channel fail with Discord's error 50007
	// "Cannot send messages to this user", as when a user closes DMs from server members.
	BlocksDMs bool
	// Locale is the user's client language, sent as an interaction's locale ("en-US"
	// when empty): https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-object
	// and https://discord.com/developers/docs/reference#locales.
	Locale string
}

// Role is a guild role; the role whose ID is the guild's ID is @everyone.
type Role struct {
	ID          string
	Name        string
	Permissions int64
	// Managed marks an integration's role, such as the one Discord gives a bot.
	Managed bool
}

// Channel is a guild channel or thread, or a DM channel.
type Channel struct {
	ID       string
	Name     string
	Type     discordgo.ChannelType
	GuildID  string
	ParentID string // a thread's channel, or a channel's category
	OwnerID  string // a thread's creator
	// DenyThreads denies the bot Create Public/Private Threads here through a permission
	// overwrite on its role, so Discord refuses thread creation with 403 Missing
	// Permissions (50013); see Server.DenyThreads to change it while a test runs.
	DenyThreads bool
	// RecipientID is the other user of a DM channel.
	RecipientID string
	// StarterMessageID is the message a thread was started from, if any.
	StarterMessageID string
}

// Member is a user's membership of a guild; Roles holds role IDs or role names.
type Member struct {
	User  User
	Roles []string
	Nick  string
}

// Guild is a Discord server of the fake world.
type Guild struct {
	ID       string
	Name     string
	OwnerID  string
	Locale   string
	Roles    []Role
	Channels []Channel // text channels, categories and active threads
	Members  []Member
}

// File is an uploaded file of a multipart request.
type File struct {
	Field       string // the form field, e.g. "files[0]"
	Name        string
	ContentType string
	Data        []byte
}

// Attachment is a file attached to a message.
type Attachment struct {
	ID          string
	Filename    string
	ContentType string
	Description string
	Size        int
	Data        []byte
}

// Embed is a rich embed of a message.
type Embed struct {
	Title       string       `json:"title,omitempty"`
	Description string       `json:"description,omitempty"`
	URL         string       `json:"url,omitempty"`
	Color       int          `json:"color,omitempty"`
	Fields      []EmbedField `json:"fields,omitempty"`
	Footer      *struct {
		Text string `json:"text"`
	} `json:"footer,omitempty"`
	Image *struct {
		URL string `json:"url"`
	} `json:"image,omitempty"`
	Thumbnail *struct {
		URL string `json:"url"`
	} `json:"thumbnail,omitempty"`
	Author *struct {
		Name string `json:"name"`
	} `json:"author,omitempty"`
}

// EmbedField is a field of an embed.
type EmbedField struct {
	Name   string `json:"name"`
	Value  string `json:"value"`
	Inline bool   `json:"inline,omitempty"`
}

// Component is a message or modal component as the bot sent it: an action row, button,
// select menu, text input, label, or a layout component with children.
type Component struct {
	Type        discordgo.ComponentType `json:"type"`
	ID          int                     `json:"id,omitempty"`
	CustomID    string                  `json:"custom_id,omitempty"`
	Label       string                  `json:"label,omitempty"`
	Style       int                     `json:"style,omitempty"`
	Disabled    bool                    `json:"disabled,omitempty"`
	URL         string                  `json:"url,omitempty"`
	Placeholder string                  `json:"placeholder,omitempty"`
	MinValues   *int                    `json:"min_values,omitempty"`
	MaxValues   *int                    `json:"max_values,omitempty"`
	Options     []SelectOption          `json:"options,omitempty"`
	Value       string                  `json:"value,omitempty"`
	Required    *bool                   `json:"required,omitempty"`
	MinLength   *int                    `json:"min_length,omitempty"`
	MaxLength   *int                    `json:"max_length,omitempty"`
	Content     string                  `json:"content,omitempty"`
	Components  []Component             `json:"components,omitempty"`
	Component   *Component              `json:"component,omitempty"`
	Accessory   *Component              `json:"accessory,omitempty"`
}

// SelectOption is an option of a string select menu.
type SelectOption struct {
	Label       string `json:"label"`
	Value       string `json:"value"`
	Description string `json:"description,omitempty"`
	Default     bool   `json:"default,omitempty"`
}

// Find returns the component with the custom ID id among cs and their descendants.
func Find(cs []Component, id string) *Component {
	for i := range cs {
		c := &cs[i]
		if c.CustomID == id {
			return c
		}
		if f := Find(c.Components, id); f != nil {
			return f
		}
		for _, sub := range []*Component{c.Component, c.Accessory} {
			if sub != nil {
				if f := Find([]Component{*sub}, id); f != nil {
					return f
				}
			}
		}
	}
	return nil
}

// Message is the fake's record of a message, as the bot left it.
type Message struct {
	ID        string
	ChannelID string
	GuildID   string
	AuthorID  string
	Content   string
	Embeds    []Embed
	// Components are the message's components (buttons, selects, layout).
	Components  []Component
	Attachments []Attachment
	Flags       discordgo.MessageFlags
	// Ephemeral messages are seen only by VisibleTo, the user of the interaction.
	Ephemeral bool
	VisibleTo string
	// InteractionID is the interaction this message answers, as its original response or
	// a followup; empty for plain channel messages.
	InteractionID string
	// Deferred is true while a deferred original response still shows "thinking".
	Deferred bool
	// Mentions are the users the content pings: <@id> mentions allowed by allowed_mentions.
	Mentions []string
	// Edits counts the edits made after the message was created.
	Edits    int
	Deleted  bool
	ThreadID string // the thread started from this message
	Created  time.Time
	// Nonce is the nonce the message was created with, if any.
	Nonce string
	// Type is the message's type: discordgo.MessageTypeDefault for a post,
	// MessageTypeThreadCreated for Discord's notice of a new thread, and so on.
	Type discordgo.MessageType
}

// Component returns the component with the custom ID id in the message, or nil.
func (m *Message) Component(id string) *Component { return Find(m.Components, id) }

// Interaction is an interaction the test injected through the gateway.
type Interaction struct {
	ID        string
	Token     string
	Type      discordgo.InteractionType
	GuildID   string
	ChannelID string
	UserID    string
	// Payload is the INTERACTION_CREATE data as delivered.
	Payload json.RawMessage
	Sent    time.Time
}

// Callback is one interaction response (POST /interactions/{id}/{token}/callback).
type Callback struct {
	Type discordgo.InteractionResponseType
	// Data is the callback's data object, or nil.
	Data json.RawMessage
	// Content, Flags, Embeds, Components and Files are read from Data for convenience.
	Content    string
	Flags      discordgo.MessageFlags
	Ephemeral  bool
	Embeds     []Embed
	Components []Component
	Files      []File
	// Choices are an autocomplete result's choices.
	Choices []Choice
	// CustomID and Title belong to a modal.
	CustomID string
	Title    string
	// After is the time from delivering the interaction to the callback.
	After time.Duration
	// Status is the HTTP status the fake answered; 204 when accepted.
	Status int
}

// Choice is an autocomplete choice.
type Choice struct {
	Name  string `json:"name"`
	Value any    `json:"value"`
}

// Identify is an IDENTIFY payload received by the fake gateway.
type Identify struct {
	Token          string
	Intents        discordgo.Intent
	Shard          [2]int
	Compress       bool
	LargeThreshold int
	Properties     map[string]string
	// Version and Encoding are the ?v= and ?encoding= of the gateway URL.
	Version  string
	Encoding string
	// Transport is the ?compress= of the gateway URL, e.g. "zlib-stream", or "".
	Transport string
}

// Request is one REST request the bot sent.
type Request struct {
	Method string
	// Path is the request path without its /api/vN prefix; APIVersion is N.
	Path       string
	APIVersion string
	// Route is the method and path template, e.g. "POST /channels/{channel_id}/messages".
	Route  string
	Params map[string]string
	Query  map[string][]string
	// Body is the JSON body, or the payload_json of a multipart body.
	Body        json.RawMessage
	ContentType string
	Files       []File
	// Status is the HTTP status the fake answered.
	Status int
	// Violations are the ways the request did not fit Discord's API description.
	Violations []Violation
	Time       time.Time
}
