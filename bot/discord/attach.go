package discord

import (
	"encoding/json"
	"fmt"

	"github.com/bwmarrin/discordgo"
)

// Boards are pictures, so each attachment carries its description (alt text), which
// screen readers read out. Discord takes a file's description only in the message's
// "attachments" list, matched to files[n] by id n, and discordgo's payloads have no
// field for it; so messages with files are sent through discordgo's own multipart
// encoder and request path with that list added.

// maxDescription is Discord's limit on an attachment's description.
const maxDescription = 1024

// attachment is a file's entry in a message's attachments list.
type attachment struct {
	ID          string `json:"id"` // the file's index n, as in files[n]
	Filename    string `json:"filename"`
	Description string `json:"description,omitempty"`
}

// described returns payload's JSON with list as its attachments field, in place of
// the payload's own, which cannot carry descriptions.
func described(payload any, list []attachment) (json.RawMessage, error) {
	raw, err := json.Marshal(payload)
	if err != nil {
		return nil, fmt.Errorf("discord: encoding a message: %w", err)
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return nil, fmt.Errorf("discord: encoding a message: %w", err)
	}
	if fields["attachments"], err = json.Marshal(list); err != nil {
		return nil, fmt.Errorf("discord: encoding attachments: %w", err)
	}
	return json.Marshal(fields)
}

// upload sends payload as JSON, or with m's files and their descriptions as
// multipart, to endpoint and decodes the answer into out (when not nil).
func (b *Bot) upload(method, endpoint string, payload any, m outgoing, out any, opts ...discordgo.RequestOption) error {
	var data json.RawMessage
	var err error
	if len(m.files) > 0 {
		data, err = described(payload, m.attached)
	} else if data, err = json.Marshal(payload); err != nil {
		err = fmt.Errorf("discord: encoding a message: %w", err)
	}
	if err != nil {
		return err
	}
	return b.uploadRaw(method, endpoint, data, m, out, opts...)
}

// uploadRaw sends the JSON payload, with m's files as multipart, to endpoint.
func (b *Bot) uploadRaw(method, endpoint string, payload json.RawMessage, m outgoing, out any, opts ...discordgo.RequestOption) error {
	contentType, body := "application/json", []byte(payload)
	if len(m.files) > 0 {
		var err error
		if contentType, body, err = discordgo.MultipartBodyWithJSON(payload, m.files); err != nil {
			return fmt.Errorf("discord: encoding files: %w", err)
		}
	}
	res, err := requestRaw(b.ds, method, endpoint, contentType, body, opts...)
	if err != nil {
		return err
	}
	if out != nil {
		if err := json.Unmarshal(res, out); err != nil {
			return fmt.Errorf("discord: reading the answer: %w", err)
		}
	}
	return nil
}

// interactionRespond answers i with resp, whose files are m's.
func (b *Bot) interactionRespond(i *discordgo.Interaction, resp *discordgo.InteractionResponse, m outgoing) error {
	if resp.Data == nil || len(m.files) == 0 {
		return b.ds.InteractionRespond(i, resp)
	}
	data, err := described(resp.Data, m.attached)
	if err != nil {
		return err
	}
	payload, err := json.Marshal(map[string]any{"type": resp.Type, "data": data})
	if err != nil {
		return fmt.Errorf("discord: encoding an answer: %w", err)
	}
	return b.uploadRaw("POST", discordgo.EndpointInteractionResponse(i.ID, i.Token), payload, m, nil)
}

// interactionResponseEdit edits i's original response (or the message it updates).
func (b *Bot) interactionResponseEdit(i *discordgo.Interaction, edit *discordgo.WebhookEdit, m outgoing) (*discordgo.Message, error) {
	if len(m.files) == 0 {
		return b.ds.InteractionResponseEdit(i, edit)
	}
	var msg discordgo.Message
	err := b.upload("PATCH", discordgo.EndpointWebhookMessage(i.AppID, i.Token, "@original"), edit, m, &msg)
	return &msg, err
}

// followupMessageCreate sends a followup message to i.
func (b *Bot) followupMessageCreate(i *discordgo.Interaction, params *discordgo.WebhookParams, m outgoing) (*discordgo.Message, error) {
	if len(m.files) == 0 {
		return b.ds.FollowupMessageCreate(i, true, params)
	}
	var msg discordgo.Message
	err := b.upload("POST", discordgo.EndpointWebhookToken(i.AppID, i.Token)+"?wait=true", params, m, &msg)
	return &msg, err
}

// channelMessageSend posts a message in channel.
func (b *Bot) channelMessageSend(channel string, send *discordgo.MessageSend, m outgoing) (*discordgo.Message, error) {
	if len(m.files) == 0 {
		return b.ds.ChannelMessageSendComplex(channel, send)
	}
	var msg discordgo.Message
	err := b.upload("POST", discordgo.EndpointChannelMessages(channel), send, m, &msg)
	return &msg, err
}
