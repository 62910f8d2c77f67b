package external

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/missivechess/missive/internal/oracle"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/variants"
)

// TestMain turns the test binary into a fake UCI engine when FAKE_ENGINE is set.
func TestMain(m *testing.M) {
	if mode := os.Getenv("FAKE_ENGINE"); mode != "" {
		fakeEngine(mode)
		os.Exit(0)
	}
	if command := os.Getenv("FAKE_BOT"); command != "" {
		fakeBot(command)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// fakeEngine speaks just enough UCI and then misbehaves at "go" as mode says.
func fakeEngine(mode string) {
	sc := bufio.NewScanner(os.Stdin)
	plies := 0 // moves in the last "position" command
	for sc.Scan() {
		if path := os.Getenv("FAKE_ENGINE_LOG"); path != "" {
			if f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
				fmt.Fprintln(f, sc.Text())
				f.Close()
			}
		}
		switch f := strings.Fields(sc.Text()); {
		case len(f) == 0:
		case f[0] == "uci":
			fmt.Println("id name fake")
			if vars := os.Getenv("FAKE_UCI_VARIANTS"); vars != "" {
				fmt.Println("option name UCI_Variant type combo default chess var " + strings.ReplaceAll(vars, ",", " var "))
			}
			fmt.Println("uciok")
		case f[0] == "isready":
			fmt.Println("readyok")
		case f[0] == "protover": // XBoard
			features := "ping=1 setboard=1"
			if v, ok := os.LookupEnv("FAKE_XBOARD_FEATURES"); ok {
				features = v
			}
			if features != "protocol 1" { // which announces nothing
				fmt.Println("feature " + features)
				if d, err := time.ParseDuration(os.Getenv("FAKE_XBOARD_STARTUP")); err == nil {
					time.Sleep(d) // after "feature done=0", an engine loading its tables
				}
				fmt.Println("feature done=1")
			}
		case f[0] == "new":
			plies = 0
		case f[0] == "usermove" && len(f) == 2 && strings.Contains(os.Getenv("FAKE_XBOARD_FEATURES"), "usermove=1"):
			plies++
		case coordinate(f[0]) && len(f) == 1 && !strings.Contains(os.Getenv("FAKE_XBOARD_FEATURES"), "usermove=1"):
			plies++
		case f[0] == "ping":
			fmt.Println("pong " + strings.Join(f[1:], " "))
		case f[0] == "position":
			plies = 0
			for i, w := range f {
				if w == "moves" {
					plies = len(f) - i - 1
				}
			}
		case f[0] == "go":
			switch mode {
			case "illegal":
				fmt.Println("bestmove e2e5")
			case "garbage":
				fmt.Println("bestmove @@!!")
			case "crash":
				os.Exit(3)
			case "hang":
				time.Sleep(time.Hour)
			case "good":
				fmt.Println("bestmove e2e4")
			case "xboard": // the moves of one Gothic line, by ply: it plays on its board
				fmt.Println("# a comment that mentions resign is no resignation")
				fmt.Println("move " + xboardLine[min(plies, len(xboardLine)-1)])
				plies++
			case "resign": // XBoard
				fmt.Println("resign { hopeless }")
			case "white": // White's moves of one Gothic line, by ply
				fmt.Println("bestmove " + []string{"e2e4", "", "d2d4", "", "c2c4"}[min(plies, 4)])
			}
		case f[0] == "quit":
			return
		case mode == "xboard" && !slices.Contains([]string{"xboard", "variant", "force", "setboard", "st", "time", "otim", "easy", "nopost", "option"}, f[0]):
			// An XBoard engine reports what it does not understand.
			fmt.Println("Error (unknown command): " + f[0])
		}
	}
}

// xboardLine is the Gothic line the fake XBoard engine plays, one move a ply.
var xboardLine = []string{"e2e4", "e7e5", "d2d4", "d7d6", "c2c4"}

// coordinate reports whether w is a move in coordinates, such as e2e4.
func coordinate(w string) bool {
	return regexp.MustCompile(`^[a-j]\d+[a-j]\d+[a-z]?$`).MatchString(w)
}

func gothic(t *testing.T) rules.Position {
	v, err := variants.Registry().Lookup("gothic")
	if err != nil {
		t.Fatal(err)
	}
	return v.Start(0)
}

func fake(t *testing.T, mode string) *Engine {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	e, err := New(Config{Name: "fake-" + mode, Command: exe, Protocol: UCI, Variants: map[string]string{"gothic": "gothic"}, Timeout: 2 * time.Second, Env: map[string]string{"FAKE_ENGINE": mode}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(e.Close)
	return e
}

func TestFakeEngineMisbehaviour(t *testing.T) {
	cases := map[string]error{"illegal": ErrAnswer, "garbage": ErrAnswer, "crash": ErrDead, "hang": ErrTimeout}
	for mode, want := range cases {
		t.Run(mode, func(t *testing.T) {
			e := fake(t, mode)
			start := gothic(t)
			before := start.String()
			_, err := e.Move(context.Background(), start, nil, 100*time.Millisecond)
			if !errors.Is(err, want) {
				t.Fatalf("got %v, want %v", err, want)
			}
			if start.String() != before {
				t.Fatal("the game changed")
			}
		})
	}
}

func TestFakeEngineRestartsAfterCrash(t *testing.T) {
	e := fake(t, "crash")
	if _, err := e.Move(context.Background(), gothic(t), nil, 50*time.Millisecond); !errors.Is(err, ErrDead) {
		t.Fatalf("got %v", err)
	}
	e.cfg.Env["FAKE_ENGINE"] = "good" // the restarted process behaves
	m, err := e.Move(context.Background(), gothic(t), nil, 50*time.Millisecond)
	if err != nil {
		t.Fatalf("after restart: %v", err)
	}
	if got := gothic(t).UCI(m); got != "e2e4" {
		t.Fatalf("got %s", got)
	}
}

// TestNewGameOncePerGame: a UCI engine hears "ucinewgame" when a game begins, not
// before each move of it, so that it keeps its memory between the moves of a game
// (as the UCI protocol intends); a request from another game, or one that takes
// back moves, starts a new game again.
func TestNewGameOncePerGame(t *testing.T) {
	e := fake(t, "white")
	log := filepath.Join(t.TempDir(), "commands")
	e.cfg.Env["FAKE_ENGINE_LOG"] = log
	start := gothic(t)
	line := []string{"e2e4", "e7e5", "d2d4", "d7d6", "c2c4"}
	moves := playLine(t, start, line)
	ask := func(plies int) {
		t.Helper()
		m, err := e.Move(context.Background(), start, moves[:plies], 50*time.Millisecond)
		if err != nil {
			t.Fatalf("after %d plies: %v", plies, err)
		}
		if m != moves[plies] {
			t.Fatalf("after %d plies: got %v, want %s", plies, m, line[plies])
		}
	}
	newGames := func() int {
		t.Helper()
		b, err := os.ReadFile(log)
		if err != nil {
			t.Fatal(err)
		}
		return strings.Count(string(b), "ucinewgame\n")
	}
	ask(0)
	ask(2)
	ask(4)
	if n := newGames(); n != 1 {
		t.Fatalf("one game of three moves sent %d ucinewgame, want 1", n)
	}
	ask(2) // taken back: not a continuation
	if n := newGames(); n != 2 {
		t.Fatalf("a request that takes moves back sent %d ucinewgame in all, want 2", n)
	}
	ask(0) // the next game
	ask(2)
	if n := newGames(); n != 3 {
		t.Fatalf("a second game sent %d ucinewgame in all, want 3", n)
	}
}

// playLine returns the moves of line (in coordinates) from start.
func playLine(t *testing.T, start rules.Position, line []string) []rules.Move {
	t.Helper()
	var moves []rules.Move
	pos := start
	for _, text := range line {
		m, err := pos.ParseMove(text)
		if err != nil {
			t.Fatal(err)
		}
		moves = append(moves, m)
		if pos, err = pos.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	return moves
}

// TestXBoardKeepsTheGame: an XBoard engine hears "new" and the game's moves
// when a game begins; a request that continues that game (the engine's own
// reply included) sends it only the moves since, in force mode, so that it
// keeps its board and memory; the engine may be asked for both sides in turn.
// A request that takes moves back, or another game, starts afresh.
func TestXBoardKeepsTheGame(t *testing.T) {
	for _, usermove := range []bool{false, true} {
		t.Run(fmt.Sprintf("usermove=%v", usermove), func(t *testing.T) {
			log := filepath.Join(t.TempDir(), "commands")
			e := fakeXBoard(t, log)
			if usermove { // the fake then refuses a bare move
				e.cfg.Env["FAKE_XBOARD_FEATURES"] = "ping=1 setboard=1 usermove=1"
			}
			start := gothic(t)
			moves := playLine(t, start, xboardLine)
			heard := func() []string {
				t.Helper()
				b, err := os.ReadFile(log)
				if err != nil {
					t.Fatal(err)
				}
				return strings.Split(strings.TrimSpace(string(b)), "\n")
			}
			// games returns what the engine heard from each "new" on.
			games := func() (out [][]string) {
				t.Helper()
				for _, l := range heard() {
					if l == "new" {
						out = append(out, nil)
					} else if len(out) > 0 {
						out[len(out)-1] = append(out[len(out)-1], l)
					}
				}
				return out
			}
			ask := func(plies int) {
				t.Helper()
				m, err := e.Move(context.Background(), start, moves[:plies], 50*time.Millisecond)
				if err != nil {
					t.Fatalf("after %d plies: %v", plies, err)
				}
				if m != moves[plies] { // the fake answers by the plies on its board
					t.Fatalf("after %d plies: got %v, want %s", plies, m, xboardLine[plies])
				}
			}
			prefix := ""
			if usermove {
				prefix = "usermove "
			}
			ask(0)
			ask(2)
			ask(3) // the other side, right after its own move
			g := games()
			if len(g) != 1 {
				t.Fatalf("one game sent new %d times, want 1: %q", len(g), heard())
			}
			if slices.Index(g[0], prefix+"e7e5") < 0 || slices.Contains(g[0], prefix+"e2e4") || slices.Contains(g[0], prefix+"d2d4") {
				t.Fatalf("sent %q: want e7e5, and never the engine's own moves", g[0])
			}
			ask(2) // taken back: not a continuation
			if g = games(); len(g) != 2 || !slices.Contains(g[1], prefix+"e2e4") || !slices.Contains(g[1], prefix+"e7e5") {
				t.Fatalf("a request that takes moves back sent %q, want a new game with the moves replayed", heard())
			}
			ask(0) // the next game
			if g = games(); len(g) != 3 {
				t.Fatalf("a second game sent new %d times in all, want 3", len(g))
			}
		})
	}
}

// TestXBoardReuse: an XBoard engine that announces reuse=0 plays each game in a
// fresh process, and the moves of one game in the same process; any other engine
// keeps its process from game to game.
func TestXBoardReuse(t *testing.T) {
	for _, c := range []struct {
		features  string
		processes int
	}{{"ping=1 setboard=1", 1}, {"ping=1 setboard=1 reuse=1", 1}, {"ping=1 setboard=1 reuse=0", 3}} {
		log := filepath.Join(t.TempDir(), "commands")
		e := fakeXBoard(t, log)
		e.cfg.Env["FAKE_XBOARD_FEATURES"] = c.features
		start := gothic(t)
		moves := playLine(t, start, xboardLine)
		for _, plies := range []int{0, 2, 4, 0, 2, 0} { // three games
			if _, err := e.Move(context.Background(), start, moves[:plies], 50*time.Millisecond); err != nil {
				t.Fatalf("features %q, after %d plies: %v", c.features, plies, err)
			}
		}
		b, err := os.ReadFile(log)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Count(string(b), "xboard\n"); got != c.processes {
			t.Errorf("features %q: %d processes for three games, want %d:\n%s", c.features, got, c.processes, b)
		}
	}
}

// TestXBoardProtocol1: an engine that ignores "protover 2", as one of XBoard's
// first protocol does, is refused with a sentence that says so, and is not asked
// to move.
func TestXBoardProtocol1(t *testing.T) {
	log := filepath.Join(t.TempDir(), "commands")
	e := fakeXBoard(t, log)
	e.cfg.Env["FAKE_XBOARD_FEATURES"] = "protocol 1"
	e.cfg.Timeout = 200 * time.Millisecond
	_, err := e.Move(context.Background(), gothic(t), nil, 50*time.Millisecond)
	if !errors.Is(err, ErrConfig) || !errors.Is(err, ErrTimeout) || !strings.Contains(err.Error(), `announced no features after "protover 2" within 200ms; Missive needs an engine of XBoard protocol 2`) {
		t.Errorf("got %v, want ErrConfig saying it announced no features", err)
	}
	if b, _ := os.ReadFile(log); strings.Contains(string(b), "go\n") {
		t.Errorf("the engine was asked to move: %q", b)
	}
}

// TestXBoardSlowStart: an engine that asks for time to start (done=0) plays when
// it finishes within its timeout, and is refused with a sentence that says to
// raise the timeout when it does not.
func TestXBoardSlowStart(t *testing.T) {
	for _, c := range []struct {
		startup, timeout time.Duration
		plays            bool
	}{{300 * time.Millisecond, 3 * time.Second, true}, {2 * time.Second, 300 * time.Millisecond, false}} {
		e := fakeXBoard(t, filepath.Join(t.TempDir(), "commands"))
		e.cfg.Env["FAKE_XBOARD_FEATURES"] = "done=0 ping=1 setboard=1"
		e.cfg.Env["FAKE_XBOARD_STARTUP"] = c.startup.String()
		e.cfg.Timeout = c.timeout
		_, err := e.Move(context.Background(), gothic(t), nil, 50*time.Millisecond)
		switch {
		case c.plays && err != nil:
			t.Errorf("starting in %v with a timeout of %v: %v", c.startup, c.timeout, err)
		case !c.plays && (!errors.Is(err, ErrConfig) || !errors.Is(err, ErrTimeout) ||
			!strings.Contains(err.Error(), "asked for time to start (feature done=0) and had not finished (done=1) within 300ms; raise its timeout")):
			t.Errorf("starting in %v with a timeout of %v: got %v, want ErrConfig saying to raise the timeout", c.startup, c.timeout, err)
		}
	}
}

// TestXBoardAnswersFeatures: each announced feature is answered, accepted when
// Missive does what it asks and rejected otherwise, before the game is sent; an
// engine that does not know the answers (the fake reports them as unknown
// commands) still plays.
func TestXBoardAnswersFeatures(t *testing.T) {
	log := filepath.Join(t.TempDir(), "commands")
	e := fakeXBoard(t, log)
	e.cfg.Env["FAKE_XBOARD_FEATURES"] = `ping=1 setboard=1 draw=1 sigint=0 sigterm=1 myname="Fake 1.0" san=0 analyze=1 time=0`
	if _, err := e.Move(context.Background(), gothic(t), nil, 50*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	want := "accepted ping\naccepted setboard\nrejected draw\naccepted sigint\nrejected sigterm\naccepted myname\naccepted san\nrejected analyze\nrejected time\naccepted done\n"
	heard := string(b)
	if i := strings.Index(heard, want); i < 0 || strings.Index(heard, "new\n") < i {
		t.Errorf("heard %q, want the answers %q before the game", heard, want)
	}
}

// TestXBoardResigns: an XBoard engine that answers "resign" resigns the game
// (ErrResigned, not a failure), and its process stays for the next request.
func TestXBoardResigns(t *testing.T) {
	e := fakeXBoard(t, filepath.Join(t.TempDir(), "commands"))
	e.cfg.Env["FAKE_ENGINE"] = "resign"
	for i := range 2 {
		_, err := e.Move(context.Background(), gothic(t), nil, 50*time.Millisecond)
		if !errors.Is(err, ErrResigned) || errors.Is(err, ErrAnswer) {
			t.Fatalf("request %d: %v, want ErrResigned", i+1, err)
		}
		if e.proc == nil || !e.proc.alive() {
			t.Fatalf("request %d: the engine's process was stopped", i+1)
		}
	}
}

// TestXBoardFeatures: an engine whose announced features Missive cannot work
// with is refused with a sentence that says why, before any game is sent.
func TestXBoardFeatures(t *testing.T) {
	for _, c := range []struct {
		features, want string
		fromFEN        bool
	}{
		{"setboard=1", "does not announce ping=1", false},
		{`ping=1 variants="normal,capablanca,janus"`, `does not play the variant "gothic" (it offers "normal", "capablanca", "janus")`, false},
		{"ping=1", "cannot start from a position of its own", true},
	} {
		log := filepath.Join(t.TempDir(), "commands")
		e := fakeXBoard(t, log)
		e.cfg.Env["FAKE_XBOARD_FEATURES"] = c.features
		start := gothic(t)
		if c.fromFEN {
			p, err := start.Variant().ParsePosition("rnbqckabnr/pppppppppp/10/10/4P5/10/PPPP1PPPPP/RNBQCKABNR b KQkq e3 0 1")
			if err != nil {
				t.Fatal(err)
			}
			start = p
		}
		_, err := e.Move(context.Background(), start, nil, 50*time.Millisecond)
		if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("features %q: got %v, want ErrConfig saying %q", c.features, err, c.want)
		}
		if b, _ := os.ReadFile(log); strings.Contains(string(b), "go\n") {
			t.Errorf("features %q: the engine was asked to move: %q", c.features, b)
		}
	}
	// The same engine from the variant's start, or naming the variant, plays; so
	// does one that asks for SAN, which is rejected: it falls back to coordinates.
	for _, features := range []string{"ping=1", `ping=1 variants="normal,gothic"`, "ping=1 san=1"} {
		e := fakeXBoard(t, filepath.Join(t.TempDir(), "commands"))
		e.cfg.Env["FAKE_XBOARD_FEATURES"] = features
		if _, err := e.Move(context.Background(), gothic(t), nil, 50*time.Millisecond); err != nil {
			t.Errorf("features %q: %v", features, err)
		}
	}
}

// TestXBoardBudget: an XBoard engine is given the think time exactly as its clock
// in centiseconds besides "st", which most engines read in whole seconds only,
// so that a budget under a second is not rounded up to one.
// fakeXBoard returns a fake XBoard engine that logs what it hears to log.
func fakeXBoard(t *testing.T, log string) *Engine {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	e, err := New(Config{Name: "fake-xboard", Command: exe, Protocol: XBoard, Variants: map[string]string{"gothic": "gothic"}, Timeout: 2 * time.Second,
		Env: map[string]string{"FAKE_ENGINE": "xboard", "FAKE_ENGINE_LOG": log}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(e.Close)
	return e
}

func TestXBoardBudget(t *testing.T) {
	log := filepath.Join(t.TempDir(), "commands")
	e := fakeXBoard(t, log)
	for _, c := range []struct {
		think  time.Duration
		st, cs string
	}{
		{500 * time.Millisecond, "st 1", "50"},
		{2500 * time.Millisecond, "st 3", "250"},
		{2 * time.Second, "st 2", "200"},
		{5 * time.Millisecond, "st 1", "1"},
	} {
		if err := os.Remove(log); err != nil && !errors.Is(err, os.ErrNotExist) {
			t.Fatal(err)
		}
		m, err := e.Move(context.Background(), gothic(t), nil, c.think)
		if err != nil {
			t.Fatalf("%v: %v", c.think, err)
		}
		if got := gothic(t).UCI(m); got != "e2e4" {
			t.Fatalf("%v: move %s, want e2e4", c.think, got)
		}
		b, err := os.ReadFile(log)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(string(b)), "\n")
		st, clock, otim, gone := slices.Index(lines, c.st), slices.Index(lines, "time "+c.cs), slices.Index(lines, "otim "+c.cs), slices.Index(lines, "go")
		if st < 0 || clock < 0 || otim < 0 || gone < 0 || !(st < clock && clock < gone && otim < gone) {
			t.Fatalf("%v: want %q, then time and otim %s before go; sent %q", c.think, c.st, c.cs, lines)
		}
	}
}

// TestNodeBudget: a budget of nodes is sent to a UCI engine as "go nodes N"
// (and no time), an engine that does not answer is cut off by the Timeout
// alone, and an XBoard engine, which cannot be given nodes, is refused before
// anything is sent to it.
func TestNodeBudget(t *testing.T) {
	e := fake(t, "good")
	log := filepath.Join(t.TempDir(), "commands")
	e.cfg.Env["FAKE_ENGINE_LOG"] = log
	m, err := e.MoveWithin(context.Background(), gothic(t), nil, Budget{Think: time.Hour, Nodes: 25000})
	if err != nil {
		t.Fatal(err)
	}
	if got := gothic(t).UCI(m); got != "e2e4" {
		t.Fatalf("move %s, want e2e4", got)
	}
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "\ngo nodes 25000\n") || strings.Contains(string(b), "movetime") {
		t.Fatalf("want go nodes 25000 and no movetime; sent %q", b)
	}

	hung := fake(t, "hang")
	hung.cfg.Timeout = 200 * time.Millisecond
	began := time.Now()
	if _, err := hung.MoveWithin(context.Background(), gothic(t), nil, Budget{Think: time.Hour, Nodes: 1000}); !errors.Is(err, ErrTimeout) {
		t.Fatalf("a hung engine with a node budget: got %v, want ErrTimeout", err)
	}
	if d := time.Since(began); d > time.Minute { // not the hour of Think: a busy machine is slow, not that slow
		t.Fatalf("a hung engine with a node budget took %v to give up; its Timeout is 200ms", d)
	}

	xlog := filepath.Join(t.TempDir(), "commands")
	x := fakeXBoard(t, xlog)
	_, err = x.MoveWithin(context.Background(), gothic(t), nil, Budget{Nodes: 1000})
	if err == nil || !strings.Contains(err.Error(), "XBoard") {
		t.Fatalf("an XBoard engine given nodes: got %v, want a refusal naming XBoard", err)
	}
	if _, statErr := os.Stat(xlog); !errors.Is(statErr, os.ErrNotExist) {
		t.Fatal("the refused XBoard engine was started")
	}
}

func TestConfigErrors(t *testing.T) {
	for _, text := range []string{
		"engines: [{name: x, protocol: uci, variants: {gothic: gothic}}]",
		"engines: [{name: x, command: /bin/true, protocol: winboard, variants: {gothic: gothic}}]",
		"engines: [{name: x, command: /bin/true, protocol: uci}]",
		"engines: [{name: x, command: /bin/true, protocol: uci, variants: {Gothic: gothic}}]",
		"engines: [{name: x, command: /bin/true, protocol: uci, variants: {chess: chess}}]",
		"engines: [{name: x, command: /bin/true, protocol: uci, variants: {gothic: \"\"}}]",
		"engines: [{name: x, command: /bin/true, protocol: uci, variants: {gothic: gothic}}, {name: x, command: /bin/true, protocol: uci, variants: {gothic: gothic}}]",
		"engines: {",
		"engines: [{name: \"fairy\\e[2J\", command: /bin/true, protocol: uci, variants: {gothic: gothic}}]",
	} {
		if _, err := Parse([]byte(text)); !errors.Is(err, ErrConfig) {
			t.Errorf("%s: got %v", text, err)
		}
	}
	cfgs, err := Parse([]byte("engines:\n  - name: fsf\n    command: /usr/games/fairy-stockfish\n    protocol: uci\n    variants: {gothic: gothic}\n    think: 500ms\n"))
	if err != nil || cfgs[0].Think != 500*time.Millisecond || cfgs[0].Select != "UCI_Variant" {
		t.Fatalf("%+v %v", cfgs, err)
	}
}

// TestMemoryConfig: an engine's memory limit is read in the units it is written in,
// defaults to 1 GiB, and a value that is not a size (or could be two) is refused
// with a sentence that says what to write, as is a Hash that does not fit in it.
func TestMemoryConfig(t *testing.T) {
	engine := func(extra string) string {
		return "engines: [{name: x, command: /bin/true, protocol: uci, variants: {gothic: gothic}" + extra + "}]"
	}
	for text, want := range map[string]int64{
		"": 1 << 30, ", memory: 512MiB": 512 << 20, ", memory: 1.5 GiB": 3 << 29, ", memory: 800MB": 800e6,
		", memory: unlimited": 0, ", memory: 2gib": 2 << 30, ", memory: 1GiB, options: {Hash: \"256\"}": 1 << 30,
	} {
		cfgs, err := Parse([]byte(engine(text)))
		if err != nil {
			t.Errorf("%q: %v", text, err)
			continue
		}
		if got, err := parseMemory(cfgs[0].Memory); err != nil || got != want {
			t.Errorf("%q: memory %q is %d (%v), want %d", text, cfgs[0].Memory, got, err, want)
		}
	}
	for text, want := range map[string]string{
		"512":           `engine "x": memory: "512" has no unit; write one such as 512MiB or 2GiB`,
		"-1GiB":         `"-1GiB" is not above zero`,
		"0MiB":          `"0MiB" is not above zero`,
		"lots":          `"lots" is not a size; write one such as 512MiB or 2GiB, or unlimited`,
		"512M":          `"512M" could mean two sizes: write 512MiB (binary) or 512MB (decimal)`,
		"2g":            `write 2GiB (binary) or 2GB (decimal)`,
		"512 bananas":   `its unit is not one of KiB, MiB, GiB, TiB, KB, MB, GB, TB`,
		"1MiB":          `"1MiB" is too little for an engine to start; the least is 16 MiB`,
		"1e30TiB":       `not a size`,
		"99999999999TB": `more than any machine has`,
	} {
		_, err := Parse([]byte(engine(", memory: " + strconv.Quote(text))))
		if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), want) {
			t.Errorf("memory %q: got %v, want %q", text, err, want)
		}
	}
	_, err := Parse([]byte(engine(", memory: 512MiB, options: {Hash: \"1024\"}")))
	if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), "its Hash option (1024 MiB) does not fit in its memory limit of 512 MiB: lower Hash, or raise memory") {
		t.Errorf("a Hash over the limit: %v", err)
	}
}

// playShort plays a few moves of Gothic between e and itself, every move validated.
func playShort(t *testing.T, e *Engine, plies int) {
	start := gothic(t)
	pos := start
	var moves []rules.Move
	for i := 0; i < plies && !pos.Outcome().IsOver(); i++ {
		m, err := e.Move(context.Background(), start, moves, 100*time.Millisecond)
		if err != nil {
			t.Fatalf("ply %d: %v", i+1, err)
		}
		moves = append(moves, m)
		if pos, err = pos.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%s: %d plies to %s", e.Name(), len(moves), pos.String())
}

// TestFairyStockfish: Fairy-Stockfish plays a game through either protocol. Over
// XBoard it reports "nopost" as an unknown command, which is no refusal of the
// game.
func TestFairyStockfish(t *testing.T) {
	path := oracle.Path(t, "fairy-stockfish")
	for _, p := range []string{UCI, XBoard} {
		e, err := New(Config{Name: "fairy-stockfish", Command: path, Protocol: p, Variants: map[string]string{"gothic": "gothic"}, Options: map[string]string{"Threads": "1", "Hash": "16"}})
		if err != nil {
			t.Fatal(err)
		}
		plies := 8
		if p == XBoard {
			plies = 4 // it reads "st" in whole seconds: a second a move
		}
		playShort(t, e, plies)
		e.Close()
	}
}

// TestUCIVariants: a UCI engine that lists the variants it plays (its
// UCI_Variant combo) is refused, with the list, when the configuration names one
// it lacks, unless an option loads more from a file (VariantPath); Fairy-Stockfish
// itself refuses a misspelt variant.
func TestUCIVariants(t *testing.T) {
	for _, c := range []struct {
		vars    string
		options map[string]string
		want    string // "" to play
	}{
		{"chess,capablanca", nil, `does not play the variant "gothic" (it offers "chess", "capablanca")`},
		{"chess,capablanca", map[string]string{"VariantPath": "/tmp/variants.ini"}, ""},
		{"chess,gothic", nil, ""},
		// The engine's words are shortened and neutralised: no escape sequence
		// reaches a terminal, the log or a match's post.
		{"chess,\x1b[2J" + strings.Repeat("x", 40), nil, `(it offers "chess", "\x1b[2Jxxxxxxxxxxxxxxxxxxxxxxxxxxxx…")`},
	} {
		e := fake(t, "good")
		e.cfg.Env["FAKE_UCI_VARIANTS"] = c.vars
		e.cfg.Options = c.options
		_, err := e.Move(context.Background(), gothic(t), nil, 50*time.Millisecond)
		if c.want == "" && err != nil || c.want != "" && (!errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("variants %s, options %v: got %v, want %q", c.vars, c.options, err, c.want)
		}
	}
	// Only the variant asked for is checked: an engine configured for two, which
	// plays one, still plays that one.
	e := fake(t, "good")
	e.cfg.Env["FAKE_UCI_VARIANTS"] = "chess,gothic"
	e.cfg.Variants["keltic"] = "keltic"
	if _, err := e.Move(context.Background(), gothic(t), nil, 50*time.Millisecond); err != nil {
		t.Errorf("gothic, configured with keltic too: %v", err)
	}
	keltic, err := variants.Registry().Lookup("keltic")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Move(context.Background(), keltic.Start(0), nil, 50*time.Millisecond); !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), `"keltic"`) {
		t.Errorf("keltic, which it does not offer: %v", err)
	}
	path := oracle.Path(t, "fairy-stockfish")
	e, err = New(Config{Name: "fairy-stockfish", Command: path, Protocol: UCI, Variants: map[string]string{"gothic": "gothik"}})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if _, err := e.Move(context.Background(), gothic(t), nil, 50*time.Millisecond); !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), `does not play the variant "gothik" (it offers`) {
		t.Errorf("Fairy-Stockfish asked for gothik: %v", err)
	}
}

func TestFairymax(t *testing.T) {
	path := oracle.Path(t, "fairymax")
	e, err := New(Config{Name: "fairymax", Command: path, Protocol: XBoard, Variants: map[string]string{"gothic": "gothic"}})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	playShort(t, e, 8) // one engine for both sides: each request continues its game
}

func TestPoolBounds(t *testing.T) {
	p, err := NewPool([]Config{{Name: "e", Command: "/bin/true", Protocol: UCI, Variants: map[string]string{"gothic": "gothic"}, Max: 1}})
	if err != nil {
		t.Fatal(err)
	}
	a, err := p.Acquire(context.Background(), "e")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := p.Acquire(ctx, "e"); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("second acquire: %v", err)
	}
	p.Release(a)
	if _, err := p.Acquire(context.Background(), "e"); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Acquire(context.Background(), "nope"); err == nil {
		t.Fatal("unknown engine acquired")
	}
}
