package discordtest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
)

// Defaults of Config.
const (
	DefaultToken              = "test-token"
	DefaultHeartbeatInterval  = 41250 * time.Millisecond
	DefaultInteractionTimeout = 3 * time.Second
)

// Config sets up a fake Discord; its zero value is a usable world (see DefaultGuild).
type Config struct {
	// Token is the bot token without its "Bot " prefix; DefaultToken when empty.
	Token string
	// Bot is the bot user; named Missive with a generated id when empty.
	Bot User
	// ApplicationID defaults to the bot user's id, as for applications made today.
	ApplicationID string
	// Guilds are the servers the bot is in; []Guild{DefaultGuild()} when nil.
	Guilds []Guild
	// HeartbeatInterval is sent in HELLO; DefaultHeartbeatInterval when zero.
	HeartbeatInterval time.Duration
	// InteractionTimeout is how long after delivery an interaction may be answered,
	// Discord's 3 seconds when zero; later callbacks get 404 Unknown interaction (10062)
	// and fail the test.
	InteractionTimeout time.Duration
	// InteractionTokenLifetime is how long an interaction's followups and edits work,
	// DefaultInteractionTokenLifetime (Discord's 15 minutes) when zero; later ones get
	// 401 Invalid Webhook Token (50027), which a bot must cope with.
	InteractionTokenLifetime time.Duration
	// PrivilegedIntents are the privileged intents enabled for the application in the
	// developer portal; identifying with others closes the gateway with 4014.
	PrivilegedIntents discordgo.Intent
	// Spec is Discord's API description to check requests against; New uses SpecFor(t)
	// when it is nil, Start checks nothing when it is nil.
	Spec *Spec
	// Report receives each failure the fake detects (Start only; New reports to t), and
	// must not call the Server; failures are also kept for Server.Failures.
	Report func(msg string)
	// Unlimited turns off the rate limits Discord applies that the fake models by
	// default (DefaultGlobalLimit, DefaultMessageLimit, DefaultThreadCreateLimit): for
	// tests of something else that post faster than Discord allows, each saying why.
	// SetRateLimit and its kin still apply.
	Unlimited bool
	// AnyResumeURL accepts a RESUME on the connect address too, for tests of a bare
	// discordgo session, which resumes where it first connected.
	AnyResumeURL bool
	// Logf, when set, traces the traffic.
	Logf func(format string, args ...any)
}

// Server is a fake Discord (REST API and gateway) on 127.0.0.1, safe for concurrent use.
type Server struct {
	cfg     Config
	spec    *Spec
	http    *httptest.Server
	addr    string
	client  *http.Client
	dialer  *websocket.Dialer
	ids     snowflakes
	token   string
	bot     User
	appID   string
	timeout time.Duration
	routes  []restRoute

	reportMu sync.Mutex
	done     bool
	failures []string

	mu           sync.Mutex
	changed      chan struct{}
	users        map[string]*User
	guilds       []*guildState
	channels     map[string]*channelState
	channelOrder []string
	messages     map[string]*messageState
	dms          map[string]string // user id -> DM channel id
	commands     map[string][]*commandState
	interactions map[string]*interactionState
	tokens       map[string]*interactionState
	requests     []Request
	latency      map[string]time.Duration
	faults       []fault
	rl           rateLimits
	nonces       map[string]nonceState // by author and nonce
	nonceWindow  time.Duration
	nonceHits    int
	inv          invalidState
	gw           gatewayState
}

// fault is a planned failure of the next request to a route.
type fault struct {
	route string
	f     Failure
}

// Failure is an error answer to plant with Server.FailNext.
type Failure struct {
	Status  int
	Code    int
	Message string
	// RetryAfter makes a 429 rate-limit answer.
	RetryAfter time.Duration
	// Drop closes the connection without an answer, as a network failure does.
	Drop bool
}

// New starts a fake Discord for t, checking every request against Discord's API
// description (SpecFor), reporting what the bot does wrong with t.Errorf, and closing
// when t ends.
func New(t testing.TB, cfg Config) *Server {
	t.Helper()
	if cfg.Spec == nil {
		cfg.Spec = SpecFor(t)
	}
	cfg.Report = func(msg string) { t.Error(msg) }
	if cfg.Logf == nil && testing.Verbose() {
		cfg.Logf = t.Logf
	}
	s, err := Start(cfg)
	if err != nil {
		t.Fatalf("discordtest: %v", err)
	}
	t.Cleanup(s.Close)
	return s
}

// Start starts a fake Discord outside a test's control; call Close when done.
func Start(cfg Config) (*Server, error) {
	s := &Server{
		cfg:          cfg,
		spec:         cfg.Spec,
		token:        cfg.Token,
		timeout:      cfg.InteractionTimeout,
		changed:      make(chan struct{}),
		users:        map[string]*User{},
		channels:     map[string]*channelState{},
		messages:     map[string]*messageState{},
		dms:          map[string]string{},
		commands:     map[string][]*commandState{},
		interactions: map[string]*interactionState{},
		tokens:       map[string]*interactionState{},
		latency:      map[string]time.Duration{},
		rl:           rateLimits{routes: map[string]RateLimit{}, buckets: map[string]*bucketState{}},
		nonces:       map[string]nonceState{},
		nonceWindow:  DefaultNonceWindow,
	}
	if s.token == "" {
		s.token = DefaultToken
	}
	if s.timeout == 0 {
		s.timeout = DefaultInteractionTimeout
	}
	if s.cfg.InteractionTokenLifetime == 0 {
		s.cfg.InteractionTokenLifetime = DefaultInteractionTokenLifetime
	}
	if s.cfg.HeartbeatInterval == 0 {
		s.cfg.HeartbeatInterval = DefaultHeartbeatInterval
	}
	if !cfg.Unlimited {
		s.rl.global, s.rl.threads = DefaultGlobalLimit, DefaultThreadCreateLimit
		s.rl.routes[messageRoute] = DefaultMessageLimit
	}
	if err := s.buildWorld(); err != nil {
		return nil, err
	}
	s.routes = s.restRoutes()
	s.gw.init()
	s.http = httptest.NewServer(http.HandlerFunc(s.serveHTTP))
	s.addr = s.http.Listener.Addr().String()
	s.client, s.dialer = clients(s.addr, s.fail)
	return s, nil
}

// clients are an http.Client and a websocket dialer that reach only the fake at addr,
// reporting any other destination with fail.
func clients(addr string, fail func(format string, args ...any)) (*http.Client, *websocket.Dialer) {
	_, port, _ := net.SplitHostPort(addr)
	dial := func(ctx context.Context, network, to string) (net.Conn, error) {
		if to != addr && to != resumeHost+":"+port {
			fail("discordtest: the bot dialed %s, which is not the fake Discord (%s); tests have no network", to, addr)
			return nil, fmt.Errorf("discordtest: refusing to dial %s", to)
		}
		var d net.Dialer
		return d.DialContext(ctx, "tcp", addr)
	}
	base := &http.Transport{Proxy: nil, DialContext: dial, MaxIdleConnsPerHost: 16}
	return &http.Client{Transport: &transport{addr: addr, fail: fail, base: base}, Timeout: 20 * time.Second},
		&websocket.Dialer{Proxy: nil, NetDialContext: dial, HandshakeTimeout: 10 * time.Second}
}

// Addr is the fake's listening address, for RemoteClients.
func (s *Server) Addr() string { return s.addr }

// RemoteClients are an http.Client and a websocket dialer (for discordgo.Session.Client
// and Dialer) with which a bot in another process, such as a re-executed test binary,
// reaches the fake listening at addr (Server.Addr) as HTTPClient and Dialer do. A
// request anywhere else fails, reported to fail, and never leaves the machine.
func RemoteClients(addr string, fail func(format string, args ...any)) (*http.Client, *websocket.Dialer) {
	return clients(addr, fail)
}

// Close stops the fake: connections are dropped and later failures are only kept.
func (s *Server) Close() {
	s.reportMu.Lock()
	s.done = true
	s.reportMu.Unlock()
	s.Disconnect()
	s.http.CloseClientConnections()
	s.http.Close()
}

// URL is the fake's base URL, http://127.0.0.1:port.
func (s *Server) URL() string { return s.http.URL }

// GatewayURL is the fake gateway's websocket URL, as GET /gateway returns it.
func (s *Server) GatewayURL() string { return "ws://" + s.addr }

// resumeHost is the host of the fake's resume address: the fake's dialers take it to
// the fake, as Discord's resume_gateway_url names another host than its connect URL
// (wss://gateway-us-east1-b.discord.gg against wss://gateway.discord.gg).
const resumeHost = "resume-gateway.discord.test"

// ResumeGatewayURL is the address READY gives for resuming (resume_gateway_url): the
// same server as GatewayURL under another host name, so the fake knows which one a
// client dialled. A RESUME on the connect address fails the test unless
// Config.AnyResumeURL.
func (s *Server) ResumeGatewayURL() string {
	_, port, _ := net.SplitHostPort(s.addr)
	return "ws://" + resumeHost + ":" + port
}

// Token is the bot token, without "Bot ".
func (s *Server) Token() string { return s.token }

// ApplicationID is the application's id.
func (s *Server) ApplicationID() string { return s.appID }

// Bot is the bot user.
func (s *Server) Bot() User { return s.bot }

// HTTPClient is an http.Client for discordgo.Session.Client: requests to discord.com
// go to the fake, and requests anywhere else fail the test and never leave the machine.
func (s *Server) HTTPClient() *http.Client { return s.client }

// Dialer is a websocket dialer for discordgo.Session.Dialer that reaches only the fake.
func (s *Server) Dialer() *websocket.Dialer { return s.dialer }

// Attach points a discordgo session at the fake: its REST client and gateway dialer.
func (s *Server) Attach(ds *discordgo.Session) {
	ds.Client = s.client
	ds.Dialer = s.dialer
}

// NewSession returns a discordgo session for the fake's bot, attached to the fake and
// identifying with the Guilds intent only; it is not open yet.
func (s *Server) NewSession() *discordgo.Session {
	ds, _ := discordgo.New("Bot " + s.token) // New cannot fail
	s.Attach(ds)
	ds.Identify.Intents = discordgo.IntentsGuilds
	return ds
}

// discordHosts are the hosts the transport sends to the fake.
var discordHosts = map[string]bool{
	"discord.com": true, "discordapp.com": true, "canary.discord.com": true, "ptb.discord.com": true,
}

// transport rewrites requests for Discord's hosts to the fake server.
type transport struct {
	addr string
	fail func(format string, args ...any)
	base http.RoundTripper
}

func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	host := req.URL.Hostname()
	if !discordHosts[host] && req.URL.Host != t.addr {
		t.fail("discordtest: the bot sent %s %s, which is not Discord's API; tests have no network", req.Method, req.URL)
		if req.Body != nil {
			req.Body.Close()
		}
		return nil, fmt.Errorf("discordtest: no network for %s", req.URL)
	}
	r := req.Clone(req.Context())
	r.URL.Scheme = "http"
	r.URL.Host = t.addr
	r.Host = req.URL.Host
	return t.base.RoundTrip(r)
}

// fail reports a failure the fake detected.
func (s *Server) fail(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	s.reportMu.Lock()
	defer s.reportMu.Unlock()
	s.failures = append(s.failures, msg)
	if !s.done && s.cfg.Report != nil {
		s.cfg.Report(msg)
	}
}

// Failures returns every failure the fake has detected, in order.
func (s *Server) Failures() []string {
	s.reportMu.Lock()
	defer s.reportMu.Unlock()
	return append([]string(nil), s.failures...)
}

func (s *Server) logf(format string, args ...any) {
	s.reportMu.Lock()
	defer s.reportMu.Unlock()
	if s.cfg.Logf != nil && !s.done {
		s.cfg.Logf("discordtest: "+format, args...)
	}
}

// notifyLocked wakes everyone in Wait; s.mu is held.
func (s *Server) notifyLocked() {
	close(s.changed)
	s.changed = make(chan struct{})
}

// Wait blocks until cond, which may call the Server's accessors, returns true after a
// change of the fake's state (requests, gateway traffic), or until ctx ends.
func (s *Server) Wait(ctx context.Context, cond func() bool) error {
	for {
		s.mu.Lock()
		ch := s.changed
		s.mu.Unlock()
		if cond() {
			return nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return fmt.Errorf("discordtest: waiting: %w", ctx.Err())
		}
	}
}

// SetLatency delays every REST answer by d; route, e.g. "POST /channels/{channel_id}/messages",
// limits it to one route, and "" means all routes.
func (s *Server) SetLatency(route string, d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.latency[route] = d
}

// FailNext makes the next request to route (e.g. "POST /channels/{channel_id}/messages")
// fail with f.
func (s *Server) FailNext(route string, f Failure) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = append(s.faults, fault{route, f})
}

// Requests returns every REST request received so far. A request is listed once it
// has been answered, so its effect (a message, an archived thread) can be seen a
// moment before it is listed; a test of a request the bot sends on its own waits.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// RequestsTo returns the requests to one route, e.g. "PUT /applications/{application_id}/commands".
func (s *Server) RequestsTo(route string) []Request {
	var out []Request
	for _, r := range s.Requests() {
		if r.Route == route {
			out = append(out, r)
		}
	}
	return out
}

// call is one REST request being handled.
type call struct {
	r      *http.Request
	params map[string]string
	query  url.Values
	raw    []byte         // JSON body or payload_json
	body   map[string]any // raw decoded, when an object
	list   []any          // raw decoded, when an array
	files  []File
}

func (c *call) str(k string) string { s, _ := c.body[k].(string); return s }

// reply is a handler's answer: status and a JSON body (nil for 204).
type reply struct {
	status int
	body   any
	quiet  bool // an error the bot is expected to handle: do not fail the test
	// planted marks a failure the test planted (FailNext), never an avoidable one.
	planted bool
	drop    bool // close the connection instead of answering
	// headers are the rate-limit headers of a limited route (default ones otherwise).
	headers map[string]string
}

func okJSON(body any) reply { return reply{status: http.StatusOK, body: body} }

func noContent() reply { return reply{status: http.StatusNoContent} }

// apiError is Discord's JSON error answer; such errors are bot mistakes and fail the test
// unless marked expected.
func apiError(status, code int, msg string) reply {
	return reply{status: status, body: map[string]any{"message": msg, "code": code}}
}

// expected marks an error the bot must cope with (a blocked DM, a missing permission).
func (r reply) expected() reply { r.quiet = true; return r }

// restRoute is a route the fake implements.
type restRoute struct {
	pathTemplate
	method string
	auth   bool // needs the bot token (not the interaction webhooks)
	h      func(*call) reply
}

var apiPrefix = regexp.MustCompile(`^/api/v(\d+)(/.*)$`)

func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	if websocket.IsWebSocketUpgrade(r) {
		s.serveGateway(w, r)
		return
	}
	m := apiPrefix.FindStringSubmatch(r.URL.Path)
	if m == nil {
		s.fail("discordtest: %s %s is not under /api/v{version}", r.Method, r.URL.Path)
		writeJSON(w, http.StatusNotFound, map[string]any{"message": "404: Not Found", "code": 0})
		return
	}
	raw, err := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	if err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]any{"message": "400: Bad Request", "code": 0})
		return
	}
	rec := Request{
		Method: r.Method, Path: m[2], APIVersion: m[1], Query: r.URL.Query(),
		ContentType: r.Header.Get("Content-Type"), Time: time.Now(),
	}
	c := &call{r: r, query: r.URL.Query()}
	rep := s.handle(c, &rec, raw)
	rec.Status = rep.status
	rec.Body = c.raw
	rec.Files = c.files
	s.countInvalid(&rec, rep)
	s.mu.Lock()
	s.requests = append(s.requests, rec)
	s.notifyLocked()
	s.mu.Unlock()
	s.logf("%s %s -> %d", rec.Method, rec.Path, rep.status)
	if rep.drop {
		if hj, ok := w.(http.Hijacker); ok {
			if conn, _, err := hj.Hijack(); err == nil {
				conn.Close()
				return
			}
		}
		rep = reply{status: http.StatusBadGateway, quiet: true, body: map[string]any{"message": "502: Bad Gateway", "code": 0}}
	}
	if rep.status >= 400 && !rep.quiet {
		s.fail("discordtest: %s %s: the fake Discord answered %d %s", rec.Method, rec.Path, rep.status, marshal(rep.body))
	}
	if rep.headers != nil {
		for k, v := range rep.headers {
			w.Header().Set(k, v)
		}
	} else {
		s.rateLimitHeaders(w, rec.Route)
	}
	if rep.status == http.StatusNoContent || rep.body == nil {
		w.WriteHeader(rep.status)
		return
	}
	writeJSON(w, rep.status, rep.body)
}

func (s *Server) handle(c *call, rec *Request, raw []byte) reply {
	// Decode the body: JSON, or multipart with payload_json and files.
	ctype, params, _ := mime.ParseMediaType(rec.ContentType)
	switch ctype {
	case "multipart/form-data":
		form, err := parseMultipart(raw, params["boundary"])
		if err != nil {
			return apiError(http.StatusBadRequest, 0, "400: Bad Request ("+err.Error()+")")
		}
		c.raw, c.files = form.payload, form.files
	default:
		if len(raw) > 0 {
			c.raw = raw
		}
	}
	if len(c.raw) > 0 {
		var v any
		if err := json.Unmarshal(c.raw, &v); err == nil {
			c.body, _ = v.(map[string]any)
			c.list, _ = v.([]any)
		}
	}

	route, params, found := bestMatch(s.routesFor(rec.Method), func(r restRoute) pathTemplate { return r.pathTemplate }, rec.Path)
	rec.Route = rec.Method + " " + rec.Path
	if found {
		rec.Route = rec.Method + " " + route.template
		rec.Params = params
		c.params = params
	}

	// Latency, then Discord's API description.
	s.mu.Lock()
	d, all := s.latency[rec.Route], s.latency[""]
	s.mu.Unlock()
	if err := sleep(c.r.Context(), max(d, all)); err != nil {
		return reply{status: 499, quiet: true}
	}
	if s.spec != nil {
		m, vs := s.spec.Check(rec.Method, rec.Path, c.query, rec.ContentType, raw)
		if m != nil && !found {
			rec.Route = rec.Method + " " + m.Template
			rec.Params = m.Params
		}
		rec.Violations = vs
		for _, v := range vs {
			s.fail("discordtest: %s", v)
		}
		if len(vs) > 0 {
			return invalidForm(vs).expected() // already reported
		}
	}
	if !found {
		s.fail("discordtest: %s %s: the fake Discord does not implement this route; extend discordtest", rec.Method, rec.Path)
		return apiError(http.StatusNotFound, 0, "404: Not Found").expected()
	}
	if route.auth && c.r.Header.Get("Authorization") != "Bot "+s.token {
		return apiError(http.StatusUnauthorized, 0, "401: Unauthorized")
	}
	if f, ok := s.takeFault(rec.Route); ok {
		r := failureReply(f)
		r.planted = true
		return r
	}
	s.mu.Lock()
	hdr, limited := s.rateLimitLocked(rec.Route, params, time.Now())
	s.mu.Unlock()
	if limited != nil {
		limited.headers = hdr
		return *limited
	}
	rep := route.h(c)
	rep.headers = hdr
	return rep
}

func (s *Server) routesFor(method string) []restRoute {
	var out []restRoute
	for _, r := range s.routes {
		if r.method == method {
			out = append(out, r)
		}
	}
	return out
}

func (s *Server) takeFault(route string) (Failure, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, f := range s.faults {
		if f.route == route {
			s.faults = append(s.faults[:i], s.faults[i+1:]...)
			return f.f, true
		}
	}
	return Failure{}, false
}

func failureReply(f Failure) reply {
	if f.Drop {
		return reply{drop: true, quiet: true}
	}
	if f.RetryAfter > 0 {
		return reply{status: http.StatusTooManyRequests, quiet: true, body: map[string]any{
			"message": "You are being rate limited.", "retry_after": f.RetryAfter.Seconds(), "global": false}}
	}
	status := f.Status
	if status == 0 {
		status = http.StatusInternalServerError
	}
	return apiError(status, f.Code, f.Message).expected()
}

// invalidForm is Discord's 400 Invalid Form Body with the errors nested by JSON pointer.
func invalidForm(vs []Violation) reply {
	errs := map[string]any{}
	for _, v := range vs {
		node := errs
		if v.Where == "body" && v.Pointer != "" {
			for _, seg := range strings.Split(v.Pointer[1:], "/") {
				next, _ := node[seg].(map[string]any)
				if next == nil {
					next = map[string]any{}
					node[seg] = next
				}
				node = next
			}
		}
		list, _ := node["_errors"].([]any)
		node["_errors"] = append(list, map[string]any{"code": "BASE_TYPE_INVALID", "message": v.Message})
	}
	return reply{status: http.StatusBadRequest, body: map[string]any{
		"message": "Invalid Form Body", "code": discordgo.ErrCodeInvalidFormBody, "errors": errs}}
}

func (s *Server) rateLimitHeaders(w http.ResponseWriter, route string) {
	h := w.Header()
	h.Set("X-RateLimit-Limit", "50")
	h.Set("X-RateLimit-Remaining", "49")
	h.Set("X-RateLimit-Reset", strconv.FormatFloat(float64(time.Now().Add(time.Second).UnixMilli())/1000, 'f', 3, 64))
	h.Set("X-RateLimit-Reset-After", "1.000")
	h.Set("X-RateLimit-Bucket", fmt.Sprintf("%08x", hash(route)))
}

func hash(s string) uint32 {
	var h uint32 = 2166136261
	for i := 0; i < len(s); i++ {
		h = (h ^ uint32(s[i])) * 16777619
	}
	return h
}

func writeJSON(w http.ResponseWriter, status int, body any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(marshal(body))
}

func marshal(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic("discordtest: " + err.Error())
	}
	return b
}

func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// decodeInto re-decodes a generic JSON value into a typed one.
func decodeInto(v any, out any) error {
	if v == nil {
		return nil
	}
	return json.NewDecoder(bytes.NewReader(marshal(v))).Decode(out)
}
