package storage_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/missivechess/missive/storage"
)

// damageNewestMeta flips a byte of the newest meta page of the closed data file at
// path (one of the root bucket's page number) and returns the transaction that page
// records and the one the file now opens at.
func damageNewestMeta(t *testing.T, path string) (lost, kept uint64) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	page := os.Getpagesize()
	txid := func(p int) uint64 { return binary.NativeEndian.Uint64(data[p*page+16+48:]) }
	newest := 0
	if txid(1) > txid(0) {
		newest = 1
	}
	data[newest*page+16+20] ^= 0x40
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return txid(newest), txid(1 - newest)
}

// TestFlippedNewestMeta checks that a flipped byte in the newest meta page, which
// bbolt silently survives by falling back to the older commit, is reported with what
// would be rolled back, the same way on every open; and that a backup can keep the
// older state on purpose, saying so.
func TestFlippedNewestMeta(t *testing.T) {
	s, _, path := openTemp(t)
	create(t, s, newGame("walk", "a", "b"))
	play(t, s, "1", "e2")
	play(t, s, "1", "e7") // the newest commit: the one a damaged meta page loses
	s.Close()

	damageNewestMeta(t, path)
	var first string
	for i := range 20 {
		for _, ro := range []bool{false, true} {
			_, err := storage.Open(path, toyRegistry(), &storage.Options{ReadOnly: ro, NoBackupSocket: true})
			if !errors.Is(err, storage.ErrCorrupt) || !strings.Contains(err.Error(), "roll back to transaction") || !strings.Contains(err.Error(), "lose that commit") {
				t.Fatalf("open %d (read-only %v): %v", i, ro, err)
			}
			if first == "" {
				first = err.Error()
			} else if err.Error() != first {
				t.Fatalf("open %d gave another answer: %v, first %v", i, err, first)
			}
		}
	}
	t.Log(first)
	// The way out the sentence names: a backup keeps the older commit, and says so.
	out := filepath.Join(t.TempDir(), "kept.db")
	info, err := storage.BackupFile(context.Background(), toyRegistry(), path, out)
	if err != nil || !strings.Contains(info.RolledBack, "the copy holds transaction") {
		t.Fatalf("backup of the damaged file: %+v %v", info, err)
	}
	b := openAt(t, out, &storage.Options{ReadOnly: true})
	if g, err := b.Game(context.Background(), "1"); err != nil || len(g.Moves) != 1 {
		t.Fatalf("the kept copy: %v %v", g, err)
	}
}

// TestBackupKeepsNewerBackup checks that a backup whose source lost its newest commit
// (its newest meta page is damaged) does not replace an earlier backup that holds
// that commit: it says so, and the earlier backup stays as it was.
func TestBackupKeepsNewerBackup(t *testing.T) {
	ctx := context.Background()
	s, _, path := openTemp(t)
	create(t, s, newGame("walk", "a", "b"))
	play(t, s, "1", "e2", "e7")
	s.Close()
	out := filepath.Join(t.TempDir(), "backup.db")
	if _, err := storage.BackupFile(ctx, toyRegistry(), path, out); err != nil {
		t.Fatal(err)
	}
	good, _ := os.ReadFile(out)

	lost, kept := damageNewestMeta(t, path)
	_, err := storage.BackupFile(ctx, toyRegistry(), path, out)
	want := fmt.Sprintf("holds a newer commit (transaction %d) than the copy just taken (transaction %d), so it was kept", lost, kept)
	if !errors.Is(err, storage.ErrNewerBackup) || !strings.Contains(err.Error(), want) {
		t.Fatalf("backup over a newer backup: %v; want %q", err, want)
	}
	if now, _ := os.ReadFile(out); !bytes.Equal(now, good) {
		t.Fatal("the newer backup was replaced")
	}
	noTemps(t, out)
	// To a new path the older state is written, with the note.
	info, err := storage.BackupFile(ctx, toyRegistry(), path, filepath.Join(t.TempDir(), "older.db"))
	if err != nil || info.RolledBack == "" {
		t.Fatalf("backup to a new path: %+v %v", info, err)
	}
}
