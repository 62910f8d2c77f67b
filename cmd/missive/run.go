package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/discord"
	"github.com/missivechess/missive/bot/features"
	"github.com/missivechess/missive/bot/review"
	"github.com/missivechess/missive/bot/tournaments"
	"github.com/missivechess/missive/engine"
	"github.com/missivechess/missive/engine/external"
	"github.com/missivechess/missive/rules/variants"
	"github.com/missivechess/missive/storage"
)

const runUsage = "run the Discord bot: run --config FILE (the token comes from $DISCORD_TOKEN)"

// runConfig is the file missive run reads; config.example.yaml documents it.
type runConfig struct {
	Data         string            `yaml:"data"`
	Guilds       []string          `yaml:"guilds"`
	Listen       string            `yaml:"listen"`
	LogLevel     string            `yaml:"log_level"`
	LogFormat    string            `yaml:"log_format"`
	Shards       int               `yaml:"shards"`
	Shard        *shardConfig      `yaml:"shard"` // obsolete: one process per shard
	Limits       limitsConfig      `yaml:"limits"`
	HintsInRated bool              `yaml:"hints_in_rated"`
	EngineThink  time.Duration     `yaml:"engine_timeout"`
	Engines      []external.Config `yaml:"engines"`
	Reviews      reviewsConfig     `yaml:"reviews"`
	Web          webConfig         `yaml:"web"` // the game pages (web.go)

	// Warnings are settings read but obsolete, to log at start.
	Warnings []string `yaml:"-"`
}

// shardConfig is the obsolete shard: {id, count} of one process per shard; it is
// still read so that an old file gets a clear message.
type shardConfig struct {
	ID    int `yaml:"id"`
	Count int `yaml:"count"`
}

type limitsConfig struct {
	ActiveGames    int `yaml:"active_games"`
	OpenChallenges int `yaml:"open_challenges"`
	ChallengeDays  int `yaml:"challenge_days"`
	LeaveDays      int `yaml:"leave_days"`
	EventGames     int `yaml:"event_games"`
	GuildGames     int `yaml:"server_games"`
}

// reviewsConfig bounds the engine's game reviews (review.Options; 0: its default).
type reviewsConfig struct {
	Workers int   `yaml:"workers"`
	Backlog int   `yaml:"backlog"`
	Nodes   int64 `yaml:"nodes"`
}

// errConfig marks a bad configuration file.
var errConfig = errors.New("run: bad configuration")

// loadRunConfig reads and checks the configuration at path, filling in defaults.
func loadRunConfig(path string) (*runConfig, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("run: reading the configuration: %w", err)
	}
	return parseRunConfig(data)
}

func parseRunConfig(data []byte) (*runConfig, error) {
	cfg := &runConfig{Data: "missive.db", Listen: "127.0.0.1:9464", LogLevel: "info", LogFormat: "json"}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(cfg); err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%w: %v", errConfig, err)
	}
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", errConfig, fmt.Sprintf(format, args...))
	}
	if strings.TrimSpace(cfg.Data) == "" {
		return nil, bad("data must name the data file, such as /data/missive.db")
	}
	for _, g := range cfg.Guilds {
		if g == "" || strings.Trim(g, "0123456789") != "" {
			return nil, bad("guild id %q is not a Discord id (digits only; copy it with Developer Mode on)", g)
		}
	}
	if cfg.Listen != "" {
		if _, _, err := net.SplitHostPort(cfg.Listen); err != nil {
			return nil, bad("listen %q is not host:port (such as 127.0.0.1:9464; empty disables it)", cfg.Listen)
		}
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(cfg.LogLevel)); err != nil {
		return nil, bad("log_level %q is not debug, info, warn or error", cfg.LogLevel)
	}
	if cfg.LogFormat != "json" && cfg.LogFormat != "text" {
		return nil, bad("log_format %q is not json or text", cfg.LogFormat)
	}
	if sh := cfg.Shard; sh != nil {
		// One process per shard, each with its own data file, made game ids collide
		// and sent every direct message to shard 0, whatever game it was about.
		switch {
		case sh.ID != 0:
			return nil, bad("shard.id %d no longer applies: one process now runs every shard over one data file; stop the other shards' processes, and in this one replace shard: with shards: %d", sh.ID, max(sh.Count, 1))
		case cfg.Shards != 0:
			return nil, bad("shard: and shards: are both set; keep only shards: (shard: is obsolete)")
		case sh.Count < 1:
			return nil, bad("shard.count %d must be at least 1 (and shard: is obsolete: write shards: N)", sh.Count)
		}
		cfg.Shards = sh.Count
		cfg.Warnings = append(cfg.Warnings, fmt.Sprintf("shard: is obsolete; read as shards: %d (this process runs every shard)", sh.Count))
	}
	if cfg.Shards == 0 {
		cfg.Shards = 1
	}
	if cfg.Shards < 1 {
		return nil, bad("shards %d must be at least 1", cfg.Shards)
	}
	if cfg.Limits.ActiveGames < 0 || cfg.Limits.OpenChallenges < 0 || cfg.Limits.ChallengeDays < 0 || cfg.Limits.EventGames < 0 ||
		cfg.Limits.GuildGames < 0 || cfg.Limits.LeaveDays < 0 {
		return nil, bad("limits must not be negative")
	}
	if cfg.EngineThink < 0 {
		return nil, bad("engine_timeout must not be negative")
	}
	if r := cfg.Reviews; r.Workers < 0 || r.Backlog < 0 || r.Nodes < 0 {
		return nil, bad("reviews.workers, reviews.backlog and reviews.nodes must not be negative (0 takes the default)")
	}
	if err := cfg.Web.check(); err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for i := range cfg.Engines {
		if err := cfg.Engines[i].Validate(); err != nil {
			return nil, fmt.Errorf("%w: %w", errConfig, err)
		}
		if seen[cfg.Engines[i].Name] {
			return nil, bad("engine %q is configured twice", cfg.Engines[i].Name)
		}
		seen[cfg.Engines[i].Name] = true
	}
	return cfg, nil
}

// checkShardFiles looks for the per-shard data files older releases kept beside the
// data file (missive-shard-N.db): their games would silently vanish, so without the
// data file they stop the start, and beside it they are reported as warnings.
func checkShardFiles(data string) (warnings []string, err error) {
	ext := filepath.Ext(data)
	old, _ := filepath.Glob(strings.TrimSuffix(data, ext) + "-shard-[0-9]*" + ext)
	if len(old) == 0 {
		return nil, nil
	}
	if _, serr := os.Stat(data); errors.Is(serr, os.ErrNotExist) {
		return nil, fmt.Errorf("%w: found per-shard data files %s but no %s: one process now keeps every shard's games in %s. They cannot be merged automatically (their game ids collide); rename the shard-0 file to %s to keep its games",
			errConfig, strings.Join(old, ", "), data, data, data)
	}
	return []string{fmt.Sprintf("per-shard data files %s are no longer read; the games are in %s", strings.Join(old, ", "), data)}, nil
}

func runRun(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfgPath := fs.String("config", "", "the configuration file (see config.example.yaml)")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("run: %w", err)
	}
	if *cfgPath == "" || fs.NArg() > 0 {
		return fmt.Errorf("run: %s: %w", runUsage, errUsage)
	}
	cfg, err := loadRunConfig(*cfgPath)
	if err != nil {
		return err
	}
	token := strings.TrimSpace(os.Getenv("DISCORD_TOKEN"))
	if token == "" {
		return errors.New("run: set DISCORD_TOKEN to the bot's token (Developer Portal → your application → Bot → Reset Token)")
	}
	var level slog.Level
	_ = level.UnmarshalText([]byte(cfg.LogLevel))
	hopts := &slog.HandlerOptions{Level: level}
	var handler slog.Handler = slog.NewJSONHandler(stderr, hopts)
	if cfg.LogFormat == "text" {
		handler = slog.NewTextHandler(stderr, hopts)
	}
	logger := slog.New(handler)
	return serve(ctx, cfg, token, logger, discord.Options{})
}

// serve runs the bot until ctx ends; opts may carry a test's HTTP client and dialer.
func serve(ctx context.Context, cfg *runConfig, token string, logger *slog.Logger, opts discord.Options) error {
	reg := variants.Registry()
	path := cfg.Data
	warnings, err := checkShardFiles(path)
	if err != nil {
		return err
	}
	for _, w := range append(cfg.Warnings, warnings...) {
		logger.Warn("run: " + w)
	}
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o750); err != nil {
			return fmt.Errorf("run: data folder: %w", err)
		}
	}
	st, err := storage.Open(path, reg, &storage.Options{Logger: logger})
	if err != nil {
		return sentenceError{"run", err}
	}
	defer st.Close()
	var pool *external.Pool
	if len(cfg.Engines) > 0 {
		if pool, err = external.NewPool(cfg.Engines); err != nil {
			return fmt.Errorf("run: %w", err)
		}
		defer pool.Close()
	}
	m := newMetrics(st)
	opts.Token, opts.Guilds, opts.Logger = token, cfg.Guilds, logger
	opts.Shards = cfg.Shards
	opts.Observe = m.observe
	opts.ObserveLocale = m.observeLocale
	b, err := discord.New(opts)
	if err != nil {
		return fmt.Errorf("run: %w", err)
	}
	svcCfg := bot.Config{
		Store: st, Registry: reg, Renderer: bot.NewRenderer(), Notifier: b, Logger: logger, Gateway: true,
		Engine:       bot.NewEngine(engine.New(engine.Options{}), pool, cfg.Engines),
		HintsInRated: cfg.HintsInRated, EngineTimeout: cfg.EngineThink,
		Limits: bot.Limits{ActiveGames: cfg.Limits.ActiveGames, OpenChallenges: cfg.Limits.OpenChallenges,
			ChallengeTTL: time.Duration(cfg.Limits.ChallengeDays) * 24 * time.Hour, LeaveDays: cfg.Limits.LeaveDays},
	}
	features.Apply(&svcCfg, features.Options{
		Tournaments: tournaments.Options{EventGames: cfg.Limits.EventGames, GuildGames: cfg.Limits.GuildGames},
		Review:      reviewOptions(cfg.Reviews),
	})
	pages, err := newWebPages(cfg.Web, &svcCfg, logger)
	if err != nil {
		return fmt.Errorf("run: %w", err)
	}
	svc, err := bot.New(svcCfg)
	if err != nil {
		return fmt.Errorf("run: %w", err)
	}
	defer svc.Close()
	b.Attach(svc)
	m.setService(svc)
	m.setConnected(svc.Connected)

	var wg sync.WaitGroup
	runCtx, stop := context.WithCancel(ctx)
	defer func() {
		stop()
		wg.Wait()
		pages.wait()
	}()
	if cfg.Listen != "" {
		ln, err := net.Listen("tcp", cfg.Listen)
		if err != nil {
			return fmt.Errorf("run: health and metrics address: %w", err)
		}
		srv := &http.Server{Handler: m.handler(), ReadHeaderTimeout: 5 * time.Second}
		wg.Add(2)
		go func() {
			defer wg.Done()
			if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
				logger.Error("run: health server stopped", "error", err)
			}
		}()
		go func() {
			defer wg.Done()
			<-runCtx.Done()
			sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			_ = srv.Shutdown(sctx)
		}()
		logger.Info("run: health and metrics", "address", ln.Addr().String())
	}
	if pages != nil {
		addr, err := pages.start(runCtx, svc, logger)
		if err != nil {
			return fmt.Errorf("run: %w", err)
		}
		logger.Info("run: game pages", "address", addr)
	}
	if err := b.Open(runCtx); err != nil {
		return fmt.Errorf("run: %w", err)
	}
	m.setReady(true)
	wg.Add(1)
	go func() {
		defer wg.Done()
		if err := svc.Run(runCtx); err != nil && !errors.Is(err, context.Canceled) {
			logger.Error("run: scheduler stopped", "error", err)
		}
	}()
	logger.Info("run: Missive is running", "data", path)
	<-ctx.Done()
	logger.Info("run: shutting down")
	m.setReady(false)
	// Interactions in flight are answered (for up to shutdownGrace) before the
	// scheduler stops and records when the bot was last live.
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), shutdownGrace)
	if err := b.Shutdown(sctx); err != nil {
		logger.Warn("run: shutting down", "error", err)
	}
	cancel()
	stop()
	wg.Wait()
	// Close, not Idle: a notification that cannot be delivered now stays in the outbox
	// for the next start instead of holding up the shutdown.
	svc.Close()
	return nil
}

// shutdownGrace bounds how long a shutdown waits for interactions in flight.
const shutdownGrace = 10 * time.Second

// reviewOptions turns the reviews section into the review feature's options.
func reviewOptions(c reviewsConfig) review.Options {
	opts := review.Options{Workers: c.Workers, Backlog: c.Backlog}
	if c.Nodes > 0 {
		opts.Limits = engine.DefaultReviewLimits
		opts.Limits.Nodes = c.Nodes
	}
	return opts
}
