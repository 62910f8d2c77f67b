package external

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/record"
)

// Engine is one configured external engine process, started on first use and
// restarted after it dies or misbehaves. It serves one request at a time.
type Engine struct {
	cfg     Config
	mu      sync.Mutex
	proc    *process
	variant string // the engine variant selected in proc ("" before any)
	// game is the game last sent to proc (nil before any), with an XBoard
	// engine's own reply: a request that continues it is not announced with
	// "ucinewgame" (UCI), nor replayed after "new" (XBoard), so the engine keeps
	// what it learnt from the earlier moves, as both protocols intend.
	game *sentGame
	// features are what an XBoard engine announced in its handshake.
	features xboardFeatures
	// played is whether proc has been sent a game ("new"), which an XBoard engine
	// that announced reuse=0 gets only once: the next game starts a new process.
	played bool
	// offered are the variants the engine listed in its handshake (nil if none).
	offered []string
}

// sentGame is a game as an engine knows it: its variant, start and moves.
type sentGame struct {
	variant, startFEN string
	moves             []string
}

// continuedBy reports whether a request for variant from startFEN after moves
// goes on with g: the same variant and start, and g's moves followed by none or
// more.
func (g *sentGame) continuedBy(variant, startFEN string, moves []string) bool {
	if g == nil || g.variant != variant || g.startFEN != startFEN || len(moves) < len(g.moves) {
		return false
	}
	for i, m := range g.moves {
		if moves[i] != m {
			return false
		}
	}
	return true
}

// New returns an engine for c (which Validate must accept); nothing starts yet.
func New(c Config) (*Engine, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return &Engine{cfg: c}, nil
}

// Name returns the configured name.
func (e *Engine) Name() string { return e.cfg.Name }

// Supports reports whether the engine plays the variant with key.
func (e *Engine) Supports(key string) bool { _, ok := e.cfg.Variants[key]; return ok }

// Close stops the process.
func (e *Engine) Close() {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.drop()
}

func (e *Engine) drop() {
	if e.proc != nil {
		e.proc.kill()
		e.proc = nil
		e.variant = ""
		e.game = nil
		e.features = xboardFeatures{}
		e.offered = nil
		e.played = false
	}
}

// Budget bounds one request: with Nodes above 0, a search of that many nodes
// (UCI's "go nodes", UCI engines only), answered within the configured Timeout;
// otherwise Think, the time per move (0 for the configured one).
type Budget struct {
	Think time.Duration
	Nodes int64
}

// Move asks for the move to play after moves from start, with think time per move
// (0 for the configured one). The answer is checked against the rules: anything
// else is an error wrapping ErrAnswer, ErrTimeout or ErrDead, and the process is
// restarted on the next request.
func (e *Engine) Move(ctx context.Context, start rules.Position, moves []rules.Move, think time.Duration) (rules.Move, error) {
	return e.MoveWithin(ctx, start, moves, Budget{Think: think})
}

// MoveWithin is Move within the budget b.
func (e *Engine) MoveWithin(ctx context.Context, start rules.Position, moves []rules.Move, b Budget) (rules.Move, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	key := start.Variant().Key()
	name, ok := e.cfg.Variants[key]
	if !ok {
		return rules.NullMove, fmt.Errorf("external: %s does not play %s (configured: %v)", e.cfg.Name, start.Variant().Name(), keys(e.cfg.Variants))
	}
	if b.Nodes > 0 && e.cfg.Protocol != UCI {
		return rules.NullMove, fmt.Errorf("external: %s speaks XBoard, which has no search of a number of nodes; give it a time per move", e.cfg.Name)
	}
	if b.Think <= 0 {
		b.Think = e.cfg.Think
	}
	// Replay the game on our side first: the answer is judged in this position.
	line, err := record.Line(start, moves)
	if err != nil {
		return rules.NullMove, fmt.Errorf("external: the game does not replay: %w", err)
	}
	pos := line.Position()
	texts := make([]string, len(moves))
	for i, st := range line.Steps {
		texts[i] = st.Before.UCI(st.Move)
	}
	if o := pos.Outcome(); o.IsOver() {
		return rules.NullMove, fmt.Errorf("external: the game is over (%v)", o)
	}
	text, err := e.ask(ctx, name, start, texts, b)
	if errors.Is(err, ErrResigned) {
		return rules.NullMove, err
	}
	if err != nil {
		e.drop()
		return rules.NullMove, err
	}
	m, err := pos.ParseMove(text)
	if err == nil {
		_, err = pos.Play(m)
	}
	if err != nil {
		e.drop()
		return rules.NullMove, fmt.Errorf("%w: %s answered %s in %s: %s", ErrAnswer, e.cfg.Name, rules.Echo(text), pos.String(), rules.SentenceOf(err))
	}
	if e.cfg.Protocol == XBoard && e.game != nil {
		// The XBoard engine has played its reply on its own board: the game it
		// knows ends with it, in the notation later requests compare.
		e.game.moves[len(e.game.moves)-1] = pos.UCI(m)
	}
	return m, nil
}

// resigns reports whether an XBoard engine's line resigns the game: "resign",
// with or without a comment after it.
func resigns(line string) bool {
	return line == "resign" || strings.HasPrefix(line, "resign ")
}

func keys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

// ask runs one request on the (re)started process and returns the move text.
func (e *Engine) ask(ctx context.Context, variant string, start rules.Position, moves []string, b Budget) (string, error) {
	startFEN := ""
	if s := start.Variant().Start(0); s.String() != start.String() {
		startFEN = start.String()
	}
	if e.proc != nil && e.features.noReuse && e.played && !e.game.continuedBy(variant, startFEN, moves) {
		// XBoard's reuse=0: the engine plays each game in a process of its own.
		e.drop()
	}
	if e.proc == nil || !e.proc.alive() {
		e.drop()
		p, err := startProcess(&e.cfg)
		if err != nil {
			return "", err
		}
		e.proc = p
		if err := e.handshake(ctx); err != nil {
			return "", err
		}
	}
	if err := e.checkVariant(variant); err != nil {
		return "", err
	}
	if e.cfg.Protocol == UCI {
		return e.askUCI(ctx, variant, startFEN, moves, b)
	}
	return e.askXBoard(ctx, variant, startFEN, moves, b.Think)
}

func (e *Engine) handshake(ctx context.Context) error {
	p, to := e.proc, e.cfg.Timeout
	if e.cfg.Protocol == UCI {
		if err := p.send("uci"); err != nil {
			return err
		}
		var offered []string // the values of the variant option, when it is a combo
		if _, err := p.readUntil(ctx, to, func(l string) bool {
			if vars, ok := comboValues(l, e.cfg.Select); ok {
				offered = vars
			}
			return l == "uciok"
		}); err != nil {
			return fmt.Errorf("external: %s handshake: %w", e.cfg.Name, err)
		}
		e.offered = offered
		for k, v := range e.cfg.Options {
			if err := p.send("setoption name " + k + " value " + v); err != nil {
				return err
			}
		}
		return e.syncUCI(ctx)
	}
	if err := p.send("xboard", "protover 2"); err != nil {
		return err
	}
	f := &e.features
	announced := false
	var sendErr error
	if _, err := p.readUntil(ctx, to, func(l string) bool {
		announced = announced || strings.HasPrefix(l, "feature ")
		done := f.read(l)
		if len(f.answers) > 0 && sendErr == nil {
			sendErr = p.reply(f.answers...)
			f.answers = f.answers[:0]
		}
		return done
	}); err != nil {
		if errors.Is(err, ErrTimeout) && !announced {
			// A protocol 1 engine ignores "protover 2" and announces nothing.
			return fmt.Errorf("%w: %s announced no features after \"protover 2\" within %v; Missive needs an engine of XBoard protocol 2 (\"feature ping=1 ... done=1\"): %w", ErrConfig, e.cfg.Name, to, err)
		}
		if errors.Is(err, ErrTimeout) && f.starting {
			// done=0 asks the interface to wait for done=1; Missive waits its timeout.
			return fmt.Errorf("%w: %s asked for time to start (feature done=0) and had not finished (done=1) within %v; raise its timeout in the engines' configuration: %w", ErrConfig, e.cfg.Name, to, err)
		}
		return fmt.Errorf("external: %s handshake: %w", e.cfg.Name, err)
	}
	if sendErr != nil {
		return fmt.Errorf("external: %s handshake: %w", e.cfg.Name, sendErr)
	}
	if !f.ping {
		return fmt.Errorf("%w: %s does not announce ping=1 among its XBoard features; Missive needs ping to know the engine has read the game", ErrConfig, e.cfg.Name)
	}
	e.offered = f.variants
	// No pondering (an engine thinking on the opponent's time would spend a
	// server's core between requests) and no thinking output (nothing reads it).
	cmds := []string{"easy", "nopost"}
	for k, v := range e.cfg.Options {
		cmds = append(cmds, "option "+k+"="+v)
	}
	return p.send(cmds...)
}

// checkVariant refuses a request for the engine's variant name when the engine
// listed the variants it plays in its handshake and name is not among them. A UCI
// engine's list is not checked when an option loads variants from a file
// (Fairy-Stockfish's VariantPath): those are not in the list its handshake gave.
func (e *Engine) checkVariant(name string) error {
	if e.offered == nil || e.cfg.Select == "none" || slices.Contains(e.offered, name) {
		return nil
	}
	for k := range e.cfg.Options {
		if strings.EqualFold(k, "VariantPath") {
			return nil
		}
	}
	offered := make([]string, len(e.offered)) // the engine's words: each shortened and quoted
	for i, v := range e.offered {
		offered[i] = rules.Echo(v)
	}
	return fmt.Errorf("%w: %s does not play the variant %q (it offers %s)", ErrConfig, e.cfg.Name, name, strings.Join(offered, ", "))
}

// comboValues returns the values of the UCI option name when line declares it as
// a combo ("option name UCI_Variant type combo default chess var chess var
// gothic"), and whether it does.
func comboValues(line, name string) ([]string, bool) {
	rest, ok := strings.CutPrefix(line, "option name "+name+" type combo ")
	if !ok {
		return nil, false
	}
	f := strings.Fields(rest)
	vars := []string{}
	for i := 0; i+1 < len(f); i++ {
		if f[i] == "var" {
			vars = append(vars, f[i+1])
			i++
		}
	}
	return vars, true
}

func (e *Engine) syncUCI(ctx context.Context) error {
	if err := e.proc.send("isready"); err != nil {
		return err
	}
	_, err := e.proc.readUntil(ctx, e.cfg.Timeout, func(l string) bool { return l == "readyok" })
	return err
}

func (e *Engine) askUCI(ctx context.Context, variant, startFEN string, moves []string, b Budget) (string, error) {
	p := e.proc
	if e.variant != variant && e.cfg.Select != "none" {
		if err := p.send("setoption name " + e.cfg.Select + " value " + variant); err != nil {
			return "", err
		}
		e.variant = variant
	}
	cmd := "position startpos"
	if startFEN != "" {
		cmd = "position fen " + startFEN
	}
	if len(moves) > 0 {
		cmd += " moves " + strings.Join(moves, " ")
	}
	if !e.game.continuedBy(variant, startFEN, moves) {
		if err := p.send("ucinewgame"); err != nil {
			return "", err
		}
	}
	e.game = &sentGame{variant: variant, startFEN: startFEN, moves: moves}
	if err := p.send(cmd); err != nil {
		return "", err
	}
	if err := e.syncUCI(ctx); err != nil {
		return "", err
	}
	goCmd, wait := fmt.Sprintf("go movetime %d", b.Think.Milliseconds()), b.Think+e.cfg.Timeout
	if b.Nodes > 0 {
		goCmd, wait = fmt.Sprintf("go nodes %d", b.Nodes), e.cfg.Timeout
	}
	if err := p.send(goCmd); err != nil {
		return "", err
	}
	line, err := p.readUntil(ctx, wait, func(l string) bool { return strings.HasPrefix(l, "bestmove") })
	if err != nil {
		return "", err
	}
	f := strings.Fields(line)
	if len(f) < 2 {
		return "", fmt.Errorf("%w: %s sent %s", ErrAnswer, e.cfg.Name, rules.Echo(line))
	}
	return f[1], nil
}

// askXBoard plays the moves on the engine's board in force mode and asks for a
// move. A request that continues the game the engine knows (its own last reply
// included) sends only the moves since; any other starts a new game ("new") and
// replays it from the start, set up with setboard when the game began from a
// position of its own.
func (e *Engine) askXBoard(ctx context.Context, variant, startFEN string, moves []string, think time.Duration) (string, error) {
	p := e.proc
	cmds, fresh := []string{"force"}, moves
	if e.game.continuedBy(variant, startFEN, moves) {
		fresh = moves[len(e.game.moves):]
	} else {
		if startFEN != "" && !e.features.setboard {
			return "", fmt.Errorf("%w: %s cannot start from a position of its own (its XBoard features lack setboard=1); it plays only games from the variant's start", ErrConfig, e.cfg.Name)
		}
		cmds, e.played = []string{"new"}, true
		if e.cfg.Select != "none" {
			cmds = append(cmds, "variant "+variant)
		}
		cmds = append(cmds, "force")
		if startFEN != "" {
			cmds = append(cmds, "setboard "+startFEN)
		}
	}
	e.game = nil // until the engine has answered
	// "st" takes whole seconds in most engines (Fairy-Max reads it with %d), so
	// the budget is rounded up there and given exactly, in centiseconds, as the
	// engine's clock ("time" and "otim"), which engines of the micro-Max family
	// take as their limit in "st" mode; without it, 500 ms became 1 s.
	secs := int(math.Ceil(think.Seconds()))
	cs := max(think.Milliseconds()/10, 1)
	cmds = append(cmds, fmt.Sprintf("st %d", max(secs, 1)))
	for _, m := range fresh {
		if e.features.usermove {
			m = "usermove " + m
		}
		cmds = append(cmds, m)
	}
	cmds = append(cmds, fmt.Sprintf("time %d", cs), fmt.Sprintf("otim %d", cs), "ping 1")
	if err := p.send(cmds...); err != nil {
		return "", err
	}
	var problem string
	if _, err := p.readUntil(ctx, e.cfg.Timeout, func(l string) bool {
		// An engine that does not know the handshake's answers ("Error (unknown
		// command): accepted") or "nopost" has not refused the game.
		if strings.HasPrefix(l, "Illegal move") || strings.HasPrefix(l, "Error") && !harmlessError(l) {
			problem = l
		}
		return strings.HasPrefix(l, "pong")
	}); err != nil {
		return "", err
	}
	if problem != "" {
		return "", fmt.Errorf("%w: %s refused the game: %s", ErrAnswer, e.cfg.Name, rules.Echo(problem))
	}
	if err := p.send("go"); err != nil {
		return "", err
	}
	line, err := p.readUntil(ctx, time.Duration(max(secs, 1))*time.Second+e.cfg.Timeout, func(l string) bool {
		return strings.HasPrefix(l, "move ") || strings.HasPrefix(l, "Illegal") || resigns(l)
	})
	if err != nil {
		return "", err
	}
	if resigns(line) {
		return "", fmt.Errorf("%w: %s sent %s", ErrResigned, e.cfg.Name, rules.Echo(line))
	}
	f := strings.Fields(line)
	if f[0] != "move" || len(f) < 2 {
		return "", fmt.Errorf("%w: %s sent %s", ErrAnswer, e.cfg.Name, rules.Echo(line))
	}
	e.game = &sentGame{variant: variant, startFEN: startFEN, moves: append(slices.Clip(moves), f[1])}
	return f[1], nil
}
