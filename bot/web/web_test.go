package web_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/bottest"
	"github.com/missivechess/missive/bot/web"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/record"
	"github.com/missivechess/missive/storage"
)

// site is a service with the web pages plugged in, served by httptest.
type site struct {
	t   testing.TB
	h   *bottest.Harness
	w   *web.Server
	srv *httptest.Server
}

func newSite(t *testing.T, opts web.Options) *site {
	t.Helper()
	var h *bottest.Harness
	opts.Now = func() time.Time { return h.Clock.Now() } // the service's clock
	w, err := web.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	h = bottest.New(t, w.Feature)
	if err := w.Attach(context.Background(), h.Svc); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(w.Handler())
	t.Cleanup(srv.Close)
	w.SetPublic(srv.URL)
	return &site{t: t, h: h, w: w, srv: srv}
}

// get fetches link (a full address, or a path on the site) and returns its status
// and body.
func (s *site) get(link string) (int, string) {
	s.t.Helper()
	return s.do(http.MethodGet, link, "")
}

func (s *site) do(method, link, body string) (int, string) {
	s.t.Helper()
	if strings.HasPrefix(link, "/") {
		link = s.srv.URL + link
	}
	req, err := http.NewRequest(method, link, strings.NewReader(body))
	if err != nil {
		s.t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

// api returns the address of the API path of the game a link opens.
func api(link, path string) string {
	u, _ := url.Parse(link)
	q := u.Query()
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	return strings.Replace(u.Path, "/g/", "/api/g/", 1) + path + sep + "t=" + url.QueryEscape(q.Get("t"))
}

type view struct {
	Kind    string `json:"kind"`
	You     string `json:"you"`
	Flipped bool   `json:"flipped"`
	Steps   []struct {
		SAN   string   `json:"san"`
		Round []string `json:"round"`
		Board struct {
			Cells string `json:"cells"`
		} `json:"board"`
	} `json:"steps"`
	Start struct {
		Cells string `json:"cells"`
	} `json:"start"`
	Pending *struct {
		Cells string `json:"cells"`
	} `json:"pending"`
	Legal []struct {
		From, To, UCI, SAN string
	} `json:"legal"`
	Placing      bool `json:"placing"`
	AnalysisFrom int  `json:"analysis_from"`
}

func (s *site) view(link string) view {
	s.t.Helper()
	code, body := s.get(api(link, ""))
	if code != http.StatusOK {
		s.t.Fatalf("view of %s: %d %s", link, code, body)
	}
	var v view
	if err := json.Unmarshal([]byte(body), &v); err != nil {
		s.t.Fatal(err)
	}
	return v
}

// Without a valid link a page and its API answer exactly as for a game that
// does not exist: a forged, altered, other game's or revoked link, or none.
func TestLinksOpenOnlyTheirGame(t *testing.T) {
	s := newSite(t, web.Options{})
	id := s.h.Start("gothic", "")
	other := s.h.Start("keltic", "")
	view, own := s.w.ViewLink(id), s.w.PlayerLink(id, "alice")
	for _, link := range []string{view, own} {
		if code, body := s.get(link); code != http.StatusOK || !strings.Contains(body, "app.js") {
			t.Fatalf("GET %s: %d %s", link, code, body)
		}
	}
	_, missing := s.get(api("/g/999?t=x", ""))
	tok := own[strings.Index(own, "t=")+2:]
	bad := []string{
		"/g/" + id,                // no link
		"/g/" + id + "?t=garbage", // not a link
		"/g/" + id + "?t=" + tok[:len(tok)-2] + "AA", // its signature altered
		"/g/" + other + "?t=" + tok,                  // another game's
		strings.Replace(s.w.PlayerLink(id, "carol"), "carol", "alice", 1),
		s.w.PlayerLink(id, "carol"), // carol does not play
	}
	for _, link := range bad {
		for _, target := range []string{link, api(link, ""), api(link, "/analysis"), api(link, "/pgn")} {
			code, body := s.get(target)
			if code != http.StatusNotFound || (strings.HasPrefix(target, "/api") && body != missing) {
				t.Errorf("GET %s: %d %s; want 404 %s", target, code, body, missing)
			}
		}
	}
	// Revoking alice's links closes the old one and opens a new one; the viewers'
	// link still works.
	r := s.h.Ok("alice", "web game:"+id+" revoke:mine")
	if !r.Private || len(r.Actions) == 0 || r.Actions[0].URL == "" || r.Actions[0].URL == own {
		t.Fatalf("/web revoke:mine: %+v", r)
	}
	if code, _ := s.get(api(own, "")); code != http.StatusNotFound {
		t.Errorf("revoked link: %d, want 404", code)
	}
	if code, _ := s.get(api(r.Actions[0].URL, "")); code != http.StatusOK {
		t.Errorf("new link: %d", code)
	}
	if code, _ := s.get(api(view, "")); code != http.StatusOK {
		t.Errorf("viewers' link after alice revoked hers: %d", code)
	}
	s.h.Refused("carol", "web game:"+id+" revoke:view", "Only the players")
	s.h.Ok("bob", "web game:"+id+" revoke:view")
	if code, _ := s.get(api(view, "")); code != http.StatusNotFound {
		t.Errorf("revoked viewers' link: %d, want 404", code)
	}
	// A revocation survives a restart: the generation is in the data file.
	s.h.Restart()
	if err := s.w.Attach(context.Background(), s.h.Svc); err != nil {
		t.Fatal(err)
	}
	if code, _ := s.get(api(own, "")); code != http.StatusNotFound {
		t.Errorf("revoked link after a restart: %d, want 404", code)
	}
	if code, _ := s.get(api(r.Actions[0].URL, "")); code != http.StatusOK {
		t.Errorf("new link after a restart: %d", code)
	}
}

// Every response carries the security headers; the policy allows no inline
// script or style and no other host.
func TestSecurityHeaders(t *testing.T) {
	s := newSite(t, web.Options{})
	id := s.h.Start("gothic", "")
	for _, path := range []string{"/", "/assets/app.js", "/g/" + id, s.w.ViewLink(id)} {
		link := path
		if strings.HasPrefix(link, "/") {
			link = s.srv.URL + link
		}
		res, err := http.Get(link)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		csp := res.Header.Get("Content-Security-Policy")
		if !strings.Contains(csp, "script-src 'self'") || strings.Contains(csp, "unsafe-inline") || !strings.Contains(csp, "default-src 'none'") {
			t.Errorf("%s: CSP %q", path, csp)
		}
		for h, want := range map[string]string{"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer", "X-Frame-Options": "DENY"} {
			if got := res.Header.Get(h); got != want {
				t.Errorf("%s: %s = %q, want %q", path, h, got, want)
			}
		}
	}
}

// An address that makes more requests than the limit allows is refused until its
// bucket fills again; another address is not.
func TestRateLimitPerAddress(t *testing.T) {
	s := newSite(t, web.Options{Rate: 1, Burst: 3})
	for i := range 3 {
		if code, _ := s.get("/"); code != http.StatusOK {
			t.Fatalf("request %d: %d", i+1, code)
		}
	}
	if code, body := s.get("/"); code != http.StatusTooManyRequests || !strings.Contains(body, "Too many requests") {
		t.Fatalf("fourth request: %d %s", code, body)
	}
	s.h.Clock.Advance(2 * time.Second)
	if code, _ := s.get("/"); code != http.StatusOK {
		t.Fatalf("after two seconds: %d", code)
	}
	// Behind a proxy, each client's address (the proxy's last X-Forwarded-For
	// entry) has its own bucket, whatever the client writes before it.
	p := newSite(t, web.Options{Rate: 1, Burst: 2, BehindProxy: true})
	from := func(fwd string) int {
		req, _ := http.NewRequest(http.MethodGet, p.srv.URL+"/", nil)
		req.Header.Set("X-Forwarded-For", fwd)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	for i, c := range []struct {
		fwd  string
		want int
	}{{"198.51.100.1", 200}, {"198.51.100.1", 200}, {"198.51.100.1", 429}, {"203.0.113.9, 198.51.100.1", 429}, {"198.51.100.2", 200}} {
		if got := from(c.fwd); got != c.want {
			t.Errorf("request %d from %q: %d, want %d", i+1, c.fwd, got, c.want)
		}
	}
}

// A hidden placement never shows to the opponent or a viewer in any response of
// the pages (view, analysis node, PGN, GIF, events), only to its player.
func TestHiddenPlacementStaysPrivate(t *testing.T) {
	s := newSite(t, web.Options{})
	id := s.h.Start("gochess", "")
	g := s.h.Game(id)
	sim, ok := record.Round(g.Position)
	if !ok {
		t.Fatalf("a Go-Chess game starts with no placement round")
	}
	m := sim.LegalMovesFor(rules.White)[0]
	cell := g.Position.Variant().Dims().Name(m.To)
	alice, bob, viewer := s.w.PlayerLink(id, "alice"), s.w.PlayerLink(id, "bob"), s.w.ViewLink(id)
	before := s.view(viewer)
	// Alice places by clicking: a move request through the service's /place.
	code, body := s.do(http.MethodPost, api(alice, "/move"), `{"move":"`+cell+`","id":"1"}`)
	if code != http.StatusOK || !strings.Contains(body, "You chose") {
		t.Fatalf("placement by click: %d %s", code, body)
	}
	s.h.Svc.Idle()
	mine := s.view(alice)
	if mine.Pending == nil || mine.Pending.Cells == before.Start.Cells {
		t.Fatalf("alice's own page does not show her choice: %+v", mine.Pending)
	}
	secret := mine.Pending.Cells
	secretFEN := record.View(s.h.Game(id).Position, rules.White).String()
	for who, link := range map[string]string{"bob": bob, "viewer": viewer} {
		v := s.view(link)
		if v.Pending != nil || len(v.Steps) != 0 {
			t.Errorf("%s's page shows a pending choice or step: %+v", who, v)
		}
		for _, path := range []string{"", "/node?ply=0", "/pgn", "/gif", "/analysis"} {
			_, body := s.get(api(link, path))
			// (bob's own page lists the cells he may choose, a1 among them)
			if strings.Contains(body, secret) || strings.Contains(body, secretFEN) || (path != "" && strings.Contains(body, "@"+cell)) {
				t.Errorf("%s's %q answer shows alice's choice %s: %.300s", who, path, cell, body)
			}
		}
	}
	// Bob's choice reveals the round to everyone.
	bm := sim.LegalMovesFor(rules.Black)[0]
	bcell := g.Position.Variant().Dims().Name(bm.To)
	if code, body := s.do(http.MethodPost, api(bob, "/move"), `{"move":"`+bcell+`","id":"1"}`); code != http.StatusOK {
		t.Fatalf("bob's placement: %d %s", code, body)
	}
	if v := s.view(viewer); len(v.Steps) != 1 || len(v.Steps[0].Round) != 2 {
		t.Errorf("after both chose the viewers see %+v", v.Steps)
	}
}

// A player's analysis is kept for that player and game across a restart; the
// opponent and viewers never see it, and a bad analysis changes nothing.
func TestAnalysisIsPrivateAndKept(t *testing.T) {
	s := newSite(t, web.Options{})
	id := s.h.Start("gothic", "")
	s.h.Play(id, "alice", "e4", "e5")
	alice, bob, viewer := s.w.PlayerLink(id, "alice"), s.w.PlayerLink(id, "bob"), s.w.ViewLink(id)
	doc := `{"v":1,"nodes":[{"p":-1,"at":2,"m":"g1h3","n":"my secret plan"},{"p":0,"m":"Nc6"}],"notes":{"1":"a note on e4"}}`
	if code, body := s.do(http.MethodPut, api(alice, "/analysis"), doc); code != http.StatusOK {
		t.Fatalf("saving the analysis: %d %s", code, body)
	}
	for _, bad := range []string{
		`{"v":1,"nodes":[{"p":-1,"at":2,"m":"e2e5"}],"notes":{}}`,              // not legal
		`{"v":1,"nodes":[{"p":3,"m":"e7e6"}],"notes":{}}`,                      // no such parent
		`{"v":1,"nodes":[],"notes":{"9":"no such position"}}`,                  // no such position
		`{"v":1,"nodes":[],"notes":{},"extra":1}`,                              // not the page's
		`{"v":1,"nodes":[],"notes":{"1":"` + strings.Repeat("x", 2001) + `"}}`, // too long
	} {
		if code, body := s.do(http.MethodPut, api(alice, "/analysis"), bad); code != http.StatusBadRequest || !strings.Contains(body, "error") {
			t.Errorf("bad analysis %.60s: %d %s", bad, code, body)
		}
	}
	s.h.Restart()
	if err := s.w.Attach(context.Background(), s.h.Svc); err != nil {
		t.Fatal(err)
	}
	_, body := s.get(api(alice, "/analysis"))
	if !strings.Contains(body, "my secret plan") || !strings.Contains(body, `"s":"Nc6"`) || !strings.Contains(body, "a note on e4") {
		t.Fatalf("alice's analysis after a restart: %s", body)
	}
	if code, body := s.get(api(bob, "/analysis")); code != http.StatusOK || strings.Contains(body, "secret") || strings.Contains(body, "g1h3") {
		t.Errorf("bob's analysis: %d %s", code, body)
	}
	if code, body := s.get(api(viewer, "/analysis")); code != http.StatusForbidden || strings.Contains(body, "secret") {
		t.Errorf("the viewers' analysis: %d %s", code, body)
	}
	for _, link := range []string{bob, viewer} {
		for _, path := range []string{"", "/pgn", "/node?ply=2"} {
			if _, body := s.get(api(link, path)); strings.Contains(body, "secret") || strings.Contains(body, "note on e4") {
				t.Errorf("%s shows alice's analysis: %s", path, body)
			}
		}
	}
}

// The analysis board gets the legal moves of any position of the game and of
// lines from it from the rules; an illegal line is refused with a sentence.
func TestAnalysisNode(t *testing.T) {
	s := newSite(t, web.Options{})
	for _, variant := range []string{"gothic", "keltic", "gess"} {
		id := s.h.Start(variant, "")
		link := s.w.ViewLink(id)
		g := s.h.Game(id)
		pos := g.Position
		first := pos.LegalMoves()[0]
		code, body := s.get(api(link, "/node?ply=0&line="+pos.UCI(first)))
		if code != http.StatusOK {
			t.Fatalf("%s node: %d %s", variant, code, body)
		}
		var n struct {
			SAN   []string
			Legal []struct{ UCI string }
		}
		if err := json.Unmarshal([]byte(body), &n); err != nil {
			t.Fatal(err)
		}
		next, _ := pos.Play(first)
		if len(n.SAN) != 1 || n.SAN[0] != pos.SAN(first) || len(n.Legal) != len(next.LegalMoves()) {
			t.Errorf("%s: node %v with %d legal moves, want [%s] with %d", variant, n.SAN, len(n.Legal), pos.SAN(first), len(next.LegalMoves()))
		}
		if code, body := s.get(api(link, "/node?ply=0&line=zz99")); code != http.StatusBadRequest || !strings.Contains(body, "Move 1 of the line") {
			t.Errorf("%s: illegal line: %d %s", variant, code, body)
		}
		if code, _ := s.get(api(link, "/node?ply=7")); code != http.StatusBadRequest {
			t.Errorf("%s: a position the game does not have: %d", variant, code)
		}
	}
}

// A move by click goes through the service's /move: a viewer cannot move, an
// illegal move is refused with the rules' sentence and changes nothing, and a
// legal one is played, announced to the opponent and signalled to the open pages.
func TestMoveByClick(t *testing.T) {
	s := newSite(t, web.Options{})
	id := s.h.Start("gothic", "")
	alice, viewer := s.w.PlayerLink(id, "alice"), s.w.ViewLink(id)
	if v := s.view(alice); v.You != "white" || v.Flipped || len(v.Legal) == 0 {
		t.Fatalf("alice's view: you %q flipped %v, %d legal moves", v.You, v.Flipped, len(v.Legal))
	}
	if v := s.view(s.w.PlayerLink(id, "bob")); v.You != "black" || !v.Flipped || len(v.Legal) != 0 {
		t.Fatalf("bob's view: you %q flipped %v, %d legal moves", v.You, v.Flipped, len(v.Legal))
	}
	if code, _ := s.do(http.MethodPost, api(viewer, "/move"), `{"move":"e2e4"}`); code != http.StatusForbidden {
		t.Errorf("a viewer's move: %d", code)
	}
	if code, body := s.do(http.MethodPost, api(alice, "/move"), `{"move":"e2e5"}`); code != http.StatusConflict || !strings.Contains(body, `"ok":false`) {
		t.Errorf("an illegal move: %d %s", code, body)
	}
	if n := len(s.h.Game(id).Moves); n != 0 {
		t.Fatalf("the refused move changed the game: %d moves", n)
	}
	res, err := http.Get(s.srv.URL + api(viewer, "/events"))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	lines := bufio.NewScanner(res.Body)
	waitFor := func(want string) {
		t.Helper()
		for lines.Scan() {
			if lines.Text() == want {
				return
			}
		}
		t.Fatalf("the event stream ended before %q: %v", want, lines.Err())
	}
	waitFor("event: ready")
	s.h.Notes.Take()
	code, body := s.do(http.MethodPost, api(alice, "/move"), `{"move":"e2e4","id":"x1"}`)
	if code != http.StatusOK {
		t.Fatalf("move by click: %d %s", code, body)
	}
	waitFor("event: changed")
	s.h.Svc.Idle()
	if g := s.h.Game(id); len(g.Moves) != 1 || g.Moves[0].Move != "e2e4" {
		t.Fatalf("the game's moves: %+v", g.Moves)
	}
	if kinds := bottest.NotesFor(s.h.Notes.Take(), "bob"); len(kinds) == 0 || kinds[0] != bot.NoticeTurn {
		t.Errorf("bob was not told it is his move: %v", kinds)
	}
	// The same attempt sent twice is played once.
	if code, body := s.do(http.MethodPost, api(alice, "/move"), `{"move":"e2e4","id":"x1"}`); code != http.StatusOK || !strings.Contains(body, "already done") {
		t.Errorf("the same request again: %d %s", code, body)
	}
	if v := s.view(viewer); len(v.Steps) != 1 || v.Steps[0].SAN != "e4" {
		t.Errorf("the viewers' move list: %+v", v.Steps)
	}
}

// Board messages carry a link button to the game's page, and /web hands a player
// their own link privately.
func TestLinkButtonAndWebCommand(t *testing.T) {
	s := newSite(t, web.Options{})
	id := s.h.Start("gothic", "")
	r := s.h.Ok("alice", "board game:"+id)
	var link string
	for _, a := range r.Actions {
		if a.URL != "" {
			link = a.URL
		}
	}
	if link != s.w.ViewLink(id) {
		t.Fatalf("the board's link button is %q, want the viewers' link %q", link, s.w.ViewLink(id))
	}
	if v := s.view(link); v.Kind != "view" || len(v.Legal) != 0 {
		t.Errorf("the button's page: %+v", v)
	}
	w := s.h.Ok("alice", "web game:"+id)
	if !w.Private || !strings.Contains(w.Text, s.w.PlayerLink(id, "alice")) {
		t.Errorf("/web: %+v", w)
	}
	if c := s.h.Ok("carol", "web game:"+id); strings.Contains(c.Text, "Your own page") || !strings.Contains(c.Text, link) {
		t.Errorf("/web for a viewer: %s", c.Text)
	}
}

// A finished game's page carries its review's scores from White's side, one
// point per move; a game in progress carries none.
func TestReviewGraph(t *testing.T) {
	s := newSite(t, web.Options{})
	id := s.h.Start("gothic", "")
	s.h.Play(id, "alice", "e4", "e5")
	link := s.w.ViewLink(id)
	put := func() {
		if err := s.h.Store.Update(context.Background(), func(tx *storage.Tx) error {
			old, err := tx.Review(id)
			rv := &storage.Review{Game: id, Plies: 2, Decisive: -1, Moves: []storage.ReviewMove{
				{Index: 0, Class: "best", Eval: 30}, {Index: 1, Class: "blunder", Eval: 5000}}}
			if err == nil {
				rv.Stamp = old.Stamp
			}
			return tx.PutReview(rv)
		}); err != nil {
			t.Fatal(err)
		}
	}
	put()
	type graph struct {
		Review []struct {
			Ply, Eval int
			Class     string
		} `json:"review"`
	}
	var g graph
	_, body := s.get(api(link, ""))
	if err := json.Unmarshal([]byte(body), &g); err != nil || len(g.Review) != 0 {
		t.Errorf("a game in progress shows a review: %s", body)
	}
	s.h.Ok("bob", "resign game:"+id)
	_, body = s.get(api(link, ""))
	if err := json.Unmarshal([]byte(body), &g); err != nil {
		t.Fatal(err)
	}
	if len(g.Review) != 2 || g.Review[0].Ply != 1 || g.Review[0].Eval != 30 || g.Review[1].Ply != 2 || g.Review[1].Eval != -1000 || g.Review[1].Class != "blunder" {
		t.Errorf("the review's points: %+v", g.Review)
	}
}

// The engine's evaluation is given where /hint would be: to a player of a casual
// game, never in a rated game during play, to viewers only once the game is
// over; and the position it evaluates is the analysis board's.
func TestEvaluationWhereHintsAllowed(t *testing.T) {
	s := newSite(t, web.Options{})
	casual, rated := s.h.Start("gothic", ""), s.h.Start("gothic", "rated:true")
	const body = `{"ply":0,"line":"e2e4"}`
	for _, c := range []struct {
		link string
		code int
		want string
	}{
		{s.w.PlayerLink(casual, "alice"), http.StatusOK, `"line":["`},
		{s.w.ViewLink(casual), http.StatusForbidden, "once the game is over"},
		{s.w.PlayerLink(rated, "alice"), http.StatusForbidden, "rated or tournament"},
	} {
		if code, got := s.do(http.MethodPost, api(c.link, "/eval"), body); code != c.code || !strings.Contains(got, c.want) {
			t.Errorf("%s: %d %s; want %d %q", c.link, code, got, c.code, c.want)
		}
	}
	_, got := s.do(http.MethodPost, api(s.w.PlayerLink(casual, "alice"), "/eval"), body)
	var ev struct {
		Best string
		Line []string
	}
	if err := json.Unmarshal([]byte(got), &ev); err != nil || len(ev.Line) != 3 || ev.Line[0] != ev.Best {
		t.Errorf("the evaluation's best line: %s", got)
	}
	if code, got := s.do(http.MethodPost, api(s.w.PlayerLink(casual, "alice"), "/eval"), `{"ply":0,"line":"e2e5"}`); code != http.StatusBadRequest || !strings.Contains(got, "Move 1 of the line") {
		t.Errorf("an illegal line: %d %s", code, got)
	}
	s.h.Ok("bob", "resign game:"+rated)
	if code, got := s.do(http.MethodPost, api(s.w.ViewLink(rated), "/eval"), body); code != http.StatusOK || !strings.Contains(got, `"best":`) {
		t.Errorf("a viewer after the game: %d %s", code, got)
	}
}
