package bot

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/bot/words"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/record"
	"github.com/missivechess/missive/storage"
)

// findMode says which game a command without a game option may mean.
type findMode int

const (
	// anyGame: a game to look at (finished ones too when named); anyone may look.
	anyGame findMode = iota
	// ownGame: one of the user's games in progress.
	ownGame
	// turnGame: like ownGame, but when the user plays several, the only one waiting
	// for the user's move is meant.
	turnGame
)

// Fits says how well a command fits g, a game in progress where the user plays
// side and is to act: whether it applies there (a placement applies only during a
// placement round) and whether its input fits (a move legal there).
type Fits func(g *storage.Game, side rules.Side) Fit

// Fit is how well a command fits a game (Fits).
type Fit int

// The fits, from worst to best.
const (
	// Inapplicable: the command does not apply to the game.
	Inapplicable Fit = iota
	// Applicable: it applies, but its input does not fit (an illegal move).
	Applicable
	// Fitting: the game takes it.
	Fitting
)

// FindGame returns the game a request is about (replayed): the one named by the game
// option, else the one played in the request's thread, else the user's only game.
func (s *Service) FindGame(tx *storage.Tx, req Request, mode findMode) (*storage.Game, error) {
	return s.findGame(tx, req, mode, nil)
}

// FindGameFitting is FindGame for a command that fits only some games: when the
// user plays several and names none, the candidates are those where it is the
// user's turn (TurnGame) and, of those, the ones the command fits best; only when
// several remain is the user asked which. A command for a turn the user has in no
// game is refused as such.
func (s *Service) FindGameFitting(tx *storage.Tx, req Request, mode FindMode, fits Fits) (*storage.Game, error) {
	return s.findGame(tx, req, mode, fits)
}

// findGame is FindGame, narrowed by fits when it is not nil.
func (s *Service) findGame(tx *storage.Tx, req Request, mode findMode, fits Fits) (*storage.Game, error) {
	if id := strings.TrimPrefix(req.Args.Get("game"), "#"); id != "" {
		g, err := tx.Game(id)
		if errors.Is(err, storage.ErrNotFound) || (err == nil && !visible(g, req)) {
			return nil, refusal(ErrRefused, "refusal.nogame", func(words.W) i18n.Data { return i18n.Data{"Game": words.ShownID(id)} })
		}
		if err != nil {
			return nil, err
		}
		if mode != anyGame {
			if err := MustPlay(g, req.User); err != nil {
				return nil, err
			}
		}
		return g, nil
	}
	if req.Place.Thread != "" {
		g, err := tx.GameByThread(req.Place.Thread)
		switch {
		case err == nil:
			if mode != anyGame {
				if err := MustPlay(g, req.User); err != nil {
					return nil, err
				}
			}
			return g, nil
		case !errors.Is(err, storage.ErrNotFound):
			return nil, err
		}
	}
	games, err := tx.PlayerActiveGames(req.User.ID)
	if err != nil {
		return nil, err
	}
	if len(games) == 0 && mode == anyGame {
		// Looking at a game: the one that just ended is the likely one.
		if games, err = tx.PlayerFinishedGames(req.User.ID, 1); err != nil {
			return nil, err
		}
	}
	if len(games) == 0 {
		return nil, refusal(ErrRefused, "refusal.noactive", nil)
	}
	if len(games) == 1 {
		return tx.Game(games[0].ID)
	}
	if mode != turnGame {
		return nil, s.whichGame(req, games, "which.play")
	}
	var mine []*storage.GameSummary
	for _, g := range games {
		if side, ok := g.SideOf(req.User.ID); ok && slices.Contains(g.ToMove, side) {
			mine = append(mine, g)
		}
	}
	switch {
	case len(mine) == 0:
		return nil, refusal(rules.ErrNotYourTurn, "refusal.noturn", func(words.W) i18n.Data { return i18n.Data{"Games": gameList(games)} })
	case len(mine) == 1:
		return tx.Game(mine[0].ID)
	case fits == nil:
		return nil, s.whichGame(req, mine, "which.turn")
	}
	var by [Fitting + 1][]*storage.Game
	var sums [Fitting + 1][]*storage.GameSummary
	for _, sum := range mine {
		g, err := tx.Game(sum.ID)
		if err != nil {
			return nil, err
		}
		if side, _ := g.SideOf(req.User.ID); g.Active() {
			f := fits(g, side)
			by[f], sums[f] = append(by[f], g), append(sums[f], sum)
		}
	}
	fit, app := sums[Fitting], append(sums[Applicable], sums[Fitting]...)
	switch {
	case len(fit) == 1:
		return by[Fitting][0], nil
	case len(fit) > 1:
		return nil, s.whichGame(req, fit, "which.fit")
	case len(app) == 1: // its refusal says why it does not fit
		return by[Applicable][0], nil
	case len(app) > 1:
		return nil, s.whichGame(req, app, "which.fitnone")
	}
	return nil, RefuseIn(ErrRefused, func(l i18n.Lang) string {
		return catalogue.For(l).N("refusal.applynone", len(mine), i18n.Data{"Games": gameList(mine)})
	})
}

// gameList names games: "#3, #7".
func gameList(games []*storage.GameSummary) string {
	names := make([]string, len(games))
	for i, g := range games {
		names[i] = "#" + g.ID
	}
	return strings.Join(names, ", ")
}

// whichGame is the refusal that asks a player of several games to name one of
// games; lead (the catalogue's message, with the count and the list of games) says
// which games those are.
func (s *Service) whichGame(req Request, games []*storage.GameSummary, lead string) error {
	choice := func(l i18n.Lang) *Choice {
		loc := catalogue.For(l)
		ch := &Choice{Placeholder: loc.T("which.choose", nil), Command: req.Command, Arg: "game", Args: req.Args}
		for _, g := range games {
			if len(ch.Options) == 25 {
				break
			}
			label := "#" + g.ID + " " + loc.T("players", i18n.Data{"White": words.Seat(g.Players[rules.White]), "Black": words.Seat(g.Players[rules.Black])})
			ch.Options = append(ch.Options, ChoiceOption{Label: label, Value: g.ID, Description: s.VariantNameIn(l, g.Variant)})
		}
		return ch
	}
	ask := "which.ask" // a console has no threads; a server gives each game its own
	if req.Place.Guild != "" {
		ask = "which.ask.thread"
	}
	say := func(l i18n.Lang) string {
		loc := catalogue.For(l)
		return loc.T(ask, i18n.Data{"Lead": loc.N(lead, len(games), i18n.Data{"Games": gameList(games)})})
	}
	return &choiceError{userError: userError{kind: ErrRefused, msg: say(i18n.English), say: say}, choice: choice(i18n.English), choiceIn: choice}
}

// visible reports whether req may see g: its players anywhere, others only in the
// server (or the direct message or group DM) where it is played.
func visible(g *storage.Game, req Request) bool {
	if _, ok := g.SideOf(req.User.ID); ok {
		return true
	}
	if g.Guild != "" {
		return g.Guild == req.Place.Guild
	}
	return req.Place.Guild == "" && g.Channel == req.Place.Channel
}

// MustPlay refuses a user who does not play in g.
func MustPlay(g *storage.Game, u User) error {
	if _, ok := g.SideOf(u.ID); !ok {
		return refusal(ErrNotPlayer, "refusal.notplayer", func(words.W) i18n.Data {
			return i18n.Data{"Game": g.ID, "White": words.Seat(g.Players[rules.White]), "Black": words.Seat(g.Players[rules.Black])}
		})
	}
	return nil
}

// MustBeActive refuses an action on a finished game.
func MustBeActive(g *storage.Game) error {
	if !g.Active() {
		return refusal(rules.ErrGameOver, "refusal.over", func(w words.W) i18n.Data {
			return i18n.Data{"Game": g.ID, "Outcome": w.Outcome(g.Players, g.Outcome)}
		})
	}
	return nil
}

// VariantName returns the display name of a variant key.
func (s *Service) VariantName(key string) string { return s.VariantNameIn(i18n.English, key) }

// VariantNameIn is VariantName in language l: "Keltisches Schach".
func (s *Service) VariantNameIn(l i18n.Lang, key string) string {
	if v, err := s.reg.Lookup(key); err == nil {
		return words.In(l).Variant(v.Key(), v.Name())
	}
	return key
}

// inRound returns pos as a Simultaneous position when a secret round is on (record.Round).
func inRound(pos rules.Position) (rules.Simultaneous, bool) { return record.Round(pos) }

// publicView is pos as everyone may see it (record.PublicView): during a secret round
// no pending choice shows.
func publicView(pos rules.Position) rules.Position { return record.PublicView(pos) }

// privateView is pos as side may see it (record.View): its own pending choice, not
// the opponent's.
func privateView(pos rules.Position, side rules.Side) rules.Position { return record.View(pos, side) }

// LastMove returns the squares of g's last ordinary move, for highlighting; nil when
// there is none or the last entry is a placement choice (which may be secret). It
// reads the stored coordinate text, so it needs no replay.
func LastMove(g *storage.Game) *rules.Move {
	if len(g.Moves) == 0 || g.Moves[len(g.Moves)-1].Simultaneous || g.Position == nil {
		return nil
	}
	return Highlight(g.Position.Variant().Dims(), g.Moves[len(g.Moves)-1].Move)
}

// Highlight finds the squares named in a coordinate move text ("e2e4", "b7b8c",
// "m3m6", "P@d4"): the first is From and the last To; nil when it names none.
func Highlight(d rules.Dims, text string) *rules.Move {
	var sqs []rules.Square
	for i := 0; i < len(text); {
		if sq, n := d.ScanSquare(text[i:]); n > 0 {
			sqs = append(sqs, sq)
			i += n
			continue
		}
		i++
	}
	switch len(sqs) {
	case 0:
		return nil
	case 1:
		return &rules.Move{From: rules.NoSquare, To: sqs[0]}
	}
	return &rules.Move{From: sqs[0], To: sqs[len(sqs)-1]}
}

// DescribeOutcome says how g ended, with names: "alice wins by checkmate".
func DescribeOutcome(g *storage.Game) string { return words.Outcome(g.Players, g.Outcome) }

// DescribeOutcomeIn is DescribeOutcome in language l.
func DescribeOutcomeIn(l i18n.Lang, g *storage.Game) string {
	return words.In(l).Outcome(g.Players, g.Outcome)
}

// GameTitle is a heading such as "Game 7 · Gothic Chess · alice vs bob".
func (s *Service) GameTitle(g *storage.Game) string { return s.GameTitleIn(i18n.English, g) }

// GameTitleIn is GameTitle in language l: "Partie 7 · Gothic Chess · alice gegen bob".
func (s *Service) GameTitleIn(l i18n.Lang, g *storage.Game) string {
	return catalogue.For(l).T("game.title", i18n.Data{"Game": g.ID, "Variant": s.VariantNameIn(l, g.Variant),
		"White": words.Seat(g.Players[rules.White]), "Black": words.Seat(g.Players[rules.Black])})
}

// RefOf names g and where it is played.
func RefOf(g *storage.Game) *GameRef {
	return &GameRef{ID: g.ID, Place: Place{Guild: g.Guild, Channel: g.Channel, Thread: g.Thread}}
}

// StatusLine says whose turn it is in g and by when, or how it ended.
func (s *Service) StatusLine(g *storage.Game) string { return s.StatusLineIn(i18n.English, g) }

// StatusLineIn is StatusLine in language l.
func (s *Service) StatusLineIn(l i18n.Lang, g *storage.Game) string {
	loc, w := catalogue.For(l), words.In(l)
	if !g.Active() {
		return loc.T("status.over", i18n.Data{"Outcome": w.Outcome(g.Players, g.Outcome)})
	}
	parts := []string{TurnTextIn(l, g)}
	if d := g.Clock.Deadline; !d.IsZero() && !g.Clock.Paused.IsZero() {
		parts = append(parts, loc.T("status.frozen", i18n.Data{"Left": w.Left(d.Sub(g.Clock.Paused))}))
	} else if !d.IsZero() {
		parts = append(parts, loc.T("status.deadline", i18n.Data{"Time": w.Time(d), "Left": w.Left(d.Sub(s.Now()))}))
	}
	if b := BanksLineIn(l, g, s.Now()); b != "" {
		parts = append(parts, b)
	}
	if g.DrawOffer != nil {
		parts = append(parts, loc.T("status.draw", i18n.Data{"Player": words.Seat(g.Player(g.DrawOffer.By))}))
	}
	if g.Takeback != nil {
		parts = append(parts, loc.T("status.takeback", i18n.Data{"Player": words.Seat(g.Player(g.Takeback.By))}))
	}
	return loc.T("status.line", i18n.Data{"Parts": strings.Join(parts, " · ")})
}

// TurnTextIn says in language l who is to act in g, which is in progress:
// "Alice (white) to move".
func TurnTextIn(l i18n.Lang, g *storage.Game) string {
	w := words.In(l)
	var who []string
	for _, side := range g.ToMove {
		who = append(who, w.Seated(g.Player(side), side))
	}
	id := "turn.move"
	if _, ok := inRound(g.Position); ok {
		id = "turn.choose"
		if len(who) == 2 {
			id = "turn.bothchoose"
		}
	}
	return catalogue.For(l).T(id, i18n.Data{"Who": w.And(who)})
}

// boardAlt describes g's board, drawn from pos, for screen readers (the picture's
// description) in language l: the game, whose move it is or how it ended, the last
// move, check, and the position's text (FEN, or Gess's text form) last, where a
// length limit cuts.
func (s *Service) boardAlt(l i18n.Lang, g *storage.Game, pos rules.Position) string {
	loc := catalogue.For(l)
	var b strings.Builder
	b.WriteString(loc.T("alt.board", i18n.Data{"Variant": s.VariantNameIn(l, g.Variant), "Game": g.ID, "Made": movesMade(l, g)}) + " ")
	if m := LastMove(g); m != nil {
		d := g.Position.Variant().Dims()
		b.WriteString(loc.T("alt.last", i18n.Data{"From": d.Name(m.From), "To": d.Name(m.To)}) + " ")
	}
	_, round := inRound(g.Position)
	switch {
	case !g.Active():
		b.WriteString(loc.T("status.over", i18n.Data{"Outcome": DescribeOutcomeIn(l, g)}) + " ")
	case !round && pos.InCheck():
		b.WriteString(loc.T("alt.check", i18n.Data{"Turn": TurnTextIn(l, g)}) + " ")
	default:
		b.WriteString(loc.T("status.line", i18n.Data{"Parts": TurnTextIn(l, g)}) + " ")
	}
	b.WriteString(loc.T("alt.position", i18n.Data{"Position": pos.String()}))
	return b.String()
}

// movesMade says how far g has come, in language l, counting moves as players do,
// each side's apart (a record's entries are plies, and placement choices): "after
// 10 moves by white and 9 by black", "after 3 placement rounds and 2 moves each",
// "at the start".
func movesMade(l i18n.Lang, g *storage.Game) string {
	loc, w := catalogue.For(l), words.In(l)
	choices, n := 0, 0
	for _, e := range g.Moves {
		if e.Simultaneous {
			choices++
		} else {
			n++
		}
	}
	// Ordinary moves alternate, and the last was made by the side not to move now.
	var moves [2]int
	if n > 0 && g.Position != nil {
		last := g.Position.Turn().Other()
		moves[last&1], moves[last.Other()&1] = (n+1)/2, n/2
	}
	var parts []string
	if rounds := (choices + 1) / 2; rounds > 0 {
		parts = append(parts, loc.N("made.rounds", rounds, nil))
	}
	wh, bl := moves[rules.White], moves[rules.Black]
	switch {
	case wh == bl && wh > 0:
		parts = append(parts, loc.N("made.each", wh, nil))
	case wh != bl:
		first, second := rules.White, rules.Black
		if bl > wh {
			first, second = second, first
		}
		parts = append(parts, loc.N("made.sides", moves[first], i18n.Data{"First": w.Side(first), "Other": moves[second], "Second": w.Side(second)}))
	}
	if len(parts) == 0 {
		return loc.T("made.start", nil)
	}
	return loc.T("made.after", i18n.Data{"Parts": w.And(parts)})
}

// GameFieldsIn are the reply fields describing g, in language l.
func (s *Service) GameFieldsIn(l i18n.Lang, g *storage.Game) []Field {
	loc := catalogue.For(l)
	kind := loc.T("game.casual", nil)
	if g.Rated {
		kind = loc.T("game.rated", nil)
	}
	f := []Field{
		{Name: loc.T("field.white", nil), Value: words.Seat(g.Players[rules.White]), Inline: true},
		{Name: loc.T("field.black", nil), Value: words.Seat(g.Players[rules.Black]), Inline: true},
		{Name: loc.T("field.game", nil), Value: loc.T("field.game.value", i18n.Data{"Variant": s.VariantNameIn(l, g.Variant),
			"Kind": kind, "Clock": ClockTextIn(l, g.Clock.DaysPerMove, g.Clock.Bank)}), Inline: true},
	}
	if g.Tournament != "" {
		f = append(f, Field{Name: loc.T("field.tournament", nil), Value: loc.T("field.tournament.value",
			i18n.Data{"Tournament": g.Tournament, "Round": g.Round}), Inline: true})
	}
	return f
}

// Settings returns a player's stored settings, or the defaults for one never seen.
func Settings(tx *storage.Tx, id string) (*storage.Player, error) {
	p, err := tx.Player(id)
	if errors.Is(err, storage.ErrNotFound) {
		return &storage.Player{ID: id}, nil
	}
	return p, err
}

// DefaultReminderHours are the reminders of a player who chose none.
var DefaultReminderHours = []int{24, 2}

// ReminderHours returns p's reminder lead times, largest first.
func ReminderHours(p *storage.Player) []int {
	h := DefaultReminderHours
	if p.ReminderHours != nil {
		h = p.ReminderHours
	}
	h = slices.Clone(h)
	slices.Sort(h)
	slices.Reverse(h)
	return slices.Compact(h)
}

// boardImage returns the job that draws g's board for viewer in that player's theme,
// public (no pending secret choice) unless private is set, described in English.
func (s *Service) boardImage(tx *storage.Tx, g *storage.Game, viewer rules.Side, private bool) (*Picture, error) {
	p, err := s.boardImageIn(i18n.English, tx, g, viewer, private)
	if p != nil {
		p.anyLang = true
	}
	return p, err
}

// boardImageIn is boardImage described for a reader of language l.
func (s *Service) boardImageIn(l i18n.Lang, tx *storage.Tx, g *storage.Game, viewer rules.Side, private bool) (*Picture, error) {
	theme := ""
	if seat := g.Player(viewer); !seat.IsEngine() {
		p, err := Settings(tx, seat.ID)
		if err != nil {
			return nil, err
		}
		theme = p.Theme
	}
	pos := publicView(g.Position)
	if private {
		pos = privateView(g.Position, viewer)
	}
	return &Picture{
		pos:  pos,
		opts: BoardOptions{Viewer: viewer, Theme: theme, LastMove: LastMove(g), Lang: l},
		name: fmt.Sprintf("game-%s-%d-%s.png", g.ID, len(g.Moves), viewer),
		alt:  s.boardAlt(l, g, pos),
		text: true,
		game: g,
	}, nil
}

// ViewerFor is the side at the bottom of g's board for user: the user's own side
// when playing, else the side to move, else White.
func ViewerFor(g *storage.Game, user string) rules.Side {
	if side, ok := g.SideOf(user); ok {
		return side
	}
	if len(g.ToMove) == 1 {
		return g.ToMove[0]
	}
	return rules.White
}

// NextViewer is the side at the bottom of the board posted after mover acted: the
// side now to move, who must look at it, or the mover once the game is over or
// both must choose.
func NextViewer(g *storage.Game, mover rules.Side) rules.Side {
	if g.Active() && len(g.ToMove) == 1 {
		return HumanSide(g, g.ToMove[0])
	}
	return HumanSide(g, mover)
}

// bothChoose says what the two players of g do when both are to choose in a
// secret round (a Go-Chess placement), naming each, in language l: "" otherwise.
func bothChoose(l i18n.Lang, g *storage.Game) string {
	sim, ok := inRound(g.Position)
	if !ok || len(g.ToMove) != 2 {
		return ""
	}
	data := i18n.Data{"White": words.Seat(g.Players[rules.White]), "Black": words.Seat(g.Players[rules.Black])}
	if ms := sim.LegalMovesFor(g.ToMove[0]); len(ms) > 0 {
		return pieceT(l, "both.choose.piece", ms[0].Drop, data)
	}
	return catalogue.For(l).T("both.choose", data)
}

// viewerAfter is the side at the bottom of the board in the reply to mover's
// action in g, which came from the place from (nil: no request, an engine's move):
// NextViewer, where the reply is posted for both players to see; the mover, who
// alone reads the reply, in local play (the console: no place).
func viewerAfter(g *storage.Game, mover rules.Side, from *Place) rules.Side {
	if from != nil && *from == (Place{}) {
		return HumanSide(g, mover)
	}
	return NextViewer(g, mover)
}

// HumanSide returns side, or its opponent when side is an engine's seat and the
// opponent is a person: nobody looks at a board from the engine's chair.
func HumanSide(g *storage.Game, side rules.Side) rules.Side {
	if g.Player(side).IsEngine() && !g.Player(side.Other()).IsEngine() {
		return side.Other()
	}
	return side
}
