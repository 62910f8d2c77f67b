package web

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/bot/words"
	"github.com/missivechess/missive/render"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/record"
	"github.com/missivechess/missive/storage"
)

// boardJSON is one position as the page draws it.
type boardJSON struct {
	// Cells has one character per square of the bounding rectangle, a1 first, rank
	// by rank: "." empty, " " not part of the board, "#" blocked, else the piece's
	// FEN letter (upper case White; S/s the stones of Gess).
	Cells string `json:"cells"`
	Turn  string `json:"turn"`
	// Check is the square of the king in check, "" for none.
	Check string `json:"check,omitempty"`
	// Over says how the game ended in this position, "" while it goes on.
	Over string `json:"over,omitempty"`
	// Rings are the centres of each side's rings (Gess), by side.
	Rings map[string][]string `json:"rings,omitempty"`
}

// stepJSON is one entry of the move list: a move, or a placement round revealed.
type stepJSON struct {
	SAN   string    `json:"san"`
	UCI   string    `json:"uci,omitempty"`
	Side  string    `json:"side"`
	Num   string    `json:"num,omitempty"` // "12." or "12..." before the move
	From  string    `json:"from,omitempty"`
	To    string    `json:"to,omitempty"`
	Board boardJSON `json:"board"`
	// Round is set on a revealed placement round: each choice as "Q@d4".
	Round []string `json:"round,omitempty"`
}

// moveJSON is one legal move, for moves by click.
type moveJSON struct {
	From  string `json:"from,omitempty"` // "" for a placement
	To    string `json:"to"`
	UCI   string `json:"uci"`
	SAN   string `json:"san"`
	Promo string `json:"promo,omitempty"` // the promotion piece's letter
	Drop  string `json:"drop,omitempty"`  // the placed piece's letter
}

type lookJSON struct {
	Home   string `json:"home"`
	Stones bool   `json:"stones"`
	Frame  int    `json:"frame"`
}

type fieldJSON struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// viewJSON is a game as one link's holder may see it.
type viewJSON struct {
	ID      string         `json:"id"`
	Variant string         `json:"variant"`
	Name    string         `json:"name"`
	Title   string         `json:"title"`
	Status  string         `json:"status"`
	Fields  []fieldJSON    `json:"fields"`
	Files   int            `json:"files"`
	Ranks   int            `json:"ranks"`
	Look    lookJSON       `json:"look"`
	Flipped bool           `json:"flipped"` // the viewer sees the board turned
	Kind    string         `json:"kind"`    // "view" or "player"
	You     string         `json:"you,omitempty"`
	Players [2]string      `json:"players"`
	Active  bool           `json:"active"`
	Version uint64         `json:"version"`
	Start   boardJSON      `json:"start"`
	Steps   []stepJSON     `json:"steps"`
	Palette render.Palette `json:"palette"`
	// Pending is the viewer's own placement choice, not yet revealed: shown to that
	// player only.
	Pending *boardJSON `json:"pending,omitempty"`
	// Legal are the viewer's moves (or placement cells) when it is their turn.
	Legal   []moveJSON `json:"legal,omitempty"`
	Placing bool       `json:"placing,omitempty"`
	// AnalysisFrom is the first position (0 the start, i after step i) the
	// analysis board may start from: none (-1) during a placement round.
	AnalysisFrom int  `json:"analysis_from"`
	Hints        bool `json:"hints"` // the engine's evaluation may be asked for
	// Review is the engine's review of a finished game, one point per move.
	Review []reviewPoint `json:"review,omitempty"`
	// ReviewLabel describes the review's graph for screen readers.
	ReviewLabel string `json:"review_label,omitempty"`
}

// reviewPoint is the review of one move: the position after it (an index as
// AnalysisFrom's), the engine's score of the move from White's side in
// centipawns (Gess: its units) bounded to ±1000, and its class.
type reviewPoint struct {
	Ply   int    `json:"ply"`
	Eval  int    `json:"eval"`
	Class string `json:"class"`
}

// reviewPoints returns the points of rv's graph; none when rv is not of the game
// as it stands.
func reviewPoints(f *frames, g *storage.Game, rv *storage.Review) []reviewPoint {
	if rv == nil || rv.Plies != len(g.Moves) || g.Active() {
		return nil
	}
	var out []reviewPoint
	for _, m := range rv.Moves {
		ply, ok := f.at[m.Index]
		if !ok {
			continue
		}
		e := max(-1000, min(1000, m.Eval))
		if f.steps[ply-1].Side == rules.Black.String() {
			e = -e
		}
		out = append(out, reviewPoint{Ply: ply, Eval: e, Class: m.Class})
	}
	return out
}

// frames are the positions of a game's move list as everyone may see them, with
// the real positions to analyse from.
type frames struct {
	steps []stepJSON
	pos   []rules.Position // pos[0] the start, pos[i] after steps[i-1]
	// from is the first index of pos the analysis may start from (-1: none).
	from int
	// at gives the index in pos after each ordinary move, by its index in the
	// record.
	at map[int]int
}

// publicFrames replays g's public history into its move list, its words in l.
func publicFrames(svc *bot.Service, g *storage.Game, l i18n.Lang) (*frames, error) {
	h, err := svc.PublicHistory(g)
	if err != nil {
		return nil, err
	}
	d := h.Start.Variant().Dims()
	f := &frames{pos: []rules.Position{h.Start}, at: map[int]int{}}
	var round []string
	nums := numbers(h)
	for i, st := range h.Steps {
		if st.Simultaneous {
			round = append(round, words.In(l).Side(st.Side)+" "+st.SAN)
			if !st.Revealed {
				continue
			}
			f.steps = append(f.steps, stepJSON{SAN: "placement", Side: st.Side.String(), Round: round, Board: boardOf(l, record.PublicView(st.After))})
			f.pos = append(f.pos, st.After)
			round = nil
			continue
		}
		s := stepJSON{SAN: st.SAN, UCI: st.Before.UCI(st.Move), Side: st.Side.String(), Num: nums[i], Board: boardOf(l, st.After)}
		if st.Move.From != rules.NoSquare {
			s.From = d.Name(st.Move.From)
		}
		s.To = d.Name(st.Move.To)
		f.steps = append(f.steps, s)
		f.pos = append(f.pos, st.After)
		f.at[st.Index] = len(f.pos) - 1
	}
	f.from = 0
	for i := len(f.pos) - 1; i >= 0; i-- {
		if _, ok := record.Round(f.pos[i]); ok {
			f.from = i + 1
			break
		}
	}
	if _, ok := record.Round(g.Position); ok && g.Active() {
		f.from = -1
	} else if f.from >= len(f.pos) {
		f.from = -1
	}
	return f, nil
}

// numbers returns the move number written before each ordinary step of h
// (record.Movetext's numbering), by step index.
func numbers(h *record.History) map[int]string {
	moves := h.Moves()
	out := make(map[int]string, len(moves))
	tokens := record.Movetext(moves)
	k := 0
	for _, tok := range tokens {
		if strings.HasSuffix(tok, ".") {
			if k < len(moves) {
				out[moves[k].Index] = tok
			}
			continue
		}
		k++
	}
	return out
}

// boardOf returns pos as the page draws it, its words in l.
func boardOf(l i18n.Lang, pos rules.Position) boardJSON {
	b := pos.Board()
	cells := make([]byte, len(b.Cells))
	var king rules.Square = rules.NoSquare
	check := pos.InCheck()
	for i, c := range b.Cells {
		switch {
		case c.State == rules.Missing:
			cells[i] = ' '
		case c.State == rules.Blocked:
			cells[i] = '#'
		case c.Piece.IsNone():
			cells[i] = '.'
		default:
			cells[i] = c.Piece.FENLetter()
			if check && c.Piece.Kind == rules.King && c.Piece.Side == pos.Turn() {
				king = rules.Square(i)
			}
		}
	}
	out := boardJSON{Cells: string(cells), Turn: pos.Turn().String()}
	if king != rules.NoSquare {
		out.Check = b.Name(king)
	}
	if o := pos.Outcome(); o.IsOver() {
		out.Over = overText(l, o)
	}
	if rp, ok := pos.(render.Ringer); ok {
		out.Rings = map[string][]string{}
		for _, side := range rules.Sides {
			for _, sq := range rp.Rings(side) {
				out.Rings[side.String()] = append(out.Rings[side.String()], b.Name(sq))
			}
		}
	}
	return out
}

// legalOf lists moves in pos for the page.
func legalOf(pos rules.Position, moves []rules.Move) []moveJSON {
	d := pos.Variant().Dims()
	out := make([]moveJSON, 0, len(moves))
	for _, m := range moves {
		j := moveJSON{To: d.Name(m.To), UCI: pos.UCI(m)}
		if m.IsDrop() {
			j.Drop = string(m.Drop.Letter())
			j.SAN = j.Drop + "@" + j.To
			j.UCI = j.To // /place takes the cell
		} else {
			j.From = d.Name(m.From)
			j.SAN = pos.SAN(m)
		}
		if m.Promotion != rules.NoPiece {
			j.Promo = string(m.Promotion.Letter())
		}
		out = append(out, j)
	}
	return out
}

// viewOf builds the game as a's link lets its holder see it.
func viewOf(a access, theme string, rv *storage.Review) (*viewJSON, error) {
	g, svc := a.game, a.svc
	l := a.lang
	f, err := publicFrames(svc, g, l)
	if err != nil {
		return nil, err
	}
	v := g.Position.Variant()
	look := rules.LookOf(v)
	pal, err := render.PaletteOf(theme)
	if err != nil {
		pal, _ = render.PaletteOf("")
	}
	out := &viewJSON{ID: g.ID, Variant: v.Key(), Name: words.In(l).Variant(v.Key(), v.Name()), Title: svc.GameTitleIn(l, g), Status: svc.StatusLineIn(l, g),
		Files: v.Dims().Files, Ranks: v.Dims().Ranks, Look: lookJSON{Home: look.Home.String(), Stones: look.Stones, Frame: look.Frame},
		Kind: "view", Active: g.Active(), Version: g.Version, Start: boardOf(l, record.PublicView(f.pos[0])), Steps: f.steps,
		Palette: pal, AnalysisFrom: f.from, Players: [2]string{seatName(g, rules.White), seatName(g, rules.Black)}}
	if out.Steps == nil {
		out.Steps = []stepJSON{}
	}
	out.Review = reviewPoints(f, g, rv)
	if len(out.Review) > 0 {
		out.ReviewLabel = a.loc().N("page.review.label", len(out.Review), nil)
	}
	out.Fields = gameFields(l, svc, g)
	viewer := look.Home // a viewer's board stays put from move to move
	if a.tok.Kind == KindPlayer {
		side, _ := g.SideOf(a.tok.Player)
		viewer = side
		out.Kind, out.You = "player", side.String()
		out.Hints = svc.Engine() != nil && (!g.Active() || svc.HintsAllowed(g))
		if sim, ok := record.Round(g.Position); ok && g.Active() {
			mine := boardOf(l, record.View(g.Position, side))
			if pub := boardOf(l, record.PublicView(g.Position)); mine.Cells != pub.Cells {
				out.Pending = &mine
			}
			if g.Awaits(side) {
				out.Legal, out.Placing = legalOf(g.Position, sim.LegalMovesFor(side)), true
			}
		} else if g.Active() && g.Awaits(side) {
			out.Legal = legalOf(g.Position, g.Position.LegalMoves())
		}
	} else {
		out.Hints = svc.Engine() != nil && !g.Active()
	}
	out.Flipped = look.Flipped(viewer)
	return out, nil
}

// seatName is the name shown for side's player.
func seatName(g *storage.Game, side rules.Side) string {
	s := g.Player(side)
	if s.Name != "" {
		return s.Name
	}
	return s.ID
}

// gameView answers GET /api/g/{id}: the game as the link lets its holder see it.
func (w *Server) gameView(rw http.ResponseWriter, r *http.Request, a access) {
	theme := ""
	var rv *storage.Review
	err := a.svc.Read(r.Context(), func(tx *storage.Tx) error {
		if a.tok.Kind == KindPlayer {
			p, err := bot.Settings(tx, a.tok.Player)
			if err != nil {
				return err
			}
			theme = p.Theme
		}
		if a.game.Active() {
			return nil
		}
		var err error
		if rv, err = tx.Review(a.game.ID); errors.Is(err, storage.ErrNotFound) {
			rv, err = nil, nil
		}
		return err
	})
	if err != nil {
		w.fail(rw, a.lang, err)
		return
	}
	v, err := viewOf(a, theme, rv)
	if err != nil {
		w.fail(rw, a.lang, err)
		return
	}
	writeJSON(rw, http.StatusOK, v)
}

// maxLine bounds the moves of one analysis line.
const maxLine = 400

// nodeJSON is a position of the analysis board.
type nodeJSON struct {
	Board boardJSON  `json:"board"`
	SAN   []string   `json:"san"` // the line's moves in display notation
	UCI   []string   `json:"uci"` // and in canonical notation
	Legal []moveJSON `json:"legal"`
	From  string     `json:"from,omitempty"` // the last move's squares
	To    string     `json:"to,omitempty"`
}

// analysisPosition plays line (canonical moves, comma-separated) from position
// ply of the game's move list; a move the rules refuse gives its sentence, in
// loc's language.
func analysisPosition(loc *i18n.Localizer, f *frames, plyText, line string) (rules.Position, []string, *rules.Move, error) {
	pos, sans, _, last, err := analysisLine(loc, f, plyText, line)
	return pos, sans, last, err
}

// analysisLine is analysisPosition that also returns the line's moves in
// canonical notation.
func analysisLine(loc *i18n.Localizer, f *frames, plyText, line string) (rules.Position, []string, []string, *rules.Move, error) {
	ply, err := strconv.Atoi(plyText)
	if err != nil || ply < 0 || ply >= len(f.pos) {
		return nil, nil, nil, nil, refuse(http.StatusBadRequest, loc.T("web.err.position", i18n.Data{"Position": strconv.Quote(plyText), "Last": len(f.pos) - 1}))
	}
	if f.from < 0 || ply < f.from {
		return nil, nil, nil, nil, refuse(http.StatusBadRequest, loc.T("web.err.placement", nil))
	}
	pos := f.pos[ply]
	var sans, ucis []string
	var last *rules.Move
	if line == "" {
		return pos, sans, ucis, last, nil
	}
	moves := strings.Split(line, ",")
	if len(moves) > maxLine {
		return nil, nil, nil, nil, refuse(http.StatusBadRequest, loc.T("web.err.line", i18n.Data{"Most": maxLine}))
	}
	for i, text := range moves {
		var re *rules.Error
		m, err := pos.ParseMove(text)
		if err != nil {
			msg := loc.T("web.err.illegal", nil)
			if errors.As(err, &re) {
				msg = bot.RulesSentence(loc.Lang(), re)
			}
			return nil, nil, nil, nil, refuse(http.StatusBadRequest, loc.T("web.err.linemove", i18n.Data{"N": i + 1, "Reason": msg}))
		}
		sans, ucis = append(sans, pos.SAN(m)), append(ucis, pos.UCI(m))
		if pos, err = pos.Play(m); err != nil {
			why := err.Error()
			if errors.As(err, &re) {
				why = bot.RulesSentence(loc.Lang(), re)
			}
			return nil, nil, nil, nil, refuse(http.StatusBadRequest, loc.T("web.err.lineplay", i18n.Data{"N": i + 1, "Move": rules.Echo(text), "Reason": why}))
		}
		last = &m
	}
	return pos, sans, ucis, last, nil
}

// nodeView answers GET /api/g/{id}/node?ply=N&line=m1,m2: the position after the
// line from position N of the game, with its legal moves.
func (w *Server) nodeView(rw http.ResponseWriter, r *http.Request, a access) {
	f, err := publicFrames(a.svc, a.game, a.lang)
	if err != nil {
		w.fail(rw, a.lang, err)
		return
	}
	q := r.URL.Query()
	pos, sans, ucis, last, err := analysisLine(a.loc(), f, q.Get("ply"), q.Get("line"))
	if err != nil {
		w.fail(rw, a.lang, err)
		return
	}
	out := nodeJSON{Board: boardOf(a.lang, pos), SAN: sans, UCI: ucis, Legal: legalOf(pos, pos.LegalMoves())}
	if out.SAN == nil {
		out.SAN, out.UCI = []string{}, []string{}
	}
	if last != nil {
		d := pos.Variant().Dims()
		out.From, out.To = d.Name(last.From), d.Name(last.To)
	}
	writeJSON(rw, http.StatusOK, out)
}
