package storage_test

import (
	"bytes"
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/missivechess/missive/storage"
)

func gameCount(t *testing.T, s *storage.Store) int {
	n := 0
	view(t, s, func(tx *storage.Tx) error {
		return tx.ForEachGame(func(*storage.Game) error { n++; return nil })
	})
	return n
}

func TestBackupWhileWriting(t *testing.T) {
	s, _, _ := openTemp(t)
	ctx := context.Background()
	for range 20 {
		create(t, s, newGame("walk", "a", "b"))
	}
	// Writers keep moving while snapshots are taken; each snapshot must be a
	// consistent data file.
	var stop atomic.Bool
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			id := []string{"1", "2", "3", "4"}[w]
			moves := []string{"e2", "e7", "e1", "e8"}
			for i := 0; !stop.Load(); i++ {
				if _, err := s.UpdateGame(ctx, id, func(g *storage.Game) error {
					_, err := g.Play(g.Position.Turn(), moves[i%4], time.Time{})
					return err
				}); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	dir := t.TempDir()
	for i := range 3 {
		var buf bytes.Buffer
		n, err := s.Backup(ctx, &buf)
		if err != nil || n != int64(buf.Len()) {
			t.Fatalf("Backup: %d bytes, %v", n, err)
		}
		p := filepath.Join(dir, "snap"+string(rune('a'+i))+".db")
		os.WriteFile(p, buf.Bytes(), 0o600)
		b := openAt(t, p, &storage.Options{ReadOnly: true})
		mustVerify(t, b)
		if n := gameCount(t, b); n != 20 {
			t.Errorf("snapshot holds %d games", n)
		}
		b.Close()
	}
	stop.Store(true)
	wg.Wait()
}

func TestBackupFile(t *testing.T) {
	ctx := context.Background()
	s, _, path := openTemp(t)
	for range 5 {
		create(t, s, newGame("walk", "a", "b"))
	}
	play(t, s, "3", "e2", "e7")
	out := filepath.Join(t.TempDir(), "backup.db")

	// While the store has the file open, the copy comes through its socket.
	info, err := storage.BackupFile(ctx, toyRegistry(), path, out)
	if err != nil {
		t.Fatal(err)
	}
	if !info.Live || info.Games != 5 || info.Schema != storage.SchemaVersion || info.Bytes == 0 {
		t.Errorf("live backup: %+v", info)
	}
	b := openAt(t, out, &storage.Options{ReadOnly: true})
	if g, err := b.Game(ctx, "3"); err != nil || len(g.Moves) != 2 {
		t.Errorf("game in the backup: %v %v", g, err)
	}
	mustVerify(t, b)
	b.Close()

	// Refuse to overwrite the data file itself.
	if _, err := storage.BackupFile(ctx, toyRegistry(), path, path); err == nil || !strings.Contains(err.Error(), "is the data file itself") {
		t.Errorf("backup onto the data file: %v", err)
	}

	// With the store closed, BackupFile opens the file read-only, and replaces the
	// previous backup atomically.
	play(t, s, "3", "e1")
	s.Close()
	if _, err := os.Stat(storage.SocketPath(path)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("socket left behind after Close: %v", err)
	}
	info, err = storage.BackupFile(ctx, toyRegistry(), path, out)
	if err != nil || info.Live || info.Games != 5 {
		t.Fatalf("offline backup: %+v %v", info, err)
	}
	b = openAt(t, out, nil)
	if g, err := b.Game(ctx, "3"); err != nil || len(g.Moves) != 3 {
		t.Errorf("game in the second backup: %v %v", g, err)
	}
	b.Close()
	entries, _ := os.ReadDir(filepath.Dir(out))
	if len(entries) != 1 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("backup folder holds %v; temporary files left behind?", names)
	}

	// A store that does not serve backups leaves the file locked: a clear error.
	s2 := openAt(t, path, &storage.Options{NoBackupSocket: true})
	_, err = storage.BackupFile(ctx, toyRegistry(), path, filepath.Join(t.TempDir(), "x.db"))
	if !errors.Is(err, storage.ErrLocked) || !strings.Contains(err.Error(), "does not serve backups") {
		t.Errorf("backup of a locked file without a socket: %v", err)
	}
	s2.Close()

	// No data file, or a damaged one: clear errors, and nothing written.
	if _, err := storage.BackupFile(ctx, toyRegistry(), filepath.Join(t.TempDir(), "none.db"), out+"2"); err == nil || !errors.Is(err, storage.ErrNotFound) || !strings.Contains(err.Error(), "there is no data file at") {
		t.Errorf("backup of a missing file: %v", err)
	}
	bad := filepath.Join(t.TempDir(), "bad.db")
	os.WriteFile(bad, bytes.Repeat([]byte("x"), 20000), 0o600)
	if _, err := storage.BackupFile(ctx, toyRegistry(), bad, out+"3"); !errors.Is(err, storage.ErrCorrupt) {
		t.Errorf("backup of a damaged file: %v", err)
	}
	if _, err := os.Stat(out + "3"); !errors.Is(err, os.ErrNotExist) {
		t.Error("a failed backup left a file")
	}
}

func TestStaleSocketIsReplaced(t *testing.T) {
	s, _, path := openTemp(t)
	s.Close()
	// A crashed bot leaves its socket file behind; the next open takes it over.
	sock := storage.SocketPath(path)
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: sock, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	ln.SetUnlinkOnClose(false)
	ln.Close()
	if _, err := os.Stat(sock); err != nil {
		t.Fatalf("stale socket not left: %v", err)
	}
	s = openAt(t, path, nil)
	if fi, err := os.Stat(sock); err != nil || fi.Mode()&os.ModeSocket == 0 || fi.Mode().Perm() != 0o600 {
		t.Fatalf("socket %s: %v %v", sock, fi, err)
	}
	create(t, s, newGame("walk", "a", "b"))
	info, err := storage.BackupFile(context.Background(), toyRegistry(), path, filepath.Join(t.TempDir(), "b.db"))
	if err != nil || !info.Live || info.Games != 1 {
		t.Errorf("backup after taking over the socket: %+v %v", info, err)
	}
}
