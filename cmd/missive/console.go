package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"time"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/console"
	"github.com/missivechess/missive/bot/features"
	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/bot/review"
	"github.com/missivechess/missive/engine"
	"github.com/missivechess/missive/engine/external"
	"github.com/missivechess/missive/rules/variants"
	"github.com/missivechess/missive/storage"
)

const consoleUsage = "play locally in the terminal: console [--data FILE] [--files DIR] [--as NAME] [--engines engines.yaml] [--web 127.0.0.1:PORT] [--locale de|fr|es-ES|es-419|pt-BR|ru|en-US]"

// stdin is the console's input; tests replace it with a script.
var stdin io.Reader = os.Stdin

func runConsole(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("console", flag.ContinueOnError)
	fs.SetOutput(stderr)
	data := fs.String("data", "", "the data file (default: "+filepath.Join(defaultDataDir(), "console.db")+")")
	files := fs.String("files", "", "the folder for board pictures, animations and PGN files (default: next to the data file)")
	as := fs.String("as", "alice", "the identity to start as (/as NAME switches)")
	enginesPath := fs.String("engines", "", "YAML file with external engines to challenge (engines: [...], as in the bot's configuration)")
	webAddr := fs.String("web", "", "serve the games' web pages at this address, such as 127.0.0.1:8080")
	locale := fs.String("locale", "", "the language the console's user speaks, as Discord names it (de, fr, es-ES, es-419, pt-BR, ru; default English)")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("console: %w", err)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("console: unexpected argument %q: %w", fs.Arg(0), errUsage)
	}
	if _, ok := i18n.Parse(*locale); *locale != "" && !ok {
		return fmt.Errorf("console: --locale %q is not a language Missive speaks; give de, fr, es-ES, es-419, pt-BR, ru or en-US: %w", *locale, errUsage)
	}
	path := *data
	if path == "" {
		path = filepath.Join(defaultDataDir(), "console.db")
	}
	dir := *files
	if dir == "" {
		dir = filepath.Join(filepath.Dir(path), "files")
	}
	var cfgs []external.Config
	var pool *external.Pool
	if *enginesPath != "" {
		var err error
		if cfgs, err = external.Load(*enginesPath); err != nil {
			return fmt.Errorf("console: %w", err)
		}
		if pool, err = external.NewPool(cfgs); err != nil {
			return fmt.Errorf("console: %w", err)
		}
		defer pool.Close()
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	clock := console.NewClock(nil)
	reg := variants.Registry()
	st, err := storage.Open(path, reg, &storage.Options{Now: clock.Now, Logger: logger})
	if errors.Is(err, storage.ErrLocked) {
		return &refusal{text: fmt.Sprintf("The data file %s is in use by another Missive program: the bot, or a console started before this one. "+
			"Close it first, or play in another data file with --data FILE.", path), cause: err}
	}
	if err != nil {
		return sentenceError{"console", err}
	}
	defer st.Close()
	var offset time.Duration
	if err := st.View(ctx, func(tx *storage.Tx) (err error) {
		offset, err = tx.ClockOffset()
		return err
	}); err != nil {
		return fmt.Errorf("console: %w", err)
	}
	clock.Advance(offset) // where the last /wait left it
	con := console.New(console.Options{Out: stdout, Images: dir, Clock: clock, User: *as, Prompt: isTerminal(stdin), Locale: *locale,
		SaveClock: func(ctx context.Context, d time.Duration) error {
			return st.Update(ctx, func(tx *storage.Tx) error { return tx.SetClockOffset(d) })
		}})
	svcCfg := bot.Config{
		Store: st, Registry: reg, Renderer: bot.NewRenderer(), Notifier: con, Now: clock.Now, Logger: logger,
		Engine: bot.NewEngine(engine.New(engine.Options{}), pool, cfgs), Site: "Missive console",
		// The console is connected from the start: the outage since the last session
		// is accounted for below, before the first command, so that a /wait typed at
		// once is never taken for time the console was stopped.
		Gateway: true,
	}
	features.Apply(&svcCfg, features.Options{
		// A game's review is drawn when /review asks: the console waits for the work a
		// command starts, and a review after every ending would hold the prompt.
		Review: review.Options{OnRequest: true, Budget: time.Minute},
	})
	pages, err := newWebPages(webConfig{Listen: *webAddr}, &svcCfg, logger)
	if err != nil {
		return fmt.Errorf("console: %w", err)
	}
	svc, err := bot.New(svcCfg)
	if err != nil {
		return fmt.Errorf("console: %w", err)
	}
	con.Attach(svc)
	svc.GatewayUp(clock.Now())
	fmt.Fprint(stdout, con.Welcome(path, dir))
	if pool != nil {
		// The engines' check is done before the first command: one that cannot
		// play is named on the error output and refused from the start.
		fmt.Fprintf(stdout, "Checking the engines of %s (each plays a move)...\n", *enginesPath)
		svc.CheckEngines()
		svc.Idle()
	}

	runCtx, stop := context.WithCancel(ctx)
	if pages != nil {
		addr, err := pages.start(runCtx, svc, logger)
		if err != nil {
			stop()
			svc.Close()
			return fmt.Errorf("console: %w", err)
		}
		defer pages.wait()
		fmt.Fprintf(stdout, "Web pages at %s: each board's Web page link opens its game; /web gives you your own link, to move and analyse.\n", addr)
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		if err := svc.Run(runCtx); err != nil && !errors.Is(err, context.Canceled) {
			logger.Error("console: scheduler stopped", "error", err)
		}
	}()
	err = con.Run(ctx, stdin)
	stop()
	wg.Wait()
	svc.Close()
	if err != nil && !errors.Is(err, context.Canceled) {
		return fmt.Errorf("console: %w", err)
	}
	return nil
}

// defaultDataDir is where the console keeps its data: the user's data folder
// ($XDG_DATA_HOME or ~/.local/share on Unix, the configuration folder elsewhere), or
// ./missive-data when there is none.
func defaultDataDir() string {
	if d := os.Getenv("XDG_DATA_HOME"); d != "" {
		return filepath.Join(d, "missive")
	}
	if runtime.GOOS != "windows" && runtime.GOOS != "darwin" {
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, ".local", "share", "missive")
		}
	}
	if d, err := os.UserConfigDir(); err == nil {
		return filepath.Join(d, "missive")
	}
	return "missive-data"
}

// isTerminal reports whether r is an interactive terminal (then the console prompts).
func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
