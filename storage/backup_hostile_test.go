package storage_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/storage"
)

// TestBackupBadRecordKeepsGoodBackup checks that a data file with an undecodable
// game record is refused as a backup and does not replace the good one.
func TestBackupBadRecordKeepsGoodBackup(t *testing.T) {
	ctx := context.Background()
	s, _, path := openTemp(t)
	for range 3 {
		create(t, s, newGame("walk", "a", "b"))
	}
	s.Close()
	out := filepath.Join(t.TempDir(), "backup.db")
	if _, err := storage.BackupFile(ctx, toyRegistry(), path, out); err != nil {
		t.Fatal(err)
	}
	good, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	writeRaw(t, path, "games", "2", []byte("\xff\xfenot a record"))
	_, err = storage.BackupFile(ctx, toyRegistry(), path, out)
	if !errors.Is(err, storage.ErrCorrupt) || !strings.Contains(err.Error(), "was not written") {
		t.Fatalf("backup of a file with a bad record: %v", err)
	}
	if now, _ := os.ReadFile(out); string(now) != string(good) {
		t.Fatal("the good backup was replaced by a bad copy")
	}
	noTemps(t, out)
}

// noTemps fails the test if the folder of out holds anything but out.
func noTemps(t *testing.T, out string) {
	t.Helper()
	entries, _ := os.ReadDir(filepath.Dir(out))
	for _, e := range entries {
		if e.Name() != filepath.Base(out) {
			t.Errorf("the backup folder holds %s", e.Name())
		}
	}
}

// TestBackupRefusesSpecialSources checks that a FIFO, a folder, an empty file and a
// truncated file are refused at once with a sentence, and nothing is written.
func TestBackupRefusesSpecialSources(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.db")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	// Open refuses it at once too (opening a FIFO waits for a writer).
	if _, err := storage.Open(fifo, toyRegistry(), &storage.Options{ReadOnly: true}); err == nil || !strings.Contains(err.Error(), "named pipe (FIFO)") {
		t.Errorf("opening a FIFO: %v", err)
	}
	empty := filepath.Join(dir, "empty.db")
	os.WriteFile(empty, nil, 0o600)
	s, _, path := openTemp(t)
	for range 50 {
		create(t, s, newGame("walk", "a", "b"))
	}
	s.Close()
	data, _ := os.ReadFile(path)
	truncated := filepath.Join(dir, "truncated.db")
	os.WriteFile(truncated, data[:3*os.Getpagesize()], 0o600)
	for _, c := range []struct{ path, want string }{
		{fifo, "named pipe"},
		{filepath.Join(dir), "is a folder"},
		{empty, "is empty"},
		{truncated, "truncated"},
	} {
		out := filepath.Join(t.TempDir(), "out.db")
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		start := time.Now()
		_, err := storage.BackupFile(ctx, toyRegistry(), c.path, out)
		cancel()
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "nil pointer") {
			t.Errorf("backup of %s: %v", filepath.Base(c.path), err)
		}
		if took := time.Since(start); took > time.Second {
			t.Errorf("refusing %s took %v", filepath.Base(c.path), took)
		}
		noTemps(t, out)
	}
}

// TestBackupRefusesSquattedSocket checks that the client does not trust a socket
// that another user could have made: owned by someone other than the data file's
// owner, or in a folder others may write in.
func TestBackupRefusesSquattedSocket(t *testing.T) {
	dir := t.TempDir()
	sock := filepath.Join(dir, "x.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	me := os.Geteuid()
	if err := storage.CheckSocket(sock, me); err != nil {
		t.Fatalf("our own socket in a private folder: %v", err)
	}
	if err := storage.CheckSocket(sock, me+1); err == nil || !strings.Contains(err.Error(), "refusing to trust") {
		t.Errorf("a socket of another user: %v", err)
	}
	shared := filepath.Join(t.TempDir(), "shared")
	os.Mkdir(shared, 0o777)
	os.Chmod(shared, 0o1777) // like /tmp
	sock2 := filepath.Join(shared, "y.sock")
	ln2, err := net.Listen("unix", sock2)
	if err != nil {
		t.Fatal(err)
	}
	defer ln2.Close()
	if err := storage.CheckSocket(sock2, me); err == nil || !strings.Contains(err.Error(), "other users may write") {
		t.Errorf("a socket in a shared folder: %v", err)
	}
	plain := filepath.Join(dir, "plain")
	os.WriteFile(plain, nil, 0o600)
	if err := storage.CheckSocket(plain, me); err == nil || !strings.Contains(err.Error(), "not a socket") {
		t.Errorf("a plain file at the socket's place: %v", err)
	}
}

// openShared opens a store holding one game on a data file in a folder every user
// may write in (like /tmp).
func openShared(t *testing.T) (string, *storage.Store) {
	shared := filepath.Join(t.TempDir(), "shared")
	os.Mkdir(shared, 0o777)
	os.Chmod(shared, 0o1777)
	path := filepath.Join(shared, "data.db")
	s := openAt(t, path, nil)
	create(t, s, newGame("walk", "a", "b"))
	return path, s
}

// TestSocketOutsideSharedFolder checks that a bot whose data file lies in a folder
// others may write in serves its socket from its private socket folder (mode 0700),
// and that backups through it work.
func TestSocketOutsideSharedFolder(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	path, _ := openShared(t)
	sock := storage.SocketPath(path)
	if dir, _ := storage.SocketDir(os.Geteuid()); filepath.Dir(sock) != dir {
		t.Fatalf("socket %s is not in the private folder", sock)
	}
	if fi, err := os.Stat(filepath.Dir(sock)); err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("socket folder: %v %v", fi, err)
	}
	info, err := storage.BackupFile(context.Background(), toyRegistry(), path, filepath.Join(t.TempDir(), "b.db"))
	if err != nil || !info.Live {
		t.Fatalf("backup through the private socket: %+v %v", info, err)
	}
}

// TestBackupKilledLeavesNoTemps checks that a backup killed while writing leaves a
// temporary file that the next backup to the same place removes.
func TestBackupKilledLeavesNoTemps(t *testing.T) {
	if os.Getenv("MISSIVE_BACKUP_CHILD") != "" {
		// The child: a backup whose snapshot never finishes arriving.
		_, _ = storage.BackupFile(context.Background(), toyRegistry(), os.Getenv("MISSIVE_BACKUP_DATA"), os.Getenv("MISSIVE_BACKUP_OUT"))
		return
	}
	s, _, path := openTemp(t)
	create(t, s, newGame("walk", "a", "b"))
	s.Close()
	// A bot that starts sending a snapshot and stalls.
	ln, err := net.Listen("unix", storage.SocketPath(path))
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Write([]byte("OK 100000\nsome bytes of the snapshot"))
			defer c.Close()
		}
	}()
	out := filepath.Join(t.TempDir(), "backup.db")
	cmd := exec.Command(os.Args[0], "-test.run=^TestBackupKilledLeavesNoTemps$")
	cmd.Env = append(os.Environ(), "MISSIVE_BACKUP_CHILD=1", "MISSIVE_BACKUP_DATA="+path, "MISSIVE_BACKUP_OUT="+out)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var temps []string
	for deadline := time.Now().Add(10 * time.Second); len(temps) == 0 && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
		temps, _ = filepath.Glob(filepath.Join(filepath.Dir(out), ".backup.db*"))
	}
	cmd.Process.Kill()
	cmd.Wait()
	ln.Close()
	if len(temps) == 0 {
		t.Fatal("the killed backup wrote no temporary file")
	}
	if _, err := os.Stat(temps[0]); err != nil {
		t.Fatalf("the kill left no temporary file (%v): the test proves nothing", err)
	}
	if _, err := storage.BackupFile(context.Background(), toyRegistry(), path, out); err != nil {
		t.Fatal(err)
	}
	noTemps(t, out)
}

// TestBackupRefusesTargets checks that a backup replaces only an earlier backup (or
// writes a new file): a FIFO, a character device, a symbolic link (to an earlier
// backup, or dangling), a configuration file, an empty file, a folder and a data file
// in use are refused with a sentence, and each is left exactly as it was.
func TestBackupRefusesTargets(t *testing.T) {
	ctx := context.Background()
	s, _, path := openTemp(t)
	create(t, s, newGame("walk", "a", "b"))
	s.Close()
	dir := t.TempDir()
	earlier := filepath.Join(dir, "earlier.db")
	if _, err := storage.BackupFile(ctx, toyRegistry(), path, earlier); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.db")
	os.Symlink(earlier, link)
	dangling := filepath.Join(dir, "dangling.db")
	os.Symlink(filepath.Join(dir, "nowhere.db"), dangling)
	config := filepath.Join(dir, "missive.yaml")
	os.WriteFile(config, []byte("data: /var/lib/missive/missive.db\nlog_level: info\n"), 0o600)
	empty := filepath.Join(dir, "empty.db")
	os.WriteFile(empty, nil, 0o600)
	folder := filepath.Join(dir, "folder")
	os.Mkdir(folder, 0o700)
	inUse := filepath.Join(dir, "bot.db")
	bot := openAt(t, inUse, &storage.Options{NoBackupSocket: true})
	cases := []struct{ target, want string }{
		{fifo, "is a named pipe (FIFO), not an earlier backup"},
		{link, "is a symbolic link; a backup never replaces a link"},
		{dangling, "is a symbolic link"},
		{config, "is not a Missive data file"},
		{empty, "is not a Missive data file"},
		{folder, "is a folder"},
		{inUse, "a running program has open"},
		{filepath.Join(dir, "missing", "b.db"), "where the backup is to go, does not exist"},
	}
	// A device node like /dev/null, made where replacing it harms nothing.
	dev := filepath.Join(dir, "null")
	if err := syscall.Mknod(dev, syscall.S_IFCHR|0o600, 1<<8|3); err == nil {
		cases = append(cases, struct{ target, want string }{dev, "is a character device, not an earlier backup"})
	} else {
		t.Logf("no character device (%v): that case is skipped", err)
	}
	snapshot := func(p string) string {
		fi, err := os.Lstat(p)
		if err != nil {
			return err.Error()
		}
		st := fi.Sys().(*syscall.Stat_t)
		desc := fmt.Sprintf("%v %d %d", fi.Mode(), st.Ino, fi.Size())
		if fi.Mode().IsRegular() {
			data, _ := os.ReadFile(p)
			desc += string(data)
		}
		if l, err := os.Readlink(p); err == nil {
			desc += " -> " + l
		}
		return desc
	}
	before := map[string]string{}
	entries := func() []string {
		var names []string
		list, _ := os.ReadDir(dir)
		for _, e := range list {
			names = append(names, e.Name())
		}
		return names
	}
	names := entries()
	for _, n := range names {
		before[n] = snapshot(filepath.Join(dir, n))
	}
	for _, c := range cases {
		_, err := storage.BackupFile(ctx, toyRegistry(), path, c.target)
		if !errors.Is(err, storage.ErrNotBackup) || !strings.Contains(rules.SentenceOf(err), c.want) || !strings.Contains(err.Error(), "nothing was changed") {
			t.Errorf("backup onto %s: %v; want %q", filepath.Base(c.target), err, c.want)
		}
	}
	bot.Close()
	if now := entries(); !slices.Equal(now, names) {
		t.Errorf("the folder held %v, now %v", names, now)
	}
	for _, n := range names {
		if now := snapshot(filepath.Join(dir, n)); now != before[n] {
			t.Errorf("%s changed: %.80q, was %.80q", n, now, before[n])
		}
	}
	// An earlier backup and a new path are written.
	for _, p := range []string{earlier, filepath.Join(dir, "new.db")} {
		if _, err := storage.BackupFile(ctx, toyRegistry(), path, p); err != nil {
			t.Errorf("backup onto %s: %v", filepath.Base(p), err)
		}
	}
}

// TestSocketFolderSquatted checks that another local user cannot switch live backups
// off by making, before the bot starts, the folder where its socket went when the
// data file's folder is shared ($TMPDIR/missive-UID): the socket goes in the data
// file owner's home folder, which no one else can write in.
func TestSocketFolderSquatted(t *testing.T) {
	tmp, home := t.TempDir(), t.TempDir()
	t.Setenv("TMPDIR", tmp)
	t.Setenv("HOME", home)
	squat := filepath.Join(tmp, fmt.Sprintf("missive-%d", os.Geteuid()))
	if err := os.Mkdir(squat, 0o777); err != nil {
		t.Fatal(err)
	}
	os.Chmod(squat, 0o777)
	if os.Geteuid() == 0 {
		os.Chown(squat, 4242, 4242) // as another user would have made it
	}
	path, s := openShared(t)
	info, err := storage.BackupFile(context.Background(), toyRegistry(), path, filepath.Join(t.TempDir(), "b.db"))
	if err != nil || !info.Live {
		t.Fatalf("backup of a running store whose old socket folder was taken: %+v %v", info, err)
	}
	if sock := storage.SocketPath(path); !strings.HasPrefix(sock, home+string(filepath.Separator)) {
		t.Errorf("the socket %s is not in the home folder %s", sock, home)
	}
	// A home folder others may write in is refused: no socket, and the backup says why.
	os.Chmod(home, 0o777)
	s.Close()
	s = openAt(t, path, nil)
	_, err = storage.BackupFile(context.Background(), toyRegistry(), path, filepath.Join(t.TempDir(), "c.db"))
	if !errors.Is(err, storage.ErrLocked) || !strings.Contains(err.Error(), "does not serve backups") {
		t.Errorf("backup when the home folder is shared: %v", err)
	}
}

// TestSentencesEscapeEchoedPaths checks that the refusals of backups and of Open
// echo a path's control characters and escape sequences escaped, never as they are.
func TestSentencesEscapeEchoedPaths(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "evil\x1b[2J\x1b]0;owned\a\n")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	s, _, path := openTemp(t)
	s.Close()
	fifo := filepath.Join(dir, "pipe\u202e.db")
	syscall.Mkfifo(fifo, 0o600)
	link := filepath.Join(dir, "link.db")
	os.Symlink(filepath.Join(dir, "none\x1b[5m.db"), link)
	errs := map[string]error{}
	_, errs["backup onto a FIFO"] = storage.BackupFile(ctx, toyRegistry(), path, fifo)
	_, errs["backup of nothing"] = storage.BackupFile(ctx, toyRegistry(), filepath.Join(dir, "none.db"), filepath.Join(t.TempDir(), "b.db"))
	_, errs["open of a dangling link"] = storage.Open(link, toyRegistry(), &storage.Options{NoBackupSocket: true})
	for what, err := range errs {
		if err == nil {
			t.Fatalf("%s succeeded", what)
		}
		for _, text := range []string{err.Error(), rules.SentenceOf(err)} {
			if strings.ContainsAny(text, "\x1b\a\n\u202e") || !strings.Contains(text, `\x1b`) {
				t.Errorf("%s: %q", what, text)
			}
		}
	}
}
