package external

import (
	"context"
	"fmt"
)

// Pool bounds the external engine processes: at most Max processes of each
// configured engine run, and a request waits (or gives up with its context) for one.
type Pool struct {
	cfgs map[string]Config
	free map[string]chan *Engine
}

// NewPool returns a pool for cfgs; processes start lazily.
func NewPool(cfgs []Config) (*Pool, error) {
	p := &Pool{cfgs: map[string]Config{}, free: map[string]chan *Engine{}}
	for _, c := range cfgs {
		if err := c.Validate(); err != nil {
			return nil, err
		}
		ch := make(chan *Engine, c.Max)
		for range c.Max {
			e, _ := New(c)
			ch <- e
		}
		p.cfgs[c.Name], p.free[c.Name] = c, ch
	}
	return p, nil
}

// Acquire takes an engine named name, waiting for one to be free.
func (p *Pool) Acquire(ctx context.Context, name string) (*Engine, error) {
	ch, ok := p.free[name]
	if !ok {
		return nil, fmt.Errorf("external: no engine named %q is configured", name)
	}
	select {
	case e := <-ch:
		return e, nil
	case <-ctx.Done():
		return nil, fmt.Errorf("external: waiting for a free %s: %w", name, ctx.Err())
	}
}

// Release gives e back to the pool.
func (p *Pool) Release(e *Engine) { p.free[e.cfg.Name] <- e }

// Close stops every idle process of the pool.
func (p *Pool) Close() {
	for name, ch := range p.free {
		for range p.cfgs[name].Max {
			select {
			case e := <-ch:
				e.Close()
				defer func() { ch <- e }()
			default:
			}
		}
	}
}
