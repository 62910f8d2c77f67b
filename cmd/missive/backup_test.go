package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/missivechess/missive/rules/variants"
	"github.com/missivechess/missive/storage"
)

// backupData returns a closed, new data file.
func backupData(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "missive.db")
	s, err := storage.Open(path, variants.Registry(), &storage.Options{NoBackupSocket: true})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	return path
}

// backupOntoFIFO runs "missive backup -o FIFO" of a new data file, the FIFO named
// name, and returns the FIFO, what the command printed and its error.
func backupOntoFIFO(t *testing.T, name string) (string, *bytes.Buffer, error) {
	t.Helper()
	data := backupData(t)
	fifo := filepath.Join(t.TempDir(), name)
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), []string{"backup", "-o", fifo, "--data", data}, &stdout, &stderr)
	return fifo, &stdout, err
}

// TestBackupCommandRefusesFIFO checks that "missive backup -o FIFO" fails with a
// plain sentence (no package names) and leaves the FIFO alone.
func TestBackupCommandRefusesFIFO(t *testing.T) {
	fifo, stdout, err := backupOntoFIFO(t, "pipe")
	want := "backup: " + fifo + " is a named pipe (FIFO), not an earlier backup"
	if err == nil || !strings.HasPrefix(err.Error(), want) || strings.Contains(err.Error(), "storage:") || !errors.Is(err, storage.ErrNotBackup) {
		t.Fatalf("backup onto a FIFO: %v; want %q", err, want)
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Fatalf("the FIFO is now %v (%v)", fi, err)
	}
	if stdout.Len() > 0 {
		t.Errorf("a refused backup printed %q", stdout.String())
	}
}

// TestConsoleRefusesDanglingData checks that the console, given as --data a symbolic
// link to nothing, refuses with a sentence and makes no data file where it points.
func TestConsoleRefusesDanglingData(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "elsewhere.db")
	link := filepath.Join(dir, "console.db")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	old := stdin
	stdin = strings.NewReader("")
	defer func() { stdin = old }()
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), []string{"console", "--data", link, "--files", filepath.Join(dir, "files")}, &stdout, &stderr)
	want := "console: the data file " + link + " is a symbolic link to " + target + ", which does not exist"
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("console on a dangling link: %v; want %q", err, want)
	}
	if _, err := os.Lstat(target); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the console made %s (%v)", target, err)
	}
}

// TestBackupCommandEscapesPaths checks that a refusal echoing a path with an escape
// sequence prints no control character.
func TestBackupCommandEscapesPaths(t *testing.T) {
	_, _, err := backupOntoFIFO(t, "pipe\x1b]0;owned\a")
	if err == nil || strings.ContainsAny(err.Error(), "\x1b\a") || !strings.Contains(err.Error(), "is a named pipe") {
		t.Fatalf("backup onto a FIFO with an escape sequence in its name: %q", err)
	}
}

// mainChild, when set, makes the test binary run missive's main with the arguments
// it holds (one a line), with memory bounded, as the command line would.
const mainChild = "MISSIVE_TEST_MAIN_ARGS"

// TestBackupCommandDamagedFile runs "missive backup" as its own process on a data
// file whose root bucket page is damaged (its first bucket's entry points far away,
// which made bbolt's cursor descend for ever): it must end with a sentence and exit
// status 1, leaving no temporary file, never crash.
func TestBackupCommandDamagedFile(t *testing.T) {
	if args := os.Getenv(mainChild); args != "" {
		syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: 3 << 30, Max: 3 << 30})
		os.Args = append([]string{"missive"}, strings.Split(args, "\n")...)
		main()
		os.Exit(0)
	}
	data := backupData(t)
	raw, err := os.ReadFile(data)
	if err != nil {
		t.Fatal(err)
	}
	page, ne := os.Getpagesize(), binary.NativeEndian
	meta := 0 // the newest meta page names the root bucket's page
	if ne.Uint64(raw[page+16+48:]) > ne.Uint64(raw[16+48:]) {
		meta = 1
	}
	root := int(ne.Uint64(raw[meta*page+16+16:]))
	ne.PutUint32(raw[root*page+16+4:], 0x7fffff) // the first element's key and value
	if err := os.WriteFile(data, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "backup.db")
	cmd := exec.Command(os.Args[0], "-test.run=^TestBackupCommandDamagedFile$")
	cmd.Env = append(os.Environ(), mainChild+"="+strings.Join([]string{"backup", "-o", out, "--data", data}, "\n"))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	err = cmd.Run()
	exit, _ := err.(*exec.ExitError)
	want := "missive backup: the data file " + data + " is damaged (page"
	if exit == nil || exit.ExitCode() != 1 || !strings.HasPrefix(stderr.String(), want) || strings.Contains(stderr.String(), "goroutine") {
		t.Fatalf("missive backup of a damaged file: %v\n%.2000s\nwant %q", err, stderr.String(), want)
	}
	if entries, _ := os.ReadDir(filepath.Dir(out)); len(entries) > 0 {
		t.Errorf("the backup left %s behind", entries[0].Name())
	}
}
