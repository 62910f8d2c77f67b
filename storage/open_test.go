package storage_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/missivechess/missive/storage"
)

// filledFile returns a closed data file holding a few dozen games and players.
func filledFile(t *testing.T) string {
	t.Helper()
	s, _, path := openTemp(t)
	update(t, s, func(tx *storage.Tx) error {
		for i := range 60 {
			g := newGame("walk", fmt.Sprintf("p%d", i%7), fmt.Sprintf("p%d", (i+1)%7))
			g.Thread = fmt.Sprintf("thread-%d", i)
			g.Players[0].Name = strings.Repeat("n", 200) // fatten records to fill pages
			if err := tx.PutGame(g); err != nil {
				return err
			}
			if err := tx.PutPlayer(&storage.Player{ID: fmt.Sprintf("user-%d", i), Name: strings.Repeat("x", 300)}); err != nil {
				return err
			}
		}
		return nil
	})
	play(t, s, "1", "e2", "e7")
	s.Close()
	return path
}

// highWater returns the bytes of a closed data file that hold pages in use.
func highWater(t *testing.T, path string) int {
	t.Helper()
	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true, Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int64
	db.View(func(tx *bolt.Tx) error { n = tx.Size(); return nil })
	return int(n)
}

func copyFile(t *testing.T, from string) string {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	to := filepath.Join(t.TempDir(), "copy.db")
	if err := os.WriteFile(to, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return to
}

func wantOpenError(t *testing.T, path string, opts *storage.Options, sentinel error, text string) {
	t.Helper()
	s, err := storage.Open(path, toyRegistry(), opts)
	if err == nil {
		s.Close()
		t.Fatalf("Open(%s) succeeded; want %v", path, sentinel)
	}
	if !errors.Is(err, sentinel) || !strings.Contains(err.Error(), text) {
		t.Fatalf("Open(%s) = %v; want %v containing %q", path, err, sentinel, text)
	}
}

func TestOpenWhileLocked(t *testing.T) {
	s, _, path := openTemp(t)
	start := time.Now()
	wantOpenError(t, path, &storage.Options{LockTimeout: 100 * time.Millisecond}, storage.ErrLocked,
		"storage: data file "+path+" is in use by another process (is the bot already running?)")
	if time.Since(start) > 2*time.Second {
		t.Error("the lock timeout was not honoured")
	}
	s.Close()
	if _, err := s.Game(context.Background(), "1"); !errors.Is(err, storage.ErrClosed) {
		t.Errorf("reading a closed store: %v", err)
	}
	if err := s.Update(context.Background(), func(*storage.Tx) error { return nil }); !errors.Is(err, storage.ErrClosed) {
		t.Errorf("writing a closed store: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("closing twice: %v", err)
	}
	openAt(t, path, nil) // free again once closed
}

func TestOpenDamagedFiles(t *testing.T) {
	good := filledFile(t)
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	data, _ := os.ReadFile(good)
	data = data[:highWater(t, good)] // bbolt preallocates; the pages in use are enough
	r := rand.New(rand.NewPCG(1, 2))
	noise := make([]byte, 64<<10)
	for i := range noise {
		noise[i] = byte(r.Uint32())
	}
	t.Run("empty", func(t *testing.T) {
		wantOpenError(t, write("empty.db", nil), nil, storage.ErrCorrupt, "is empty (0 bytes)")
	})
	t.Run("noise", func(t *testing.T) {
		wantOpenError(t, write("noise.db", noise), nil, storage.ErrCorrupt, "not a readable Missive data file")
	})
	t.Run("text", func(t *testing.T) {
		wantOpenError(t, write("notes.db", []byte("shopping list: eggs\n")), nil, storage.ErrCorrupt, "restore it from a backup")
	})
	t.Run("truncated to half", func(t *testing.T) {
		wantOpenError(t, write("half.db", data[:len(data)/2]), nil, storage.ErrCorrupt, "truncated")
	})
	t.Run("last page cut", func(t *testing.T) {
		wantOpenError(t, write("cut.db", data[:len(data)-100]), nil, storage.ErrCorrupt, "truncated")
	})
	t.Run("truncated to a few bytes", func(t *testing.T) {
		wantOpenError(t, write("short.db", data[:100]), nil, storage.ErrCorrupt, "restore it from a backup")
	})
	t.Run("meta pages garbled", func(t *testing.T) {
		bad := bytes.Clone(data)
		copy(bad[16:4096], noise)
		copy(bad[4096+16:8192], noise)
		wantOpenError(t, write("meta.db", bad), nil, storage.ErrCorrupt, "restore it from a backup")
	})
	// Garble each page in turn: Open and Verify must report it, never crash.
	t.Run("each page garbled", func(t *testing.T) {
		const page = 4096
		reported := 0
		for p := 2; p < len(data)/page; p++ {
			bad := bytes.Clone(data)
			copy(bad[p*page:(p+1)*page], noise[p%8*page:])
			path := write(fmt.Sprintf("page%d.db", p), bad)
			s, err := storage.Open(path, toyRegistry(), &storage.Options{NoBackupSocket: true})
			if err != nil {
				if !errors.Is(err, storage.ErrCorrupt) {
					t.Errorf("page %d: %v", p, err)
				}
				reported++
				continue
			}
			// The page was free: everything must still read.
			if err := s.Verify(context.Background()); err != nil {
				t.Errorf("page %d garbled, Open accepted the file but Verify says %v", p, err)
			}
			s.Close()
		}
		if reported == 0 {
			t.Error("no garbled page was reported")
		}
	})
}

// setMeta rewrites a key of the meta bucket of a closed data file.
func setMeta(t *testing.T, path, key, value string) {
	t.Helper()
	writeRaw(t, path, "meta", key, []byte(value))
}

func TestSchemaVersions(t *testing.T) {
	t.Run("newer", func(t *testing.T) {
		path := copyFile(t, filledFile(t))
		setMeta(t, path, "schema", "99")
		wantOpenError(t, path, nil, storage.ErrSchema,
			fmt.Sprintf("has schema version 99, newer than version %d that this build of Missive understands", storage.SchemaVersion))
		wantOpenError(t, path, &storage.Options{ReadOnly: true}, storage.ErrSchema, "newer")
	})
	t.Run("unreadable", func(t *testing.T) {
		path := copyFile(t, filledFile(t))
		setMeta(t, path, "schema", "one")
		wantOpenError(t, path, nil, storage.ErrCorrupt, `unreadable schema version "one"`)
	})
	t.Run("foreign bbolt file", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "other.db")
		db, err := bolt.Open(path, 0o600, nil)
		if err != nil {
			t.Fatal(err)
		}
		db.Update(func(tx *bolt.Tx) error { _, err := tx.CreateBucket([]byte("widgets")); return err })
		db.Close()
		wantOpenError(t, path, nil, storage.ErrCorrupt, "is not a Missive data file (it has buckets widgets but no meta bucket)")
	})
	t.Run("migration", func(t *testing.T) {
		path := copyFile(t, filledFile(t))
		// A failing step leaves the file as it was.
		_, err := storage.OpenWithMigrations(path, toyRegistry(), nil, func(tx *bolt.Tx) error {
			if _, err := tx.CreateBucket([]byte("half-done")); err != nil {
				return err
			}
			return errors.New("step failed")
		})
		next := storage.SchemaVersion + 1
		if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("migrating %s to schema %d", path, next)) {
			t.Fatalf("failing migration: %v", err)
		}
		if got := string(rawRecord(t, path, "meta", "schema")); got != strconv.Itoa(storage.SchemaVersion) {
			t.Fatalf("schema after a failed migration: %s", got)
		}
		s, err := storage.OpenWithMigrations(path, toyRegistry(), nil, func(tx *bolt.Tx) error {
			b, err := tx.CreateBucket([]byte("extra"))
			if err != nil {
				return err
			}
			return b.Put([]byte("k"), []byte("v"))
		})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Game(context.Background(), "1"); err != nil {
			t.Errorf("game after migrating: %v", err)
		}
		s.Close()
		if got := string(rawRecord(t, path, "meta", "schema")); got != strconv.Itoa(next) {
			t.Errorf("schema after migrating: %s", got)
		}
		bak := fmt.Sprintf("%s.schema-%d.bak", path, storage.SchemaVersion)
		if got := string(rawRecord(t, bak, "meta", "schema")); got != strconv.Itoa(storage.SchemaVersion) {
			t.Errorf("the snapshot before migrating has schema %s", got)
		}
		wantOpenError(t, path, nil, storage.ErrSchema, fmt.Sprintf("has schema version %d, newer than version %d", next, storage.SchemaVersion))
		// Re-opening a migrated file runs no step again.
		s, err = storage.OpenWithMigrations(path, toyRegistry(), nil, func(*bolt.Tx) error { return errors.New("ran twice") })
		if err != nil {
			t.Fatalf("reopening: %v", err)
		}
		s.Close()
	})
}

func TestDamagedRecords(t *testing.T) {
	path := copyFile(t, filledFile(t))
	writeRaw(t, path, "games", "2", []byte(`{"v":1,"data":{"id":"2","moves":[`))
	writeRaw(t, path, "games", "3", []byte(`{"v":7,"data":{}}`))
	writeRaw(t, path, "players", "user-1", []byte(`not json`))
	s := openAt(t, path, nil)
	ctx := context.Background()
	for id, text := range map[string]string{"2": `game "2": the stored record is damaged`, "3": "record format 7 is not format 1"} {
		if _, err := s.Game(ctx, id); !errors.Is(err, storage.ErrCorrupt) || !strings.Contains(err.Error(), text) {
			t.Errorf("game %s: %v", id, err)
		}
	}
	err := s.Verify(ctx)
	for _, text := range []string{`game "2"`, `game "3"`, `player "user-1"`, `stray entry "p1\x00a\x002"`} {
		if !strings.Contains(fmt.Sprint(err), text) {
			t.Errorf("Verify does not mention %q: %v", text, err)
		}
	}
	if _, err := s.Game(ctx, "4"); err != nil {
		t.Errorf("an intact game next to damaged ones: %v", err)
	}

	// A missing index entry is reported too.
	path = copyFile(t, filledFile(t))
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	db.Update(func(tx *bolt.Tx) error { return tx.Bucket([]byte("idx.game.thread")).Delete([]byte("thread-5")) })
	db.Close()
	s = openAt(t, path, nil)
	if err := s.Verify(ctx); !errors.Is(err, storage.ErrCorrupt) || !strings.Contains(err.Error(), `index idx.game.thread lacks the entry "thread-5"`) {
		t.Errorf("Verify with a lost index entry: %v", err)
	}
}

func TestReadOnly(t *testing.T) {
	path := filledFile(t)
	ro := openAt(t, path, &storage.Options{ReadOnly: true})
	ro2 := openAt(t, path, &storage.Options{ReadOnly: true}) // readers share the file
	ctx := context.Background()
	if g, err := ro.Game(ctx, "1"); err != nil || len(g.Moves) != 2 {
		t.Fatalf("read-only game: %v %v", g, err)
	}
	if err := ro.Update(ctx, func(*storage.Tx) error { return nil }); !errors.Is(err, storage.ErrReadOnly) {
		t.Errorf("Update on a read-only store: %v", err)
	}
	ro.Close()
	ro2.Close()
	wantOpenError(t, filepath.Join(t.TempDir(), "missing.db"), &storage.Options{ReadOnly: true}, storage.ErrNotFound, "there is no data file at")
}

// A new data file stays small until it holds something (bbolt would otherwise size
// it to its memory map, 16 MB and more), and grows as games are stored; it also
// keeps a console's clock offset.
func TestFreshFileSmall(t *testing.T) {
	s, _, path := openTemp(t)
	update(t, s, func(tx *storage.Tx) error { return tx.SetClockOffset(72 * time.Hour) })
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Size() > 128<<10 {
		t.Fatalf("a fresh data file is %d bytes", st.Size())
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = openAt(t, path, nil)
	if err := s.View(context.Background(), func(tx *storage.Tx) error {
		d, err := tx.ClockOffset()
		if err == nil && d != 72*time.Hour {
			err = fmt.Errorf("clock offset %v after reopening", d)
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	update(t, s, func(tx *storage.Tx) error {
		for i := range 2000 {
			g := newGame("walk", fmt.Sprintf("p%d", i%50), fmt.Sprintf("p%d", (i+1)%50))
			g.Players[0].Name = strings.Repeat("n", 200)
			if err := tx.PutGame(g); err != nil {
				return err
			}
		}
		return nil
	})
	if st, err = os.Stat(path); err != nil || st.Size() < 1<<20 {
		t.Fatalf("after 2000 games the file is %d bytes (%v)", st.Size(), err)
	}
}

// TestOpenRefusesDanglingLink checks that a data file path that is a symbolic link
// to nothing is refused with a sentence, and that no data file is made where it
// points; a link to a data file opens it.
func TestOpenRefusesDanglingLink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "gone", "missive.db")
	link := filepath.Join(dir, "link.db")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	for _, ro := range []bool{false, true} {
		wantOpenError(t, link, &storage.Options{ReadOnly: ro, NoBackupSocket: true}, storage.ErrNotFound,
			"the data file "+link+" is a symbolic link to "+target+", which does not exist")
	}
	if _, err := os.Lstat(filepath.Dir(target)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("opening the link made %s (%v)", filepath.Dir(target), err)
	}
	real := filledFile(t)
	good := filepath.Join(dir, "good.db")
	os.Symlink(real, good)
	s := openAt(t, good, &storage.Options{NoBackupSocket: true})
	if _, err := s.Game(context.Background(), "1"); err != nil {
		t.Fatalf("a game through a link to the data file: %v", err)
	}
}
