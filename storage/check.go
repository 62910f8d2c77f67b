package storage

import (
	"context"
	"errors"
	"fmt"
	"os"

	bolt "go.etcd.io/bbolt"
)

// What Open checks and what it leaves to the check after it.
//
// Open reads the meta pages, the file's size against them, the schema and the page
// tree: the root bucket, every bucket's header and all branch pages, so that no
// cursor can leave the file or go round in a loop; for a file up to
// Options.FullCheckBelow bytes (default DefaultFullCheckBelow) every leaf page too.
// Then, while the store serves, a check in the background reads the leaf pages of a
// larger file and decodes every record. The moment it finds a damaged page the store
// refuses every transaction as Open would have refused the file (ErrCorrupt, logged
// with the way out); a damaged record is logged by its kind and id, with the way
// out, and the store goes on (the record itself cannot be loaded).

// DefaultFullCheckBelow is the size up to which Open reads every page of a data file
// before it opens it (about a quarter of a second here).
const DefaultFullCheckBelow = 256 << 20

// checker is the store's check after Open.
type checker struct {
	cancel  context.CancelFunc
	done    chan struct{}
	damage  error   // a damaged page: the store refuses everything (set before done)
	records []error // damaged records (set before done)
}

// startCheck starts the check after Open; pages says whether the leaf pages still
// need reading.
func (s *Store) startCheck(pages bool) {
	ctx, cancel := context.WithCancel(context.Background())
	c := &checker{cancel: cancel, done: make(chan struct{})}
	s.check = c
	go func() {
		defer close(c.done)
		if pages {
			if err := s.checkLeaves(ctx); err != nil {
				var d *pageDamage
				if !errors.As(err, &d) {
					if ctx.Err() == nil { // not closing: the check could not run
						s.log.Warn("storage: the check of the data file's pages after start could not run", "data", s.path, "error", err)
					}
					return
				}
				c.damage = refuse(ErrCorrupt, "the data file %s is damaged (%v), as the check after start found; nothing more is read or written: stop the bot and restore the data file from a backup", shown(s.path), err)
				s.damaged.Store(&c.damage)
				s.log.Error("storage: " + c.damage.(*fileError).text)
				return
			}
			s.paged.Store(true)
		}
		problems, err := s.checkRecords(ctx)
		if err != nil || len(problems) == 0 {
			return
		}
		c.records = problems
		for _, p := range c.records {
			s.log.Error("storage: a record of the data file is damaged and cannot be loaded; everything else goes on. To get it back, stop the bot and restore the data file from a backup made before the damage (missive backup makes one)",
				"data", s.path, "problem", p)
		}
	}()
}

// recordsPerCheck is how many records the check after Open decodes in one read
// transaction: a long one would hold up a writer that must grow the memory map.
const recordsPerCheck = 2000

// checkRecords decodes every record, a few thousand in each read transaction, and
// returns the problems found (at most maxProblems, then a count of the others).
func (s *Store) checkRecords(ctx context.Context) ([]error, error) {
	v := &verifier{ctx: ctx, mode: verifyRecords}
	for _, check := range v.kinds() {
		for from, first := []byte(nil), true; first || from != nil; first = false {
			if err := s.View(ctx, func(tx *Tx) error {
				v.tx = tx
				from = check(from, recordsPerCheck)
				return ctx.Err()
			}); err != nil {
				return nil, err
			}
		}
	}
	if v.more > 0 {
		v.problems = append(v.problems, fmt.Errorf("storage: and %d more damaged records", v.more))
	}
	return v.problems, nil
}

// checkLeaves reads every leaf page of the store's buckets, as of one read
// transaction: while it is open, bbolt rewrites none of the pages it can reach.
func (s *Store) checkLeaves(ctx context.Context) error {
	f, err := os.Open(s.path)
	if err != nil {
		return err
	}
	defer f.Close()
	return s.db.View(func(tx *bolt.Tx) error {
		size := int64(s.db.Info().PageSize)
		c := newPageChecker(f, metaPage{pageSize: uint32(size), hwm: tx.Size()}, true)
		return tx.ForEach(func(_ []byte, b *bolt.Bucket) error {
			if err := ctx.Err(); err != nil {
				return err
			}
			if root := uint64(b.Root()); root != 0 { // inline buckets were read at Open
				return c.tree(root, true)
			}
			return nil
		})
	})
}

// Checked is closed when the check after Open has finished (at once when Options
// said SkipCheck).
func (s *Store) Checked() <-chan struct{} {
	if s.check == nil {
		done := make(chan struct{})
		close(done)
		return done
	}
	return s.check.done
}

// CheckResult returns, once Checked is closed, what the check after Open found: a
// damaged page (then every transaction fails with it, matching ErrCorrupt) and the
// damaged records, each naming its kind and id.
func (s *Store) CheckResult() (damage error, records []error) {
	if s.check == nil {
		return nil, nil
	}
	select {
	case <-s.check.done:
		return s.check.damage, s.check.records
	default:
		return nil, nil
	}
}

// refusing returns the damage that makes the store refuse transactions, or nil.
func (s *Store) refusing() error {
	if p := s.damaged.Load(); p != nil {
		return *p
	}
	return nil
}

// stopCheck ends the check after Open and waits for it.
func (s *Store) stopCheck() {
	if s.check != nil {
		s.check.cancel()
		<-s.check.done
	}
}
