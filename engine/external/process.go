package external

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// Errors of engine processes.
var (
	ErrDead    = errors.New("external: the engine process is not running")
	ErrTimeout = errors.New("external: the engine did not answer in time")
	ErrAnswer  = errors.New("external: the engine's answer is not a legal move")
	ErrFlood   = errors.New("external: the engine printed more than an engine may")
	// ErrResigned: the engine resigned the game instead of moving (XBoard's
	// "resign"); the process is sound and stays.
	ErrResigned = errors.New("external: the engine resigned")
)

// Bounds on what an engine may print: one line, and all lines between two requests.
const (
	maxLine   = 64 << 10
	maxVolume = 8 << 20
)

// Bounds on stopping an engine: the grace after closing its input, and the wait for
// the kernel to end its process group after SIGKILL.
const (
	killGrace = 200 * time.Millisecond
	killWait  = 2 * time.Second
)

// defaultPath is the search path of an engine when the bot has none.
const defaultPath = "/usr/local/bin:/usr/bin:/bin"

// process is a running engine program in a process group of its own, under a guard
// that ends the group when the bot dies (see guard.go), with a bounded line reader. Nothing in it waits on output the engine controls: stopping it kills
// the whole group and closes our end of its output.
type process struct {
	name    string
	cmd     *exec.Cmd
	stdin   *os.File // our end of its input, written with a deadline
	stdout  *os.File // our end of its output
	timeout time.Duration
	lines   chan string   // closed when its output ends or is cut off
	exit    chan struct{} // closed when the process has exited
	done    chan struct{} // closed by kill: the reader stops delivering
	once    sync.Once
	mu      sync.Mutex
	err     error // why it exited
	flood   error // why its output was cut off, if it flooded or went over its memory
	volume  int   // bytes printed since the last request
	// waiting counts the reads in progress (readUntil): the engine is at work.
	waiting atomic.Int32
}

// environ returns the environment of an engine: PATH and HOME of the bot, and the
// variables configured for it; nothing else of the bot's (no token) reaches it.
func environ(c *Config) []string {
	path := os.Getenv("PATH")
	if path == "" {
		path = defaultPath
	}
	env := []string{"PATH=" + path}
	if home := os.Getenv("HOME"); home != "" {
		env = append(env, "HOME="+home)
	}
	for k, v := range c.Env {
		env = append(env, k+"="+v)
	}
	return env
}

func startProcess(c *Config) (*process, error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("external: start %s: %w", c.Name, err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, fmt.Errorf("external: start %s: %w", c.Name, err)
	}
	cmd, err := guarded(c)
	if err == nil {
		cmd.Stdin, cmd.Stdout = inR, outW // files: no copying goroutines for Wait to wait on
		err = startGuarded(cmd)
	}
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, fmt.Errorf("external: start %s (%s): %w", c.Name, c.Command, err)
	}
	p := &process{name: c.Name, cmd: cmd, stdin: inW, stdout: outR, timeout: c.Timeout,
		lines: make(chan string, 256), exit: make(chan struct{}), done: make(chan struct{})}
	go p.wait()
	go p.read()
	if limit, _ := parseMemory(c.Memory); limit > 0 { // Validate has read it
		go p.watchMemory(cmd.Process.Pid, limit)
	}
	return p, nil
}

// wait reaps the process and then ends what is left of its group, so that a child
// it leaves behind neither lives on nor keeps its output open.
func (p *process) wait() {
	err := p.cmd.Wait()
	p.killGroup()
	p.mu.Lock()
	p.err = err
	p.mu.Unlock()
	close(p.exit)
}

// killGroup sends SIGKILL to the engine's process group.
func (p *process) killGroup() {
	_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
}

// read delivers the engine's lines until its output ends, kill stops it, or the
// engine floods: a line longer than maxLine or more than maxVolume bytes between two
// requests kills the engine.
func (p *process) read() {
	defer close(p.lines)
	r := bufio.NewReaderSize(p.stdout, maxLine)
	for {
		line, err := r.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			p.cutOff(fmt.Errorf("%w: %s printed a line longer than %d KiB", ErrFlood, p.name, maxLine>>10))
			return
		}
		if len(line) > 0 {
			p.mu.Lock()
			p.volume += len(line)
			over := p.volume > maxVolume
			p.mu.Unlock()
			if over {
				p.cutOff(fmt.Errorf("%w: %s printed more than %d MiB for one request", ErrFlood, p.name, maxVolume>>20))
				return
			}
			select {
			case p.lines <- strings.TrimRight(string(line), "\r\n"):
			case <-p.done:
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// cutOff records why the engine is stopped (a flood, its memory) and kills it.
func (p *process) cutOff(err error) {
	p.mu.Lock()
	p.flood = err
	p.mu.Unlock()
	p.killGroup()
}

func (p *process) alive() bool {
	select {
	case <-p.exit:
		return false
	default:
		return true
	}
}

// send writes lines to the engine, within its timeout: an engine that does not read
// its input cannot block the bot. It starts a new request: the engine may print
// its allowance again.
func (p *process) send(lines ...string) error {
	p.mu.Lock()
	p.volume = 0
	p.mu.Unlock()
	return p.reply(lines...)
}

// reply writes lines to the engine as send does, within the current request: what
// the engine has printed still counts against its allowance.
func (p *process) reply(lines ...string) error {
	if !p.alive() {
		p.mu.Lock()
		flood := p.flood
		p.mu.Unlock()
		if flood != nil {
			return flood
		}
		return fmt.Errorf("%w: %s exited", ErrDead, p.name)
	}
	_ = p.stdin.SetWriteDeadline(time.Now().Add(p.timeout))
	_, err := io.WriteString(p.stdin, strings.Join(lines, "\n")+"\n")
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return fmt.Errorf("%w: %s did not read its input within %v", ErrTimeout, p.name, p.timeout)
	}
	if err != nil {
		return fmt.Errorf("%w: %s: %v", ErrDead, p.name, err)
	}
	return nil
}

// readUntil reads lines until match accepts one, within timeout and ctx.
func (p *process) readUntil(ctx context.Context, timeout time.Duration, match func(string) bool) (string, error) {
	p.waiting.Add(1)
	defer p.waiting.Add(-1)
	t := time.NewTimer(timeout)
	defer t.Stop()
	for {
		select {
		case line, ok := <-p.lines:
			if !ok {
				return "", p.ended()
			}
			if match(line) {
				return line, nil
			}
		case <-t.C:
			return "", fmt.Errorf("%w: %s: no answer within %v", ErrTimeout, p.name, timeout)
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}
}

// ended explains why the engine's output ended: a flood, or its exit (waited for a
// bounded time: an engine that closed its output but lives on is killed).
func (p *process) ended() error {
	p.mu.Lock()
	flood := p.flood
	p.mu.Unlock()
	if flood != nil {
		return flood
	}
	p.reap()
	p.mu.Lock()
	err := p.err
	p.mu.Unlock()
	if err == nil {
		return fmt.Errorf("%w: %s closed its output", ErrDead, p.name)
	}
	return fmt.Errorf("%w: %s exited (%v)", ErrDead, p.name, err)
}

// kill ends the engine within a bounded time: it closes its input, gives it a short
// grace to quit, kills its whole process group and closes our end of its output,
// without waiting for anything the engine prints.
func (p *process) kill() {
	p.once.Do(func() {
		close(p.done)
		p.stdin.Close()
		p.reap()
		p.stdout.Close()
	})
}

// reap gives the engine killGrace to exit by itself, then kills its whole process
// group and waits at most killWait for it to end.
func (p *process) reap() {
	select {
	case <-p.exit:
	case <-time.After(killGrace):
	}
	p.killGroup()
	select {
	case <-p.exit:
	case <-time.After(killWait):
	}
}
