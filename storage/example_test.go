package storage_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/variants"
	"github.com/missivechess/missive/storage"
)

// A Gothic game is stored, a move arrives twice (a retried Discord interaction) and
// is applied once, and the player's games are listed.
func Example() {
	dir, err := os.MkdirTemp("", "missive-example-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	st, err := storage.Open(filepath.Join(dir, storage.DefaultFile), variants.Registry(), nil)
	if err != nil {
		log.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()

	g := &storage.Game{
		Variant: "gothic",
		Players: [2]storage.Seat{{ID: "111", Name: "Alice"}, {ID: "engine:builtin:3", Name: "Missive level 3"}},
		Thread:  "555",
		Clock:   storage.Clock{DaysPerMove: 3},
	}
	if err := st.CreateGame(ctx, g); err != nil {
		log.Fatal(err)
	}
	for range 2 {
		g, reply, replayed, err := st.DoGame(ctx, "interaction-1", g.ID, func(g *storage.Game) ([]byte, error) {
			before := g.Position
			m, err := g.Play(rules.White, "e2e4", time.Time{})
			if err != nil {
				return nil, err
			}
			g.Clock.SetDeadline(time.Now().Add(3 * 24 * time.Hour))
			return []byte("Alice played " + before.SAN(m)), nil
		})
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s (replayed: %v); moves stored: %v\n", reply, replayed, g.Moves[0].Move)
	}
	err = st.View(ctx, func(tx *storage.Tx) error {
		games, err := tx.PlayerActiveGames("111")
		for _, s := range games {
			fmt.Printf("game %s, %s, %d plies, to move: %v\n", s.ID, s.Variant, s.Plies, s.ToMove)
		}
		return err
	})
	if err != nil {
		log.Fatal(err)
	}
	// Output:
	// Alice played e4 (replayed: false); moves stored: e2e4
	// Alice played e4 (replayed: true); moves stored: e2e4
	// game 1, gothic, 1 plies, to move: [black]
}
