package external

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Engines die with the bot.
//
// Stopping an engine kills its process group (process.kill), but a bot killed by
// SIGKILL (or by the kernel's OOM killer) stops nothing: its engines and the
// children they started would go on thinking for ever. So each engine runs under a
// guard, a second copy of the bot's own program (/proc/self/exe, which a
// distroless image has where it has no shell) that does nothing but this:
//
//   - The bot starts the guard as the leader of a process group of its own, with
//     a parent-death signal (Linux's PR_SET_PDEATHSIG, SysProcAttr.Pdeathsig):
//     SIGTERM when the bot dies. The guard starts the engine in its group, with
//     SIGKILL as the engine's own parent-death signal, and waits for it.
//   - On SIGTERM (the bot died, or someone asks the engine to stop) the guard
//     kills its whole group, itself included: the engine and every child it
//     started that stayed in the group. A grandchild gets no parent-death signal
//     of its own, which is why the guard, not the engine, must outlive the bot.
//   - The guard tells the bot, on a pipe of its own, why the engine could not start
//     (a program that is not one) or that it has, so that a start fails as clearly
//     as without a guard.
//   - When the engine ends, the guard ends with the engine's exit status (the
//     bot then kills what is left of the group, as it always did).
//
// A parent-death signal fires when the thread that forked the child ends, not the
// process (see the Pdeathsig field of syscall.SysProcAttr and go.dev/issue/27505):
// the bot starts every guard from one goroutine locked to its thread for the
// bot's life (startLocked), and the guard starts its engine from its main thread,
// locked too. The race of a bot that dies between the fork and the prctl is
// closed by the Go runtime, which checks the parent after setting the signal.
//
// No sweep of leftover groups at start is needed: the guard outlives the bot by
// design. Left over can be only an engine's child that left the group (setsid),
// or the children of an engine whose guard itself was killed by SIGKILL (the
// engine then still gets its parent-death signal).

// guardEnv, in a guard's environment, names the program it runs as the engine; it
// is never passed on to the engine.
const guardEnv = "MISSIVE_ENGINE_GUARD"

// init turns the bot's program into a guard when it is started as one: before any
// main (or test main), so that every program that runs engines can guard them.
func init() {
	if path, ok := os.LookupEnv(guardEnv); ok {
		os.Exit(guard(path, os.Args[1:]))
	}
}

// guard runs the engine program path with args, as described above, and returns
// the exit status to end with.
func guard(path string, args []string) int {
	runtime.LockOSThread() // the engine's parent-death signal follows this thread
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGINT)
	cmd := exec.Command(path, args...)
	cmd.Env = slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, guardEnv+"=") })
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	// The bot reads why the engine could not start from fd 3, or its end once it has.
	syscall.CloseOnExec(3)
	status := os.NewFile(3, "status")
	if err := cmd.Start(); err != nil {
		fmt.Fprint(status, err)
		return 127
	}
	status.Close()
	// The engine alone holds its input and output now: it ends them as it would
	// without a guard.
	os.Stdin.Close()
	os.Stdout.Close()
	go func() {
		<-stop
		_ = syscall.Kill(0, syscall.SIGKILL) // the whole group, the guard last
	}()
	_ = cmd.Wait()
	ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus)
	if ok && ws.Signaled() {
		// End as the engine did, so that the bot's log says which signal.
		signal.Reset(ws.Signal())
		_ = syscall.Kill(os.Getpid(), ws.Signal())
		return 128 + int(ws.Signal())
	}
	return cmd.ProcessState.ExitCode()
}

// guarded returns the command that runs the engine of c under a guard, as a
// process group of its own that gets SIGTERM when the bot dies.
func guarded(c *Config) (*exec.Cmd, error) {
	path, err := exec.LookPath(c.Command)
	if err != nil {
		return nil, err
	}
	// The running program itself, even when a deploy has replaced its file since.
	self := "/proc/self/exe"
	if _, err := os.Stat(self); err != nil {
		if self, err = os.Executable(); err != nil {
			return nil, fmt.Errorf("the engine guard (the bot's own program) is not found: %w", err)
		}
	}
	cmd := &exec.Cmd{Path: self, Args: append([]string{"missive-engine-guard"}, c.Args...)}
	cmd.Env = append(environ(c), guardEnv+"="+path)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
	return cmd, nil
}

// starts are the requests to start a process, served by one goroutine locked to
// its OS thread for the life of the program: the parent-death signal of what it
// starts fires when the program ends, never when a thread does.
var (
	starts    = make(chan startRequest)
	startOnce sync.Once
)

// guardStart bounds the wait for a guard to start its engine: the guard is the
// bot's own program, slow to start only on a machine under heavy load, so the bound
// is not the engine's (often short) timeout.
const guardStart = 30 * time.Second

// startGuarded starts cmd (from guarded) and returns once the guard has started the
// engine, or why it could not (within guardStart); cmd is killed if it could not.
func startGuarded(cmd *exec.Cmd) error {
	statusR, statusW, err := os.Pipe()
	if err != nil {
		return err
	}
	defer statusR.Close()
	cmd.ExtraFiles = []*os.File{statusW}
	err = startLocked(cmd)
	statusW.Close()
	if err != nil {
		return err
	}
	_ = statusR.SetReadDeadline(time.Now().Add(guardStart))
	msg, err := io.ReadAll(io.LimitReader(statusR, maxLine))
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded):
		err = fmt.Errorf("the engine guard did not start the engine within %v", guardStart)
	case err == nil && len(msg) > 0:
		err = errors.New(string(msg)) // the guard's own words, never the engine's
	}
	if err != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		_ = cmd.Wait()
	}
	return err
}

// startRequest asks for cmd to be started; the answer is Start's error.
type startRequest struct {
	cmd  *exec.Cmd
	done chan error
}

// startLocked starts cmd from the program's starting thread (see starts).
func startLocked(cmd *exec.Cmd) error {
	startOnce.Do(func() {
		go func() {
			runtime.LockOSThread() // and never unlocked: the thread lives as long as the program
			for r := range starts {
				r.done <- r.cmd.Start()
			}
		}()
	})
	done := make(chan error, 1)
	starts <- startRequest{cmd: cmd, done: done}
	return <-done
}
