package discord

import (
	"context"
	"errors"
	"slices"

	"github.com/missivechess/missive/storage"
)

// A thread made but not recorded. Opening a game's thread is two steps, creating it on
// Discord and recording it with the service; a process killed between the two leaves
// a thread no game knows, and the next notice would open a second one. Before creating
// a thread the bot therefore looks among the server's active threads in its state
// (Discord sends them with GUILD_CREATE and THREAD_CREATE, so this costs no request)
// for one it owns in the same channel with the same name that no game has recorded
// and that this process did not make (a thread it made for another game whose record
// failed is that game's), and adopts it.

// orphanThread returns the id of a thread named name in channel that the bot created
// and no game records, or "".
func (b *Bot) orphanThread(ctx context.Context, channel, name string) string {
	st := b.ds.State
	me := stateUser(st)
	if me == "" {
		return ""
	}
	ch, err := st.Channel(channel)
	if err != nil || ch.GuildID == "" {
		return ""
	}
	g, err := st.Guild(ch.GuildID)
	if err != nil {
		return ""
	}
	var candidates []string
	st.RLock()
	for _, t := range g.Threads {
		if t.ParentID == channel && t.OwnerID == me && t.Name == name &&
			(t.ThreadMetadata == nil || !t.ThreadMetadata.Locked) {
			candidates = append(candidates, t.ID)
		}
	}
	st.RUnlock()
	b.mu.Lock()
	candidates = slices.DeleteFunc(candidates, func(id string) bool { return b.made[id] })
	b.mu.Unlock()
	for _, id := range candidates {
		known := true
		err := b.service().Read(ctx, func(tx *storage.Tx) error {
			_, err := tx.GameByThread(id)
			if errors.Is(err, storage.ErrNotFound) {
				known = false
				return nil
			}
			return err
		})
		if err == nil && !known {
			return id
		}
	}
	return ""
}
