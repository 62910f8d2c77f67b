package discord

import (
	"context"
	"encoding/json"
	"strconv"
	"time"

	"github.com/bwmarrin/discordgo"
)

// Late resends. A notice's posts carry its outbox id as nonce with enforce_nonce, so a
// retry soon after a lost answer returns the message posted the first time; but
// Discord checks a nonce only "in the past few minutes" (Create Message,
// https://discord.com/developers/docs/resources/message#create-message), and an outbox
// retry can come much later (a long backoff, a restart). Before a resend later than
// nonceTrust after the notice was queued, the bot therefore reads the channel's
// messages since then (Get Channel Messages, one request) for one of its own with the
// same text, and takes it for the earlier delivery. What remains: a channel where
// more than lateLookback messages came since, a message edited since, or one the bot
// may not read back (no Read Message History) can still be posted twice.

// nonceTrust is how long after a notice was queued Discord's nonce check is trusted:
// well inside "the past few minutes".
const nonceTrust = 2 * time.Minute

// lateLookback is how many of the channel's latest messages are read.
const lateLookback = 50

// queuedKey carries a notification's Queued time to sendNotice.
type queuedKey struct{}

// withQueued returns ctx carrying when the notification being delivered was queued.
func withQueued(ctx context.Context, at time.Time) context.Context {
	if at.IsZero() {
		return ctx
	}
	return context.WithValue(ctx, queuedKey{}, at)
}

// lateSince returns when the notification being delivered was queued, when that is
// longer ago than Discord's nonce can be trusted; zero otherwise.
func lateSince(ctx context.Context) time.Time {
	at, _ := ctx.Value(queuedKey{}).(time.Time)
	if at.IsZero() || time.Since(at) < nonceTrust {
		return time.Time{}
	}
	return at
}

// postedSince returns the bot's message in channel, posted since, that shows m (the
// same content and embed texts), or nil. It reads the latest lateLookback messages
// with its own rate-limit bucket: discordgo keys buckets by URL alone, and Discord's
// Get Channel Messages and Create Message buckets differ, so sharing one would let the
// listing's headers overwrite what the posts' said.
func (b *Bot) postedSince(ctx context.Context, channel string, since time.Time, m outgoing) *discordgo.Message {
	uri := discordgo.EndpointChannelMessages(channel) + "?limit=" + strconv.Itoa(lateLookback)
	body, err := b.ds.RequestWithBucketID("GET", uri, nil, "GET "+discordgo.EndpointChannelMessages(channel), discordgo.WithContext(ctx))
	if err != nil {
		b.failed(err)
		return nil
	}
	var msgs []*discordgo.Message
	if err := json.Unmarshal(body, &msgs); err != nil {
		return nil
	}
	me := stateUser(b.ds.State)
	for _, p := range msgs {
		if p.Author != nil && p.Author.ID == me && !p.Timestamp.Before(since) && sameMessage(p, m) {
			return p
		}
	}
	return nil
}

// sameMessage reports whether p shows the text of m.
func sameMessage(p *discordgo.Message, m outgoing) bool {
	if p.Content != m.content || len(p.Embeds) != len(m.embeds) {
		return false
	}
	for i, e := range m.embeds {
		if p.Embeds[i].Title != e.Title || p.Embeds[i].Description != e.Description {
			return false
		}
	}
	return true
}
