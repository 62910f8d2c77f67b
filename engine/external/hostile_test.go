package external

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/variants"
)

// Limits of the hostile engines: every job must end within hostileBound.
const (
	hostileThink   = 100 * time.Millisecond
	hostileTimeout = time.Second
	hostileBound   = 3 * (hostileThink + hostileTimeout)
)

// hostile returns an engine running testdata/name with args, already started (so
// that the test knows its process group), and that group's id.
func hostile(t *testing.T, name string, args ...string) (*Engine, int) {
	t.Helper()
	return hostileWith(t, func(*Config) {}, name, args...)
}

// hostileWith is hostile with the configuration changed by change.
func hostileWith(t *testing.T, change func(*Config), name string, args ...string) (*Engine, int) {
	t.Helper()
	path, err := filepath.Abs(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	c := Config{Name: name, Command: path, Args: args, Protocol: UCI, Variants: map[string]string{"gothic": "gothic"},
		Think: hostileThink, Timeout: hostileTimeout, Env: map[string]string{"ENGINE_DIR": t.TempDir()}}
	change(&c)
	e, err := New(c)
	if err != nil {
		t.Fatal(err)
	}
	p, err := startProcess(&e.cfg)
	if err != nil {
		t.Fatal(err)
	}
	e.proc = p
	if err := e.handshake(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(e.Close)
	return e, p.cmd.Process.Pid
}

// within runs f and fails the test unless it returns within bound.
func within(t *testing.T, what string, bound time.Duration, f func()) time.Duration {
	t.Helper()
	done := make(chan struct{})
	start := time.Now()
	go func() { defer close(done); f() }()
	select {
	case <-done:
		return time.Since(start)
	case <-time.After(bound):
		t.Fatalf("%s did not end within %v", what, bound)
		return 0
	}
}

// groupGone fails the test unless process group pgid has no living process left (a
// zombie waiting for init to reap it is dead), waiting a little for the kernel.
func groupGone(t *testing.T, pgid int) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for {
		alive := living(t, pgid)
		if len(alive) == 0 {
			return
		}
		if time.Now().After(deadline) {
			syscall.Kill(-pgid, syscall.SIGKILL) // leave nothing behind
			t.Fatalf("process group %d still has living processes: %v", pgid, alive)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// living lists the processes of group pgid that are not zombies, from /proc.
func living(t *testing.T, pgid int) []string {
	t.Helper()
	stats, err := filepath.Glob("/proc/[0-9]*/stat")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, path := range stats {
		data, err := os.ReadFile(path)
		if err != nil {
			continue // it ended meanwhile
		}
		// pid (comm) state ppid pgrp ...: comm may hold spaces, so cut at the last ')'.
		i := strings.LastIndexByte(string(data), ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(data[i+1:]))
		if len(f) >= 3 && f[2] == strconv.Itoa(pgid) && f[0] != "Z" {
			out = append(out, string(data[:i+1]))
		}
	}
	return out
}

// TestHostileEngines checks that an engine that floods, hangs, crashes or lies loses
// its job with an error of the right kind, in bounded time, leaving no process, and
// that the next request plays with a fresh process.
func TestHostileEngines(t *testing.T) {
	cases := []struct {
		script string
		want   error
	}{
		{"flood.sh", ErrFlood},
		{"longline.sh", ErrFlood},
		{"hang.sh", ErrTimeout},
		{"crash.sh", ErrDead},
		{"liar.sh", ErrAnswer},
	}
	for _, c := range cases {
		t.Run(strings.TrimSuffix(c.script, ".sh"), func(t *testing.T) {
			e, pgid := hostile(t, c.script)
			var failed error
			took := within(t, "the job", hostileBound, func() {
				_, failed = e.Move(context.Background(), gothic(t), nil, 0)
			})
			if !errors.Is(failed, c.want) {
				t.Fatalf("got %v, want %v", failed, c.want)
			}
			groupGone(t, pgid)
			// The bot's next move in that game: a fresh process of a good engine.
			e.cfg.Command = strings.Replace(e.cfg.Command, c.script, "good.sh", 1)
			var m rules.Move
			var err error
			again := within(t, "the next move", hostileBound, func() {
				m, err = e.Move(context.Background(), gothic(t), nil, 0)
			})
			if err != nil {
				t.Fatalf("next move: %v", err)
			}
			t.Logf("%s: failed in %v (%v); next move %s after %v more", c.script, took.Round(time.Millisecond), failed, gothic(t).UCI(m), again.Round(time.Millisecond))
		})
	}
}

// TestEngineOverItsMemory: an engine whose processes hold more than its memory
// limit (the engine itself, or a child of its child) is stopped, whole group, while
// it thinks, and fails its move with ErrMemory and a sentence that names the limit.
func TestEngineOverItsMemory(t *testing.T) {
	for _, who := range []string{"itself", "grandchild"} {
		t.Run(who, func(t *testing.T) {
			e, pgid := hostileWith(t, func(c *Config) { c.Memory = "64MiB"; c.Think = hangGuard }, "hog.sh", who)
			_, err := e.Move(context.Background(), gothic(t), nil, 0)
			if !errors.Is(err, ErrMemory) {
				t.Fatalf("got %v, want %v", err, ErrMemory)
			}
			if s := rules.SentenceOf(err); !strings.HasPrefix(s, "hog.sh went over its memory limit of 64 MiB (it held ") || !strings.HasSuffix(s, " MiB) and was stopped.") {
				t.Errorf("sentence %q", s)
			}
			groupGone(t, pgid)
			t.Log(err)
		})
	}
}

// TestWrapperEngineStops checks that an engine started through a wrapper whose
// child keeps the output open and ignores SIGTERM stops within a bound, whole group.
func TestWrapperEngineStops(t *testing.T) {
	e, pgid := hostile(t, "wrapper.sh")
	if _, err := e.Move(context.Background(), gothic(t), nil, 0); err != nil {
		t.Fatal(err)
	}
	took := within(t, "closing the engine", hostileBound, e.Close)
	groupGone(t, pgid)
	t.Logf("closed in %v", took.Round(time.Millisecond))
}

// TestHostileEngineCancelled checks that a job given up by its context (the bot
// shutting down) ends at once, whole group, even while the engine floods or hangs.
func TestHostileEngineCancelled(t *testing.T) {
	for _, script := range []string{"hang.sh", "wrapper.sh"} {
		t.Run(script, func(t *testing.T) {
			e, pgid := hostile(t, script)
			ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
			defer cancel()
			within(t, "the cancelled job", time.Second, func() {
				_, _ = e.Move(ctx, gothic(t), nil, 10*time.Second)
			})
			within(t, "closing the engine", hostileBound, e.Close)
			groupGone(t, pgid)
		})
	}
}

// TestEngineEnvironment checks that an engine sees PATH, HOME and its configured
// variables only: never the bot's token or anything else of the bot's.
func TestEngineEnvironment(t *testing.T) {
	t.Setenv("DISCORD_TOKEN", "secret-token-never-shown")
	t.Setenv("MISSIVE_OTHER", "not for engines")
	out := filepath.Join(t.TempDir(), "env")
	e, _ := hostile(t, "env.sh", out)
	if _, err := e.Move(context.Background(), gothic(t), nil, 0); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		name, _, _ := strings.Cut(line, "=")
		seen[name] = true
		switch name {
		case "PATH", "HOME", "ENGINE_DIR", "PWD": // PWD: the shell sets it itself
		default:
			t.Errorf("the engine received %s", name)
		}
	}
	if strings.Contains(string(data), "secret-token") {
		t.Error("the engine received the token")
	}
	if !seen["PATH"] || !seen["ENGINE_DIR"] {
		t.Errorf("the engine lacks PATH or its configured variable: %q", data)
	}
}

// fakeBot is the test binary run as a bot (FAKE_BOT set to an engine program): it
// asks that engine for a move and waits, for as long as the engine thinks.
func fakeBot(command string) {
	e, err := New(Config{Name: "forever", Command: command, Protocol: UCI, Variants: map[string]string{"gothic": "gothic"},
		Think: time.Hour, Timeout: time.Hour, Env: map[string]string{"PIDS": os.Getenv("FAKE_BOT_PIDS")}})
	if err != nil {
		panic(err)
	}
	v, err := variants.Registry().Lookup("gothic")
	if err != nil {
		panic(err)
	}
	_, _ = e.Move(context.Background(), v.Start(0), nil, 0)
}

// Bounds that only keep a broken test from hanging: nothing waits for them to pass.
const (
	hangGuard = time.Minute
	pollEvery = 20 * time.Millisecond
)

// TestEnginesDieWithTheBot: a bot killed by SIGKILL while its engine thinks takes
// the engine with it, and the child the engine started (which the engine waits on,
// and which ignores SIGTERM as the engine does).
func TestEnginesDieWithTheBot(t *testing.T) {
	script, err := filepath.Abs(filepath.Join("testdata", "forever.sh"))
	if err != nil {
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	pidFile := filepath.Join(t.TempDir(), "pids")
	bot := exec.Command(exe, "-test.run=^$")
	bot.Env = append(os.Environ(), "FAKE_BOT="+script, "FAKE_BOT_PIDS="+pidFile)
	if err := bot.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- bot.Wait() }()
	t.Cleanup(func() { _ = bot.Process.Kill() })

	// The engine writes the pids once it thinks, with its child started.
	var pids []int
	for deadline := time.Now().Add(hangGuard); pids == nil; {
		select {
		case err := <-exited:
			t.Fatalf("the bot ended before its engine thought: %v", err)
		default:
		}
		if data, err := os.ReadFile(pidFile); err == nil {
			for _, f := range strings.Fields(string(data)) {
				pid, err := strconv.Atoi(f)
				if err != nil {
					t.Fatalf("pids %q", data)
				}
				pids = append(pids, pid)
			}
		} else if time.Now().After(deadline) {
			t.Fatalf("the engine did not start thinking within %v", hangGuard)
		} else {
			time.Sleep(pollEvery)
		}
	}
	pgid := groupOf(t, pids[0])
	t.Cleanup(func() { _ = syscall.Kill(-pgid, syscall.SIGKILL) })
	for _, pid := range pids {
		if !alive(pid) {
			t.Fatalf("process %d is not running before the bot is killed", pid)
		}
	}

	if err := bot.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if err := <-exited; !errors.As(err, new(*exec.ExitError)) {
		t.Fatalf("the bot's end: %v", err)
	}
	for deadline := time.Now().Add(hangGuard); ; time.Sleep(pollEvery) {
		left := living(t, pgid)
		for _, pid := range pids {
			if alive(pid) {
				left = append(left, strconv.Itoa(pid))
			}
		}
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("after the bot was killed, the engine (%d) or its child (%d) still runs: %v", pids[0], pids[1], left)
		}
	}
}

// groupOf returns the process group of pid, from /proc.
func groupOf(t *testing.T, pid int) int {
	t.Helper()
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		t.Fatal(err)
	}
	i := strings.LastIndexByte(string(data), ')')
	f := strings.Fields(string(data[i+1:]))
	pgid, err := strconv.Atoi(f[2])
	if err != nil {
		t.Fatalf("stat of %d: %q", pid, data)
	}
	return pgid
}

// alive reports whether pid is a running process (not a zombie).
func alive(pid int) bool {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	i := strings.LastIndexByte(string(data), ')')
	return i >= 0 && !strings.HasPrefix(strings.TrimSpace(string(data[i+1:])), "Z")
}
