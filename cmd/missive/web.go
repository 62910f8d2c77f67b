package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"sync"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/web"
)

// webConfig is the web pages' part of the configuration: off unless listen is set.
type webConfig struct {
	// Listen is the address the pages are served on, such as 127.0.0.1:8080.
	Listen string `yaml:"listen"`
	// Public is the address players reach them at (https://missive.example.org),
	// behind a proxy that terminates TLS; default http://<listen>.
	Public string `yaml:"public_url"`
	// BehindProxy counts requests per the address the proxy puts last in
	// X-Forwarded-For (web.Options.BehindProxy).
	BehindProxy bool `yaml:"behind_proxy"`
}

// check refuses a web configuration that could not serve or would hand out
// links nobody can open.
func (c webConfig) check() error {
	if c.Listen == "" {
		if c.Public != "" {
			return fmt.Errorf("%w: web.public_url is set but web.listen is not; set the address to serve the pages on", errConfig)
		}
		return nil
	}
	if _, _, err := net.SplitHostPort(c.Listen); err != nil {
		return fmt.Errorf("%w: web.listen %q is not host:port (such as 127.0.0.1:8080)", errConfig, c.Listen)
	}
	if c.Public != "" {
		u, err := url.Parse(c.Public)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
			return fmt.Errorf("%w: web.public_url %q is not an http or https address such as https://missive.example.org", errConfig, c.Public)
		}
	}
	return nil
}

// webPages is the web server of a running service, when one is configured.
type webPages struct {
	srv    *web.Server
	listen string
	wg     sync.WaitGroup
}

// newWebPages returns the pages for c, nil when they are off; plug its feature
// into cfg before the service is built.
func newWebPages(c webConfig, cfg *bot.Config, logger *slog.Logger) (*webPages, error) {
	if c.Listen == "" {
		return nil, nil
	}
	srv, err := web.New(web.Options{Public: c.Public, Logger: logger, BehindProxy: c.BehindProxy})
	if err != nil {
		return nil, err
	}
	cfg.Features = append(cfg.Features, srv.Feature)
	return &webPages{srv: srv, listen: c.Listen}, nil
}

// start attaches svc and serves the pages until ctx ends; it returns the address
// they are served at.
func (p *webPages) start(ctx context.Context, svc *bot.Service, logger *slog.Logger) (string, error) {
	if err := p.srv.Attach(ctx, svc); err != nil {
		return "", err
	}
	ln, err := net.Listen("tcp", p.listen)
	if err != nil {
		return "", fmt.Errorf("web pages' address: %w", err)
	}
	if p.srv.Public() == "" {
		p.srv.SetPublic("http://" + ln.Addr().String())
	}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		if err := p.srv.Serve(ctx, ln); err != nil && !errors.Is(err, context.Canceled) {
			logger.Error("web pages stopped", "error", err)
		}
	}()
	return p.srv.Public(), nil
}

// wait waits for the server to stop (once the context given to start ends).
func (p *webPages) wait() {
	if p != nil {
		p.wg.Wait()
	}
}
