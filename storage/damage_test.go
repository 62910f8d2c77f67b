package storage_test

import (
	"context"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	bolt "go.etcd.io/bbolt"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/storage"
)

// leafDamage names ways of damaging one leaf page of a closed data file.
var leafDamage = map[string]func(t *testing.T, data []byte){
	// The root bucket's first bucket entry points its key and value far away: bbolt
	// took what it found there for an inline bucket and descended without end.
	"bucket entry moved": func(t *testing.T, data []byte) {
		p := pageAt(data, rootPage(data))
		binary.NativeEndian.PutUint32(p[16+4:], 0x7fffff)
	},
	// The last leaf page of the file claims more elements than it holds.
	"element count": func(t *testing.T, data []byte) {
		binary.NativeEndian.PutUint16(pageAt(data, lastLeaf(t, data))[10:], 0xffff)
	},
	// A value of the last leaf page reaches past the end of the file.
	"value size": func(t *testing.T, data []byte) {
		binary.NativeEndian.PutUint32(pageAt(data, lastLeaf(t, data))[16+12:], 1<<20)
	},
	// A key of the games bucket's branch page lies past the end of the file, where
	// bbolt's memory map has no file behind it: bbolt's check read it in a goroutine
	// of its own, where the fault (SIGBUS) killed the process.
	"branch key past the end": func(t *testing.T, data []byte) {
		id := gamesRoot(t, data)
		e := uint64(dataPageSize)*id + 16 + 16 // the second element of the page
		binary.NativeEndian.PutUint32(data[e:], uint32(uint64(len(data))+64-e))
	},
	// The last leaf page, but its header, is noise.
	"noise": func(t *testing.T, data []byte) {
		p := pageAt(data, lastLeaf(t, data))
		r := rand.New(rand.NewPCG(3, 4))
		for i := 16; i < len(p); i++ {
			p[i] = byte(r.Uint32())
		}
	},
}

// dataPageSize is the page size of the test files.
var dataPageSize = os.Getpagesize()

func pageAt(data []byte, id uint64) []byte {
	return data[int(id)*dataPageSize : int(id+1)*dataPageSize]
}

// rootPage returns the root bucket's page of the newest meta page.
func rootPage(data []byte) uint64 {
	ne := binary.NativeEndian
	meta := 0
	if ne.Uint64(data[dataPageSize+16+48:]) > ne.Uint64(data[16+48:]) {
		meta = 1
	}
	return ne.Uint64(data[meta*dataPageSize+16+16:])
}

// gamesRoot returns the root page of the games bucket, a branch page.
func gamesRoot(t *testing.T, data []byte) uint64 {
	id := bucketRoot(t, data, "games")
	if binary.NativeEndian.Uint16(pageAt(data, id)[8:]) != 0x01 || binary.NativeEndian.Uint16(pageAt(data, id)[10:]) < 2 {
		t.Fatalf("the games bucket's root %d is not a branch page of two elements or more", id)
	}
	return id
}

// bucketRoot returns the root page of bucket name.
func bucketRoot(t *testing.T, data []byte, name string) uint64 {
	path := filepath.Join(t.TempDir(), "probe.db")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	var id uint64
	db.View(func(tx *bolt.Tx) error { id = uint64(tx.Bucket([]byte(name)).Root()); return nil })
	db.Close()
	return id
}

// lastLeaf returns the last leaf page of the games bucket.
func lastLeaf(t *testing.T, data []byte) uint64 {
	id := bucketRoot(t, data, "games")
	ne := binary.NativeEndian
	for id != 0 && ne.Uint16(pageAt(data, id)[8:]) == 0x01 { // a branch page: its last child
		p := pageAt(data, id)
		last := int(ne.Uint16(p[10:])) - 1
		id = ne.Uint64(p[16+last*16+8:])
	}
	if id == 0 || ne.Uint16(pageAt(data, id)[8:]) != 0x02 {
		t.Fatalf("the games bucket has no leaf page of its own (%d)", id)
	}
	return id
}

// damageChild is set in a re-executed test binary that backs up (or opens) a damaged
// file, exiting 1 with the error's sentence as missive backup and the bot do.
const damageChild = "MISSIVE_DAMAGE_CHILD"

// TestDamagedLeafNeverCrashes checks that a backup of a file with one damaged leaf
// page, the bot's open of it, and a backup onto it (as an earlier backup), end with a
// sentence and exit status 1: never a crash (a fault, or memory exhausted by a cursor going round for ever), and never a
// temporary file left behind.
func TestDamagedLeafNeverCrashes(t *testing.T) {
	if what := os.Getenv(damageChild); what != "" {
		// Memory is bounded so that a runaway ends this child, not the machine.
		syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: 3 << 30, Max: 3 << 30})
		var err error
		switch what {
		case "backup":
			_, err = storage.BackupFile(context.Background(), toyRegistry(), os.Getenv("MISSIVE_DAMAGE_DATA"), os.Getenv("MISSIVE_DAMAGE_OUT"))
		case "target": // a good file backed up onto the damaged one
			_, err = storage.BackupFile(context.Background(), toyRegistry(), os.Getenv("MISSIVE_DAMAGE_GOOD"), os.Getenv("MISSIVE_DAMAGE_DATA"))
		case "write": // a write in the window before the check after Open reaches the page
			var s *storage.Store
			if s, err = storage.Open(os.Getenv("MISSIVE_DAMAGE_DATA"), toyRegistry(), &storage.Options{NoBackupSocket: true, SkipCheck: true}); err == nil {
				if err = s.Update(context.Background(), func(tx *storage.Tx) error { return tx.PutGame(newGame("walk", "x", "y")) }); err == nil {
					_, err = s.UpdateGame(context.Background(), "59", func(g *storage.Game) error { g.Players[0].Name = "renamed"; return nil })
				}
				if err == nil {
					err = s.Update(context.Background(), func(tx *storage.Tx) error { return tx.PutGame(newGame("walk", "x", "y")) })
				}
			}
		default:
			var s *storage.Store
			if s, err = storage.Open(os.Getenv("MISSIVE_DAMAGE_DATA"), toyRegistry(), &storage.Options{NoBackupSocket: true}); err == nil {
				err = s.Verify(context.Background())
				s.Close()
			}
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, rules.SentenceOf(err))
			os.Exit(1)
		}
		os.Exit(0)
	}
	good := filledFile(t)
	clean, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	clean = clean[:highWater(t, good)] // a copy is as long as its pages in use
	for name, damage := range leafDamage {
		t.Run(name, func(t *testing.T) {
			data := append([]byte(nil), clean...)
			damage(t, data)
			path := filepath.Join(t.TempDir(), "damaged.db")
			if err := os.WriteFile(path, data, 0o600); err != nil {
				t.Fatal(err)
			}
			for _, what := range []string{"backup", "open", "target", "write"} {
				out := filepath.Join(t.TempDir(), "backup.db")
				cmd := exec.Command(os.Args[0], "-test.run=^TestDamagedLeafNeverCrashes$")
				cmd.Env = append(os.Environ(), damageChild+"="+what, "MISSIVE_DAMAGE_DATA="+path, "MISSIVE_DAMAGE_OUT="+out, "MISSIVE_DAMAGE_GOOD="+good)
				var stderr strings.Builder
				cmd.Stderr = &stderr
				cmd.Stdout = &stderr
				err := cmd.Run()
				exit, _ := err.(*exec.ExitError)
				text := stderr.String()
				refused := exit != nil && exit.ExitCode() == 1 && strings.Contains(text, "damaged")
				// An earlier backup whose records are damaged may be replaced by a good
				// copy; one bbolt cannot read safely is refused.
				replaced := what == "target" && err == nil
				// A write may touch other pages than the damaged one, or fail in its
				// transaction (recovered there): no crash is what counts.
				crashed := exit != nil && exit.ExitCode() != 1 || strings.Contains(text, "fatal error") || strings.Contains(text, "[signal ")
				written := what == "write" && !crashed
				if !refused && !replaced && !written || what != "write" && strings.Contains(text, "goroutine") {
					t.Fatalf("%s of a file with a damaged leaf page: %v\n%.2000s", what, err, text)
				}
				t.Logf("%s: %s", what, strings.TrimSpace(text))
				for _, d := range []string{filepath.Dir(out), filepath.Dir(path)} {
					if entries, _ := os.ReadDir(d); len(entries) > 0 && entries[0].Name() != filepath.Base(path) {
						t.Errorf("%s left %s behind", what, entries[0].Name())
					}
				}
			}
		})
	}
}
