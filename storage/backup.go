package storage

import (
	"bufio"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"os/user"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode"
	"unicode/utf8"

	bolt "go.etcd.io/bbolt"

	"github.com/missivechess/missive/rules"
)

// Backup writes a consistent snapshot of the whole data file to w from a read
// transaction, while other transactions go on. The snapshot is itself a data file.
func (s *Store) Backup(ctx context.Context, w io.Writer) (int64, error) {
	var n int64
	err := s.View(ctx, func(tx *Tx) (err error) {
		n, err = tx.btx.WriteTo(ctxWriter{ctx, w})
		return err
	})
	if err != nil {
		return n, fmt.Errorf("storage: backup of %s: %w", shown(s.path), err)
	}
	return n, nil
}

// ctxWriter stops a long copy when its context ends.
type ctxWriter struct {
	ctx context.Context
	w   io.Writer
}

func (c ctxWriter) Write(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.w.Write(p)
}

// The backup socket protocol: the client sends backupRequest; the server answers
// "OK <size>\n" followed by exactly size bytes of snapshot, or "ERR <message>\n".
const backupRequest = "MISSIVE-BACKUP 1\n"

// SocketPath returns the unix socket on which a store opened read-write on dataPath
// serves snapshots: dataPath + ".sock" when the data file's folder is writable by its
// owner only (no other user can put a socket there); otherwise, or when that would be
// too long for a socket address, a name derived from the file's absolute path in the
// socket folder of the data file's owner (socketDir), or "" when that user has none.
func SocketPath(dataPath string) string {
	abs, err := filepath.Abs(dataPath)
	if err != nil {
		abs = dataPath
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	uid := os.Geteuid()
	if fi, err := os.Stat(abs); err == nil {
		uid = ownerOf(fi)
	}
	if p := abs + ".sock"; len(p) < maxSocketPath && privateDir(filepath.Dir(p), uid) == nil {
		return p
	}
	dir, err := socketDir(uid)
	if err != nil {
		return ""
	}
	sum := sha256.Sum256([]byte(abs))
	if p := filepath.Join(dir, fmt.Sprintf("missive-%x.sock", sum[:8])); len(p) < maxSocketPath {
		return p
	}
	return ""
}

// maxSocketPath bounds a socket's path: sun_path holds 104 to 108 bytes.
const maxSocketPath = 100

// socketDir is the folder of the backup sockets of user uid when its data file's
// folder will not do: .cache/missive in that user's home folder, created by that user
// with mode 0700. A folder in a place every user may write in (such as the
// temporary folder) could be made first by another user, to switch live backups
// off; the home folder of uid only uid can write in.
func socketDir(uid int) (string, error) {
	var home string
	if uid == os.Geteuid() {
		h, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("storage: %w", err)
		}
		home = h
	} else {
		u, err := user.LookupId(strconv.Itoa(uid))
		if err != nil {
			return "", fmt.Errorf("storage: %w", err)
		}
		home = u.HomeDir
	}
	return filepath.Join(home, ".cache", "missive"), nil
}

// ownerOf returns the user id owning the file of fi.
func ownerOf(fi fs.FileInfo) int {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return int(st.Uid)
	}
	return -1
}

// privateDir checks that dir is a folder that only uid (or root) owns and that no one
// else may write in, so that no other user can have put a socket in it.
func privateDir(dir string, uid int) error {
	fi, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("storage: %w", err)
	}
	switch owner := ownerOf(fi); {
	case !fi.IsDir():
		return fmt.Errorf("storage: %s is not a folder", shown(dir))
	case owner != uid && owner != 0:
		return fmt.Errorf("storage: the folder %s belongs to user %d, not to the data file's owner (user %d)", shown(dir), owner, uid)
	case fi.Mode().Perm()&0o022 != 0:
		return fmt.Errorf("storage: other users may write in the folder %s (mode %v)", shown(dir), fi.Mode().Perm())
	}
	return nil
}

// makeSocketDir creates (or checks) the folder of socket p when it is the socket
// folder of the current user, and the folders it lies in.
func makeSocketDir(p string) error {
	dir := filepath.Dir(p)
	if want, err := socketDir(os.Geteuid()); err != nil || dir != want {
		return nil
	}
	home := filepath.Dir(filepath.Dir(dir))
	if err := privateDir(home, os.Geteuid()); err != nil { // it must exist: never made here
		return err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("storage: creating the socket folder %s: %w", shown(dir), err)
	}
	for _, d := range []string{dir, filepath.Dir(dir)} {
		// The folder itself and .cache: no other user may write in them either.
		if err := privateDir(d, os.Geteuid()); err != nil {
			return err
		}
	}
	if fi, err := os.Lstat(dir); err == nil && fi.Mode().Perm() != 0o700 {
		return fmt.Errorf("storage: the socket folder %s has mode %v, not 0700; remove it and start the bot again", shown(dir), fi.Mode().Perm())
	}
	return nil
}

// checkSocket refuses a backup socket that a user other than uid, the data file's
// owner, could have created: it must be a socket owned by uid in a folder only uid
// (or root) may write in.
func checkSocket(sock string, uid int) error {
	fi, err := os.Lstat(sock)
	if err != nil {
		return fmt.Errorf("%w: %v", errNoServer, err)
	}
	if fi.Mode()&fs.ModeSocket == 0 {
		return fmt.Errorf("storage: %s, where the running bot's backup socket belongs, is not a socket; refusing to use it", shown(sock))
	}
	if owner := ownerOf(fi); owner != uid {
		return fmt.Errorf("storage: the backup socket %s belongs to user %d, not to the data file's owner (user %d); refusing to trust it", shown(sock), owner, uid)
	}
	if err := privateDir(filepath.Dir(sock), uid); err != nil {
		return fmt.Errorf("storage: refusing to trust the backup socket %s: %w", shown(sock), err)
	}
	return nil
}

// backupServer serves snapshots of a store on its socket.
type backupServer struct {
	s     *Store
	ln    *net.UnixListener
	path  string
	wg    sync.WaitGroup
	mu    sync.Mutex
	conns map[net.Conn]struct{}
}

// serveBackups starts the snapshot server of s. The store holds the data file's
// exclusive lock, so a socket file found at the path is a leftover of a crash.
func serveBackups(s *Store) (*backupServer, error) {
	p := SocketPath(s.path)
	if p == "" {
		return nil, fmt.Errorf("storage: the data file's folder may be written by other users, and its owner has no home folder for the socket: move the data file into a folder only its owner may write in")
	}
	if err := makeSocketDir(p); err != nil {
		return nil, err
	}
	if fi, err := os.Lstat(p); err == nil {
		if fi.Mode()&fs.ModeSocket == 0 {
			return nil, fmt.Errorf("storage: %s exists and is not a socket", shown(p))
		}
		_ = os.Remove(p)
	}
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: p, Net: "unix"})
	if err != nil {
		return nil, fmt.Errorf("storage: listening on %s: %w", shown(p), err)
	}
	if err := os.Chmod(p, 0o600); err != nil {
		ln.Close()
		return nil, fmt.Errorf("storage: restricting %s to its owner: %w", shown(p), err)
	}
	b := &backupServer{s: s, ln: ln, path: p, conns: make(map[net.Conn]struct{})}
	b.wg.Add(1)
	go b.accept()
	return b, nil
}

func (b *backupServer) accept() {
	defer b.wg.Done()
	for {
		c, err := b.ln.Accept()
		if err != nil {
			if !errors.Is(err, net.ErrClosed) {
				b.s.log.Warn("storage: backup socket stopped", "socket", b.path, "error", err)
			}
			return
		}
		b.mu.Lock()
		if b.conns == nil { // stopping
			b.mu.Unlock()
			c.Close()
			return
		}
		b.conns[c] = struct{}{}
		b.wg.Add(1)
		b.mu.Unlock()
		go b.handle(c)
	}
}

func (b *backupServer) handle(c net.Conn) {
	defer b.wg.Done()
	defer func() {
		b.mu.Lock()
		delete(b.conns, c)
		b.mu.Unlock()
		c.Close()
	}()
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	line, err := bufio.NewReader(io.LimitReader(c, int64(len(backupRequest)))).ReadString('\n')
	if err != nil || line != backupRequest {
		fmt.Fprintf(c, "ERR expected %q\n", backupRequest)
		return
	}
	if err := b.s.refusing(); err != nil {
		fmt.Fprintf(c, "ERR %s\n", strings.ReplaceAll(rules.SentenceOf(err), "\n", " "))
		return
	}
	sent := false
	err = b.s.db.View(func(tx *bolt.Tx) error {
		if _, err := fmt.Fprintf(c, "OK %d\n", tx.Size()); err != nil {
			return err
		}
		sent = true
		_, err := tx.WriteTo(c)
		return err
	})
	if err != nil && !sent {
		fmt.Fprintf(c, "ERR %s\n", strings.ReplaceAll(err.Error(), "\n", " "))
	}
	if err != nil {
		b.s.log.Warn("storage: serving a backup failed", "socket", b.path, "error", err)
	}
}

// stop closes the socket and any backup in progress and waits for the handlers.
func (b *backupServer) stop() {
	b.ln.Close()
	b.mu.Lock()
	for c := range b.conns {
		c.Close()
	}
	b.conns = nil
	b.mu.Unlock()
	b.wg.Wait()
}

// errNoServer means no running store answered on the backup socket.
var errNoServer = errors.New("no backup server")

// fetchSnapshot asks the running store that has dataPath open for a snapshot, on a
// socket owned by uid, the data file's owner.
func fetchSnapshot(ctx context.Context, dataPath string, uid int, w io.Writer) (int64, error) {
	sock := SocketPath(dataPath)
	if sock == "" {
		return 0, errNoServer
	}
	if err := checkSocket(sock, uid); err != nil {
		return 0, err
	}
	var d net.Dialer
	c, err := d.DialContext(ctx, "unix", sock)
	if err != nil {
		return 0, fmt.Errorf("%w: %v", errNoServer, err)
	}
	defer c.Close()
	if deadline, ok := ctx.Deadline(); ok {
		_ = c.SetDeadline(deadline)
	}
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()
	if _, err := io.WriteString(c, backupRequest); err != nil {
		return 0, fmt.Errorf("storage: asking the running bot for a snapshot: %w", err)
	}
	r := bufio.NewReader(c)
	header, err := r.ReadString('\n')
	if err != nil {
		return 0, fmt.Errorf("storage: the running bot did not answer the backup request: %w", err)
	}
	header = strings.TrimSuffix(header, "\n")
	if msg, ok := strings.CutPrefix(header, "ERR "); ok {
		return 0, fmt.Errorf("storage: the running bot refused the backup: %s", msg)
	}
	sizeText, ok := strings.CutPrefix(header, "OK ")
	size, err := strconv.ParseInt(sizeText, 10, 64)
	if !ok || err != nil || size < 0 {
		return 0, fmt.Errorf("storage: unexpected answer %q on the backup socket", header)
	}
	n, err := io.Copy(w, io.LimitReader(r, size))
	if err == nil && n != size {
		err = fmt.Errorf("the snapshot ended after %d of %d bytes", n, size)
	}
	if err != nil {
		return n, fmt.Errorf("storage: receiving the snapshot from the running bot: %w", err)
	}
	return n, nil
}

// snapshotFile copies a consistent snapshot of a data file no process is writing.
func snapshotFile(ctx context.Context, dataPath string, w io.Writer) (int64, error) {
	if err := checkFilePages(dataPath, true, "so no backup was written"); err != nil {
		return 0, err
	}
	db, err := openBolt(dataPath, time.Second, true, false)
	if err != nil {
		if errors.Is(err, ErrLocked) {
			on := ""
			if sock := SocketPath(dataPath); sock != "" {
				on = " on " + shown(sock)
			}
			return 0, refuse(ErrLocked, "the data file %s is in use by another process that does not serve backups%s (was it started with the backup socket turned off, or did it say at start that live backups are off?)",
				shown(dataPath), on)
		}
		return 0, err
	}
	defer db.Close()
	var n int64
	err = db.View(func(tx *bolt.Tx) (err error) {
		n, err = tx.WriteTo(ctxWriter{ctx, w})
		return err
	})
	return n, err
}

// checkSource refuses at once a data file path that is not a regular file with
// contents (a FIFO would make opening it wait forever), with a sentence saying what
// it is, and returns its owner.
func checkSource(path string) (uid int, err error) {
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return 0, fmt.Errorf("storage: there is no data file at %s to back up: %w", shown(path), ErrNotFound)
	case err != nil:
		return 0, fmt.Errorf("storage: %w", err)
	case fi.IsDir():
		return 0, fmt.Errorf("storage: %s is a folder, not a data file; name the data file itself", shown(path))
	case !fi.Mode().IsRegular():
		return 0, fmt.Errorf("storage: %s is not a regular file (it is a %s), so it cannot be a data file", shown(path), fileKind(fi.Mode()))
	case fi.Size() == 0:
		return 0, fmt.Errorf("storage: data file %s is empty (0 bytes), so there is nothing to back up: %w", shown(path), ErrCorrupt)
	}
	if hwm, ok := fileHighWater(path); ok && hwm > fi.Size() {
		return 0, truncatedError(path, fi.Size(), hwm)
	}
	return ownerOf(fi), nil
}

// fileKind names the kind of a file that is not regular.
func fileKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeCharDevice != 0:
		return "character device"
	case m&fs.ModeDevice != 0:
		return "device"
	}
	return "special file"
}

// BackupInfo describes a backup written by BackupFile.
type BackupInfo struct {
	Path   string // the backup file
	Bytes  int64
	Schema int  // schema version of the copy
	Games  int  // games in the copy
	Live   bool // taken from the running bot through its socket
	// RolledBack says, when not empty, what the copy lacks: the data file has a
	// damaged meta page, so the copy holds its state before its newest commit.
	RolledBack string
}

// BackupFile writes a consistent snapshot of the data file at dataPath to out. When
// a running bot holds the file it asks it for the snapshot on SocketPath(dataPath),
// a socket it trusts only when the data file's owner made it; otherwise it opens the
// file read-only itself. It writes a temporary file next to out, syncs it, checks
// that the copy opens and passes the full record check of Verify (every record
// decodes, every game replays through reg), and only then renames it to out, so out
// is never left half written nor replaced by a bad copy. Temporary files that an
// earlier, killed run left next to out are removed.
func BackupFile(ctx context.Context, reg *rules.Registry, dataPath, out string) (BackupInfo, error) {
	info := BackupInfo{Path: out}
	if same, err := samePath(dataPath, out); err != nil {
		return info, err
	} else if same {
		return info, fmt.Errorf("storage: the backup file %s is the data file itself; choose another path", shown(out))
	}
	if _, err := checkTarget(out); err != nil {
		return info, err
	}
	uid, err := checkSource(dataPath)
	if err != nil {
		return info, err
	}
	write := func(w io.Writer) (int64, error) {
		n, err := fetchSnapshot(ctx, dataPath, uid, w)
		if errors.Is(err, errNoServer) {
			if r, damaged := metaRollback(dataPath); damaged {
				info.RolledBack = "The data file is damaged: " + r.String() + "; the copy holds transaction " + strconv.FormatUint(r.kept, 10) + "."
			}
			return snapshotFile(ctx, dataPath, w)
		}
		info.Live = err == nil
		return n, err
	}
	verify := func(tmp string) (err error) {
		if info.Schema, info.Games, err = inspectFile(ctx, reg, tmp, dataPath); err != nil {
			return err
		}
		// Checked again just before the rename: what lies at out may have changed
		// while the copy was written (a link put in its place, say).
		earlier, err := checkTarget(out)
		if err != nil {
			return err
		}
		if copied := newestTxid(tmp); earlier.fi != nil && earlier.txid > copied {
			return refuse(ErrNewerBackup, "%s holds a newer commit (transaction %d) than the copy just taken (transaction %d), so it was kept: the data file may have lost its newest changes; keep that backup (restore the data file from it if the data file is damaged), or write the new copy to another path",
				shown(out), earlier.txid, copied)
		}
		return nil
	}
	n, err := writeFileAtomic(out, write, verify)
	info.Bytes = n
	return info, err
}

// ErrNotBackup: the path a backup is to be written to holds something other than an
// earlier backup (a link, a device, a folder, a file that is not a Missive data
// file), which a backup never replaces.
var ErrNotBackup = errors.New("not an earlier backup")

// ErrNewerBackup: the earlier backup a backup was to replace holds a newer commit
// than the new copy, so it was kept.
var ErrNewerBackup = errors.New("earlier backup is newer")

// newestTxid returns the newest commit that a valid meta page of the file at path
// records (0 when none is valid).
func newestTxid(path string) uint64 {
	m, _ := readMetas(path)
	var txid uint64
	for _, p := range m {
		if p.ok {
			txid = max(txid, p.txid)
		}
	}
	return txid
}

// fileError is a refusal about a file: the sentence a user reads, carried as data
// (it is a rules.Sentencer), and the sentinel that classifies it.
type fileError struct {
	kind error
	text string
}

func (e *fileError) Error() string    { return "storage: " + e.text }
func (e *fileError) Unwrap() error    { return e.kind }
func (e *fileError) Sentence() string { return e.text }

// refuse returns a *fileError of kind whose sentence is format with args, with any
// character that does not print (from a path or an error quoting one) escaped.
func refuse(kind error, format string, args ...any) error {
	return &fileError{kind: kind, text: escapeUnprintable(fmt.Sprintf(format, args...))}
}

// escapeUnprintable writes each character of text that does not print (a control
// character, an escape sequence's ESC, a bidirectional override) as its Go escape.
func escapeUnprintable(text string) string {
	var b strings.Builder
	for _, r := range text {
		if unicode.IsPrint(r) && r != utf8.RuneError {
			b.WriteRune(r)
			continue
		}
		q := strconv.QuoteRune(r)
		b.WriteString(q[1 : len(q)-1])
	}
	return b.String()
}

// shown returns a path (or any text from outside) as it may be echoed in a sentence:
// as it is when every character prints, otherwise quoted with Go escapes, so that no
// control character or terminal escape sequence reaches the reader.
func shown(text string) string {
	for _, r := range text {
		if !unicode.IsPrint(r) || r == utf8.RuneError {
			return strconv.Quote(text)
		}
	}
	return text
}

// backupTarget is what lies at the path a backup is to be written to.
type backupTarget struct {
	fi   fs.FileInfo // nil when nothing is there yet
	txid uint64      // for an earlier backup, the newest commit it holds
}

// checkTarget refuses a backup path that holds anything but an earlier backup: a
// backup creates a new file or replaces a regular file that is itself a Missive data
// file, never a symbolic link (nor what it points to), a device, a FIFO, a socket, a
// folder or any other file.
func checkTarget(out string) (backupTarget, error) {
	var t backupTarget
	fi, err := os.Lstat(out)
	keep := "; nothing was changed"
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if d, err := os.Stat(filepath.Dir(out)); err != nil || !d.IsDir() {
			return t, refuse(ErrNotBackup, "the folder %s, where the backup is to go, does not exist; create it first, or name another place%s", shown(filepath.Dir(out)), keep)
		}
		return t, nil
	case err != nil:
		return t, refuse(ErrNotBackup, "cannot look at %s, where the backup is to go (%v)%s", shown(out), err, keep)
	case fi.Mode()&fs.ModeSymlink != 0:
		return t, refuse(ErrNotBackup, "%s is a symbolic link; a backup never replaces a link nor writes through one: name the file itself, or a new path%s", shown(out), keep)
	case fi.IsDir():
		return t, refuse(ErrNotBackup, "%s is a folder; name the backup file itself, for example %s%s", shown(out), shown(filepath.Join(out, "missive-backup.db")), keep)
	case !fi.Mode().IsRegular():
		return t, refuse(ErrNotBackup, "%s is a %s, not an earlier backup; a backup only writes a new file or replaces an earlier backup%s", shown(out), fileKind(fi.Mode()), keep)
	}
	t.fi = fi
	notOurs := func(why string) error {
		return refuse(ErrNotBackup, "%s is not a Missive data file (%s), so a backup will not replace it: choose a new path, or move that file away first%s", shown(out), why, keep)
	}
	if m, ok := readMetas(out); !ok || (!m[0].ok && !m[1].ok) {
		return t, notOurs("it does not start like one")
	}
	t.txid = newestTxid(out)
	if hwm, ok := fileHighWater(out); ok && hwm > fi.Size() {
		return t, notOurs("it is cut short")
	}
	if _, err := checkPages(out, false); err != nil {
		return t, notOurs(fmt.Sprintf("or a damaged one: page check: %v", err))
	}
	db, err := openBolt(out, 100*time.Millisecond, true, false)
	if errors.Is(err, ErrLocked) {
		return t, refuse(ErrNotBackup, "%s is a data file that a running program has open, not an earlier backup; choose another path%s", shown(out), keep)
	} else if err != nil {
		return t, notOurs("it cannot be read")
	}
	defer db.Close()
	schema, err := safeView(db, func(tx *bolt.Tx) (int, error) { return readSchema(tx, out) })
	switch {
	case err != nil:
		return t, notOurs("its contents cannot be read")
	case schema == 0:
		return t, notOurs("it holds no Missive records")
	}
	return t, nil
}

// safeView runs fn in a read transaction of db, turning a fault from reading a
// damaged memory map into an error.
func safeView[T any](db *bolt.DB, fn func(*bolt.Tx) (T, error)) (v T, err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("storage: reading %s failed: %v: %w", db.Path(), r, ErrCorrupt)
		}
	}()
	err = db.View(func(tx *bolt.Tx) (err error) {
		v, err = fn(tx)
		return err
	})
	return v, err
}

// samePath reports whether two paths name the same file (either may not exist).
func samePath(a, b string) (bool, error) {
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	if errA == nil && errB == nil {
		return os.SameFile(fa, fb), nil
	}
	absA, err := filepath.Abs(a)
	if err != nil {
		return false, err
	}
	absB, err := filepath.Abs(b)
	if err != nil {
		return false, err
	}
	return absA == absB, nil
}

// inspectFile opens a data file read-only, runs the integrity check of Open and the
// full record check of Verify, and returns its schema version and number of games.
func inspectFile(ctx context.Context, reg *rules.Registry, path, dataPath string) (schema, games int, err error) {
	// The copy is checked page by page before bbolt reads it (bbolt's own check
	// would fault on a damaged page), then by bbolt's check too.
	if _, err := checkPages(path, true); err != nil {
		return 0, 0, refuse(ErrCorrupt, "the copy of %s is damaged (%v), so the data file is damaged too; restore it from a good backup", shown(dataPath), err)
	}
	s, err := Open(path, reg, &Options{ReadOnly: true, NoBackupSocket: true, CacheSize: -1, LockTimeout: time.Second, SkipCheck: true})
	if err != nil {
		return 0, 0, err
	}
	defer s.Close()
	if err := checkIntegrity(s.db, path); err != nil {
		return 0, 0, err
	}
	if err := s.View(ctx, func(tx *Tx) error { return tx.verify(ctx, verifyNoReplay) }); err != nil {
		return 0, 0, fmt.Errorf("storage: the copy has records that do not decode or indexes that do not match them, so the data file is damaged (restore it from a good backup): %w", err)
	}
	err = s.db.View(func(tx *bolt.Tx) error {
		if schema, err = readSchema(tx, path); err != nil {
			return err
		}
		if b := tx.Bucket(bGames); b != nil {
			games = b.Stats().KeyN
		}
		return nil
	})
	return schema, games, err
}

// tempMark is in the name of every temporary file writeFileAtomic makes, so that a
// later run can find those that a killed run left behind.
const tempMark = ".missive-tmp-"

// removeStaleTemps removes the temporary files of path that no running writer holds
// (each writer holds a shared lock on its own until it is renamed or removed).
func removeStaleTemps(path string) {
	olds, _ := filepath.Glob(filepath.Join(filepath.Dir(path), "."+globEscape(filepath.Base(path))+tempMark+"*"))
	for _, old := range olds {
		f, err := os.Open(old)
		if err != nil {
			continue
		}
		if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil {
			os.Remove(old)
		}
		f.Close()
	}
}

// globEscape escapes the pattern characters of a file name.
func globEscape(name string) string {
	var b strings.Builder
	for _, r := range name {
		if strings.ContainsRune(`*?[\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// writeFileAtomic writes path through a synced temporary file in the same folder,
// runs verify on it (when not nil) and renames it into place.
func writeFileAtomic(path string, write func(io.Writer) (int64, error), verify func(tmp string) error) (n int64, err error) {
	dir := filepath.Dir(path)
	removeStaleTemps(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+tempMark+"*")
	if err != nil {
		return 0, fmt.Errorf("storage: %w", err)
	}
	tmp := f.Name()
	// A shared lock marks the file as in use until it is renamed or removed; it lets
	// the read-only open of verify take its own shared lock.
	lock, err := os.Open(tmp)
	if err != nil {
		f.Close()
		os.Remove(tmp)
		return 0, fmt.Errorf("storage: %w", err)
	}
	defer lock.Close()
	_ = syscall.Flock(int(lock.Fd()), syscall.LOCK_SH)
	renamed := false
	defer func() {
		if !renamed { // an error, or a panic on its way up: the copy goes
			f.Close()
			os.Remove(tmp)
		}
	}()
	bw := bufio.NewWriterSize(f, 1<<20)
	if n, err = write(bw); err != nil {
		return n, err
	}
	if err = bw.Flush(); err != nil {
		return n, fmt.Errorf("storage: writing %s: %w", shown(tmp), err)
	}
	if err = f.Sync(); err != nil {
		return n, fmt.Errorf("storage: syncing %s: %w", shown(tmp), err)
	}
	if err = f.Close(); err != nil {
		return n, fmt.Errorf("storage: %w", err)
	}
	if verify != nil {
		if err = verify(tmp); err != nil {
			return n, fmt.Errorf("storage: the new copy failed verification, so %s was not written: %w", shown(path), err)
		}
	}
	if err = os.Rename(tmp, path); err != nil {
		return n, fmt.Errorf("storage: %w", err)
	}
	renamed = true
	if d, derr := os.Open(dir); derr == nil {
		_ = d.Sync()
		d.Close()
	}
	return n, nil
}
