package discord

import (
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/missivechess/missive/bot"
)

// Living messages: a button that answers the message it is on (bot.Action.Answers)
// replaces that message with the answer (Discord's UPDATE_MESSAGE response), the other
// messages the bot posted about the same bot.Reply.Topic get their buttons disabled
// once it is settled, and a finished game's thread archives itself a day after its
// result (finishThread).
// Which messages show a topic is kept in memory: after a restart, messages posted
// before it keep their buttons, which the service then refuses with a sentence. So do
// interaction responses older than 15 minutes: Discord lets a bot edit them only with
// the interaction's token, valid that long, never through the channel's endpoint.

// kindAnswer runs the command and, when the reply is an Update, replaces the message
// the button is on.
const kindAnswer = "u"

// tokenLife is how long an interaction's token may edit its responses.
const tokenLife = 15 * time.Minute

// posted is a message the bot posted about a topic, with the components it has. An
// interaction's response keeps the interaction's id, application id and token, the
// only way to edit it; its id is "@original" when it is the original response.
type posted struct {
	channel, id string
	components  []discordgo.MessageComponent
	interaction string
	app, token  string
	at          time.Time
}

// tracked reports whether r, posted with components, is a message to remember
// under its topic.
func tracked(r bot.Reply, components []discordgo.MessageComponent) bool {
	return r.Topic != "" && !r.Update && !r.Private && len(components) > 0
}

// replaces reports whether r, answering the press i of a button of kind, replaces
// the message the button is on: an answer, public and accepted, on a public message.
func replaces(i *discordgo.Interaction, r bot.Reply, kind string) bool {
	return kind == kindAnswer && r.Update && !r.Private && !r.Refused &&
		i.Type == discordgo.InteractionMessageComponent && i.Message != nil &&
		i.Message.Flags&discordgo.MessageFlagsEphemeral == 0
}

// rememberOriginal remembers the original response to i, about to show r, under
// r.Topic when it is to be tracked. It is called before the response is sent, so
// that an answer given as soon as the message shows finds it.
func (b *Bot) rememberOriginal(i *discordgo.Interaction, r bot.Reply, m outgoing) {
	if tracked(r, m.components) {
		b.rememberTopic(r.Topic, posted{channel: i.ChannelID, id: "@original", components: m.components,
			interaction: i.ID, app: i.AppID, token: i.Token, at: m.ready})
	}
}

// rememberTopic keeps p as a message about topic.
func (b *Bot) rememberTopic(topic string, p posted) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.topics) > 20000 {
		clear(b.topics)
	}
	b.topics[topic] = append(b.topics[topic], p)
}

// shown does what follows showing r, rendered as m, in channel: as msg, when it is a
// message not yet remembered (a channel message or a followup to i; nil otherwise),
// which is remembered under r.Topic; an Update settles r.Topic, sparing the message
// it replaced (nil when none); a game's last word in its thread shortens the thread's
// auto-archive to a day.
func (b *Bot) shown(i *discordgo.Interaction, r bot.Reply, channel string, msg *discordgo.Message, m outgoing, replaced *discordgo.Message) {
	switch {
	case r.Topic == "":
	case r.Update:
		b.settle(r.Topic, replaced, m.ready)
	case msg != nil && tracked(r, m.components):
		p := posted{channel: channel, id: msg.ID, components: m.components, at: m.ready}
		if i != nil {
			p.interaction, p.app, p.token = i.ID, i.AppID, i.Token
		}
		b.rememberTopic(r.Topic, p)
	}
	if r.Final && r.Game != nil && r.Game.Place.Thread != "" && channel == r.Game.Place.Thread {
		b.finishThread(channel)
	}
}

// finishedThreadArchive is the auto-archive duration, in minutes, of a finished game's
// thread: a day. The thread is not archived at once, since its last message carries
// the PGN and Rematch buttons and "users cannot ... use application commands" in an
// archived thread (https://discord.com/developers/docs/topics/threads, Active &
// Archived Threads), whose components also fail on Discord's web and mobile clients
// (discord/discord-api-docs#8474); Discord archives it after a day without activity.
const finishedThreadArchive = 1440

// finishThread shortens a finished game's thread's auto-archive duration to
// finishedThreadArchive (the bot created the thread, so needs no Manage Threads:
// https://discord.com/developers/docs/topics/threads, Editing & Deleting Threads).
func (b *Bot) finishThread(thread string) {
	if _, err := b.ds.ChannelEditComplex(thread, &discordgo.ChannelEdit{AutoArchiveDuration: finishedThreadArchive}); err != nil {
		b.failed(err)
		b.log.Warn("discord: shortening a finished game's thread's auto-archive failed", "thread", thread, "error", err)
	}
}

// settle disables the buttons of the messages posted about topic before the answer
// that settles it was ready (a later message, such as a new offer made since, is
// about the topic's next turn), except spared (nil: none), and forgets them.
func (b *Bot) settle(topic string, spared *discordgo.Message, ready time.Time) {
	b.mu.Lock()
	var list, keep []posted
	for _, p := range b.topics[topic] {
		if p.at.Before(ready) {
			list = append(list, p)
		} else {
			keep = append(keep, p)
		}
	}
	if keep == nil {
		delete(b.topics, topic)
	} else {
		b.topics[topic] = keep
	}
	b.mu.Unlock()
	for _, p := range list {
		if spared != nil && (p.id == spared.ID || spared.Interaction != nil && p.id == "@original" && p.interaction == spared.Interaction.ID) {
			continue
		}
		cs := disabled(p.components)
		var err error
		switch {
		case p.token == "":
			_, err = b.ds.ChannelMessageEditComplex(&discordgo.MessageEdit{Channel: p.channel, ID: p.id, Components: &cs})
		case time.Since(p.at) < tokenLife-time.Minute:
			_, err = b.ds.WebhookMessageEdit(p.app, p.token, p.id, &discordgo.WebhookEdit{Components: &cs})
		default:
			continue // no longer editable
		}
		if err != nil {
			b.log.Warn("discord: disabling the buttons of an answered message failed", "message", p.id, "error", err)
		}
	}
}

// disabled returns a copy of cs with every button and select menu disabled.
func disabled(cs []discordgo.MessageComponent) []discordgo.MessageComponent {
	out := make([]discordgo.MessageComponent, 0, len(cs))
	for _, c := range cs {
		switch v := c.(type) {
		case discordgo.ActionsRow:
			out = append(out, discordgo.ActionsRow{Components: disabled(v.Components)})
		case *discordgo.ActionsRow:
			out = append(out, discordgo.ActionsRow{Components: disabled(v.Components)})
		case discordgo.Button:
			v.Disabled = true
			out = append(out, v)
		case *discordgo.Button:
			d := *v
			d.Disabled = true
			out = append(out, d)
		case discordgo.SelectMenu:
			v.Disabled = true
			out = append(out, v)
		case *discordgo.SelectMenu:
			d := *v
			d.Disabled = true
			out = append(out, d)
		default:
			out = append(out, c)
		}
	}
	return out
}
