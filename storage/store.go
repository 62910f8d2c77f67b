package storage

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/missivechess/missive/rules"
)

// DefaultFile is the data file's name when none is configured.
const DefaultFile = "missive.db"

// Options tune Open; the zero value (or nil) gives the defaults.
type Options struct {
	// LockTimeout is how long Open waits for another process to release the file
	// (default 2s); then it fails with ErrLocked.
	LockTimeout time.Duration
	// ReadOnly opens the file for reading only, sharing it with other readers. It does
	// not migrate, and it fails if the file does not exist.
	ReadOnly bool
	// Now is the clock for record times and request expiry (default time.Now).
	Now func() time.Time
	// RequestTTL is how long idempotency entries are kept (default 48h).
	RequestTTL time.Duration
	// CacheSize is how many replayed positions are kept in memory (default 1024;
	// negative disables the cache).
	CacheSize int
	// NoBackupSocket stops a read-write store from serving snapshots to
	// "missive backup" on a unix socket next to the data file.
	NoBackupSocket bool
	// SkipCheck skips the checks of the file's pages and records, at Open and after
	// it (check.go): for a file just checked otherwise.
	SkipCheck bool
	// FullCheckBelow is the size up to which Open reads every page of the file
	// before opening it (default DefaultFullCheckBelow; negative: never, leaving the
	// leaf pages to the check after Open).
	FullCheckBelow int64
	// NoSync skips fsync on commit: for tests only, a crash can lose or damage data.
	NoSync bool
	// Logger receives warnings (default slog.Default()).
	Logger *slog.Logger
}

// Store is an open data file. Its methods are safe for concurrent use.
type Store struct {
	db       *bolt.DB
	path     string
	reg      *rules.Registry
	now      func() time.Time
	ttl      time.Duration
	readOnly bool
	cache    *posCache
	log      *slog.Logger
	writers  atomic.Int32 // write transactions in flight, to choose Update or Batch
	srv      *backupServer
	check    *checker              // the check after Open (nil with SkipCheck)
	damaged  atomic.Pointer[error] // set when that check finds a damaged page
	paged    atomic.Bool           // every page was checked: group commits may run
	close    sync.Once
	closeErr error
}

// Open opens (creating it if needed, with its directory) the data file at path,
// checks its integrity, migrates it to SchemaVersion and, unless opts say otherwise,
// starts serving snapshots to "missive backup". reg replays stored games.
//
// Open fails with an error wrapping ErrLocked when another process holds the file
// (for longer than LockTimeout), ErrCorrupt when the file is damaged or is not a
// Missive data file, and ErrSchema when its schema is newer than this build's.
func Open(path string, reg *rules.Registry, opts *Options) (*Store, error) {
	return open(path, reg, opts, migrations)
}

func open(path string, reg *rules.Registry, opts *Options, list []migration) (*Store, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.LockTimeout <= 0 {
		o.LockTimeout = 2 * time.Second
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.RequestTTL <= 0 {
		o.RequestTTL = 48 * time.Hour
	}
	if o.CacheSize == 0 {
		o.CacheSize = 1024
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if reg == nil {
		return nil, errors.New("storage: Open needs the variant registry to replay games")
	}
	if err := checkLink(path); err != nil {
		return nil, err
	}
	fi, err := os.Stat(path)
	switch {
	case err == nil && fi.IsDir():
		return nil, fmt.Errorf("storage: %s is a directory, not a data file", shown(path))
	case err == nil && !fi.Mode().IsRegular():
		return nil, fmt.Errorf("storage: %s is not a regular file (it is a %s), so it cannot be a data file", shown(path), fileKind(fi.Mode()))
	case err == nil && fi.Size() == 0:
		return nil, fmt.Errorf("storage: data file %s is empty (0 bytes): it lost its contents or was never written; restore it from a backup, or delete it to start a new one: %w", shown(path), ErrCorrupt)
	case errors.Is(err, fs.ErrNotExist) && o.ReadOnly:
		return nil, fmt.Errorf("storage: there is no data file at %s: %w", shown(path), ErrNotFound)
	case errors.Is(err, fs.ErrNotExist):
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return nil, fmt.Errorf("storage: creating the folder of %s: %w", shown(path), err)
		}
	case err != nil:
		return nil, fmt.Errorf("storage: %w", err)
	}
	if hwm, ok := fileHighWater(path); ok && fi != nil && hwm > fi.Size() {
		return nil, truncatedError(path, fi.Size(), hwm)
	}
	if r, damaged := metaRollback(path); damaged && fi != nil {
		return nil, metaDamageError(path, r)
	}
	if o.FullCheckBelow == 0 {
		o.FullCheckBelow = DefaultFullCheckBelow
	}
	leavesLater := false
	if fi != nil && !o.SkipCheck {
		// Before bbolt reads anything: it trusts the file's pages.
		full := fi.Size() <= o.FullCheckBelow
		if err := checkFilePages(path, full, "so it was not opened"); err != nil {
			return nil, err
		}
		leavesLater = !full
	}
	db, err := openBolt(path, o.LockTimeout, o.ReadOnly, o.NoSync)
	if err != nil {
		return nil, err
	}
	s := &Store{db: db, path: path, reg: reg, now: o.Now, ttl: o.RequestTTL, readOnly: o.ReadOnly,
		cache: newPosCache(o.CacheSize), log: o.Logger}
	fail := func(err error) (*Store, error) {
		db.Close()
		return nil, err
	}
	target := list[len(list)-1].to
	if o.ReadOnly {
		err = checkSchemaReadOnly(db, path, target)
	} else {
		err = migrate(db, path, list, o.Now())
	}
	if err != nil {
		return fail(err)
	}
	if !o.ReadOnly && !o.NoBackupSocket {
		srv, err := serveBackups(s)
		if err != nil {
			s.log.Warn("storage: not serving backups; missive backup will not work while the bot runs", "error", err)
		}
		s.srv = srv
	}
	s.paged.Store(!leavesLater)
	if !o.SkipCheck {
		s.startCheck(leavesLater)
	}
	return s, nil
}

// checkLink refuses a data file path that is a symbolic link to nothing: opening it
// would silently create a new, empty data file where the link points.
func checkLink(path string) error {
	fi, err := os.Lstat(path)
	if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		return nil
	}
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		to, _ := os.Readlink(path)
		return refuse(ErrNotFound, "the data file %s is a symbolic link to %s, which does not exist; a new data file is not made behind a link: fix the link, or name the data file itself", shown(path), shown(to))
	}
	return nil
}

// openBolt opens the bbolt file, turning its errors into the package's sentences and
// a fault from reading a damaged file into ErrCorrupt.
func openBolt(path string, lockTimeout time.Duration, readOnly, noSync bool) (db *bolt.DB, err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			db, err = nil, fmt.Errorf("storage: data file %s is damaged (opening it failed: %v); restore it from a backup: %w", shown(path), r, ErrCorrupt)
		}
	}()
	// No InitialMmapSize: bbolt sizes the file to its memory map (up to 16 MB), so a
	// large first map makes a fresh file that large; the map doubles as data grows.
	db, err = bolt.Open(path, 0o600, &bolt.Options{
		Timeout:         lockTimeout,
		ReadOnly:        readOnly,
		NoSync:          noSync,
		FreelistType:    bolt.FreelistMapType,
		PreLoadFreelist: true,
	})
	switch {
	case err == nil:
		db.MaxBatchDelay = 2 * time.Millisecond
		return db, nil
	case errors.Is(err, bolt.ErrTimeout):
		return nil, fmt.Errorf("storage: data file %s is in use by another process (is the bot already running?): %w", shown(path), ErrLocked)
	case errors.Is(err, fs.ErrPermission), errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("storage: opening %s: %w", shown(path), err)
	}
	return nil, fmt.Errorf("storage: data file %s is not a readable Missive data file (%v); if it is damaged, restore it from a backup: %w", shown(path), err, ErrCorrupt)
}

// Path returns the data file's path.
func (s *Store) Path() string { return s.path }

// Registry returns the variants the store replays games with.
func (s *Store) Registry() *rules.Registry { return s.reg }

// Close stops serving backups and closes the file, waiting for running transactions.
func (s *Store) Close() error {
	s.close.Do(func() {
		s.stopCheck()
		if s.srv != nil {
			s.srv.stop()
		}
		s.closeErr = s.db.Close()
	})
	return s.closeErr
}

// recoverTx turns a panic inside a transaction (a bug in a callback, or a fault from
// reading a damaged file) into an error; the transaction is then rolled back.
func recoverTx(tx *Tx, err *error) {
	if r := recover(); r != nil {
		tx.dirty = true
		*err = fmt.Errorf("storage: transaction on %s aborted by a panic, nothing was written: %v\n%s", shown(tx.s.path), r, debug.Stack())
	}
}

// View runs fn in a read-only transaction: a consistent snapshot that does not block
// writers.
func (s *Store) View(ctx context.Context, fn func(*Tx) error) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("storage: %w", err)
	}
	if err := s.refusing(); err != nil {
		return err
	}
	return s.closedErr(s.db.View(func(btx *bolt.Tx) (err error) {
		tx := &Tx{s: s, btx: btx, now: s.now().UTC()}
		defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
		defer recoverTx(tx, &err)
		return fn(tx)
	}))
}

// closedErr names the use of a closed store.
func (s *Store) closedErr(err error) error {
	if errors.Is(err, bolt.ErrDatabaseNotOpen) {
		return fmt.Errorf("storage: the store %s is closed: %w", shown(s.path), ErrClosed)
	}
	return err
}

// Update runs fn in a write transaction and commits it (with fsync) when fn returns
// nil; when fn returns an error nothing it wrote is kept. Concurrent calls are
// committed together in groups, so fn may run more than once: it must have no effect
// outside the transaction and the records it is given (reply, notify, etc. after
// Update returns). Records passed to Put methods are restored if the transaction does
// not commit. fn must not call Update, UpdateGame, Do or DoGame (bbolt has one writer:
// that would wait for itself).
func (s *Store) Update(ctx context.Context, fn func(*Tx) error) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("storage: %w", err)
	}
	if s.readOnly {
		return fmt.Errorf("storage: the store %s is open read-only: %w", shown(s.path), ErrReadOnly)
	}
	if err := s.refusing(); err != nil {
		return err
	}
	var last *Tx
	var fnErr error
	batched := false
	run := func(btx *bolt.Tx) (err error) {
		if last != nil {
			last.rollbackUndo() // an earlier run of fn was rolled back with its group
		}
		tx := &Tx{s: s, btx: btx, now: s.now().UTC()}
		last = tx
		defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
		defer func() {
			fnErr = err
			switch {
			case tx.dirty:
			case batched:
				err = nil // nothing was written: let the group commit without this call
			case err == nil:
				err = errNothingWritten // alone and nothing written: roll back, skip the fsync
			}
		}()
		defer recoverTx(tx, &err)
		return fn(tx)
	}
	var err error
	// Until every page was checked, no group commit: bbolt may run one in a goroutine
	// of its own (its timer's), where a fault from a damaged page is not caught.
	if s.writers.Add(1) == 1 || !s.paged.Load() {
		err = s.faultless(func() error { return s.db.Update(run) }) // alone: commit at once
	} else {
		batched = true
		err = s.faultless(func() error { return s.db.Batch(run) }) // others are writing: join their group commit
	}
	s.writers.Add(-1)
	if err == nil || err == errNothingWritten {
		err = fnErr
	}
	err = s.closedErr(err)
	if err != nil {
		if last != nil {
			last.rollbackUndo()
		}
		return err
	}
	return nil
}

// faultless runs a bbolt write, turning a fault from reading a damaged page while
// bbolt commits (after fn returned, outside recoverTx) into an error; bbolt rolls
// the transaction back on the way. The store then refuses everything, as the check
// after Open would have once it reached that page. (A group commit that bbolt's
// timer runs is not covered, so none runs before every page was checked.)
func (s *Store) faultless(write func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			damage := refuse(ErrCorrupt, "the data file %s is damaged (a write failed while reading it: %v), so nothing more is read or written: stop the bot and restore the data file from a backup", shown(s.path), r)
			s.damaged.Store(&damage)
			s.log.Error(damage.Error())
			err = damage
		}
	}()
	return write()
}

// errNothingWritten rolls back a transaction that wrote nothing.
var errNothingWritten = errors.New("storage: nothing written")

// Game loads game id and replays it.
func (s *Store) Game(ctx context.Context, id string) (*Game, error) {
	var g *Game
	err := s.View(ctx, func(tx *Tx) (err error) {
		g, err = tx.Game(id)
		return err
	})
	return g, err
}

// CreateGame stores a new game (Version 0), assigning its ID when empty.
func (s *Store) CreateGame(ctx context.Context, g *Game) error {
	if g.Version != 0 {
		return fmt.Errorf("storage: CreateGame needs a new game, but game %s has version %d: %w", g.ID, g.Version, ErrExists)
	}
	return s.Update(ctx, func(tx *Tx) error { return tx.PutGame(g) })
}

// UpdateGame changes game id atomically: it loads and replays the game, lets fn
// change it (typically with Game.Play), and commits it with its version bumped and its
// indexes maintained, unless the game changed meanwhile, in which case it starts again
// from the new state. The loading, replaying and encoding happen outside the write
// transaction, so concurrent writers only queue for the short final step. When fn
// returns an error nothing is written and that error is returned. fn may run more than
// once and must change nothing but the game. It returns the game as committed.
func (s *Store) UpdateGame(ctx context.Context, id string, fn func(*Game) error) (*Game, error) {
	g, _, _, err := s.updateGame(ctx, "", id, func(g *Game) ([]byte, error) { return nil, fn(g) })
	return g, err
}

// DoGame is UpdateGame under an idempotency key, as Do: when requestID is already
// recorded it changes nothing and returns the stored result with replayed = true;
// otherwise it records requestID with fn's result in the same transaction as the
// game's change. It returns the game as it now stands.
func (s *Store) DoGame(ctx context.Context, requestID, id string, fn func(*Game) ([]byte, error)) (g *Game, result []byte, replayed bool, err error) {
	if requestID == "" {
		return nil, nil, false, fmt.Errorf("storage: DoGame needs a request id (use UpdateGame without one): %w", ErrInvalid)
	}
	return s.updateGame(ctx, requestID, id, fn)
}

// maxStaleRetries bounds how often updateGame starts again because the game changed.
const maxStaleRetries = 50

func (s *Store) updateGame(ctx context.Context, requestID, id string, fn func(*Game) ([]byte, error)) (*Game, []byte, bool, error) {
	if err := checkKeyPart("request id", requestID, false); err != nil {
		return nil, nil, false, err
	}
	for attempt := 0; ; attempt++ {
		var g *Game
		var raw, result []byte
		var replayed bool
		err := s.View(ctx, func(tx *Tx) error {
			var err error
			if g, raw, err = tx.gameAndRaw(id); err != nil {
				return err
			}
			if requestID != "" {
				result, replayed, err = tx.request(requestID)
			}
			return err
		})
		if err != nil || replayed {
			return g, result, replayed, err
		}
		oldIdx, version := g.indexes(), g.Version
		if result, err = fn(g); err != nil {
			return nil, nil, false, err
		}
		if len(result) > MaxResultSize {
			return nil, nil, false, fmt.Errorf("storage: the result of request %s is %d bytes, more than %d: %w", requestID, len(result), MaxResultSize, ErrInvalid)
		}
		if g.ID != id || g.Version != version {
			return nil, nil, false, fmt.Errorf("storage: the change to game %s altered its id or version: %w", id, ErrInvalid)
		}
		now := s.now().UTC()
		if err := s.settle(g, now); err != nil {
			return nil, nil, false, err
		}
		w, err := prepareWrite(kindGame, g, raw, oldIdx, now)
		if err != nil {
			return nil, nil, false, err
		}
		var prev []byte
		err = s.Update(ctx, func(tx *Tx) error {
			prev, replayed = nil, false
			if requestID != "" {
				var err error
				if prev, replayed, err = tx.request(requestID); err != nil || replayed {
					return err // a duplicate delivery got in first
				}
			}
			if err := tx.apply(w); err != nil {
				return err
			}
			if requestID != "" {
				return tx.recordRequest(requestID, result)
			}
			return nil
		})
		switch {
		case errors.Is(err, errStale) && attempt < maxStaleRetries:
			continue
		case errors.Is(err, errStale):
			return nil, nil, false, fmt.Errorf("storage: game %s kept changing while it was being updated (%d attempts): %w", id, attempt+1, ErrConflict)
		case err != nil:
			return nil, nil, false, err
		case replayed:
			g, err := s.Game(ctx, id)
			return g, prev, true, err
		}
		s.cache.put(g.ID, g.replayed, g.Position)
		return g, result, false, nil
	}
}
