package discord

import (
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/missivechess/missive/bot/i18n"
)

// closedThread is a thread that still exists but takes none of the bot's messages: it
// is locked (160005) and the bot may not manage threads, or the bot lost Send Messages
// in Threads in its channel (50013). Posts meant for it go to its parent channel, with
// no new request to the thread, until Discord says something changed (THREAD_UPDATE
// for the thread, CHANNEL_UPDATE for its channel). A deleted (10003) or hidden (50001)
// thread is different: it is gone, and the game gets a new one (see post).
type closedThread struct {
	parent string
	kind   FailureKind
}

// closesThread reports whether a post in a thread that failed with kind means the
// thread exists but takes no messages from the bot: remembered, not replaced.
func closesThread(kind FailureKind) bool {
	switch kind {
	case FailMissingPermissions, FailThreadLocked, FailThreadArchived:
		return true
	}
	return false
}

// closeThread remembers that thread (in channel parent) takes no messages from the bot.
func (b *Bot) closeThread(thread, parent string, kind FailureKind) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.closed[thread] = closedThread{parent: parent, kind: kind}
}

// isClosed reports whether thread is known to take no messages from the bot.
func (b *Bot) isClosed(thread string) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	_, ok := b.closed[thread]
	return ok
}

// onChannelUpdate forgets what a channel refused the bot once the channel's settings
// (its permission overwrites among them) give the bot the permission back: threads of
// the channel closed for want of Send Messages in Threads, and the refusal of threads.
// Discord sends CHANNEL_UPDATE when a channel's overwrites change
// (https://discord.com/developers/docs/events/gateway-events#channel-update), and
// discordgo has applied it to its state when the handler runs.
func (b *Bot) onChannelUpdate(_ *discordgo.Session, e *discordgo.ChannelUpdate) {
	if e.Channel == nil {
		return
	}
	post := b.botMay(e.ID, discordgo.PermissionSendMessagesInThreads)
	create := b.botMay(e.ID, discordgo.PermissionCreatePublicThreads)
	b.mu.Lock()
	defer b.mu.Unlock()
	if create {
		delete(b.threadsDenied, e.ID)
	}
	for th, c := range b.closed {
		if post && c.parent == e.ID && c.kind == FailMissingPermissions {
			delete(b.closed, th)
		}
	}
}

// botMay reports whether the bot's state gives it perm in channel; false when the
// state cannot tell.
func (b *Bot) botMay(channel string, perm int64) bool {
	me := stateUser(b.ds.State)
	if me == "" {
		return false
	}
	p, err := b.ds.State.UserChannelPermissions(me, channel)
	return err == nil && p&perm != 0
}

// denyThreads remembers that the bot may not create threads in channel, until the
// channel's settings change (onChannelUpdate), so that no request is made that Discord
// would refuse again: "403 responses are avoided by inspecting role or channel
// permissions and by not making requests that are restricted by such permissions"
// (https://discord.com/developers/docs/topics/rate-limits#invalid-request-limit-aka-cloudflare-bans).
func (b *Bot) denyThreads(channel string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.threadsDenied[channel] = true
}

// threadsRefused reports whether the bot was refused threads in channel since its
// settings last changed.
func (b *Bot) threadsRefused(channel string) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.threadsDenied[channel]
}

// dmClosedFor is how long a user whose direct messages refused the bot (50007) is not
// sent another: Discord tells a bot nothing when a user opens them again, and each
// refusal counts toward its ban on invalid requests.
const dmClosedFor = time.Hour

// closeDMs remembers that user's direct messages refuse the bot.
func (b *Bot) closeDMs(user string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.dmClosed) > 10000 {
		clear(b.dmClosed)
	}
	b.dmClosed[user] = time.Now()
}

// dmsClosed reports whether user's direct messages refused the bot within dmClosedFor.
func (b *Bot) dmsClosed(user string) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	at, ok := b.dmClosed[user]
	return ok && time.Since(at) < dmClosedFor
}

// onThreadUpdate forgets a thread that is no longer locked
// (https://discord.com/developers/docs/events/gateway-events#thread-update).
func (b *Bot) onThreadUpdate(_ *discordgo.Session, e *discordgo.ThreadUpdate) {
	if e.Channel == nil || e.ThreadMetadata != nil && e.ThreadMetadata.Locked {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if c, ok := b.closed[e.ID]; ok && c.kind != FailMissingPermissions {
		delete(b.closed, e.ID)
	}
}

// tellAdmins tells the server's owner once per server and kind of refusal what
// permission the bot lacks for its threads in channel, by direct message, or in channel
// itself when the owner's direct messages are closed.
func (b *Bot) tellAdmins(guild, channel string, kind FailureKind) {
	if guild == "" {
		return
	}
	what := permSendInThread
	if kind != FailMissingPermissions {
		what = permManageThreads
	}
	b.mu.Lock()
	key := guild + ":" + what.name
	first := !b.adminsTold[key]
	b.adminsTold[key] = true
	b.mu.Unlock()
	if !first {
		return
	}
	loc := catalogue.For(b.serverLang(guild))
	data := i18n.Data{"Where": "<#" + channel + ">", "Permission": loc.T(what.key, nil)}
	text := loc.T("admins.threads", data)
	if kind != FailMissingPermissions {
		text = loc.T("admins.locked", data)
	}
	owner := ""
	if g, err := b.ds.State.Guild(guild); err == nil {
		owner = g.OwnerID
	}
	if owner != "" && !b.dmsClosed(owner) {
		if dm, err := b.ds.UserChannelCreate(owner); err == nil {
			_, err = b.ds.ChannelMessageSendComplex(dm.ID, &discordgo.MessageSend{Content: text})
			if err == nil {
				return
			}
			if b.failed(err) == FailDMClosed {
				b.closeDMs(owner)
			}
		}
	}
	if _, err := b.ds.ChannelMessageSendComplex(channel, &discordgo.MessageSend{Content: text,
		AllowedMentions: &discordgo.MessageAllowedMentions{}}); err != nil {
		b.failed(err)
	}
}
