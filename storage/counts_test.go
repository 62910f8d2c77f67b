package storage_test

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/storage"
)

// sameCounts fails the test unless the counts kept equal a scan of every game.
func sameCounts(t *testing.T, s *storage.Store, after string) storage.Counts {
	t.Helper()
	var kept, scanned storage.Counts
	view(t, s, func(tx *storage.Tx) (err error) {
		if kept, err = tx.Counts(); err != nil {
			return err
		}
		scanned, err = tx.ScanCounts()
		return err
	})
	if !maps.Equal(kept.States, scanned.States) || !maps.Equal(kept.Guilds, scanned.Guilds) {
		t.Fatalf("after %s: counts kept %+v, a scan finds %+v", after, kept, scanned)
	}
	return kept
}

// The counts kept with each write equal a full scan after any sequence of creates,
// moves, ends and deletes, by both write paths (a write transaction and UpdateGame),
// including writes that fail and roll back.
func TestCountsFollowWrites(t *testing.T) {
	for seed := range uint64(8) {
		t.Run(strconv.FormatUint(seed, 10), func(t *testing.T) {
			s := openAt(t, filepath.Join(t.TempDir(), "counts.db"), &storage.Options{NoSync: true})
			ctx := context.Background()
			r := rand.New(rand.NewPCG(seed, 7))
			guilds := []string{"", "g1", "g2", "g3"}
			var ids []string
			for step := range 300 {
				var what string
				switch op := r.IntN(10); {
				case op < 4 || len(ids) == 0:
					g := newGame("walk", "w", "b")
					g.Guild = guilds[r.IntN(len(guilds))]
					what = "a create in " + g.Guild
					create(t, s, g)
					ids = append(ids, g.ID)
				case op < 5:
					id := ids[r.IntN(len(ids))]
					what = "a move in game " + id
					if _, err := s.UpdateGame(ctx, id, func(g *storage.Game) error {
						if !g.Active() {
							return nil
						}
						_, err := g.Play(g.Position.Turn(), g.Position.UCI(g.Position.LegalMoves()[0]), time.Time{})
						return err
					}); err != nil {
						t.Fatal(err)
					}
				case op < 7:
					id := ids[r.IntN(len(ids))]
					end := []rules.Outcome{rules.Win(rules.White, rules.Resignation), rules.Draw(rules.Agreement)}[r.IntN(2)]
					what = "an end of game " + id
					if r.IntN(2) == 0 {
						_, err := s.UpdateGame(ctx, id, func(g *storage.Game) error { g.Outcome = end; return nil })
						if err != nil {
							t.Fatal(err)
						}
					} else {
						update(t, s, func(tx *storage.Tx) error {
							_, err := tx.UpdateGame(id, func(g *storage.Game) error { g.Outcome = end; return nil })
							return err
						})
					}
				case op < 8:
					id := ids[r.IntN(len(ids))]
					what = "a rolled-back end of game " + id
					err := s.Update(ctx, func(tx *storage.Tx) error {
						if _, err := tx.UpdateGame(id, func(g *storage.Game) error { g.Outcome = rules.Draw(rules.Agreement); return nil }); err != nil {
							return err
						}
						return fmt.Errorf("changed my mind")
					})
					if err == nil {
						t.Fatal("the failing transaction committed")
					}
				default:
					i := r.IntN(len(ids))
					what = "a delete of game " + ids[i]
					update(t, s, func(tx *storage.Tx) error { return tx.DeleteGame(ids[i]) })
					ids = append(ids[:i], ids[i+1:]...)
				}
				sameCounts(t, s, fmt.Sprintf("step %d (%s)", step, what))
			}
			var running int
			view(t, s, func(tx *storage.Tx) (err error) {
				running, err = tx.GamesIn(rules.Ongoing)
				return err
			})
			c := sameCounts(t, s, "the end")
			sum := 0
			for _, n := range c.Guilds {
				sum += n
			}
			if sum != running {
				t.Errorf("games in progress by server add up to %d, but %d are in progress", sum, running)
			}
			mustVerify(t, s)
		})
	}
}

// A file written before counts were kept (schema 6) gets them from its games when
// it is opened: the upgrade fills them, and writes keep them from then on.
func TestCountsRebuiltOnUpgrade(t *testing.T) {
	path := copyFile(t, filledFile(t))
	s := openAt(t, path, nil)
	update(t, s, func(tx *storage.Tx) error {
		_, err := tx.UpdateGame("3", func(g *storage.Game) error { g.Outcome = rules.Draw(rules.Agreement); return nil })
		return err
	})
	s.Close()
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Update(func(tx *bolt.Tx) error {
		if err := tx.DeleteBucket([]byte("counts")); err != nil {
			return err
		}
		return tx.Bucket([]byte("meta")).Put([]byte("schema"), []byte("6"))
	}); err != nil {
		t.Fatal(err)
	}
	db.Close()
	s = openAt(t, path, nil)
	c := sameCounts(t, s, "the upgrade")
	if c.States[rules.Ongoing] != 59 || c.States[rules.Drawn] != 1 {
		t.Fatalf("counts after the upgrade: %+v, want 59 games in progress and 1 drawn", c)
	}
	create(t, s, newGame("walk", "a", "b"))
	sameCounts(t, s, "a create after the upgrade")
}
