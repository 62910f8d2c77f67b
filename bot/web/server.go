package web

import (
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"log/slog"
	"net"
	"net/http"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/storage"
)

//go:embed assets
var assets embed.FS

// gamePage is the game's page (assets/game.html), written in the viewer's language.
var gamePage = template.Must(template.ParseFS(assets, "assets/game.html"))

// pageData is what gamePage is written from: its language, its texts (T) and the
// sentences its script writes (Texts, a JSON element of the page).
type pageData struct {
	Lang  i18n.Lang
	Texts map[string]string
	loc   *i18n.Localizer
}

// T returns the page's text key in its language.
func (d pageData) T(key string) string { return d.loc.T(key, nil) }

// Options configure a Server.
type Options struct {
	// Public is the address the pages are reached at, such as
	// https://missive.example.org, used in the links the bot hands out; when
	// empty, Serve sets it to the listener's own http://host:port.
	Public string
	Logger *slog.Logger
	// Now is the rate limiter's clock (default time.Now); tests move it.
	Now func() time.Time
	// Rate is how many requests per second an address may make on average (default
	// 10) and Burst how many at once (default 120).
	Rate, Burst float64
	// Subscribers bounds the live-update connections one address may hold open
	// (default 16).
	Subscribers int
	// BehindProxy says that the pages are reached through a reverse proxy that
	// appends the client's address to X-Forwarded-For: the rate limit and the
	// live updates then count per that address, not per the proxy's.
	BehindProxy bool
}

// Server serves the game pages of a Service. Build it with New, plug its Feature
// into the service's configuration, then Attach the service.
type Server struct {
	opts Options
	log  *slog.Logger
	lim  *limiter
	hub  *hub
	// eval lets one engine evaluation run at a time.
	eval chan struct{}
	// pieces is the piece set as one SVG document of symbols.
	pieces []byte

	mu   sync.RWMutex
	svc  *bot.Service
	key  []byte
	base string
	gens map[genKey]uint64 // link generations raised by revocation
}

// genKey names a generation of links: a game and a player ("" for view links).
type genKey struct{ game, player string }

// New returns a server with opts; it serves nothing until Attach.
func New(opts Options) (*Server, error) {
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Rate <= 0 {
		opts.Rate = 10
	}
	if opts.Burst <= 0 {
		opts.Burst = 120
	}
	if opts.Subscribers <= 0 {
		opts.Subscribers = 16
	}
	pieces, err := pieceSprite()
	if err != nil {
		return nil, err
	}
	w := &Server{opts: opts, log: opts.Logger, lim: newLimiter(opts.Rate, opts.Burst, opts.Now), hub: newHub(),
		eval: make(chan struct{}, 1), pieces: pieces, gens: map[genKey]uint64{}}
	w.SetPublic(opts.Public)
	return w, nil
}

// SetPublic sets the address links are made with (see Options.Public).
func (w *Server) SetPublic(url string) {
	w.mu.Lock()
	w.base = strings.TrimRight(url, "/")
	w.mu.Unlock()
}

// Public returns the address links are made with.
func (w *Server) Public() string {
	w.mu.RLock()
	defer w.mu.RUnlock()
	return w.base
}

// Attach sets the service whose games the server shows, reading the link key
// (made the first time) and the revoked generations from its data file.
func (w *Server) Attach(ctx context.Context, svc *bot.Service) error {
	var key []byte
	gens := map[genKey]uint64{}
	err := svc.Update(ctx, func(tx *bot.Tx) (err error) {
		if key, err = tx.WebSecret(); err != nil {
			return err
		}
		return tx.TokenGenerations(func(game, player string, gen uint64) { gens[genKey{game, player}] = gen })
	})
	if err != nil {
		return fmt.Errorf("web: %w", err)
	}
	w.mu.Lock()
	w.svc, w.key, w.gens = svc, key, gens
	w.mu.Unlock()
	return nil
}

// state returns the attached service and key; ok is false before Attach.
func (w *Server) state() (svc *bot.Service, key []byte, ok bool) {
	w.mu.RLock()
	defer w.mu.RUnlock()
	return w.svc, w.key, w.svc != nil
}

// gen returns the current generation of k's links.
func (w *Server) gen(k genKey) uint64 {
	w.mu.RLock()
	defer w.mu.RUnlock()
	return w.gens[k]
}

// setGen records a generation just stored by a revocation.
func (w *Server) setGen(k genKey, n uint64) {
	w.mu.Lock()
	if n > w.gens[k] {
		w.gens[k] = n
	}
	w.mu.Unlock()
}

// ViewLink returns the address of game's page for those who may see it, "" before
// Attach.
func (w *Server) ViewLink(game string) string {
	return w.link(Token{Kind: KindView, Game: game})
}

// PlayerLink returns the address of game's page personal to player, "" before
// Attach.
func (w *Server) PlayerLink(game, player string) string {
	return w.link(Token{Kind: KindPlayer, Game: game, Player: player})
}

func (w *Server) link(t Token) string {
	_, key, ok := w.state()
	if !ok {
		return ""
	}
	t.Gen = w.gen(genKey{t.Game, t.Player})
	return w.Public() + "/g/" + t.Game + "?t=" + sign(key, t)
}

// Serve serves the pages on ln until ctx ends (open pages are closed then);
// without a public address, links are made with ln's own http://host:port.
func (w *Server) Serve(ctx context.Context, ln net.Listener) error {
	if w.Public() == "" {
		w.SetPublic("http://" + ln.Addr().String())
	}
	srv := &http.Server{Handler: w.Handler(), ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute,
		BaseContext: func(net.Listener) context.Context { return ctx },
		ErrorLog:    slog.NewLogLogger(w.log.Handler(), slog.LevelWarn)}
	done := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
		case <-done:
		}
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
	}()
	err := srv.Serve(ln)
	close(done)
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return fmt.Errorf("web: %w", err)
}

// Handler returns the server's HTTP handler: the pages, their files and the API
// they call, behind the security headers, the rate limit and a recovery that
// keeps a panic in one request from taking the bot down.
func (w *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", w.home)
	mux.HandleFunc("GET /assets/{name}", w.asset)
	mux.HandleFunc("GET /g/{id}", w.page)
	mux.HandleFunc("GET /api/g/{id}", w.api(w.gameView))
	mux.HandleFunc("GET /api/g/{id}/node", w.api(w.nodeView))
	mux.HandleFunc("GET /api/g/{id}/events", w.api(w.events))
	mux.HandleFunc("POST /api/g/{id}/move", w.api(w.move))
	mux.HandleFunc("GET /api/g/{id}/analysis", w.api(w.getAnalysis))
	mux.HandleFunc("PUT /api/g/{id}/analysis", w.api(w.putAnalysis))
	mux.HandleFunc("POST /api/g/{id}/eval", w.api(w.evaluate))
	mux.HandleFunc("GET /api/g/{id}/pgn", w.api(w.download))
	mux.HandleFunc("GET /api/g/{id}/gif", w.api(w.download))
	return w.guard(mux)
}

// csp lets the page load only its own files: no inline script or style, no other
// host, no frames.
const csp = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; " +
	"base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// guard sets the security headers, applies the rate limit and recovers panics.
func (w *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		h := rw.Header()
		h.Set("Content-Security-Policy", csp)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer") // the links carry their token
		h.Set("X-Frame-Options", "DENY")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		h.Set("Permissions-Policy", "camera=(), microphone=(), geolocation=()")
		if !w.lim.allow(w.clientAddr(r)) {
			h.Set("Retry-After", "5")
			http.Error(rw, Catalogue.For(requestLang(r)).T("web.err.toomany", nil), http.StatusTooManyRequests)
			return
		}
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					panic(p)
				}
				w.log.Error("web: request panicked", "path", r.URL.Path, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
				http.Error(rw, Catalogue.For(requestLang(r)).T("web.err.panic", nil), http.StatusInternalServerError)
			}
		}()
		next.ServeHTTP(rw, r)
	})
}

// home answers the bare address: the pages open from links only.
func (w *Server) home(rw http.ResponseWriter, r *http.Request) {
	rw.Header().Set("Content-Type", "text/plain; charset=utf-8")
	io.WriteString(rw, Catalogue.For(requestLang(r)).T("web.home", nil)+"\n")
}

// asset serves the page's embedded files and the piece set.
func (w *Server) asset(rw http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	rw.Header().Set("Cache-Control", "public, max-age=3600")
	if name == "pieces.svg" {
		rw.Header().Set("Content-Type", "image/svg+xml")
		rw.Write(w.pieces)
		return
	}
	if name == "game.html" {
		http.NotFound(rw, r)
		return
	}
	http.ServeFileFS(rw, r, assets, "assets/"+name)
}

// page serves a game's page to the holder of a valid link, in the viewer's
// language.
func (w *Server) page(rw http.ResponseWriter, r *http.Request) {
	rw.Header().Set("Cache-Control", "no-store")
	a, err := w.access(r)
	if errors.Is(err, errNoGame) {
		rw.Header().Set("Content-Type", "text/plain; charset=utf-8")
		rw.WriteHeader(http.StatusNotFound)
		io.WriteString(rw, Catalogue.For(requestLang(r)).T("web.err.nogame", nil)+"\n")
		return
	} else if err != nil {
		w.fail(rw, requestLang(r), err)
		return
	}
	var b bytes.Buffer
	if err := gamePage.Execute(&b, pageData{Lang: a.lang, Texts: scriptTexts(a.lang), loc: Catalogue.For(a.lang)}); err != nil {
		w.fail(rw, a.lang, fmt.Errorf("web: writing the page: %w", err))
		return
	}
	rw.Header().Set("Content-Type", "text/html; charset=utf-8")
	rw.Write(b.Bytes())
}

// access is a request's valid link and its game, and the language to answer in.
type access struct {
	tok  Token
	game *storage.Game
	svc  *bot.Service
	lang i18n.Lang
	// playerLang is the language of a personal link's player (English for a view
	// link).
	playerLang i18n.Lang
}

// loc returns the catalogue's localizer of a's language.
func (a access) loc() *i18n.Localizer { return Catalogue.For(a.lang) }

// access checks r's link and finds the language to answer it in (see lang.go).
func (w *Server) access(r *http.Request) (access, error) {
	tok, g, err := w.authorize(r)
	if err != nil {
		return access{}, err
	}
	svc, _, _ := w.state()
	a := access{tok: tok, game: g, svc: svc, lang: i18n.English, playerLang: i18n.English}
	asked, ok := askedLang(r)
	var link i18n.Lang
	err = svc.Read(r.Context(), func(tx *storage.Tx) (err error) {
		if tok.Kind == KindPlayer {
			p, err := bot.Settings(tx, tok.Player)
			if err != nil {
				return err
			}
			a.playerLang = bot.PlayerLang(p)
		}
		if !ok {
			link, err = linkLang(tx, tok, g)
		}
		return err
	})
	if err != nil {
		return access{}, err
	}
	if a.lang = asked; !ok {
		a.lang = link
	}
	return a, nil
}

// api wraps an API handler: the link must be valid for the game in the path.
func (w *Server) api(fn func(rw http.ResponseWriter, r *http.Request, a access)) http.HandlerFunc {
	return func(rw http.ResponseWriter, r *http.Request) {
		a, err := w.access(r)
		if err != nil {
			w.fail(rw, requestLang(r), err)
			return
		}
		rw.Header().Set("Cache-Control", "no-store")
		fn(rw, r, a)
	}
}

// errNoGame answers a missing game and a bad link alike, so that a link's
// holder learns nothing about games the link does not open.
var errNoGame = errors.New("web: no such game")

// authorize checks the request's link (its t parameter) against the game in its
// path and loads the game.
func (w *Server) authorize(r *http.Request) (Token, *storage.Game, error) {
	svc, key, ok := w.state()
	if !ok {
		return Token{}, nil, errNoGame
	}
	tok, err := parse(key, r.URL.Query().Get("t"))
	if err != nil || tok.Game != r.PathValue("id") || tok.Gen != w.gen(genKey{tok.Game, tok.Player}) {
		return Token{}, nil, errNoGame
	}
	var g *storage.Game
	err = svc.Read(r.Context(), func(tx *storage.Tx) (err error) {
		g, err = tx.Game(tok.Game)
		return err
	})
	switch {
	case errors.Is(err, storage.ErrNotFound):
		return Token{}, nil, errNoGame
	case err != nil:
		return Token{}, nil, err
	}
	if tok.Kind == KindPlayer {
		if _, plays := g.SideOf(tok.Player); !plays {
			return Token{}, nil, errNoGame
		}
	}
	return tok, g, nil
}

// userError is a sentence for the page's user, with its HTTP status.
type userError struct {
	status int
	msg    string
}

func (e *userError) Error() string { return e.msg }

// refuse returns a refusal with its HTTP status and its sentence for the user
// (already in their language).
func refuse(status int, msg string) error {
	return &userError{status: status, msg: msg}
}

// fail answers err in language l: its sentence for a refusal, the same "no such
// game" for a missing game and a bad link, and a polite error (logged) for
// anything else.
func (w *Server) fail(rw http.ResponseWriter, l i18n.Lang, err error) {
	var ue *userError
	switch {
	case errors.Is(err, errNoGame):
		writeJSON(rw, http.StatusNotFound, map[string]any{"error": Catalogue.For(l).T("web.err.nogame", nil)})
	case errors.As(err, &ue):
		writeJSON(rw, ue.status, map[string]any{"error": ue.msg})
	case errors.Is(err, context.Canceled):
	default:
		w.log.Error("web: request failed", "error", err)
		writeJSON(rw, http.StatusInternalServerError, map[string]any{"error": Catalogue.For(l).T("web.err.internal", nil)})
	}
}

func writeJSON(rw http.ResponseWriter, status int, v any) {
	rw.Header().Set("Content-Type", "application/json; charset=utf-8")
	rw.WriteHeader(status)
	_ = json.NewEncoder(rw).Encode(v)
}

// readJSON decodes a request body of at most limit bytes into v; loc words its
// refusals.
func readJSON(r *http.Request, loc *i18n.Localizer, limit int64, v any) error {
	dec := json.NewDecoder(http.MaxBytesReader(nil, r.Body, limit))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var mb *http.MaxBytesError
		if errors.As(err, &mb) {
			return refuse(http.StatusRequestEntityTooLarge, loc.T("web.err.large", i18n.Data{"KB": limit >> 10}))
		}
		return refuse(http.StatusBadRequest, loc.T("web.err.bad", i18n.Data{"Reason": err.Error()}))
	}
	return nil
}
