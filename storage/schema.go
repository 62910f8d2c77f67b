package storage

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"time"

	bolt "go.etcd.io/bbolt"
)

// SchemaVersion is the layout of buckets, keys and records that this build writes.
// Open migrates older files to it and refuses newer ones.
const SchemaVersion = 9

// The buckets of the current schema; doc.go describes their keys and values.
var (
	bMeta        = []byte("meta")
	bGames       = []byte("games")
	bPlayers     = []byte("players")
	bChallenges  = []byte("challenges")
	bTournaments = []byte("tournaments")
	bRatings     = []byte("ratings")
	bRequests    = []byte("requests")
	bMatches     = []byte("matches")      // schema 2
	bOutbox      = []byte("outbox")       // schema 3
	bReviews     = []byte("reviews")      // schema 4
	bReviewQueue = []byte("review.queue") // schema 6
	bAnalyses    = []byte("analyses")     // schema 7 (analysis.go)
	bWebTokens   = []byte("web.tokens")   // schema 7 (analysis.go)
	bServers     = []byte("servers")      // schema 9 (records.go)

	xGamePlayer      = []byte("idx.game.player")
	xGameThread      = []byte("idx.game.thread")
	xGameDue         = []byte("idx.game.due")
	xGameActive      = []byte("idx.game.active")
	xGameSummary     = []byte("idx.game.summary")
	xGameTournament  = []byte("idx.game.tournament")
	xChallengeOpen   = []byte("idx.challenge.open")
	xChallengePlayer = []byte("idx.challenge.player")
	xChallengeExpiry = []byte("idx.challenge.expiry")
	xTournamentGuild = []byte("idx.tournament.guild")
	xRequestTime     = []byte("idx.request.time")
	xMatchGuild      = []byte("idx.match.guild") // schema 2
	xPlayerDue       = []byte("idx.player.due")  // schema 5

	metaSchemaKey   = []byte("schema")
	metaCreatedKey  = []byte("created")
	metaMigratedKey = []byte("migrated")

	// recordBuckets and indexBuckets are the buckets of the current schema.
	recordBuckets = [][]byte{bGames, bPlayers, bChallenges, bTournaments, bRatings, bRequests, bMatches, bOutbox, bReviews, bReviewQueue, bAnalyses, bWebTokens, bServers}
	indexBuckets  = [][]byte{xGamePlayer, xGameThread, xGameDue, xGameActive, xGameSummary, xGameTournament,
		xChallengeOpen, xChallengePlayer, xChallengeExpiry, xTournamentGuild, xRequestTime, xMatchGuild, xPlayerDue}
)

// migration upgrades a data file from schema to-1 to schema to, inside one write
// transaction together with every other pending migration.
type migration struct {
	to   int
	what string
	run  func(tx *bolt.Tx) error
}

// migrations lists every schema step in order; a new schema appends one entry and
// bumps SchemaVersion. It is never modified at run time.
var migrations = []migration{
	{to: 1, what: "create the buckets and indexes of schema 1", run: func(tx *bolt.Tx) error {
		// Schema 1's names, frozen here: later schemas add their own steps.
		for _, name := range []string{"meta", "games", "players", "challenges", "tournaments", "ratings", "requests",
			"idx.game.player", "idx.game.thread", "idx.game.due", "idx.game.active", "idx.game.summary", "idx.game.tournament",
			"idx.challenge.open", "idx.challenge.player", "idx.challenge.expiry", "idx.tournament.guild", "idx.request.time"} {
			if _, err := tx.CreateBucketIfNotExists([]byte(name)); err != nil {
				return err
			}
		}
		return nil
	}},
	{to: 2, what: "add engine matches (the matches bucket and its guild index)", run: func(tx *bolt.Tx) error {
		for _, name := range []string{"matches", "idx.match.guild"} {
			if _, err := tx.CreateBucketIfNotExists([]byte(name)); err != nil {
				return err
			}
		}
		return nil
	}},
	{to: 3, what: "add the outbox of notices still to deliver", run: func(tx *bolt.Tx) error {
		_, err := tx.CreateBucketIfNotExists([]byte("outbox"))
		return err
	}},
	{to: 4, what: "add game reviews (the reviews bucket)", run: func(tx *bolt.Tx) error {
		_, err := tx.CreateBucketIfNotExists([]byte("reviews"))
		return err
	}},
	{to: 5, what: "add the index of players the scheduler must look at (leave ends, daily digests)", run: func(tx *bolt.Tx) error {
		_, err := tx.CreateBucketIfNotExists([]byte("idx.player.due"))
		return err
	}},
	{to: 6, what: "add the queue of game reviews asked for and not yet made", run: func(tx *bolt.Tx) error {
		_, err := tx.CreateBucketIfNotExists([]byte("review.queue"))
		return err
	}},
	migrateCounts, // counts.go
	{to: 8, what: "add the players' private analyses and the web pages' token generations", run: func(tx *bolt.Tx) error {
		for _, name := range []string{"analyses", "web.tokens"} {
			if _, err := tx.CreateBucketIfNotExists([]byte(name)); err != nil {
				return err
			}
		}
		return nil
	}},
	{to: 9, what: "add the servers' settings (the language an admin chose)", run: func(tx *bolt.Tx) error {
		_, err := tx.CreateBucketIfNotExists([]byte("servers"))
		return err
	}},
}

// readSchema returns the schema version recorded in the file, 0 for a file that has
// never been initialised (no buckets at all).
func readSchema(tx *bolt.Tx, path string) (int, error) {
	meta := tx.Bucket(bMeta)
	if meta == nil {
		var names []string
		_ = tx.ForEach(func(name []byte, _ *bolt.Bucket) error {
			names = append(names, string(name))
			return nil
		})
		if len(names) == 0 {
			return 0, nil
		}
		return 0, fmt.Errorf("storage: data file %s is not a Missive data file (it has buckets %s but no meta bucket): %w",
			path, strings.Join(names, ", "), ErrCorrupt)
	}
	raw := meta.Get(metaSchemaKey)
	v, err := strconv.Atoi(string(raw))
	if err != nil || v < 1 {
		return 0, fmt.Errorf("storage: data file %s has an unreadable schema version %q: %w", shown(path), raw, ErrCorrupt)
	}
	return v, nil
}

// migrate brings the file to the last schema of list. Before changing a file that
// already holds data, it writes a snapshot next to it (path.schema-N.bak).
func migrate(db *bolt.DB, path string, list []migration, now time.Time) error {
	target := list[len(list)-1].to
	var cur int
	if err := db.View(func(tx *bolt.Tx) (err error) {
		cur, err = readSchema(tx, path)
		return err
	}); err != nil {
		return err
	}
	if cur > target {
		return newerSchemaError(path, cur, target)
	}
	if cur == target {
		return nil
	}
	if cur > 0 {
		snap := fmt.Sprintf("%s.schema-%d.bak", path, cur)
		if err := db.View(func(tx *bolt.Tx) error {
			_, err := writeFileAtomic(snap, tx.WriteTo, nil)
			return err
		}); err != nil {
			return fmt.Errorf("storage: cannot write the snapshot %s before migrating %s: %w", shown(snap), shown(path), err)
		}
	}
	return db.Update(func(tx *bolt.Tx) error {
		for _, m := range list {
			if m.to <= cur {
				continue
			}
			if err := m.run(tx); err != nil {
				return fmt.Errorf("storage: migrating %s to schema %d (%s): %w", shown(path), m.to, m.what, err)
			}
		}
		meta := tx.Bucket(bMeta)
		if meta == nil {
			return fmt.Errorf("storage: migrations of %s left no meta bucket", shown(path))
		}
		if cur == 0 {
			if err := meta.Put(metaCreatedKey, []byte(now.UTC().Format(time.RFC3339))); err != nil {
				return err
			}
		} else if err := meta.Put(metaMigratedKey, []byte(fmt.Sprintf("%d->%d %s", cur, target, now.UTC().Format(time.RFC3339)))); err != nil {
			return err
		}
		return meta.Put(metaSchemaKey, []byte(strconv.Itoa(target)))
	})
}

// checkSchemaReadOnly verifies a file opened read-only has exactly the current schema.
func checkSchemaReadOnly(db *bolt.DB, path string, target int) error {
	return db.View(func(tx *bolt.Tx) error {
		cur, err := readSchema(tx, path)
		switch {
		case err != nil:
			return err
		case cur > target:
			return newerSchemaError(path, cur, target)
		case cur < target:
			return fmt.Errorf("storage: data file %s has schema version %d and needs migrating to %d; open it once read-write (start the bot) first: %w",
				path, cur, target, ErrSchema)
		}
		return nil
	})
}

func newerSchemaError(path string, cur, target int) error {
	return fmt.Errorf("storage: data file %s has schema version %d, newer than version %d that this build of Missive understands; run a newer Missive (or restore a backup made by this version): %w",
		shown(path), cur, target, ErrSchema)
}

// checkFilePages runs the page check (checkPages) on the data file at path, full or
// quick (refused says what its damage stops), unless another process holds the file for writing (then opening it fails
// with ErrLocked anyway, and its pages may be changing). It takes a shared lock on
// the file meanwhile, so no writer starts during the check.
func checkFilePages(path string, full bool, refused string) error {
	f, err := os.Open(path)
	if err != nil {
		return nil // opening it names the problem
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB); err != nil {
		return nil
	}
	if _, err := checkPages(path, full); err != nil {
		return pageDamageError(path, err, refused)
	}
	return nil
}

// pageDamageError is the refusal of a data file whose page check failed, saying
// what was refused ("so it was not opened").
func pageDamageError(path string, err error, refused string) error {
	return refuse(ErrCorrupt, "the data file %s is damaged (%v), %s; restore it from a backup (missive backup keeps a safe copy of a good file)", shown(path), err, refused)
}

// checkIntegrity verifies that the file is not truncated, that every page reachable
// from the root can be read, and bbolt's own consistency check. Faults from reading a
// damaged memory map become errors instead of crashing the process.
func checkIntegrity(db *bolt.DB, path string) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("storage: data file %s is damaged (reading it failed: %v); restore it from a backup: %w", shown(path), r, ErrCorrupt)
		}
	}()
	return db.View(func(tx *bolt.Tx) error {
		fi, err := os.Stat(path)
		if err != nil {
			return fmt.Errorf("storage: %w", err)
		}
		if tx.Size() > fi.Size() {
			return truncatedError(path, fi.Size(), tx.Size())
		}
		if err := tx.ForEach(func(_ []byte, b *bolt.Bucket) error { return walkBucket(b, 0) }); err != nil {
			return fmt.Errorf("storage: data file %s is damaged (%v); restore it from a backup: %w", shown(path), err, ErrCorrupt)
		}
		var problems []string
		for err := range tx.Check() {
			if len(problems) < 5 {
				problems = append(problems, err.Error())
			}
		}
		if len(problems) > 0 {
			return fmt.Errorf("storage: data file %s failed its consistency check (%s); restore it from a backup: %w",
				path, strings.Join(problems, "; "), ErrCorrupt)
		}
		return nil
	})
}

func truncatedError(path string, size, hwm int64) error {
	return fmt.Errorf("storage: data file %s is truncated (%d bytes, but its pages reach %d); restore it from a backup: %w",
		shown(path), size, hwm, ErrCorrupt)
}

// walkBucket reads every key and value of b and its sub-buckets.
func walkBucket(b *bolt.Bucket, depth int) error {
	if depth > 8 {
		return errors.New("buckets nested too deeply")
	}
	c := b.Cursor()
	var prev []byte
	for k, v := c.First(); k != nil; k, v = c.Next() {
		if prev != nil && string(prev) >= string(k) {
			return fmt.Errorf("keys out of order (%q after %q)", k, prev)
		}
		prev = append(prev[:0], k...)
		if v == nil {
			if sub := b.Bucket(k); sub != nil {
				if err := walkBucket(sub, depth+1); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// bbolt's file format 2 (stable since 2014): each of the first two pages holds a
// 16-byte page header and then the meta: magic, version, page size, flags (4 bytes
// each), root bucket (16), freelist page, high-water page, txid and an FNV-64a
// checksum of the preceding meta bytes (8 each), in native byte order.
const (
	boltMagic   = 0xED0CDAED
	boltVersion = 2
	metaOffset  = 16
	metaSumLen  = 56 // bytes of meta covered by the checksum
)

// metaPage is what one of the two meta pages of a data file says.
type metaPage struct {
	ok       bool   // magic, version and checksum agree
	txid     uint64 // the transaction it records, as stored (even when !ok)
	hwm      int64  // bytes of the file in use
	pageSize uint32
	root     uint64 // the root bucket's page
	freelist uint64 // the freelist's page
}

// readMetas reads the two meta pages of the data file at path.
func readMetas(path string) (m [2]metaPage, ok bool) {
	f, err := os.Open(path)
	if err != nil {
		return m, false
	}
	defer f.Close()
	read := func(off int64) (p metaPage, ok bool) {
		buf := make([]byte, metaOffset+metaSumLen+8)
		if _, err := f.ReadAt(buf, off); err != nil {
			return p, false
		}
		b := buf[metaOffset:]
		ne := binary.NativeEndian
		h := fnv.New64a()
		h.Write(b[:metaSumLen])
		p.pageSize = ne.Uint32(b[8:])
		p.txid = ne.Uint64(b[48:])
		p.hwm = int64(ne.Uint64(b[40:])) * int64(p.pageSize)
		p.root, p.freelist = ne.Uint64(b[16:]), ne.Uint64(b[32:])
		p.ok = ne.Uint32(b[0:]) == boltMagic && ne.Uint32(b[4:]) == boltVersion && ne.Uint64(b[metaSumLen:]) == h.Sum64()
		return p, true
	}
	if m[0], ok = read(0); !ok {
		return m, false
	}
	ps := int64(m[0].pageSize)
	if !m[0].ok {
		ps = int64(os.Getpagesize())
	}
	m[1], ok = read(ps)
	return m, ok
}

// fileHighWater returns how many bytes of the file the newest valid meta page says
// are in use, so that a truncated file is named as such before bbolt maps it.
func fileHighWater(path string) (int64, bool) {
	m, ok := readMetas(path)
	switch {
	case !ok:
		return 0, false
	case m[0].ok && (!m[1].ok || m[0].txid >= m[1].txid):
		return m[0].hwm, true
	case m[1].ok:
		return m[1].hwm, true
	}
	return 0, false
}

// rollback describes a data file one of whose two meta pages is damaged: bbolt
// silently opens it as of the transaction of the other page (kept), losing the
// damaged page's commit when that was the newer one.
type rollback struct {
	page   int    // the damaged meta page
	kept   uint64 // the transaction the file would open at
	stored uint64 // the transaction the damaged page says it records
}

// metaRollback reports whether exactly one meta page of the file at path is damaged
// (both damaged, bbolt refuses the file itself).
func metaRollback(path string) (rollback, bool) {
	m, ok := readMetas(path)
	if !ok || m[0].ok == m[1].ok {
		return rollback{}, false
	}
	bad, good := 0, 1
	if m[0].ok {
		bad, good = 1, 0
	}
	return rollback{page: bad, kept: m[good].txid, stored: m[bad].txid}, true
}

// String says what opening the file would lose, as a sentence without a period.
func (r rollback) String() string {
	if r.stored == r.kept+1 {
		return fmt.Sprintf("the record of its newest commit (transaction %d, meta page %d) fails its checksum, so opening it would silently roll back to transaction %d and lose that commit", r.stored, r.page, r.kept)
	}
	return fmt.Sprintf("one of its two commit records (meta page %d) fails its checksum, so it would open as of transaction %d and may silently lose a newer commit", r.page, r.kept)
}

// metaDamageError refuses a file one of whose meta pages is damaged, saying what
// would be rolled back and how to accept that.
func metaDamageError(path string, r rollback) error {
	return fmt.Errorf("storage: data file %s is damaged: %s; restore it from a backup, or keep it as of transaction %d by copying it with \"missive backup -o NEW --data %s\" and putting NEW in its place: %w",
		shown(path), r, r.kept, shown(path), ErrCorrupt)
}
