package main

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/missivechess/missive/bot/discord"
	"github.com/missivechess/missive/bot/discord/discordtest"
)

func TestRunConfigErrors(t *testing.T) {
	for _, tc := range []struct{ yaml, want string }{
		{"data: ''", "data must name"},
		{"guilds: [abc]", "not a Discord id"},
		{"listen: nonsense", "not host:port"},
		{"log_level: loud", "log_level"},
		{"shard: {id: 2, count: 2}", "shard.id 2"},
		{"shard: {count: 0}", "shard.count 0"},
		{"shard: {id: 1, count: 4}", "one process now runs every shard"},
		{"shard: {count: 2}\nshards: 2", "both set"},
		{"shards: -1", "shards -1"},
		{"colour: blue", "field colour not found"},
		{"engines: [{name: x}]", "engine"},
		{"engines: [{name: x, command: /bin/true, protocol: uci, variants: {gothic: gothic}, memory: lots}]", `engine "x": memory: "lots" is not a size`},
		{"engines: [{name: x, command: /bin/true, protocol: uci, variants: {gothic: gothic}, memory: -2GiB}]", `"-2GiB" is not above zero`},
		{"limits: {active_games: -1}", "negative"},
	} {
		_, err := parseRunConfig([]byte(tc.yaml))
		if !errors.Is(err, errConfig) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want one mentioning %q", tc.yaml, err, tc.want)
		}
	}
}

func TestRunConfigDefaultsAndExample(t *testing.T) {
	def, err := parseRunConfig(nil)
	if err != nil {
		t.Fatal(err)
	}
	ex, err := loadRunConfig(filepath.Join("..", "..", "config.example.yaml"))
	if err != nil {
		t.Fatalf("config.example.yaml: %v", err)
	}
	ex.Engines = nil
	if def.Data != ex.Data || def.Listen != ex.Listen || def.Shards != ex.Shards || def.LogLevel != ex.LogLevel {
		t.Errorf("config.example.yaml's values %+v differ from the defaults %+v", ex, def)
	}
	if def.Shards != 1 || len(def.Warnings) != 0 {
		t.Errorf("default shards %d, warnings %q", def.Shards, def.Warnings)
	}
}

// An old one-process-per-shard file is still read: shard 0's count becomes shards,
// with a warning to log.
func TestRunConfigObsoleteShard(t *testing.T) {
	cfg, err := parseRunConfig([]byte("shard: {id: 0, count: 3}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Shards != 3 || len(cfg.Warnings) != 1 || !strings.Contains(cfg.Warnings[0], "shards: 3") {
		t.Errorf("shards %d, warnings %q", cfg.Shards, cfg.Warnings)
	}
}

// Per-shard data files of older releases stop the start when the one data file is
// missing (their games would vanish) and are reported beside it.
func TestCheckShardFiles(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "missive.db")
	if w, err := checkShardFiles(data); err != nil || w != nil {
		t.Fatalf("no files: %q, %v", w, err)
	}
	os.WriteFile(filepath.Join(dir, "missive-shard-1.db"), []byte("x"), 0o600)
	_, err := checkShardFiles(data)
	if !errors.Is(err, errConfig) || !strings.Contains(err.Error(), "missive-shard-1.db") {
		t.Fatalf("shard file without data file: %v", err)
	}
	os.WriteFile(data, []byte("x"), 0o600)
	if w, err := checkShardFiles(data); err != nil || len(w) != 1 || !strings.Contains(w[0], "missive-shard-1.db") {
		t.Errorf("shard file beside data file: %q, %v", w, err)
	}
}

func TestRunNeedsToken(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.yaml")
	os.WriteFile(path, []byte("data: x.db\n"), 0o600)
	t.Setenv("DISCORD_TOKEN", "")
	err := runRun(context.Background(), []string{"--config", path}, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "DISCORD_TOKEN") {
		t.Errorf("error %v, want one asking for DISCORD_TOKEN", err)
	}
}

func TestServeHealthMetricsShutdown(t *testing.T) {
	srv := discordtest.New(t, discordtest.Config{Token: "secret-token-123"})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	cfg, err := parseRunConfig([]byte("data: " + filepath.Join(t.TempDir(), "m.db") + "\nlisten: " + addr + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	var logs strings.Builder
	logger := slog.New(slog.NewTextHandler(&syncWriter{w: &logs}, nil))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- serve(ctx, cfg, "secret-token-123", logger, discord.Options{HTTPClient: srv.HTTPClient(), Dialer: srv.Dialer()})
	}()
	get := func(path string) (int, string) {
		res, err := http.Get("http://" + addr + path)
		if err != nil {
			return 0, ""
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		if code, _ := get("/healthz"); code == 200 {
			break
		}
		select {
		case err := <-done:
			t.Fatalf("serve stopped early: %v", err)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatal("health endpoint never ready")
		}
		time.Sleep(50 * time.Millisecond)
	}
	// A dropped gateway connection shows in /healthz until the bot has resumed. The
	// gateway stays unreachable until the test has seen that, so that a quick
	// reconnection on a busy machine cannot hide it.
	if srv.Outage(true) != 1 {
		t.Fatal("no gateway connection to drop")
	}
	sawDown := false
	for end := time.Now().Add(20 * time.Second); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		code, body := get("/healthz")
		if !sawDown && code == 503 && strings.Contains(body, "gateway") {
			sawDown = true
			srv.Outage(false)
		}
		if sawDown && code == 200 {
			break
		}
	}
	if code, _ := get("/healthz"); !sawDown || code != 200 {
		t.Fatalf("healthz did not follow the gateway (saw it down: %v; now %d)", sawDown, code)
	}
	in := srv.Command("alice", "general", "rules", discordtest.Opt{Name: "variant", Value: "gothic"})
	if _, err := srv.WaitCallback(ctx, in); err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond)
	_, body := get("/metrics")
	for _, want := range []string{`missive_commands_total{command="rules"} 1`, "missive_command_duration_seconds_count 1", "missive_active_games 0",
		`missive_interactions_by_locale_total{locale="en-US"} 1`, "missive_notices_queued_total 0", "missive_outbox_pending 0", "missive_discord_rate_limited_total 0", "missive_gateway_connected 1"} {
		if !strings.Contains(body, want) {
			t.Errorf("metrics lack %q:\n%s", want, body)
		}
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("serve: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("serve did not stop after cancellation")
	}
	if strings.Contains(logs.String(), "secret-token-123") {
		t.Error("the token was logged")
	}
}

// syncWriter serialises writes for the race detector.
type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}
