package discord_test

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/discord"
	"github.com/missivechess/missive/bot/discord/discordtest"
	"github.com/missivechess/missive/storage"
)

// afterSend is a notifier that runs hook after each notification the adapter
// delivered, before the outbox hears of it.
type afterSend struct {
	b    *discord.Bot
	hook func(bot.Notification)
}

func (a afterSend) Notify(ctx context.Context, n bot.Notification) error {
	err := a.b.Notify(ctx, n)
	if err == nil {
		a.hook(n)
	}
	return err
}

// botPosts returns the bot's plain posts (not interaction answers) in every channel and
// thread of the server, by nonce, and how many carry none.
func botPosts(e *env) (byNonce map[string][]*discordtest.Message, without int) {
	byNonce = map[string][]*discordtest.Message{}
	for _, c := range places(e) {
		for _, m := range e.srv.Messages(c) {
			if m.AuthorID != e.srv.Bot().ID || m.InteractionID != "" || m.Deleted || m.Type != discordgo.MessageTypeDefault {
				continue
			}
			if m.Nonce == "" {
				without++
				continue
			}
			byNonce[m.Nonce] = append(byNonce[m.Nonce], m)
		}
	}
	return byNonce, without
}

// A notice delivered to Discord just before the bot dies (its outbox entry still in
// the data file) is delivered again by the next start, and the player sees it once:
// the repeat carries the same nonce with enforce_nonce, and Discord answers it with
// the message already posted.
func TestNoticeExactlyOnceAcrossRestart(t *testing.T) {
	srv := discordtest.New(t, discordtest.Config{})
	dir := t.TempDir()
	killed := filepath.Join(dir, "killed.db")

	// The first process takes a snapshot of its data file right after the first notice
	// reached Discord: the file a SIGKILL at that moment would leave.
	var once sync.Once
	var first *env
	first = startProcess(t, srv, discord.Options{}, nil, filepath.Join(dir, "bot.db"), func(b *discord.Bot) bot.Notifier {
		return afterSend{b: b, hook: func(n bot.Notification) {
			once.Do(func() {
				f, err := os.Create(killed)
				if err != nil {
					t.Error(err)
					return
				}
				defer f.Close()
				if _, err := first.st.Backup(context.Background(), f); err != nil {
					t.Error(err)
				}
			})
		}}
	})
	general := srv.Channel("general").ID
	place := bot.Place{Guild: srv.Guild().ID, Channel: general}
	g, err := first.svc.CreateGame(first.ctx, bot.NewGame{Variant: "gothic",
		White: storage.Seat{ID: srv.User("alice").ID, Name: "Alice"}, Black: storage.Seat{ID: srv.User("bob").ID, Name: "Bob"}, Place: place})
	if err != nil {
		t.Fatal(err)
	}
	first.svc.Idle()
	first.stop()
	delivered, without := botPosts(first)
	if len(delivered) == 0 || without != 0 {
		t.Fatalf("before the restart: %d notices posted with a nonce, %d without", len(delivered), without)
	}
	left := 0
	if err := func() error {
		st, err := storage.Open(killed, first.st.Registry(), &storage.Options{NoSync: true, NoBackupSocket: true})
		if err != nil {
			return err
		}
		defer st.Close()
		return st.View(context.Background(), func(tx *storage.Tx) (err error) {
			left, err = tx.OutboxLen()
			return err
		})
	}(); err != nil {
		t.Fatal(err)
	}
	if left == 0 {
		t.Fatal("the snapshot holds no outbox entry: nothing to deliver again")
	}

	// The next start delivers what the dead process left, once more.
	second := startProcess(t, srv, discord.Options{}, nil, killed, nil)
	second.svc.Idle()
	if m := second.svc.Metrics(); m.Delivered < int64(left) {
		t.Errorf("after the restart %d notices delivered, want the %d left in the outbox", m.Delivered, left)
	}
	after, without := botPosts(second)
	for nonce, ms := range after {
		if len(ms) != 1 {
			t.Errorf("notice %s shown %d times", nonce, len(ms))
		}
	}
	if len(after) != len(delivered) || without != 0 {
		t.Errorf("game %s: %d notices before the restart, %d after (%d without a nonce)", g.ID, len(delivered), len(after), without)
	}
	if srv.NonceHits() == 0 {
		t.Error("the restart sent nothing again: the test did not exercise a repeat")
	}
}
