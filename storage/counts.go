package storage

import (
	"encoding/binary"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/missivechess/missive/rules"
)

// Counts kept as the data changes.
//
// The counts bucket (schema 7) holds, under a name, a number that every write of a
// game moves in the same transaction as the game's record: the games in each state
// and the games in progress in each server. They come out of the same step that
// rewrites a record's indexes (a record's counters are index entries of a kind that
// add one when they appear and take one away when they go), so a count is exactly
// what a scan of the records would find, without anyone scanning: the round-robin
// pacing asks how many games a server has in progress inside the write transaction
// of every game end, and each /metrics scrape asks for the games in progress.
//
//	bucket   key                      value
//	counts   "state", NUL, status     games with that rules.Status (ongoing | won | drawn)
//	         "guild", NUL, guild id   games in progress in that server ("" for games
//	                                  outside any server: direct messages, local play)
//
// Values are 8 big-endian bytes; a count that falls to zero is deleted.

// bCounts is the bucket of counts (schema 7).
var bCounts = []byte("counts")

const (
	countState = "state"
	countGuild = "guild"
)

// counters returns the counters g adds to: one for its state and, while it is in
// progress, one for its server. They are index entries whose key is a count's
// name (updateIndexes adds and removes them as counts).
func counters(status rules.Status, guild string) []indexEntry {
	out := []indexEntry{{bucket: bCounts, key: key(countState, string(status)), value: []byte{}, count: true}}
	if status == rules.Ongoing {
		out = append(out, indexEntry{bucket: bCounts, key: key(countGuild, guild), value: []byte{}, count: true})
	}
	return out
}

// addCount moves the count named k by delta.
func (tx *Tx) addCount(k []byte, delta int64) error {
	b, err := tx.bucket(bCounts)
	if err != nil {
		return err
	}
	n := int64(0)
	if raw := b.Get(k); len(raw) == 8 {
		n = int64(binary.BigEndian.Uint64(raw))
	}
	n += delta
	if n <= 0 {
		if n < 0 {
			tx.s.log.Error("storage: a count fell below zero and is kept at zero", "count", string(k), "value", n)
		}
		return b.Delete(k)
	}
	return b.Put(k, binary.BigEndian.AppendUint64(nil, uint64(n)))
}

// count reads the count named k.
func (tx *Tx) count(k []byte) (int, error) {
	b, err := tx.bucket(bCounts)
	if err != nil {
		return 0, err
	}
	raw := b.Get(k)
	switch len(raw) {
	case 0:
		if raw == nil {
			return 0, nil
		}
	case 8:
		return int(binary.BigEndian.Uint64(raw)), nil
	}
	return 0, fmt.Errorf("storage: data file %s has a damaged count %q (%d bytes): %w", tx.s.path, k, len(raw), ErrCorrupt)
}

// RunningGames returns how many games are in progress in guild ("" for the games
// outside any server), from the counts kept with every write: no game is read.
func (tx *Tx) RunningGames(guild string) (int, error) {
	return tx.count(key(countGuild, guild))
}

// GamesIn returns how many games are in status (rules.Ongoing: in progress), from
// the counts kept with every write.
func (tx *Tx) GamesIn(status rules.Status) (int, error) {
	return tx.count(key(countState, string(status)))
}

// Counts is every count at once: games by state, and games in progress by server.
type Counts struct {
	States map[rules.Status]int
	Guilds map[string]int
}

// Counts returns every count the store keeps (no game is read; the counts bucket
// holds one entry per state and per server with games in progress).
func (tx *Tx) Counts() (Counts, error) {
	c := Counts{States: map[rules.Status]int{}, Guilds: map[string]int{}}
	b, err := tx.bucket(bCounts)
	if err != nil {
		return c, err
	}
	err = b.ForEach(func(k, v []byte) error {
		if len(v) != 8 {
			return fmt.Errorf("storage: data file %s has a damaged count %q: %w", tx.s.path, k, ErrCorrupt)
		}
		n := int(binary.BigEndian.Uint64(v))
		switch kind, name, _ := cutKey(k); kind {
		case countState:
			c.States[rules.Status(name)] = n
		case countGuild:
			c.Guilds[name] = n
		}
		return nil
	})
	return c, err
}

// cutKey splits a two-part key at its separator.
func cutKey(k []byte) (first, rest string, ok bool) {
	for i, c := range k {
		if c == sep {
			return string(k[:i]), string(k[i+1:]), true
		}
	}
	return string(k), "", false
}

// ScanCounts counts the games by reading every game's summary: what Counts must
// equal. It reads every game; it is for checks and tests, never for a hot path.
func (tx *Tx) ScanCounts() (Counts, error) { return tx.scanCounts(true) }

// scanCounts is ScanCounts; when not strict, a summary that does not decode is left
// out instead of failing the scan.
func (tx *Tx) scanCounts(strict bool) (Counts, error) {
	c := Counts{States: map[rules.Status]int{}, Guilds: map[string]int{}}
	b, err := tx.bucket(xGameSummary)
	if err != nil {
		return c, err
	}
	err = b.ForEach(func(k, raw []byte) error {
		s, err := decodeSummary(raw, string(k))
		if err != nil {
			if strict {
				return err
			}
			return nil
		}
		c.States[s.Outcome.Status]++
		if s.Outcome.Status == rules.Ongoing {
			c.Guilds[s.Guild]++
		}
		return nil
	})
	return c, err
}

// rebuildCounts sets the counts bucket to what the games' summaries imply: the
// migration to schema 7 fills it for a file written before counts were kept.
func rebuildCounts(btx *bolt.Tx) error {
	if err := btx.DeleteBucket(bCounts); err != nil && err != bolt.ErrBucketNotFound {
		return err
	}
	b, err := btx.CreateBucket(bCounts)
	if err != nil {
		return err
	}
	tx := &Tx{s: &Store{path: "(migrating)"}, btx: btx}
	c, err := tx.scanCounts(false) // a damaged summary is Verify's to report, not a reason to refuse the file
	if err != nil {
		return err
	}
	put := func(k []byte, n int) error {
		if n == 0 {
			return nil
		}
		return b.Put(k, binary.BigEndian.AppendUint64(nil, uint64(n)))
	}
	for s, n := range c.States {
		if err := put(key(countState, string(s)), n); err != nil {
			return err
		}
	}
	for g, n := range c.Guilds {
		if err := put(key(countGuild, g), n); err != nil {
			return err
		}
	}
	return nil
}

// migrateCounts is the step to schema 7.
var migrateCounts = migration{to: 7, what: "keep counts of games by state and of games in progress by server (the counts bucket, filled from the games)",
	run: rebuildCounts}
