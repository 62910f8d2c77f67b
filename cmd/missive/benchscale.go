package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/features"
	"github.com/missivechess/missive/bot/tournaments"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/record"
	"github.com/missivechess/missive/rules/variants"
	"github.com/missivechess/missive/storage"
)

// bench-scale: how far one machine goes. It fills a data file of N games through
// the real storage package (a quarter in progress, a mix of the four variants, move
// counts as correspondence play has them, players and servers of uneven sizes, a
// heartbeat an hour old), then, in a fresh process so that its peak memory is its
// own, opens the file and starts the service with the product's features as "missive
// run" does, and measures: the open, the give-back of the one-hour outage while
// players move (each move's reply time), the /metrics scrape, and a round-robin
// game's end in the busiest server. It prints a table.

const benchScaleUsage = "measure how far one machine goes: bench-scale -n GAMES [--dir DIR] [--keep] [--moves M]"

// benchMix is the variant mix of the filled games, in percent.
var benchMix = []struct {
	variant string
	percent int
}{{"gothic", 40}, {"keltic", 20}, {"gochess", 20}, {"gess", 20}}

func runBenchScale(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bench-scale", flag.ContinueOnError)
	fs.SetOutput(stderr)
	n := fs.Int("n", 10_000, "games in the data file (a quarter of them in progress)")
	dir := fs.String("dir", "", "folder for the data file (default: a new temporary folder, removed afterwards)")
	keep := fs.Bool("keep", false, "keep the data file")
	moves := fs.Int("moves", 200, "moves players make while the outage is given back (at least)")
	inline := fs.Bool("inline", false, "measure in this process (its peak memory then includes the fill)")
	measure := fs.String("measure", "", "measure the filled data file at this path (used by bench-scale itself)")
	profile := fs.String("cpuprofile", "", "write a CPU profile of the measurements to this file")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *measure != "" {
		if *profile != "" {
			f, err := os.Create(*profile)
			if err != nil {
				return fmt.Errorf("bench-scale: %w", err)
			}
			defer f.Close()
			if err := pprof.StartCPUProfile(f); err != nil {
				return fmt.Errorf("bench-scale: %w", err)
			}
			defer pprof.StopCPUProfile()
		}
		return benchMeasure(ctx, *measure, *moves, stdout)
	}
	if *n < 100 {
		return fmt.Errorf("bench-scale: -n %d: fill at least 100 games: %w", *n, errUsage)
	}
	folder := *dir
	if folder == "" {
		tmp, err := os.MkdirTemp("", "missive-bench-scale-")
		if err != nil {
			return fmt.Errorf("bench-scale: %w", err)
		}
		folder = tmp
		if !*keep {
			defer os.RemoveAll(tmp)
		}
	}
	path := filepath.Join(folder, fmt.Sprintf("bench-%d.db", *n))
	if _, err := os.Stat(path); err == nil {
		return fmt.Errorf("bench-scale: %s exists; remove it or choose another --dir", path)
	}
	start := time.Now()
	if err := benchFill(ctx, path, *n, stderr); err != nil {
		return err
	}
	fi, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("bench-scale: %w", err)
	}
	fmt.Fprintf(stdout, "filled %s: %d games in %s, %.1f MB (%.2f KB a game)\n",
		path, *n, time.Since(start).Round(time.Second), float64(fi.Size())/1e6, float64(fi.Size())/1e3/float64(*n))
	if !*keep && *dir != "" {
		defer os.Remove(path)
	}
	if *inline {
		return benchMeasure(ctx, path, *moves, stdout)
	}
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("bench-scale: %w", err)
	}
	cmd := exec.CommandContext(ctx, exe, "bench-scale", "--measure", path, "--moves", strconv.Itoa(*moves), "--cpuprofile", *profile)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("bench-scale: measuring: %w", err)
	}
	return nil
}

// benchLine is a game played from the start with random legal moves that do not
// end it, kept every few plies: the filled games copy a kept state, so that they
// need not be replayed one by one.
type benchLine struct {
	states []storage.Game // states[i]: after i*benchStep plies
}

const (
	benchStep     = 4
	benchMaxPlies = 140
	benchLines    = 12 // per variant
)

// benchLines plays the lines of every variant of the mix.
func benchPlayLines(reg *rules.Registry, r *rand.Rand) (map[string][]benchLine, error) {
	out := map[string][]benchLine{}
	at := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, m := range benchMix {
		v, err := reg.Lookup(m.variant)
		if err != nil {
			return nil, err
		}
		for range benchLines {
			g := storage.Game{Variant: m.variant}
			g.Seed = r.Uint64()
			if g.Position, err = g.Record.Position(v); err != nil {
				return nil, err
			}
			var line benchLine
			for ply := 0; ply <= benchMaxPlies; ply++ {
				if ply%benchStep == 0 {
					s := g
					s.Moves = slices.Clip(g.Moves)
					line.states = append(line.states, s)
				}
				if !benchPlay(&g, r, at) {
					break
				}
			}
			out[m.variant] = append(out[m.variant], line)
		}
	}
	return out, nil
}

// benchPlay plays one random entry in g that does not end it: a placement choice of
// a side due in a simultaneous round, or a move. It reports false when there is none.
func benchPlay(g *storage.Game, r *rand.Rand, at time.Time) bool {
	pos := g.Position
	if sim, ok := record.Round(pos); ok {
		side := sim.Awaiting()[0]
		ms := sim.LegalMovesFor(side)
		if len(ms) == 0 {
			return false
		}
		_, err := g.Play(side, pos.UCI(ms[r.IntN(len(ms))]), at)
		return err == nil
	}
	ms := pos.LegalMoves()
	off := r.IntN(len(ms) + 1)
	for i := range ms {
		m := ms[(off+i)%len(ms)]
		if next, err := pos.Play(m); err != nil || next.Outcome().IsOver() {
			continue
		}
		_, err := g.Play(pos.Turn(), pos.UCI(m), at)
		return err == nil
	}
	return false
}

// benchFill writes n games to a new data file at path.
func benchFill(ctx context.Context, path string, n int, stderr io.Writer) error {
	reg := variants.Registry()
	r := rand.New(rand.NewPCG(uint64(n), 78))
	lines, err := benchPlayLines(reg, r)
	if err != nil {
		return fmt.Errorf("bench-scale: %w", err)
	}
	st, err := storage.Open(path, reg, &storage.Options{NoSync: true, NoBackupSocket: true, SkipCheck: true,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		return fmt.Errorf("bench-scale: %w", err)
	}
	defer st.Close()
	now := time.Now().UTC()
	players := max(16, n/8)
	guilds := max(1, n/5_000)
	zipf := rand.NewZipf(r, 1.2, 4, uint64(guilds-1)) // a few big servers, many small ones
	days := []int{1, 2, 3, 3, 5, 7}
	const perTx = 1_000
	for start := 0; start < n; start += perTx {
		if err := ctx.Err(); err != nil {
			return err
		}
		err := st.Update(ctx, func(tx *storage.Tx) error {
			for i := start; i < min(n, start+perTx); i++ {
				g := benchGame(r, lines, i, n, players, zipf, days, now)
				if err := tx.PutGame(g); err != nil {
					return err
				}
			}
			if start+perTx >= n {
				return tx.SetHeartbeat(now.Add(-time.Hour)) // the bot was last live an hour ago
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("bench-scale: filling: %w", err)
		}
		if (start/perTx)%100 == 99 {
			fmt.Fprintf(stderr, "bench-scale: %d games written\n", start+perTx)
		}
	}
	return nil
}

// benchGame is game i of n: a copy of a line's state, between two of players, in a
// server (one in twenty outside any), running (a quarter) or finished.
func benchGame(r *rand.Rand, lines map[string][]benchLine, i, n, players int, zipf *rand.Zipf, days []int, now time.Time) *storage.Game {
	pick := r.IntN(100)
	variant := benchMix[0].variant
	for _, m := range benchMix {
		if pick < m.percent {
			variant = m.variant
			break
		}
		pick -= m.percent
	}
	line := lines[variant][r.IntN(len(lines[variant]))]
	running := i%4 == 0
	var plies int
	if running {
		plies = r.IntN(80)
	} else {
		plies = 20 + r.IntN(120)
	}
	k := min(plies/benchStep, len(line.states)-1)
	g := line.states[k] // a copy, with its position: no replay
	g.Stamp = storage.Stamp{}
	w, b := r.IntN(players), r.IntN(players-1)
	if b >= w {
		b++
	}
	g.Players = [2]storage.Seat{{ID: fmt.Sprint(1e6 + w), Name: fmt.Sprint("player ", w)}, {ID: fmt.Sprint(1e6 + b), Name: fmt.Sprint("player ", b)}}
	if r.IntN(20) > 0 {
		g.Guild = fmt.Sprint("g", zipf.Uint64())
		g.Channel, g.Thread = "c-"+g.Guild, fmt.Sprint(1e9+i)
	}
	g.Rated = r.IntN(2) == 0
	d := days[r.IntN(len(days))]
	g.Clock = storage.Clock{DaysPerMove: d}
	if running {
		since := now.Add(-time.Duration(r.Int64N(int64(time.Duration(d) * 24 * time.Hour * 9 / 10))))
		g.Clock.Since, g.Clock.Deadline = since, since.Add(time.Duration(d)*24*time.Hour)
		return &g
	}
	switch r.IntN(3) {
	case 0:
		g.Outcome = rules.Draw(rules.Agreement)
	case 1:
		g.Outcome = rules.Win(rules.Side(r.IntN(2)), rules.Resignation)
	default:
		g.Outcome = rules.Win(rules.Side(r.IntN(2)), rules.Timeout)
	}
	g.EndedAt = now.Add(-time.Duration(r.Int64N(int64(365 * 24 * time.Hour))))
	return &g
}

// discordRate is Discord's global rate limit, in requests a second a bot.
const discordRate = 50

// benchRow is one line of the table.
type benchRow struct{ what, value, goal string }

// benchMeasure opens the filled file at path as "missive run" would and measures.
func benchMeasure(ctx context.Context, path string, moves int, stdout io.Writer) error {
	reg := variants.Registry()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	var rows []benchRow
	row := func(what, value, goal string) { rows = append(rows, benchRow{what, value, goal}) }

	t0 := time.Now()
	st, err := storage.Open(path, reg, &storage.Options{NoBackupSocket: true, Logger: quiet})
	if err != nil {
		return fmt.Errorf("bench-scale: %w", err)
	}
	defer st.Close()
	opened := time.Since(t0)
	var counts storage.Counts
	if err := st.View(ctx, func(tx *storage.Tx) (err error) {
		counts, err = tx.Counts()
		return err
	}); err != nil {
		return fmt.Errorf("bench-scale: %w", err)
	}
	games := counts.States[rules.Ongoing] + counts.States[rules.Won] + counts.States[rules.Drawn]
	running := counts.States[rules.Ongoing]
	sample, err := benchSample(ctx, st, 64)
	if err != nil {
		return err
	}

	// Notices go out at Discord's global limit (50 requests a second a bot), shared
	// by the outbox's workers; nothing is sent anywhere.
	pace := time.NewTicker(time.Second / discordRate)
	defer pace.Stop()
	var sent atomic.Int64
	notifier := bot.NotifierFunc(func(ctx context.Context, _ bot.Notification) error {
		select {
		case <-pace.C:
			sent.Add(1)
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	})
	t1 := time.Now()
	svc, err := bot.New(features.With(bot.Config{Store: st, Registry: reg, Renderer: bot.NewRenderer(), Notifier: notifier, Logger: quiet},
		// A server cap above the busiest server's games, so that its round robin starts
		// (the cap is read from the same count either way).
		features.Options{Tournaments: tournaments.Options{GuildGames: 1 << 30}}))
	if err != nil {
		return fmt.Errorf("bench-scale: %w", err)
	}
	defer svc.Close()
	serving := opened + time.Since(t1)

	// The outage (an hour, plus the fill's time) is given back as the scheduler does
	// at start, while players move.
	var outageLen string
	if err := st.View(ctx, func(tx *storage.Tx) error {
		last, _, err := tx.Heartbeat()
		outageLen = time.Since(last).Round(time.Minute).String()
		return err
	}); err != nil {
		return err
	}
	stopSampling := make(chan struct{})
	anon := sampleAnon(stopSampling)
	resumeStart := time.Now()
	resumed := make(chan time.Duration, 1)
	go func() {
		if err := svc.Resume(ctx, time.Now()); err != nil {
			fmt.Fprintln(os.Stderr, "bench-scale: resume:", err)
		}
		resumed <- time.Since(resumeStart)
	}()
	var lat []time.Duration
	var firstReply, firstMove time.Duration
	var resume time.Duration
	done := false
	for i := 0; !done || len(lat) < moves; i++ {
		select {
		case resume = <-resumed:
			done = true
		default:
		}
		d, ok := benchMove(ctx, svc, st, sample[i%len(sample)], i)
		if ok {
			if len(lat) == 0 {
				firstReply, firstMove = time.Since(resumeStart), d
			}
			lat = append(lat, d)
		}
		if i > 100*moves && len(lat) == 0 {
			return errors.New("bench-scale: no move could be played in the sample games")
		}
	}
	close(stopSampling)
	peakAnon, hwm := <-anon, procStatus("VmHWM")
	slices.Sort(lat)
	pct := func(p float64) string { return ms(lat[min(len(lat)-1, int(p*float64(len(lat))))]) }

	row("games (running)", fmt.Sprintf("%d (%d)", games, running), "")
	row("open (with the full check) to serving", ms(serving), "< 5 s")
	row("  of which storage.Open", ms(opened), "")
	row(fmt.Sprintf("outage given back (%s, %d running games), until clocks run", outageLen, running), ms(resume), "< 60 s")
	row("  first move answered after the restart (its reply: cold renderer)", ms(firstReply+serving)+" ("+ms(firstMove)+")", "")
	row("  peak memory by then: anonymous (sampled RssAnon) / VmHWM (with the mapped file)", fmt.Sprintf("%.0f MB / %.0f MB", peakAnon, hwm), "< 1 GB")
	row(fmt.Sprintf("move reply during the give-back, p50 / p99 / max (%d moves)", len(lat)), pct(0.50)+" / "+pct(0.99)+" / "+ms(lat[len(lat)-1]), "p99 < 250 ms")

	queued, err := outboxLen(ctx, st)
	if err != nil {
		return err
	}
	row("  notices (one a player) still to deliver at 50 a second", fmt.Sprintf("%d (%d sent): %s more", queued, sent.Load(),
		(time.Duration(queued)*time.Second/discordRate).Round(time.Second)), "")

	scrape, err := benchScrape(st, svc)
	if err != nil {
		return err
	}
	row("/metrics scrape (median of 20)", ms(scrape), "< 50 ms")
	var scan time.Duration
	if err := st.View(ctx, func(tx *storage.Tx) error {
		s := time.Now()
		_, err := tx.ScanCounts()
		scan = time.Since(s)
		return err
	}); err != nil {
		return err
	}
	row("  what a scrape cost when it scanned (every game's summary)", ms(scan), "")

	end, count, err := benchRoundRobin(ctx, svc, st, counts)
	if err != nil {
		return err
	}
	row("round-robin game end in the busiest server (resign, whole reply)", ms(end), "independent of running games")
	row("  the server's running-game count inside it", count, "")
	t3 := time.Now()
	svc.Close()
	left, err := outboxLen(ctx, st)
	if err != nil {
		return err
	}
	row("Close with notices still queued", fmt.Sprintf("%s (%d stay in the outbox for the next start)", ms(time.Since(t3)), left), "< 10 s")
	row("reviews a day", "see the other note (78.2)", ">= 3,000 on 2 cores")
	row("backup verify, time a game", "see the other note (78.4)", "")

	w := bufio.NewWriter(stdout)
	fmt.Fprintf(w, "\n| at %d games (%d running), %d cores | measured | goal |\n|---|---|---|\n", games, running, runtime.NumCPU())
	for _, r := range rows {
		fmt.Fprintf(w, "| %s | %s | %s |\n", r.what, r.value, r.goal)
	}
	return w.Flush()
}

// outboxLen returns how many notices wait in the outbox.
func outboxLen(ctx context.Context, st *storage.Store) (n int, err error) {
	err = st.View(ctx, func(tx *storage.Tx) error {
		n, err = tx.OutboxLen()
		return err
	})
	return n, err
}

// ms writes d in milliseconds (seconds from one, microseconds below a millisecond).
func ms(d time.Duration) string {
	switch {
	case d >= time.Second:
		return fmt.Sprintf("%.2f s", d.Seconds())
	case d < time.Millisecond:
		return fmt.Sprintf("%d µs", d.Microseconds())
	}
	return fmt.Sprintf("%.1f ms", float64(d)/1e6)
}

// procStatus returns a field of /proc/self/status in MB (Linux; 0 elsewhere).
func procStatus(field string) float64 {
	raw, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(raw), "\n") {
		if v, ok := strings.CutPrefix(l, field+":"); ok {
			kb, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			return float64(kb) / 1e3
		}
	}
	return 0
}

// sampleAnon samples the process's anonymous resident memory (the heap and stacks,
// not the mapped data file, whose pages the kernel may drop) every few
// milliseconds until stop is closed, and returns the highest seen.
func sampleAnon(stop <-chan struct{}) <-chan float64 {
	out := make(chan float64, 1)
	go func() {
		peak := procStatus("RssAnon")
		t := time.NewTicker(10 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-stop:
				out <- max(peak, procStatus("RssAnon"))
				return
			case <-t.C:
				peak = max(peak, procStatus("RssAnon"))
			}
		}
	}()
	return out
}

// benchSample returns up to n running games, spread over the file, that are past any
// placement round (so that a move is a move).
func benchSample(ctx context.Context, st *storage.Store, n int) ([]string, error) {
	var out []string
	r := rand.New(rand.NewPCG(5, 5))
	err := st.View(ctx, func(tx *storage.Tx) error {
		for try := 0; try < 20*n && len(out) < n; try++ {
			ids, err := tx.ActiveGamesAfter(strconv.Itoa(r.IntN(1_000_000_000)), 1)
			if err != nil || len(ids) == 0 {
				continue
			}
			g, err := tx.Game(ids[0])
			if err != nil {
				continue
			}
			if _, round := record.Round(g.Position); !round && !slices.Contains(out, g.ID) {
				out = append(out, g.ID)
			}
		}
		return nil
	})
	if err == nil && len(out) == 0 {
		err = errors.New("bench-scale: no running game to move in")
	}
	return out, err
}

// benchMove plays a legal move in game id as the player to move, and returns the
// time its reply took; false when the game has no move left.
func benchMove(ctx context.Context, svc *bot.Service, st *storage.Store, id string, seq int) (time.Duration, bool) {
	var g *storage.Game
	if err := st.View(ctx, func(tx *storage.Tx) (err error) {
		g, err = tx.Game(id)
		return err
	}); err != nil || !g.Active() {
		return 0, false
	}
	ms := g.Position.LegalMoves()
	if len(ms) == 0 {
		return 0, false
	}
	m := ms[seq%len(ms)]
	user := g.Player(g.Position.Turn())
	req := bot.Request{ID: fmt.Sprint("bench-move-", seq), User: bot.User{ID: user.ID, Name: user.Name},
		Place: bot.Place{Guild: g.Guild, Channel: g.Channel, Thread: g.Thread}, Command: "move", Args: bot.Args{"game": id, "move": g.Position.UCI(m)}}
	start := time.Now()
	r := svc.Handle(ctx, req)
	d := time.Since(start)
	return d, !r.Refused
}

// benchScrape times the /metrics handler of "missive run".
func benchScrape(st *storage.Store, svc *bot.Service) (time.Duration, error) {
	m := newMetrics(st)
	m.setService(svc)
	h := m.handler()
	var ds []time.Duration
	for range 20 {
		rec := httptest.NewRecorder()
		start := time.Now()
		h.ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
		ds = append(ds, time.Since(start))
		if rec.Code != 200 || !strings.Contains(rec.Body.String(), "missive_active_games") {
			return 0, fmt.Errorf("bench-scale: /metrics answered %d: %s", rec.Code, rec.Body.String())
		}
	}
	slices.Sort(ds)
	return ds[len(ds)/2], nil
}

// benchRoundRobin runs a round robin of six players in the server with the most
// running games and times the reply to a resignation that ends one of its games
// (the write transaction that ends it also starts the waiting games of the server's
// round robins, which asks how many games the server has in progress).
func benchRoundRobin(ctx context.Context, svc *bot.Service, st *storage.Store, counts storage.Counts) (time.Duration, string, error) {
	guild, most := "", -1
	for g, n := range counts.Guilds {
		if g != "" && n > most {
			guild, most = g, n
		}
	}
	if guild == "" {
		return 0, "", errors.New("bench-scale: no server has games in progress")
	}
	place := bot.Place{Guild: guild, Channel: "c-" + guild}
	seq := 0
	do := func(user, command string, args bot.Args) (bot.Reply, error) {
		seq++
		r := svc.Handle(ctx, bot.Request{ID: fmt.Sprint("bench-rr-", seq), User: bot.User{ID: user, Name: user}, Place: place,
			Admin: true, Command: command, Args: args})
		if r.Refused {
			return r, fmt.Errorf("bench-scale: /%s by %s: %s", command, user, r.Text)
		}
		return r, nil
	}
	players := []string{"rr1", "rr2", "rr3", "rr4", "rr5", "rr6"}
	if _, err := do(players[0], "tournament", bot.Args{"action": "create", "variant": "gothic", "format": "round-robin", "rated": "no", "days": "3"}); err != nil {
		return 0, "", err
	}
	for _, p := range players {
		if _, err := do(p, "tournament", bot.Args{"action": "join"}); err != nil {
			return 0, "", err
		}
	}
	if _, err := do(players[0], "tournament", bot.Args{"action": "start"}); err != nil {
		return 0, "", err
	}
	var id, who string
	var n int
	if err := st.View(ctx, func(tx *storage.Tx) error {
		for _, p := range players {
			gs, err := tx.PlayerActiveGames(p)
			if err != nil {
				return err
			}
			if len(gs) > 0 {
				id, who = gs[0].ID, p
				break
			}
		}
		var err error
		n, err = tx.RunningGames(guild)
		return err
	}); err != nil {
		return 0, "", err
	}
	if id == "" {
		return 0, "", errors.New("bench-scale: the round robin started no game")
	}
	start := time.Now()
	if _, err := do(who, "resign", bot.Args{"game": id}); err != nil {
		return 0, "", err
	}
	return time.Since(start), fmt.Sprintf("%d running games in %s", n, guild), nil
}
