package main

import (
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"log/slog"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/missivechess/missive/bot/discord"
	"github.com/missivechess/missive/bot/discord/discordtest"
	"github.com/missivechess/missive/rules/variants"
	"github.com/missivechess/missive/storage"
)

// missive console --web serves the pages: it prints their address, and each
// board comes with its game page's address on that server; /web gives the
// player's own link.
func TestConsoleWeb(t *testing.T) {
	old := stdin
	stdin = strings.NewReader("/challenge variant:keltic opponent:bob\n/as bob\n/accept\n/web\n")
	defer func() { stdin = old }()
	var out, errOut bytes.Buffer
	if err := run(context.Background(), []string{"console", "--data", t.TempDir() + "/c.db", "--web", "127.0.0.1:0"}, &out, &errOut); err != nil {
		t.Fatalf("%v\n%s", err, errOut.String())
	}
	text := out.String()
	m := regexp.MustCompile(`Web pages at (http://127\.0\.0\.1:\d+):`).FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("no address printed:\n%s", text)
	}
	if !regexp.MustCompile(`Web page: ` + regexp.QuoteMeta(m[1]) + `/g/1\?t=\S+`).MatchString(text) {
		t.Errorf("the board has no link to game 1's page on %s:\n%s", m[1], text)
	}
	if !strings.Contains(text, "Your own page for game 1") {
		t.Errorf("/web did not give bob his own link:\n%s", text)
	}
}

// The web configuration is checked: an address that is not host:port, a public
// address that is not http(s), or one without a listen address, is refused.
func TestWebConfig(t *testing.T) {
	for _, bad := range []string{
		"web: {listen: nowhere}",
		"web: {listen: \"127.0.0.1:8080\", public_url: \"ftp://x\"}",
		"web: {public_url: \"https://missive.example.org\"}",
	} {
		if _, err := parseRunConfig([]byte(bad)); !errors.Is(err, errConfig) {
			t.Errorf("%s: %v, want a configuration error", bad, err)
		}
	}
	cfg, err := parseRunConfig([]byte("web: {listen: \"127.0.0.1:8080\", public_url: \"https://missive.example.org\"}"))
	if err != nil || cfg.Web.Listen != "127.0.0.1:8080" || cfg.Web.Public != "https://missive.example.org" {
		t.Errorf("good web configuration: %+v, %v", cfg, err)
	}
}

// logWatch is a log writer that closes seen once the log holds want.
type logWatch struct {
	mu   sync.Mutex
	b    strings.Builder
	want string
	seen chan struct{}
}

func (l *logWatch) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.b.Write(p)
	if l.seen != nil && strings.Contains(l.b.String(), l.want) {
		close(l.seen)
		l.seen = nil
	}
	return len(p), nil
}

// missive run with web: serves the pages beside the bot, logs their address but
// never the links' key, and stops with the bot.
func TestServeWebPages(t *testing.T) {
	srv := discordtest.New(t, discordtest.Config{Token: "secret-token-123"})
	data := filepath.Join(t.TempDir(), "m.db")
	cfg, err := parseRunConfig([]byte("data: " + data + "\nlisten: \"\"\nweb: {listen: \"127.0.0.1:0\"}\n"))
	if err != nil {
		t.Fatal(err)
	}
	seen := make(chan struct{})
	logs := &logWatch{want: "run: Missive is running", seen: seen}
	logger := slog.New(slog.NewTextHandler(logs, nil))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- serve(ctx, cfg, "secret-token-123", logger, discord.Options{HTTPClient: srv.HTTPClient(), Dialer: srv.Dialer()})
	}()
	select {
	case <-seen:
	case err := <-done:
		t.Fatalf("serve stopped early: %v", err)
	}
	logs.mu.Lock()
	m := regexp.MustCompile(`run: game pages" address=(http://127\.0\.0\.1:\d+)`).FindStringSubmatch(logs.b.String())
	logs.mu.Unlock()
	if m == nil {
		t.Fatalf("the pages' address is not logged:\n%s", logs.b.String())
	}
	res, err := http.Get(m[1] + "/")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Security-Policy") == "" {
		t.Errorf("GET /: %d, CSP %q", res.StatusCode, res.Header.Get("Content-Security-Policy"))
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("serve: %v", err)
	}
	st, err := storage.Open(data, variants.Registry(), &storage.Options{NoBackupSocket: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := st.View(context.Background(), func(tx *storage.Tx) error {
		key, err := tx.WebSecret()
		if err == nil && strings.Contains(logs.b.String(), hex.EncodeToString(key)) {
			t.Error("the links' key was logged")
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
}
