package web

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/bot/play"
	"github.com/missivechess/missive/bot/views"
	"github.com/missivechess/missive/render"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/record"
	"github.com/missivechess/missive/storage"
)

// heartbeat is how often an open live-update stream gets a comment, so that
// proxies keep it open.
const heartbeat = 25 * time.Second

// events answers GET /api/g/{id}/events: a server-sent event "changed" each time
// the game is stored, for the page to read the game back with its own link.
func (w *Server) events(rw http.ResponseWriter, r *http.Request, a access) {
	fl, ok := rw.(http.Flusher)
	if !ok {
		w.fail(rw, a.lang, errors.New("web: the response cannot stream"))
		return
	}
	ch, cancel := w.hub.subscribe(a.game.ID, w.clientAddr(r), w.opts.Subscribers)
	defer cancel()
	if ch == nil {
		w.fail(rw, a.lang, refuse(http.StatusTooManyRequests, a.loc().T("web.err.pages", nil)))
		return
	}
	h := rw.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("X-Accel-Buffering", "no")
	fmt.Fprintf(rw, "retry: 3000\nevent: ready\ndata: %d\n\n", a.game.Version)
	fl.Flush()
	tick := time.NewTicker(heartbeat)
	defer tick.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-w.stopping(a.svc):
			return
		case <-tick.C:
			fmt.Fprint(rw, ": still here\n\n")
		case <-ch:
			fmt.Fprint(rw, "event: changed\ndata: 1\n\n")
		}
		fl.Flush()
	}
}

// stopping is a channel closed when svc stops.
func (w *Server) stopping(svc *bot.Service) <-chan struct{} { return svc.Stopping().Done() }

// moveRequest is what the page posts to play a move or a placement.
type moveRequest struct {
	// Move is the move in canonical notation (a placement: the cell).
	Move string `json:"move"`
	// ID identifies the page's attempt, so that a request sent twice is played once.
	ID string `json:"id"`
}

// move answers POST /api/g/{id}/move: the player's move (or placement choice),
// handled by the service exactly as /move and /place are.
func (w *Server) move(rw http.ResponseWriter, r *http.Request, a access) {
	if a.tok.Kind != KindPlayer {
		w.fail(rw, a.lang, refuse(http.StatusForbidden, a.loc().T("web.err.viewermove", nil)))
		return
	}
	var req moveRequest
	if err := readJSON(r, a.loc(), 4<<10, &req); err != nil {
		w.fail(rw, a.lang, err)
		return
	}
	if strings.TrimSpace(req.Move) == "" || len(req.Move) > 64 {
		w.fail(rw, a.lang, refuse(http.StatusBadRequest, a.loc().T("web.err.nomove", nil)))
		return
	}
	cmd, arg := play.CmdMove, "move"
	if _, ok := record.Round(a.game.Position); ok {
		cmd, arg = play.CmdPlace, "cell"
	}
	reply := a.svc.Handle(r.Context(), w.request(a, cmd, bot.Args{"game": a.game.ID, arg: req.Move}, req.ID))
	status := http.StatusOK
	if reply.Refused {
		status = http.StatusConflict
	}
	text := strings.TrimSpace(reply.Text)
	if text == "" {
		text = strings.TrimSpace(reply.PlainText())
	}
	writeJSON(rw, status, map[string]any{"ok": !reply.Refused, "text": text})
}

// request is a request from a's link holder to the service, from the game's place
// (a player's own link acts as that player), answered in the page's language.
func (w *Server) request(a access, command string, args bot.Args, id string) bot.Request {
	g := a.game
	user := bot.User{ID: "web-viewer", Name: "a viewer"}
	place := bot.Place{Guild: g.Guild, Channel: g.Channel, Thread: g.Thread}
	if a.tok.Kind == KindPlayer {
		side, _ := g.SideOf(a.tok.Player)
		user = bot.User{ID: a.tok.Player, Name: seatName(g, side)}
		// A player's action comes from the page, not from the game's channel: its
		// announcement goes to the opponent as their settings ask (as for a move
		// made elsewhere), since the page's reply is seen by no one else.
		place = bot.Place{Guild: g.Guild, Channel: pageChannel}
	}
	// The page's language is the request's locale (a viewer has no settings); for
	// a player, only when it is not the player's own, which the bot answers in
	// anyway (so that the player's settings do not change for nothing).
	req := bot.Request{User: user, Place: place, Command: command, Args: args, Locale: string(a.lang)}
	if a.tok.Kind == KindPlayer && a.lang == a.playerLang {
		req.Locale = ""
	}
	if id != "" && len(id) <= 64 {
		req.ID = "web:" + g.ID + ":" + a.tok.Player + ":" + id
	}
	return req
}

// pageChannel is the place a player's action on the page comes from: no channel
// of Discord's or the console's.
const pageChannel = "web page"

// download answers GET /api/g/{id}/pgn and /gif: the game's PGN or animation, as
// /pgn and /gif make them.
func (w *Server) download(rw http.ResponseWriter, r *http.Request, a access) {
	cmd := views.CmdPGN
	if strings.HasSuffix(r.URL.Path, "/gif") {
		cmd = views.CmdGIF
	}
	reply := a.svc.Handle(r.Context(), w.request(a, cmd, bot.Args{"game": a.game.ID}, ""))
	if reply.Refused || len(reply.Files) == 0 {
		w.fail(rw, a.lang, refuse(http.StatusConflict, strings.TrimSpace(reply.PlainText())))
		return
	}
	f := reply.Files[0]
	rw.Header().Set("Content-Type", f.ContentType)
	rw.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", f.Name))
	rw.Write(f.Data)
}

// analysisDoc is a player's analysis as the page keeps it: lines of moves that
// branch from positions of the game or from each other, and notes.
type analysisDoc struct {
	V     int            `json:"v"`
	Nodes []analysisNode `json:"nodes"`
	// Notes are notes on the game's own positions, by index (0 the start).
	Notes map[string]string `json:"notes"`
}

// analysisNode is one move of the analysis: after node P (or, when P is -1,
// after position At of the game), move M, with its note.
type analysisNode struct {
	P    int    `json:"p"`
	At   int    `json:"at,omitempty"`
	M    string `json:"m"`
	S    string `json:"s,omitempty"` // M in display notation (set by the server)
	Note string `json:"n,omitempty"`
}

// The bounds of an analysis.
const (
	maxNodes = 1000
	maxNote  = 2000
)

// getAnalysis answers GET /api/g/{id}/analysis: the player's own analysis.
func (w *Server) getAnalysis(rw http.ResponseWriter, r *http.Request, a access) {
	if a.tok.Kind != KindPlayer {
		w.fail(rw, a.lang, refuse(http.StatusForbidden, a.loc().T("web.err.analysis", nil)))
		return
	}
	var data json.RawMessage
	err := a.svc.Read(r.Context(), func(tx *storage.Tx) error {
		an, err := tx.Analysis(a.game.ID, a.tok.Player)
		if errors.Is(err, storage.ErrNotFound) {
			data = json.RawMessage(`{"v":1,"nodes":[],"notes":{}}`)
			return nil
		}
		if err == nil {
			data = an.Data
		}
		return err
	})
	if err != nil {
		w.fail(rw, a.lang, err)
		return
	}
	rw.Header().Set("Content-Type", "application/json; charset=utf-8")
	rw.Write(data)
}

// putAnalysis answers PUT /api/g/{id}/analysis: it checks the analysis (every
// move legal where it stands, bounded notes) and stores it for the player.
func (w *Server) putAnalysis(rw http.ResponseWriter, r *http.Request, a access) {
	if a.tok.Kind != KindPlayer {
		w.fail(rw, a.lang, refuse(http.StatusForbidden, a.loc().T("web.err.analysis", nil)))
		return
	}
	var doc analysisDoc
	if err := readJSON(r, a.loc(), storage.MaxAnalysis, &doc); err != nil {
		w.fail(rw, a.lang, err)
		return
	}
	f, err := publicFrames(a.svc, a.game, a.lang)
	if err != nil {
		w.fail(rw, a.lang, err)
		return
	}
	if err := checkAnalysis(a.loc(), f, &doc); err != nil {
		w.fail(rw, a.lang, err)
		return
	}
	data, _ := json.Marshal(doc)
	err = a.svc.Update(r.Context(), func(tx *bot.Tx) error {
		an, err := tx.Analysis(a.game.ID, a.tok.Player)
		if errors.Is(err, storage.ErrNotFound) {
			an, err = &storage.Analysis{Game: a.game.ID, Player: a.tok.Player}, nil
		}
		if err != nil {
			return err
		}
		an.Data = data
		return tx.PutAnalysis(an)
	})
	if err != nil {
		w.fail(rw, a.lang, err)
		return
	}
	writeJSON(rw, http.StatusOK, map[string]any{"ok": true, "text": a.loc().T("web.saved", nil)})
}

// checkAnalysis refuses an analysis whose moves are not legal where they stand,
// that branches from a position the game does not have, or is too large; loc
// words the refusals.
func checkAnalysis(loc *i18n.Localizer, f *frames, doc *analysisDoc) error {
	if doc.V != 1 {
		return refuse(http.StatusBadRequest, loc.T("web.err.outdated", nil))
	}
	if len(doc.Nodes) > maxNodes || len(doc.Notes) > maxNodes {
		return refuse(http.StatusBadRequest, loc.T("web.err.size", i18n.Data{"Moves": maxNodes, "Notes": maxNodes}))
	}
	if doc.Notes == nil {
		doc.Notes = map[string]string{}
	}
	for k, n := range doc.Notes {
		i, err := strconv.Atoi(k)
		if err != nil || i < 0 || i >= len(f.pos) {
			return refuse(http.StatusBadRequest, loc.T("web.err.noteat", i18n.Data{"Position": strconv.Quote(k)}))
		}
		if err := checkNote(loc, n); err != nil {
			return err
		}
	}
	pos := make([]rules.Position, len(doc.Nodes))
	for i, n := range doc.Nodes {
		var from rules.Position
		switch {
		case n.P == -1 && f.from >= 0 && n.At >= f.from && n.At < len(f.pos):
			from = f.pos[n.At]
		case n.P >= 0 && n.P < i:
			from = pos[n.P]
		default:
			return refuse(http.StatusBadRequest, loc.T("web.err.from", i18n.Data{"N": i + 1}))
		}
		m, err := from.ParseMove(n.M)
		if err != nil {
			return refuse(http.StatusBadRequest, loc.T("web.err.analysisillegal", i18n.Data{"N": i + 1, "Move": rules.Echo(n.M)}))
		}
		if pos[i], err = from.Play(m); err != nil {
			return refuse(http.StatusBadRequest, loc.T("web.err.analysisplay", i18n.Data{"N": i + 1, "Move": rules.Echo(n.M)}))
		}
		doc.Nodes[i].M, doc.Nodes[i].S = from.UCI(m), from.SAN(m)
		if err := checkNote(loc, n.Note); err != nil {
			return err
		}
	}
	return nil
}

func checkNote(loc *i18n.Localizer, n string) error {
	if !utf8.ValidString(n) || utf8.RuneCountInString(n) > maxNote {
		return refuse(http.StatusBadRequest, loc.T("web.err.note", i18n.Data{"Most": maxNote}))
	}
	return nil
}

// evalRequest names the position to evaluate: position Ply of the game and then
// Line (canonical moves, comma-separated).
type evalRequest struct {
	Ply  int    `json:"ply"`
	Line string `json:"line"`
}

// evaluate answers POST /api/g/{id}/eval: the engine's best move and evaluation
// of a position, where /hint would be allowed (the players, not in rated or
// tournament games during play) and for everyone once the game is over.
func (w *Server) evaluate(rw http.ResponseWriter, r *http.Request, a access) {
	g, svc := a.game, a.svc
	allowed := !g.Active() || (a.tok.Kind == KindPlayer && svc.HintsAllowed(g))
	eng := svc.Engine()
	switch {
	case eng == nil:
		w.fail(rw, a.lang, refuse(http.StatusConflict, a.loc().T("web.err.noengine", nil)))
		return
	case !allowed && a.tok.Kind == KindPlayer:
		w.fail(rw, a.lang, refuse(http.StatusForbidden, a.loc().T("web.err.nohelp", nil)))
		return
	case !allowed:
		w.fail(rw, a.lang, refuse(http.StatusForbidden, a.loc().T("web.err.viewereval", nil)))
		return
	}
	var req evalRequest
	if err := readJSON(r, a.loc(), 8<<10, &req); err != nil {
		w.fail(rw, a.lang, err)
		return
	}
	f, err := publicFrames(svc, g, a.lang)
	if err != nil {
		w.fail(rw, a.lang, err)
		return
	}
	pos, _, _, err := analysisPosition(a.loc(), f, strconv.Itoa(req.Ply), req.Line)
	if err != nil {
		w.fail(rw, a.lang, err)
		return
	}
	if pos.Outcome().IsOver() {
		w.fail(rw, a.lang, refuse(http.StatusConflict, a.loc().T("web.err.over", i18n.Data{"Outcome": overText(a.lang, pos.Outcome())})))
		return
	}
	select {
	case w.eval <- struct{}{}:
		defer func() { <-w.eval }()
	default:
		w.fail(rw, a.lang, refuse(http.StatusServiceUnavailable, a.loc().T("web.err.busy", nil)))
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), svc.EngineTimeout())
	defer cancel()
	h, err := eng.Hint(ctx, pos, pos.Turn())
	if err != nil {
		w.fail(rw, a.lang, err)
		return
	}
	writeJSON(rw, http.StatusOK, map[string]any{"best": pos.SAN(h.Move), "uci": pos.UCI(h.Move), "eval": describeEval(a.lang, h, pos.Turn()),
		"line": bestLine(ctx, eng, pos, h.Move)})
}

// lineLen is how many moves of the engine's best line an evaluation shows.
const lineLen = 3

// bestLine is the engine's best line from pos starting with its best move first:
// each next move is the engine's best answer, as long as the evaluation's time
// lasts; the moves in display notation.
func bestLine(ctx context.Context, eng bot.Engine, pos rules.Position, first rules.Move) []string {
	line := []string{pos.SAN(first)}
	m := first
	for len(line) < lineLen {
		next, err := pos.Play(m)
		if err != nil || next.Outcome().IsOver() || ctx.Err() != nil {
			break
		}
		h, err := eng.Hint(ctx, next, next.Turn())
		if err != nil {
			break
		}
		pos, m = next, h.Move
		line = append(line, pos.SAN(m))
	}
	return line
}

// pieceSprite returns the piece set as one SVG document of symbols named by
// side and letter ("wK", "bS"), drawn by render as on the pictures.
func pieceSprite() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(`<svg xmlns="http://www.w3.org/2000/svg">`)
	for _, side := range rules.Sides {
		for _, k := range rules.PieceKinds {
			doc, err := render.PieceSVG(rules.Piece{Side: side, Kind: k})
			if err != nil {
				return nil, err
			}
			inner := doc[bytes.IndexByte(doc, '>')+1 : bytes.LastIndex(doc, []byte("</svg>"))]
			fmt.Fprintf(&b, `<symbol id="%c%c" viewBox="0 0 100 100">%s</symbol>`, side.String()[0], k.Letter(), inner)
		}
	}
	b.WriteString(`</svg>`)
	return b.Bytes(), nil
}
