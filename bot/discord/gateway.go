package discord

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
)

// gatewayPoll bounds how long a change of the gateway connection goes unreported.
const gatewayPoll = time.Second

// gatewayWatch reports the gateway connection to the service (bot.Service.GatewayUp
// and GatewayDown, which hold game clocks while it is down). discordgo runs each
// handler in a goroutine of its own, so a Disconnect may reach its handler after
// the Resumed that follows it; the watcher therefore reads the session's own state
// (DataReady: false from the moment the connection closes until heartbeats run
// again) when an event pokes it, and every gatewayPoll. With several shards the
// gateway is up when every shard is.
type gatewayWatch struct {
	poke chan struct{}
	stop chan struct{}
	done chan struct{}
	once sync.Once
	up   bool // last state reported
}

func newGatewayWatch(shards ...*discordgo.Session) *gatewayWatch {
	w := &gatewayWatch{poke: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
	poke := func() {
		select {
		case w.poke <- struct{}{}:
		default:
		}
	}
	for _, ds := range shards {
		ds.AddHandler(func(*discordgo.Session, *discordgo.Ready) { poke() })
		ds.AddHandler(func(*discordgo.Session, *discordgo.Resumed) { poke() })
		ds.AddHandler(func(*discordgo.Session, *discordgo.Disconnect) { poke() })
	}
	return w
}

// connected reports whether every shard's session is connected: while one is down,
// the players of its servers cannot act, so the clocks of all wait.
func (b *Bot) connected() bool {
	for _, ds := range b.shards {
		ds.RLock()
		up := ds.DataReady
		ds.RUnlock()
		if !up {
			return false
		}
	}
	return true
}

// watchGateway reports the connection whenever it changes, until stopWatch.
func (b *Bot) watchGateway() {
	w := b.gw
	defer close(w.done)
	t := time.NewTicker(gatewayPoll)
	defer t.Stop()
	for {
		up := b.connected()
		if svc := b.service(); svc != nil && up != w.up {
			w.up = up
			if up {
				b.log.Info("discord: gateway connected")
				svc.GatewayUp(svc.Now())
			} else {
				b.log.Warn("discord: gateway disconnected")
				svc.GatewayDown(svc.Now())
			}
		}
		select {
		case <-w.stop:
			return
		case <-w.poke:
		case <-t.C:
		}
	}
}

// stopWatch ends the watcher (without reporting the closing connection: the
// service's own stop records when it was last live).
func (b *Bot) stopWatch() {
	b.gw.once.Do(func() { close(b.gw.stop) })
	b.mu.Lock()
	started := b.watching
	b.mu.Unlock()
	if started {
		<-b.gw.done
	}
}

// enter registers an interaction in flight; it returns false once Shutdown began.
func (b *Bot) enter() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closing {
		return false
	}
	b.inflight.Add(1)
	return true
}

// Shutdown stops taking interactions (one that arrives now is asked to try again in
// a minute), waits until those in flight are answered or ctx ends, and disconnects
// from the gateway. Notifications not yet delivered stay with the service.
func (b *Bot) Shutdown(ctx context.Context) error {
	b.mu.Lock()
	b.closing = true
	b.mu.Unlock()
	done := make(chan struct{})
	go func() {
		b.inflight.Wait()
		close(done)
	}()
	var err error
	select {
	case <-done:
	case <-ctx.Done():
		err = fmt.Errorf("discord: interactions still in flight at shutdown: %w", ctx.Err())
	}
	if cerr := b.Close(); cerr != nil && err == nil {
		err = cerr
	}
	return err
}

// refuseClosing answers an interaction that arrived during Shutdown.
func (b *Bot) refuseClosing(i *discordgo.Interaction) {
	if i.Type == discordgo.InteractionApplicationCommandAutocomplete {
		return
	}
	_ = b.ds.InteractionRespond(i, &discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Content: catalogue.For(clientLang(i)).T("restarting", nil), Flags: discordgo.MessageFlagsEphemeral},
	})
}

// threadsFullNotice is how often a channel is told again that the server has
// Discord's maximum of active threads.
const threadsFullNotice = time.Hour

// threadsFull handles Discord's refusal of a thread because the server has its
// maximum of active threads (160006): the post goes to the channel itself, the
// channel is told why (at most once an hour), and the next post of the same game
// or event tries to open its thread again, once threads have been archived.
func (b *Bot) threadsFull(key, channel string) {
	now := time.Now()
	b.mu.Lock()
	delete(b.threads, key) // try again with the next post
	if b.fullSaid == nil {
		b.fullSaid = map[string]time.Time{}
	}
	say := now.Sub(b.fullSaid[channel]) >= threadsFullNotice
	if say {
		b.fullSaid[channel] = now
	}
	b.mu.Unlock()
	b.log.Warn("discord: the server has the maximum of active threads; posting in the channel", "for", key, "channel", channel)
	if say {
		_, _ = b.ds.ChannelMessageSend(channel, catalogue.For(b.channelLang(channel)).T("threads.full", nil))
	}
}
