package uciserver

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/missivechess/missive/engine"
	"github.com/missivechess/missive/rules/variants"
)

// session drives a server over pipes, as a GUI would.
type session struct {
	t   *testing.T
	in  *io.PipeWriter
	out *bufio.Scanner
	end chan error
}

func start(t *testing.T) *session {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s := &session{t: t, in: inW, out: bufio.NewScanner(outR), end: make(chan error, 1)}
	go func() {
		s.end <- Serve(context.Background(), variants.Registry(), inR, outW)
		outW.Close()
	}()
	return s
}

func (s *session) send(line string) {
	s.t.Helper()
	if _, err := io.WriteString(s.in, line+"\n"); err != nil {
		s.t.Fatal(err)
	}
}

// expect reads lines until one starts with prefix, returning it and the lines before.
func (s *session) expect(prefix string) (string, []string) {
	s.t.Helper()
	var seen []string
	timer := time.AfterFunc(90*time.Second, func() { s.in.CloseWithError(io.ErrClosedPipe) })
	defer timer.Stop()
	for s.out.Scan() {
		line := s.out.Text()
		if strings.HasPrefix(line, prefix) {
			return line, seen
		}
		seen = append(seen, line)
	}
	s.t.Fatalf("no %q line; got %q", prefix, seen)
	return "", nil
}

func TestUCISession(t *testing.T) {
	s := start(t)
	s.send("uci")
	_, lines := s.expect("uciok")
	if !strings.Contains(strings.Join(lines, "\n"), "option name UCI_Variant type combo default gothic var gess var gochess var gothic var keltic") {
		t.Fatalf("no UCI_Variant option in %q", lines)
	}
	s.send("isready")
	s.expect("readyok")

	// Gothic: a mate in 1 is found and announced.
	s.send("setoption name UCI_Variant value gothic")
	s.send("position fen 5k4/4ppp3/10/10/10/10/10/R4K4 w - - 0 1")
	s.send("go depth 3")
	best, info := s.expect("bestmove")
	if best != "bestmove a1a8" {
		t.Fatalf("got %q, want bestmove a1a8", best)
	}
	if !strings.Contains(strings.Join(info, "\n"), "score mate 1") {
		t.Fatalf("no mate score in %q", info)
	}

	// Keltic from the start with moves, then Gess.
	s.send("setoption name UCI_Variant value keltic")
	s.send("position startpos moves e3e4")
	s.send("go nodes 3000")
	if best, _ := s.expect("bestmove"); len(strings.Fields(best)) != 2 {
		t.Fatalf("bad answer %q", best)
	}
	s.send("setoption name UCI_Variant value gess")
	s.send("position startpos")
	s.send("go nodes 3000")
	best, _ = s.expect("bestmove")
	v, _ := variants.Registry().Lookup("gess")
	p := v.Start(0)
	if _, err := p.ParseMove(strings.Fields(best)[1]); err != nil {
		t.Fatalf("%q: %v", best, err)
	}

	// Go-Chess's placement phase cannot be played over UCI, and the engine says so in words.
	s.send("setoption name UCI_Variant value gochess")
	s.send("position startpos")
	s.send("go depth 2")
	best, info = s.expect("bestmove")
	if best != "bestmove (none)" || !strings.Contains(strings.Join(info, "\n"), "placement phase") || strings.Contains(strings.Join(info, "\n"), "*gochess") {
		t.Fatalf("Go-Chess placement answered %q after %q", best, info)
	}

	// A bad move in a position command is reported, and "go infinite" waits for stop.
	s.send("setoption name UCI_Variant value gothic")
	s.send("position startpos moves e2e5")
	l, _ := s.expect("info string error")
	if !strings.Contains(l, "e2e5") {
		t.Fatalf("error %q does not name the move", l)
	}
	s.send("position startpos")
	s.send("go infinite")
	time.Sleep(200 * time.Millisecond)
	s.send("stop")
	s.expect("bestmove")
	s.send("quit")
	if err := <-s.end; err != nil {
		t.Fatal(err)
	}
}

func TestClockTime(t *testing.T) {
	cases := []struct {
		left, inc     time.Duration
		togo          int
		optimum, most time.Duration
	}{
		{10 * time.Second, 0, 0, 10 * time.Second / 30, 4 * (10 * time.Second / 30)},
		{10 * time.Second, 0, 4, 2 * time.Second, 10 * time.Second / 3},
		{time.Second, 2 * time.Second, 0, time.Second / 3, time.Second / 3},
		{60 * time.Millisecond, 0, 0, 2 * time.Millisecond, 8 * time.Millisecond},
	}
	for _, c := range cases {
		opt, most := clockTime(c.left, c.inc, c.togo)
		if opt != c.optimum || most != c.most {
			t.Errorf("clockTime(%v, %v, %d) = %v, %v; want %v, %v", c.left, c.inc, c.togo, opt, most, c.optimum, c.most)
		}
		if most > c.left {
			t.Errorf("clockTime(%v, …) may take %v, more than is left", c.left, most)
		}
	}
}

// TestNewGameForgets: after "ucinewgame" a search runs as on a fresh engine (the
// kept table is cleared, not carried into the next game), and without it the
// table carries over.
func TestNewGameForgets(t *testing.T) {
	s := start(t)
	s.send("uci")
	s.expect("uciok")
	search := func() string {
		s.send("position startpos moves e2e4 e7e5")
		s.send("go nodes 20000")
		best, info := s.expect("bestmove")
		var out []string
		for _, l := range append(info, best) {
			f := strings.Fields(l)
			var keep []string
			for i := 0; i < len(f); i++ {
				if f[i] == "nps" || f[i] == "time" {
					i++ // machine-dependent
					continue
				}
				keep = append(keep, f[i])
			}
			out = append(out, strings.Join(keep, " "))
		}
		return strings.Join(out, "\n")
	}
	first := search()
	carried := search()
	if carried == first {
		t.Errorf("the second search of the same position learnt nothing from the first:\n%s", first)
	}
	s.send("ucinewgame")
	if again := search(); again != first {
		t.Errorf("after ucinewgame the search differs from a fresh engine's:\n%s\nfirst:\n%s", again, first)
	}
	s.send("quit")
	if err := <-s.end; err != nil {
		t.Fatal(err)
	}
}

// TestContemptOption: the Contempt option is announced with the engine's default,
// a value out of range is refused in words and changes nothing, and a valid value
// decides whether the engine repeats a position in an ending it would otherwise
// draw by repetition.
func TestContemptOption(t *testing.T) {
	s := start(t)
	s.send("uci")
	_, lines := s.expect("uciok")
	want := fmt.Sprintf("option name Contempt type spin default %d min -100 max 100", engine.DefaultContempt)
	if !slices.Contains(lines, want) {
		t.Fatalf("no %q in %q", want, lines)
	}
	s.send("setoption name UCI_Variant value gochess")
	best := func() string {
		s.send("position fen 4k2r2/10/6p3/10/10/10/1P8/10/**********/4K1R3 w - - 0 1 moves b4a4 e10d10 a4b4 d10e10")
		s.send("go depth 6")
		b, _ := s.expect("bestmove")
		return b
	}
	s.send("setoption name Contempt value 0")
	if b := best(); b != "bestmove b4a4" {
		t.Fatalf("contempt 0: %q, want the repetition b4a4", b)
	}
	s.send("setoption name Contempt value 101")
	if l, _ := s.expect("info string"); !strings.Contains(l, "Contempt takes centipawns from -100 to 100") {
		t.Fatalf("a contempt of 101 was answered %q", l)
	}
	if b := best(); b != "bestmove b4a4" {
		t.Fatalf("after a refused value: %q, want the contempt of 0 kept", b)
	}
	s.send("setoption name Contempt value 100")
	if b := best(); b == "bestmove b4a4" {
		t.Fatalf("contempt 100: %q, want a move that avoids the draw", b)
	}
	s.send("quit")
	if err := <-s.end; err != nil {
		t.Fatal(err)
	}
}
