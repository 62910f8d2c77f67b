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
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"
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
		return n, fmt.Errorf("storage: backup of %s: %w", s.path, err)
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
// serves snapshots: dataPath + ".sock", or a name in the temporary folder derived from
// the file's absolute path when that would be too long for a socket address.
func SocketPath(dataPath string) string {
	abs, err := filepath.Abs(dataPath)
	if err != nil {
		abs = dataPath
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	if p := abs + ".sock"; len(p) < 100 { // sun_path holds 104 to 108 bytes
		return p
	}
	sum := sha256.Sum256([]byte(abs))
	return filepath.Join(os.TempDir(), fmt.Sprintf("missive-%x.sock", sum[:8]))
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
	if fi, err := os.Lstat(p); err == nil {
		if fi.Mode()&fs.ModeSocket == 0 {
			return nil, fmt.Errorf("storage: %s exists and is not a socket", p)
		}
		_ = os.Remove(p)
	}
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: p, Net: "unix"})
	if err != nil {
		return nil, fmt.Errorf("storage: listening on %s: %w", p, err)
	}
	if err := os.Chmod(p, 0o600); err != nil {
		ln.Close()
		return nil, fmt.Errorf("storage: restricting %s to its owner: %w", p, err)
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

// fetchSnapshot asks the running store that has dataPath open for a snapshot.
func fetchSnapshot(ctx context.Context, dataPath string, w io.Writer) (int64, error) {
	var d net.Dialer
	c, err := d.DialContext(ctx, "unix", SocketPath(dataPath))
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
	if _, err := os.Stat(dataPath); errors.Is(err, fs.ErrNotExist) {
		return 0, fmt.Errorf("storage: there is no data file at %s to back up: %w", dataPath, ErrNotFound)
	} else if err != nil {
		return 0, fmt.Errorf("storage: %w", err)
	}
	db, err := openBolt(dataPath, time.Second, true, false)
	if err != nil {
		if errors.Is(err, ErrLocked) {
			return 0, fmt.Errorf("storage: data file %s is in use by another process that does not serve backups on %s (was it started with the backup socket turned off?): %w",
				dataPath, SocketPath(dataPath), ErrLocked)
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

// BackupInfo describes a backup written by BackupFile.
type BackupInfo struct {
	Path   string // the backup file
	Bytes  int64
	Schema int  // schema version of the copy
	Games  int  // games in the copy
	Live   bool // taken from the running bot through its socket
}

// BackupFile writes a consistent snapshot of the data file at dataPath to out. When
// a running bot holds the file it asks it for the snapshot on SocketPath(dataPath);
// otherwise it opens the file read-only itself. It writes a temporary file next to
// out, syncs it, checks that the copy opens and passes the integrity check, and only
// then renames it to out, so out is never left half written.
func BackupFile(ctx context.Context, dataPath, out string) (BackupInfo, error) {
	info := BackupInfo{Path: out}
	if same, err := samePath(dataPath, out); err != nil {
		return info, err
	} else if same {
		return info, fmt.Errorf("storage: the backup file %s is the data file itself; choose another path", out)
	}
	write := func(w io.Writer) (int64, error) {
		n, err := fetchSnapshot(ctx, dataPath, w)
		if errors.Is(err, errNoServer) {
			return snapshotFile(ctx, dataPath, w)
		}
		info.Live = err == nil
		return n, err
	}
	verify := func(tmp string) (err error) {
		info.Schema, info.Games, err = inspectFile(tmp)
		return err
	}
	n, err := writeFileAtomic(out, write, verify)
	info.Bytes = n
	return info, err
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

// inspectFile opens a data file read-only, runs the integrity check and returns its
// schema version and number of games.
func inspectFile(path string) (schema, games int, err error) {
	db, err := openBolt(path, time.Second, true, false)
	if err != nil {
		return 0, 0, err
	}
	defer db.Close()
	if err := checkIntegrity(db, path); err != nil {
		return 0, 0, err
	}
	err = db.View(func(tx *bolt.Tx) error {
		if schema, err = readSchema(tx, path); err != nil {
			return err
		}
		if schema == 0 {
			return fmt.Errorf("storage: %s holds no Missive data: %w", path, ErrCorrupt)
		}
		if b := tx.Bucket(bGames); b != nil {
			games = b.Stats().KeyN
		}
		return nil
	})
	return schema, games, err
}

// writeFileAtomic writes path through a synced temporary file in the same folder,
// runs verify on it (when not nil) and renames it into place.
func writeFileAtomic(path string, write func(io.Writer) (int64, error), verify func(tmp string) error) (n int64, err error) {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return 0, fmt.Errorf("storage: %w", err)
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	bw := bufio.NewWriterSize(f, 1<<20)
	if n, err = write(bw); err != nil {
		return n, err
	}
	if err = bw.Flush(); err != nil {
		return n, fmt.Errorf("storage: writing %s: %w", tmp, err)
	}
	if err = f.Sync(); err != nil {
		return n, fmt.Errorf("storage: syncing %s: %w", tmp, err)
	}
	if err = f.Close(); err != nil {
		return n, fmt.Errorf("storage: %w", err)
	}
	if verify != nil {
		if err = verify(tmp); err != nil {
			return n, fmt.Errorf("storage: the new copy failed verification, so %s was not written: %w", path, err)
		}
	}
	if err = os.Rename(tmp, path); err != nil {
		return n, fmt.Errorf("storage: %w", err)
	}
	if d, derr := os.Open(dir); derr == nil {
		_ = d.Sync()
		d.Close()
	}
	return n, nil
}
