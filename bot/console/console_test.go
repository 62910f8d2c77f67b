package console

import (
	"bytes"
	"context"
	"image/png"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/features"
	"github.com/missivechess/missive/engine"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/variants"
	"github.com/missivechess/missive/storage"
)

// session is a console over a data file in a temporary folder, with a clock that
// stands still unless /wait moves it.
type session struct {
	t     *testing.T
	dir   string
	out   lockedBuffer
	clock *Clock
	store *storage.Store
	svc   *bot.Service
	con   *Console
	rand  uint64
	eng   bot.Engine // the engine players' (default: the built-in engine)
}

// lockedBuffer is the console's output, which an engine match's news may write
// while the test reads it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func (b *lockedBuffer) Reset() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf.Reset()
}

var epoch = time.Date(2025, 3, 3, 12, 0, 0, 0, time.UTC)

func newSession(t *testing.T) *session { return newSessionWith(t, nil) }

// newSessionWith is newSession with eng for the engine players (bottest.Engine is
// fast and can be held).
func newSessionWith(t *testing.T, eng bot.Engine) *session {
	s := &session{t: t, dir: t.TempDir(), clock: NewClock(func() time.Time { return epoch }), eng: eng}
	if s.eng == nil {
		s.eng = bot.NewEngine(engine.New(engine.Options{Seed: 1, HashBits: 12}), nil, nil)
	}
	s.open()
	t.Cleanup(s.close)
	return s
}

func (s *session) open() {
	reg := variants.Registry()
	st, err := storage.Open(filepath.Join(s.dir, "console.db"), reg, &storage.Options{Now: s.clock.Now, NoSync: true, NoBackupSocket: true})
	if err != nil {
		s.t.Fatal(err)
	}
	s.store = st
	s.con = New(Options{Out: &s.out, Images: filepath.Join(s.dir, "files"), Clock: s.clock})
	s.svc, err = bot.New(features.With(bot.Config{Store: st, Registry: reg, Renderer: bot.NewRenderer(), Notifier: s.con, Now: s.clock.Now,
		Engine: s.eng,
		Rand:   func() uint64 { s.rand++; return s.rand * 7919 }, Site: "Missive console",
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}, features.Options{}))
	if err != nil {
		s.t.Fatal(err)
	}
	s.con.Attach(s.svc)
}

func (s *session) close() {
	if s.svc != nil {
		s.svc.Close()
		s.store.Close()
		s.svc = nil
	}
}

// run feeds script to the console and returns what it printed, with the temporary
// folder written as <dir>.
func (s *session) run(script string) string {
	s.t.Helper()
	s.out.Reset()
	if err := s.con.Run(context.Background(), strings.NewReader(script)); err != nil {
		s.t.Fatal(err)
	}
	return strings.ReplaceAll(s.out.String(), s.dir, "<dir>")
}

// line runs one line.
func (s *session) line(l string) string { return s.run(l + "\n") }

// expect checks that out holds each of want, in order.
func expect(t *testing.T, out string, want ...string) {
	t.Helper()
	rest := out
	for _, w := range want {
		i := strings.Index(rest, w)
		if i < 0 {
			t.Fatalf("output lacks %q (in order) — output:\n%s", w, out)
		}
		rest = rest[i+len(w):]
	}
}

// A whole Gothic game typed as a person would, with every refusal's message.
func TestGothicSession(t *testing.T) {
	t.Parallel()
	s := newSession(t)
	out := s.run(`
# alice challenges bob
/challenge variant:gothic opponent:bob color:white days:2
/as bob
/accept
/as alice
Cf3
/as bob
/move e7e5 game:9
/move d5
/as alice
/move Ah3
/as bob
/move move:Nd7
/as carol
/move game:1 move:e2e4
/as bob
/move Qd7
/as alice
/move e2e5
/move Ae6#
/pgn
/history
/quit
/board
`)
	expect(t, out,
		"== Challenge #1 · Gothic Chess ==", "alice challenges bob to Gothic Chess: 2 days per move, casual, alice plays white.",
		"Buttons: Accept: /accept challenge:1 | Decline: /decline challenge:1 | Cancel: /cancel challenge:1",
		"You are now bob.",
		"Game 1 begins: alice (white) vs bob (black).", "alice (white) to move · deadline Wed 5 Mar 12:00 UTC (2d 0h left).",
		" 1  R N B Q C K A B N R  1", "[picture] <dir>/files/game-1-0-white.png", "(@alice)",
		"alice (white) played Cf3.", "bob (black) to move", "[picture] <dir>/files/game-1-1-white.png", "(@bob)", // the mover reads it
		"[refused] There is no game 9 here.",
		"bob (black) played d5.",
		"[refused] You are not playing in game 1 (alice vs bob); only its players can do that.",
		"[refused] It is alice's turn in game 1, not yours; you will be told when alice has moved.",
		`[refused] You cannot play "e2e5": the pawn on e2 cannot go to e5; its moves: e2e3, e2e4.`,
		"alice (white) played Ae6#.", "Game over: alice (white) wins by checkmate.", "[picture] <dir>/files/game-1-5-white.png",
		`[Variant "gothic"]`, "1. Cf3 d5 2. Ah3 Nd7 3. Ae6# 1-0", "[pgn] <dir>/files/game-1.pgn",
		"1. Cf3 d5 2. Ah3 Nd7 3. Ae6# 1-0",
	)
	if strings.Contains(out, "Show a game's board") {
		t.Error("/quit did not stop the console")
	}
	f, err := os.Open(filepath.Join(s.dir, "files", "game-1-5-white.png"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil || img.Bounds().Dx() < 240 {
		t.Fatalf("board picture: %v %v", img, err)
	}
}

// Keltic, Gess and Go-Chess typed through the console to their ends.
func TestVariantSessions(t *testing.T) {
	t.Parallel()
	t.Run("keltic", func(t *testing.T) {
		s := newSession(t)
		out := s.run("/challenge keltic bob white\n/as bob\n/accept\n" +
			"/as alice\nNc4\n/as bob\ndxc4\n/as alice\nKd2\n/as bob\ncxd3\n/as alice\nKxd3\n/as bob\nQd5#\n")
		expect(t, out, "Game 1 begins", "bob (black) played Qd5#.", "Game over: bob (black) wins by checkmate.")
	})
	t.Run("gess", func(t *testing.T) {
		s := newSession(t)
		out := s.run("/challenge gess bob white\n/as bob\n/accept\n/rules gess\ne3-e5\n/as alice\nl18xl15\n/as bob\ne6xl13\n/pgn\n")
		expect(t, out, "Game 1 begins", "bob (black) to move", "Rules · Gess", "House rule: draw by agreement",
			"bob (black) played e6xl13.", "Game over: bob (black) wins by destroying the last ring.",
			"1. e3-e5 l18xl15 2. e6xl13 0-1") // Gess numbers from its first mover, Black
	})
	t.Run("gochess", func(t *testing.T) {
		s := newSession(t)
		s.run("/challenge gochess bob white\n/as bob\n/accept\n")
		rounds := 0
		for ; rounds < 60; rounds++ {
			g := s.game("1")
			sim, ok := g.Position.(rules.Simultaneous)
			if !ok || len(sim.Awaiting()) == 0 {
				break
			}
			d := g.Position.Variant().Dims()
			a := sim.LegalMovesFor(rules.White)
			b := sim.LegalMovesFor(rules.Black)
			out := s.run("/as alice\n/place " + d.Name(a[0].To) + "\n/as bob\n/place " + d.Name(b[len(b)-1].To) + "\n")
			expect(t, out, "[only you see this] == Game 1 · Go-Chess · alice vs bob ==", "You chose "+d.Name(a[0].To))
			if rounds == 3 {
				s.close()
				s.open()
			}
		}
		g := s.game("1")
		if pieces(g.Position.String()) != 32 || len(g.ToMove) != 1 {
			t.Fatalf("after %d rounds: %s", rounds, g.Position)
		}
		first := map[rules.Side]string{rules.White: "alice", rules.Black: "bob"}[g.ToMove[0]]
		out := s.run("/as " + first + "\n/move " + g.Position.UCI(g.Position.LegalMoves()[0]) + "\n/history\n")
		expect(t, out, "played", "Placement: 1. P@")
	})
}

// game loads game id.
func (s *session) game(id string) *storage.Game {
	s.t.Helper()
	return load(s, func(tx *storage.Tx) (*storage.Game, error) { return tx.Game(id) })
}

// load reads what get returns from the data file.
func load[T any](s *session, get func(*storage.Tx) (T, error)) T {
	s.t.Helper()
	var v T
	if err := s.store.View(context.Background(), func(tx *storage.Tx) (err error) {
		v, err = get(tx)
		return err
	}); err != nil {
		s.t.Fatal(err)
	}
	return v
}

// pieces counts the piece letters of a FEN's board field.
func pieces(fen string) int {
	board, _, _ := strings.Cut(fen, " ")
	return len(strings.Map(func(r rune) rune {
		if r == '*' || r == '/' || (r >= '0' && r <= '9') {
			return -1
		}
		return r
	}, board))
}

// Time passes with /wait: reminders arrive once, as each player asked, and the
// game is lost on time; the console restarts on the same file without repeating.
func TestClockSession(t *testing.T) {
	t.Parallel()
	s := newSession(t)
	out := s.run("/settings notify:dm\n/challenge gothic bob white 1\n/as bob\n/accept\n/as alice\ne2e4\n")
	expect(t, out, "alice (white) played e4.")
	out = s.run("/wait 21h\n/wait 1h\n/wait 30m\n")
	if n := strings.Count(out, "(mention, reminder)"); n != 1 {
		t.Fatalf("%d reminders for bob:\n%s", n, out)
	}
	expect(t, out, "The clock moves on 21h", "The clock moves on 1h", ">> to bob (mention, reminder):",
		"Reminder: 2h 0m left for your move in game 1")
	s.close()
	s.open()
	out = s.run("/wait 1m\n")
	if strings.Contains(out, "reminder") {
		t.Fatalf("a reminder came again after the restart:\n%s", out)
	}
	out = s.run("/wait 2h\n")
	expect(t, out, ">> to alice (direct message, game-over):", "bob (black) ran out of time.", "Game over: alice (white) wins on time.",
		">> to bob (mention, game-over):", "bob (black) ran out of time.")
}

// The built-in engine answers in the console.
func TestEngineSession(t *testing.T) {
	t.Parallel()
	s := newSession(t)
	out := s.run("/challenge gothic engine:builtin level:1 color:white\ne2e4\n/hint\n")
	expect(t, out, "Game 1 begins: alice (white) vs Missive engine (level 1) (black).",
		"alice (white) played e4.", ">> to alice (mention, turn):", "Missive engine (level 1) (black) played",
		"[only you see this]", "The engine suggests")
}

// A line without a slash is a command when its first word names one, and a move
// otherwise.
func TestBareCommands(t *testing.T) {
	t.Parallel()
	s := newSession(t)
	out := s.run("help\nwhoami\nchallenge gothic engine:builtin level:1 color:white\ngames\ne2e4\nboard\nfrobnicate\n")
	expect(t, out, "/challenge: Challenge a player", "You are alice.", "Game 1 begins: alice (white)",
		"== Your games ==", "alice (white) played e4.", "== Game 1 ",
		`[refused] I cannot read "frobnicate" as a move`)
	if out := s.run("quit\ne2e4\n"); strings.Contains(out, "e2e4") || strings.Contains(out, "refused") {
		t.Errorf("a bare quit did not quit:\n%s", out)
	}
}

// Console commands and bad lines each get a clear answer.
func TestConsoleCommands(t *testing.T) {
	t.Parallel()
	s := newSession(t)
	out := s.run(`/whoami
/as Bob_2
/as engine
/as
/wait soon
/wait
/frobnicate
/challenge gothic bob color:red
/challenge variant:gothic fen:"k9/10/3Q6/10/10/10/10/K9 w - - 0 1
/board a b c
/help move
/help nothing
/help wait
/help /as
/challenges extra
`)
	expect(t, out, "You are alice.", "You are now bob_2.",
		"[refused] Say who you are with /as NAME", "[refused] Say who you are with /as NAME",
		`[refused] "soon" is not a duration such as 3d, 25h or 90m`, "[refused] Say how long",
		"[refused] There is no command /frobnicate; /help lists them.",
		`[refused] color must be one of white, black, random, not "red"`, "Usage: /challenge variant:",
		"[refused] a quote is not closed",
		`[refused] "c" fits none of the options of /board left (game, text); write name:value`,
		"/move move:<string> [game:<string>]", "move:      The move (required)",
		"[refused] There is no command /nothing; /help lists them.",
		"/wait 3d\n  Move the clock on by days (3d), hours (25h) or minutes (90m)",
		"/as NAME\n  Act as another player from now on: up to 32 letters",
		"[refused] /challenges takes no options",
	)
	out = s.run("/as alice\n" + `/challenge variant:gothic opponent:bob fen:"k9/10/3Q6/10/10/10/10/K9 w - - 0 1" color:white` + "\n/as bob\n/accept\n/as bob_2\n/as alice\nQb6\n")
	expect(t, out, "Game 1 begins", "alice (white) played Qb6.", "Game over: drawn by stalemate.")
}

func TestSplit(t *testing.T) {
	for in, want := range map[string][]string{
		`move e2e4`:                    {"move", "e2e4"},
		`challenge fen:"a b c" days:3`: {"challenge", "fen:a b c", "days:3"},
		`x 'single quoted' ""`:         {"x", "single quoted", ""},
		"  spaced \t out  ":            {"spaced", "out"},
	} {
		got, err := split(in)
		if err != nil || strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("split(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := split(`a "b`); err == nil {
		t.Error("an open quote was accepted")
	}
}

// The console's names have the service's limit: a name /as refuses cannot be
// challenged either, and one it takes can.
func TestNameLimit(t *testing.T) {
	t.Parallel()
	s := newSession(t)
	long, ok := strings.Repeat("z", bot.MaxNameLen+1), strings.Repeat("z", bot.MaxNameLen)
	expect(t, s.line("/as "+long), "[refused] Say who you are with /as NAME: up to 32 letters")
	expect(t, s.line("/challenge gothic "+long), "[refused] A player's name has at most 32 characters")
	expect(t, s.line("/challenge gothic "+ok), "challenges "+ok)
	expect(t, s.line("/as "+ok), "You are now "+ok)
	expect(t, s.line("/accept"), "Game 1")
	// A name is the same player however it is written.
	expect(t, s.run("/as alice\n/challenge gothic Bob\n/as Bob\n/accept\n"), "You are now bob.", "Game 2")
}

// /review in the console: the review that followed the game's end is shown again at
// once, its picture and annotated PGN written to the files folder.
func TestReviewSession(t *testing.T) {
	t.Parallel()
	s := newSession(t)
	out := s.run(`
/challenge variant:gothic opponent:bob color:white
/as bob
/accept
/as alice
d4
/as bob
e5
/as alice
dxe5
/as bob
Qg5
/as alice
Bxg5
/as bob
/resign
/review
`)
	expect(t, out,
		"alice (white) wins by resignation",
		"== Review · Game 1 · Gothic Chess · alice vs bob ==", "The decisive moment: 2... Qg5?? (blunder",
		"[picture] <dir>/files/game-1-review.png", "[pgn] <dir>/files/game-1-review.pgn",
		"== Review · Game 1 · Gothic Chess · alice vs bob ==", "[picture] <dir>/files/game-1-review.png",
	)
	data, err := os.ReadFile(filepath.Join(s.dir, "files", "game-1-review.pgn"))
	if err != nil {
		t.Fatal(err)
	}
	if flat := strings.Join(strings.Fields(string(data)), " "); !strings.Contains(flat, "2... Qg5 $4 {[%eval") {
		t.Fatalf("the console's review PGN:\n%s", data)
	}
}

// /help is the service's list and guide with the console's own commands; a command
// with subcommands is explained per subcommand and read as "/tournament join".
func TestHelpAndSubcommands(t *testing.T) {
	s := newSession(t)
	out := s.run("/help\n/help tournament\n/tournament frobnicate\n/tournament info tournament:3\n/match action:rematch\n")
	expect(t, out, "/challenge: Challenge a player", "/accept: Accept a challenge", "How to play",
		"Console:", "/as NAME", "A line without a slash is a move",
		"/tournament create|join|leave|start|standings|info", "/tournament create variant:", "/tournament join [tournament:<string>]",
		`[refused] /tournament has no "frobnicate"; say create|join|leave|start|standings|info`,
		"There is no tournament 3",
		`[refused] /match has no "rematch"; say start|score|stop`,
	)
	help, _, _ := strings.Cut(out, "You are alice.")
	for _, bad := range []string{"**", "on this server"} { // Markdown shown as it is; a server the console has not
		if strings.Contains(help, bad) {
			t.Errorf("/help in the console says %q:\n%s", bad, out)
		}
	}
}
