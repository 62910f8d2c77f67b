package main

import (
	"fmt"
	"io"
	"net/http"
	"sort"
	"sync"
	"time"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/storage"
)

// The Prometheus exporter of `missive run`: counters of commands, notices and
// engines, the games in progress, and the health of the gateway.

// latencyBuckets are the upper bounds, in seconds, of the latency histogram.
var latencyBuckets = []float64{0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10}

// metrics counts what the bot does, for the Prometheus text format.
type metrics struct {
	st  *storage.Store
	svc *bot.Service // its delivery metrics, once it exists

	mu    sync.Mutex
	ready bool
	// connected reports the gateway connection (nil: not yet known).
	connected func() bool
	handled   map[string]uint64
	failed    map[string]uint64
	// locales counts interactions by the user's locale, under i18n.MetricLabel's
	// bounded labels.
	locales map[string]uint64
	buckets []uint64
	count   uint64
	sum     float64
}

func newMetrics(st *storage.Store) *metrics {
	return &metrics{st: st, handled: map[string]uint64{}, failed: map[string]uint64{}, locales: map[string]uint64{}, buckets: make([]uint64, len(latencyBuckets))}
}

func (m *metrics) setService(svc *bot.Service) {
	m.mu.Lock()
	m.svc = svc
	m.mu.Unlock()
}

func (m *metrics) setReady(r bool) {
	m.mu.Lock()
	m.ready = r
	m.mu.Unlock()
}

func (m *metrics) setConnected(f func() bool) {
	m.mu.Lock()
	m.connected = f
	m.mu.Unlock()
}

// gateway reports whether the gateway is connected, false while it is not known.
func (m *metrics) gateway() bool {
	m.mu.Lock()
	f := m.connected
	m.mu.Unlock()
	return f != nil && f()
}

func (m *metrics) observe(command string, took time.Duration, failed bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.handled[command]++
	if failed {
		m.failed[command]++
	}
	sec := took.Seconds()
	for i, b := range latencyBuckets {
		if sec <= b {
			m.buckets[i]++
		}
	}
	m.count++
	m.sum += sec
}

// observeLocale counts an interaction of a user whose client speaks locale.
func (m *metrics) observeLocale(locale string) {
	m.mu.Lock()
	m.locales[i18n.MetricLabel(locale)]++
	m.mu.Unlock()
}

func (m *metrics) handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		m.mu.Lock()
		ready := m.ready
		m.mu.Unlock()
		if !ready {
			http.Error(w, "starting or stopping", http.StatusServiceUnavailable)
			return
		}
		if !m.gateway() {
			http.Error(w, "disconnected from the Discord gateway (game clocks are held)", http.StatusServiceUnavailable)
			return
		}
		fmt.Fprintln(w, "ok")
	})
	mux.HandleFunc("GET /metrics", func(w http.ResponseWriter, r *http.Request) {
		// The counts are kept with every write (storage.Tx.Counts): a scrape reads a few
		// keys, never the games.
		var counts storage.Counts
		err := m.st.View(r.Context(), func(tx *storage.Tx) (err error) {
			counts, err = tx.Counts()
			return err
		})
		w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
		m.write(w, counts, err == nil, m.gateway())
		m.mu.Lock()
		svc := m.svc
		m.mu.Unlock()
		if svc != nil {
			svc.WriteMetrics(w)
		}
	})
	return mux
}

// write prints the metrics in the Prometheus text exposition format.
func (m *metrics) write(w io.Writer, counts storage.Counts, countsOK, connected bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	fmt.Fprintln(w, "# HELP missive_commands_total Interactions handled, by command.")
	fmt.Fprintln(w, "# TYPE missive_commands_total counter")
	for _, c := range sortedKeys(m.handled) {
		fmt.Fprintf(w, "missive_commands_total{command=%q} %d\n", c, m.handled[c])
	}
	fmt.Fprintln(w, "# HELP missive_interactions_by_locale_total Interactions handled, by the user's Discord locale (\"other\": one Discord does not list).")
	fmt.Fprintln(w, "# TYPE missive_interactions_by_locale_total counter")
	for _, l := range sortedKeys(m.locales) {
		fmt.Fprintf(w, "missive_interactions_by_locale_total{locale=%q} %d\n", l, m.locales[l])
	}
	fmt.Fprintln(w, "# HELP missive_command_errors_total Interactions refused or failed, by command.")
	fmt.Fprintln(w, "# TYPE missive_command_errors_total counter")
	for _, c := range sortedKeys(m.failed) {
		fmt.Fprintf(w, "missive_command_errors_total{command=%q} %d\n", c, m.failed[c])
	}
	fmt.Fprintln(w, "# HELP missive_command_duration_seconds Time to answer an interaction.")
	fmt.Fprintln(w, "# TYPE missive_command_duration_seconds histogram")
	for i, b := range latencyBuckets {
		fmt.Fprintf(w, "missive_command_duration_seconds_bucket{le=\"%g\"} %d\n", b, m.buckets[i])
	}
	fmt.Fprintf(w, "missive_command_duration_seconds_bucket{le=\"+Inf\"} %d\n", m.count)
	fmt.Fprintf(w, "missive_command_duration_seconds_sum %g\n", m.sum)
	fmt.Fprintf(w, "missive_command_duration_seconds_count %d\n", m.count)
	fmt.Fprintln(w, "# HELP missive_gateway_connected 1 while the Discord gateway is connected and game clocks run.")
	fmt.Fprintln(w, "# TYPE missive_gateway_connected gauge")
	gw := 0
	if connected {
		gw = 1
	}
	fmt.Fprintf(w, "missive_gateway_connected %d\n", gw)
	if countsOK {
		fmt.Fprintln(w, "# HELP missive_active_games Games in progress.")
		fmt.Fprintln(w, "# TYPE missive_active_games gauge")
		fmt.Fprintf(w, "missive_active_games %d\n", counts.States[rules.Ongoing])
		fmt.Fprintln(w, "# HELP missive_games Games stored, by state (ongoing, won, drawn).")
		fmt.Fprintln(w, "# TYPE missive_games gauge")
		for _, st := range []rules.Status{rules.Ongoing, rules.Won, rules.Drawn} {
			fmt.Fprintf(w, "missive_games{state=%q} %d\n", st, counts.States[st])
		}
		fmt.Fprintln(w, "# HELP missive_servers_with_games Servers with games in progress.")
		fmt.Fprintln(w, "# TYPE missive_servers_with_games gauge")
		servers := 0
		for g, n := range counts.Guilds {
			if g != "" && n > 0 {
				servers++
			}
		}
		fmt.Fprintf(w, "missive_servers_with_games %d\n", servers)
	}
}

func sortedKeys(m map[string]uint64) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
