package bot

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/missivechess/missive/bot/clock"
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
			return nil, Refuse(ErrRefused, "There is no game %s here. Your games are listed by /games.", words.ShownID(id))
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
		return nil, Refuse(ErrRefused, "You have no game in progress. Start one with /challenge, or name a game with game:<number>.")
	}
	if len(games) == 1 {
		return tx.Game(games[0].ID)
	}
	if mode != turnGame {
		return nil, s.whichGame(req, games, "")
	}
	var mine []*storage.GameSummary
	for _, g := range games {
		if side, ok := g.SideOf(req.User.ID); ok && slices.Contains(g.ToMove, side) {
			mine = append(mine, g)
		}
	}
	switch {
	case len(mine) == 0:
		return nil, Refuse(rules.ErrNotYourTurn, "It is not your move in any of your games (%s); you will be told when it is.", gameList(games))
	case len(mine) == 1:
		return tx.Game(mine[0].ID)
	case fits == nil:
		return nil, s.whichGame(req, mine, "It is your move in %d games (%s)")
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
		return nil, s.whichGame(req, fit, "That fits %d of the games where it is your move (%s)")
	case len(app) == 1: // its refusal says why it does not fit
		return by[Applicable][0], nil
	case len(app) > 1:
		return nil, s.whichGame(req, app, "That fits none of the %d games where it is your move (%s)")
	}
	return nil, Refuse(ErrRefused, "That applies to none of the %d games where it is your move (%s).", len(mine), gameList(mine))
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
// games; lead (with the count and the list of games) says which games those are,
// "" for all the player's games.
func (s *Service) whichGame(req Request, games []*storage.GameSummary, lead string) error {
	if lead == "" {
		lead = "You play %d games (%s)"
	}
	ch := &Choice{Placeholder: "Choose the game", Command: req.Command, Arg: "game", Args: req.Args}
	for _, g := range games {
		if len(ch.Options) == 25 {
			break
		}
		label := fmt.Sprintf("#%s %s vs %s", g.ID, words.Seat(g.Players[rules.White]), words.Seat(g.Players[rules.Black]))
		ch.Options = append(ch.Options, ChoiceOption{Label: label, Value: g.ID, Description: s.VariantName(g.Variant)})
	}
	where := "" // a console has no threads; a server gives each game its own
	if req.Place.Guild != "" {
		where = ", or use the command in the game's thread"
	}
	return &choiceError{
		userError: userError{kind: ErrRefused, msg: fmt.Sprintf(
			lead+": say which with game:<number>%s.", len(games), gameList(games), where)},
		choice: ch,
	}
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
		return Refuse(ErrNotPlayer, "You are not playing in game %s (%s vs %s); only its players can do that.",
			g.ID, words.Seat(g.Players[rules.White]), words.Seat(g.Players[rules.Black]))
	}
	return nil
}

// MustBeActive refuses an action on a finished game.
func MustBeActive(g *storage.Game) error {
	if !g.Active() {
		return Refuse(rules.ErrGameOver, "Game %s is over: %s.", g.ID, DescribeOutcome(g))
	}
	return nil
}

// VariantName returns the display name of a variant key.
func (s *Service) VariantName(key string) string {
	if v, err := s.reg.Lookup(key); err == nil {
		return v.Name()
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

// GameTitle is a heading such as "Game 7 · Gothic Chess · alice vs bob".
func (s *Service) GameTitle(g *storage.Game) string {
	return fmt.Sprintf("Game %s · %s · %s vs %s", g.ID, s.VariantName(g.Variant),
		words.Seat(g.Players[rules.White]), words.Seat(g.Players[rules.Black]))
}

// RefOf names g and where it is played.
func RefOf(g *storage.Game) *GameRef {
	return &GameRef{ID: g.ID, Place: Place{Guild: g.Guild, Channel: g.Channel, Thread: g.Thread}}
}

// StatusLine says whose turn it is in g and by when, or how it ended.
func (s *Service) StatusLine(g *storage.Game) string {
	if !g.Active() {
		return "Game over: " + DescribeOutcome(g) + "."
	}
	line := TurnText(g)
	if d := g.Clock.Deadline; !d.IsZero() && !g.Clock.Paused.IsZero() {
		line += fmt.Sprintf(" · clock frozen by leave (%s left when it runs again)", words.Left(d.Sub(g.Clock.Paused)))
	} else if !d.IsZero() {
		line += fmt.Sprintf(" · deadline %s (%s left)", words.Time(d), words.Left(d.Sub(s.Now())))
	}
	if b := clock.BanksLine(g, s.Now()); b != "" {
		line += " · " + b
	}
	if g.DrawOffer != nil {
		line += fmt.Sprintf(" · %s offers a draw", words.Seat(g.Player(g.DrawOffer.By)))
	}
	if g.Takeback != nil {
		line += fmt.Sprintf(" · %s asks to take back a move", words.Seat(g.Player(g.Takeback.By)))
	}
	return line + "."
}

// TurnText says who is to act in g, which is in progress: "Alice (white) to move".
func TurnText(g *storage.Game) string {
	var who []string
	for _, side := range g.ToMove {
		who = append(who, fmt.Sprintf("%s (%s)", words.Seat(g.Player(side)), side))
	}
	verb := "to move"
	if _, ok := inRound(g.Position); ok {
		verb = "to choose"
		if len(who) == 2 {
			verb = "both to choose"
		}
	}
	return strings.Join(who, " and ") + " " + verb
}

// boardAlt describes g's board, drawn from pos, for screen readers (the picture's
// description): the game, whose move it is or how it ended, the last move, check, and
// the position's text (FEN, or Gess's text form) last, where a length limit cuts.
func (s *Service) boardAlt(g *storage.Game, pos rules.Position) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s board of game %s %s. ", s.VariantName(g.Variant), g.ID, movesMade(g))
	if m := LastMove(g); m != nil {
		d := g.Position.Variant().Dims()
		fmt.Fprintf(&b, "Last move %s to %s. ", d.Name(m.From), d.Name(m.To))
	}
	_, round := inRound(g.Position)
	switch {
	case !g.Active():
		b.WriteString("Game over: " + DescribeOutcome(g) + ". ")
	case !round && pos.InCheck():
		b.WriteString(TurnText(g) + ", in check. ")
	default:
		b.WriteString(TurnText(g) + ". ")
	}
	b.WriteString("Position: " + pos.String())
	return b.String()
}

// movesMade says how far g has come, counting moves as players do, each side's
// apart (a record's entries are plies, and placement choices): "after 10 moves by
// white and 9 by black", "after 3 placement rounds and 2 moves each", "at the start".
func movesMade(g *storage.Game) string {
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
		parts = append(parts, words.Plural(rounds, "placement round"))
	}
	w, k := moves[rules.White], moves[rules.Black]
	switch {
	case w == k && w > 0:
		parts = append(parts, words.Plural(w, "move")+" each")
	case w != k:
		first, second := rules.White, rules.Black
		if k > w {
			first, second = second, first
		}
		parts = append(parts, fmt.Sprintf("%s by %s and %d by %s", words.Plural(moves[first], "move"), first, moves[second], second))
	}
	if len(parts) == 0 {
		return "at the start"
	}
	return "after " + strings.Join(parts, " and ")
}

// GameFields are the reply fields describing g.
func (s *Service) GameFields(g *storage.Game) []Field {
	kind := "casual"
	if g.Rated {
		kind = "rated"
	}
	clock := clock.Text(g.Clock.DaysPerMove, g.Clock.Bank)
	f := []Field{
		{Name: "White", Value: words.Seat(g.Players[rules.White]), Inline: true},
		{Name: "Black", Value: words.Seat(g.Players[rules.Black]), Inline: true},
		{Name: "Game", Value: fmt.Sprintf("%s, %s, %s", s.VariantName(g.Variant), kind, clock), Inline: true},
	}
	if g.Tournament != "" {
		f = append(f, Field{Name: "Tournament", Value: fmt.Sprintf("%s, round %d", g.Tournament, g.Round), Inline: true})
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
// public (no pending secret choice) unless private is set.
func (s *Service) boardImage(tx *storage.Tx, g *storage.Game, viewer rules.Side, private bool) (*Picture, error) {
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
		opts: BoardOptions{Viewer: viewer, Theme: theme, LastMove: LastMove(g)},
		name: fmt.Sprintf("game-%s-%d-%s.png", g.ID, len(g.Moves), viewer),
		alt:  s.boardAlt(g, pos),
		text: true,
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
// secret round (a Go-Chess placement), naming each: "" otherwise.
func bothChoose(g *storage.Game) string {
	sim, ok := inRound(g.Position)
	if !ok || len(g.ToMove) != 2 {
		return ""
	}
	what := "cell"
	if ms := sim.LegalMovesFor(g.ToMove[0]); len(ms) > 0 {
		what = "cell for your " + ms[0].Drop.String()
	}
	return fmt.Sprintf("%s and %s: each choose the %s with /place; a choice stays secret until both have chosen.",
		words.Seat(g.Players[rules.White]), words.Seat(g.Players[rules.Black]), what)
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
