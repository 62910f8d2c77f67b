package web

import (
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// limiter is a token bucket per client address: each address may make burst
// requests at once and rate a second on average.
type limiter struct {
	rate, burst float64
	now         func() time.Time

	mu      sync.Mutex
	buckets map[string]*bucket
}

type bucket struct {
	tokens float64
	at     time.Time
}

// maxBuckets bounds the addresses remembered; past it, full buckets are forgotten.
const maxBuckets = 10000

func newLimiter(rate, burst float64, now func() time.Time) *limiter {
	return &limiter{rate: rate, burst: burst, now: now, buckets: map[string]*bucket{}}
}

// allow takes one token from addr's bucket and reports whether there was one.
func (l *limiter) allow(addr string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	b, ok := l.buckets[addr]
	if !ok {
		if len(l.buckets) >= maxBuckets {
			l.forgetFull(now)
		}
		b = &bucket{tokens: l.burst, at: now}
		l.buckets[addr] = b
	}
	if d := now.Sub(b.at); d > 0 {
		b.tokens = min(l.burst, b.tokens+d.Seconds()*l.rate)
		b.at = now
	}
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

// forgetFull drops the buckets that have filled up again by now.
func (l *limiter) forgetFull(now time.Time) {
	for k, b := range l.buckets {
		if b.tokens+now.Sub(b.at).Seconds()*l.rate >= l.burst {
			delete(l.buckets, k)
		}
	}
}

// clientAddr is the address a request came from, without its port: behind a
// proxy (Options.BehindProxy), the last address of X-Forwarded-For, the one the
// proxy added (those before it are the client's to write).
func (w *Server) clientAddr(r *http.Request) string {
	if w.opts.BehindProxy {
		if f := r.Header.Values("X-Forwarded-For"); len(f) > 0 {
			list := strings.Split(f[len(f)-1], ",")
			if a := strings.TrimSpace(list[len(list)-1]); a != "" {
				return a
			}
		}
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}
