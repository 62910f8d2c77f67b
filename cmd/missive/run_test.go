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
		{"colour: blue", "field colour not found"},
		{"engines: [{name: x}]", "engine"},
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
	if def.Data != ex.Data || def.Listen != ex.Listen || def.Shard != ex.Shard || def.LogLevel != ex.LogLevel {
		t.Errorf("config.example.yaml's values %+v differ from the defaults %+v", ex, def)
	}
	sharded := &runConfig{Data: "/data/missive.db", Shard: shardConfig{ID: 1, Count: 4}}
	if got := sharded.dataFile(); got != "/data/missive-shard-1.db" {
		t.Errorf("shard data file %q", got)
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
	// A dropped gateway connection shows in /healthz until the bot has resumed.
	if srv.Disconnect() != 1 {
		t.Fatal("no gateway connection to drop")
	}
	sawDown := false
	for end := time.Now().Add(20 * time.Second); time.Now().Before(end); time.Sleep(time.Millisecond) {
		code, body := get("/healthz")
		if code == 503 && strings.Contains(body, "gateway") {
			sawDown = true
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
		"missive_notices_queued_total 0", "missive_outbox_pending 0", "missive_discord_rate_limited_total 0", "missive_gateway_connected 1"} {
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
