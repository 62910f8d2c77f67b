package bot_test

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/features"
	"github.com/missivechess/missive/rules/variants"
	"github.com/missivechess/missive/storage"
)

// Two players start a Gothic Chess game and play a move; the replies carry the text,
// the board picture and whose turn it is.
func Example() {
	dir, _ := os.MkdirTemp("", "missive-example")
	defer os.RemoveAll(dir)
	now := func() time.Time { return time.Date(2025, 3, 3, 12, 0, 0, 0, time.UTC) }
	reg := variants.Registry()
	st, err := storage.Open(filepath.Join(dir, "missive.db"), reg, &storage.Options{Now: now, NoBackupSocket: true})
	if err != nil {
		panic(err)
	}
	defer st.Close()
	svc, err := bot.New(features.With(bot.Config{Store: st, Registry: reg, Renderer: bot.NewRenderer(), Now: now,
		Logger: slog.New(slog.DiscardHandler)}, features.Options{}))
	if err != nil {
		panic(err)
	}
	defer svc.Close()
	ctx := context.Background()
	do := func(user, cmd string, args bot.Args) bot.Reply {
		return svc.Handle(ctx, bot.Request{User: bot.User{ID: user}, Command: cmd, Args: args})
	}
	do("alice", "challenge", bot.Args{"variant": "gothic", "opponent": "bob", "color": "white"})
	r := do("bob", "accept", nil)
	fmt.Println(r.Started.ID)
	r = do("alice", "move", bot.Args{"move": "Cf3"})
	fmt.Println(r.Text)
	fmt.Println(r.Files[0].ContentType, r.Mentions)
	r = do("alice", "move", bot.Args{"move": "e2e4"})
	fmt.Println(r.Refused, r.Text)
	// Output:
	// 1
	// alice (white) played **Cf3**.
	// bob (black) to move · deadline Thu 6 Mar 12:00 UTC (3d 0h left).
	// image/png [bob]
	// true It is bob's turn in game 1, not yours; you will be told when bob has moved.
}
