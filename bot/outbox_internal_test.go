package bot

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"testing"

	"github.com/missivechess/missive/rules/variants"
	"github.com/missivechess/missive/storage"
)

// Tests of the outbox's insides.

// BenchmarkEnqueue measures what a notification adds to its command's transaction:
// its stored form (with the board as position text) written to the outbox.
func BenchmarkEnqueue(b *testing.B) {
	reg := variants.Registry()
	st, err := storage.Open(filepath.Join(b.TempDir(), "bench.db"), reg, &storage.Options{NoBackupSocket: true})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	svc, err := New(Config{Store: st, Registry: reg, Renderer: NewRenderer(), Notifier: NotifierFunc(func(context.Context, Notification) error { return nil }),
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		b.Fatal(err)
	}
	defer svc.Close()
	v, err := reg.Lookup("gothic")
	if err != nil {
		b.Fatal(err)
	}
	pos := v.Start(0)
	n := note{n: Notification{Key: "move/1/black", Kind: NoticeTurn, To: User{ID: "bob", Name: "bob"}, Direct: true,
		Game: &GameRef{ID: "1", Place: Place{Guild: "g", Channel: "c"}},
		Reply: Reply{Title: "Game 1 · Gothic Chess", Text: "alice played e4.\nYour move in game 1, by 2025-03-06 12:00 UTC (3 days left).",
			Actions: []Action{{Label: "Move", Style: StylePrimary, Command: "move", Args: Args{"game": "1"}, Input: "move"}}}},
		image: &Picture{pos: pos, opts: BoardOptions{Viewer: 1}, name: "game-1-1-black.png", alt: "board", text: true}}
	b.ReportAllocs()
	b.ResetTimer()
	err = st.Update(context.Background(), func(tx *storage.Tx) error {
		for range b.N {
			e := effects{notes: []note{n}}
			if err := svc.out.enqueue(tx, &e); err != nil {
				return err
			}
		}
		b.StopTimer() // the commit is the command's own
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
}
