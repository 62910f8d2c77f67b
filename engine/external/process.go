package external

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// Errors of engine processes.
var (
	ErrDead    = errors.New("external: the engine process is not running")
	ErrTimeout = errors.New("external: the engine did not answer in time")
	ErrAnswer  = errors.New("external: the engine's answer is not a legal move")
)

// process is a running engine program with a line reader.
type process struct {
	name  string
	cmd   *exec.Cmd
	stdin io.WriteCloser
	lines chan string
	exit  chan struct{}
	mu    sync.Mutex
	err   error // why it exited
}

func startProcess(c *Config) (*process, error) {
	cmd := exec.Command(c.Command, c.Args...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("external: start %s (%s): %w", c.Name, c.Command, err)
	}
	p := &process{name: c.Name, cmd: cmd, stdin: stdin, lines: make(chan string, 256), exit: make(chan struct{})}
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 64*1024), 1<<20)
		for sc.Scan() {
			select {
			case p.lines <- sc.Text():
			case <-p.exit:
			}
		}
		err := cmd.Wait()
		p.mu.Lock()
		p.err = err
		p.mu.Unlock()
		close(p.exit)
	}()
	return p, nil
}

func (p *process) alive() bool {
	select {
	case <-p.exit:
		return false
	default:
		return true
	}
}

func (p *process) send(lines ...string) error {
	if !p.alive() {
		return fmt.Errorf("%w: %s exited", ErrDead, p.name)
	}
	_, err := io.WriteString(p.stdin, strings.Join(lines, "\n")+"\n")
	if err != nil {
		return fmt.Errorf("%w: %s: %v", ErrDead, p.name, err)
	}
	return nil
}

// readUntil reads lines until match accepts one, within timeout and ctx.
func (p *process) readUntil(ctx context.Context, timeout time.Duration, match func(string) bool) (string, error) {
	t := time.NewTimer(timeout)
	defer t.Stop()
	for {
		select {
		case line := <-p.lines:
			if match(line) {
				return line, nil
			}
		case <-p.exit:
			// Drain what it printed before dying.
			select {
			case line := <-p.lines:
				if match(line) {
					return line, nil
				}
				continue
			default:
			}
			p.mu.Lock()
			err := p.err
			p.mu.Unlock()
			return "", fmt.Errorf("%w: %s exited (%v)", ErrDead, p.name, err)
		case <-t.C:
			return "", fmt.Errorf("%w: %s: no answer within %v", ErrTimeout, p.name, timeout)
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}
}

// kill ends the process and waits for it.
func (p *process) kill() {
	if p.alive() {
		p.stdin.Close()
		select {
		case <-p.exit:
			return
		case <-time.After(200 * time.Millisecond):
		}
		p.cmd.Process.Kill()
	}
	<-p.exit
}
