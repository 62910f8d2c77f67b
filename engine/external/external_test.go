package external

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
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
	os.Exit(m.Run())
}

// fakeEngine speaks just enough UCI and then misbehaves at "go" as mode says.
func fakeEngine(mode string) {
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		switch f := strings.Fields(sc.Text()); {
		case len(f) == 0:
		case f[0] == "uci":
			fmt.Println("id name fake\nuciok")
		case f[0] == "isready":
			fmt.Println("readyok")
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
			}
		case f[0] == "quit":
			return
		}
	}
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

func TestConfigErrors(t *testing.T) {
	for _, text := range []string{
		"engines: [{name: x, protocol: uci, variants: {gothic: gothic}}]",
		"engines: [{name: x, command: /bin/true, protocol: winboard, variants: {gothic: gothic}}]",
		"engines: [{name: x, command: /bin/true, protocol: uci}]",
		"engines: [{name: x, command: /bin/true, protocol: uci, variants: {gothic: gothic}}, {name: x, command: /bin/true, protocol: uci, variants: {gothic: gothic}}]",
		"engines: {",
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

func TestFairyStockfish(t *testing.T) {
	path := oracle.Path(t, "fairy-stockfish")
	e, err := New(Config{Name: "fairy-stockfish", Command: path, Protocol: UCI, Variants: map[string]string{"gothic": "gothic"}, Options: map[string]string{"Threads": "1", "Hash": "16"}})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	playShort(t, e, 8)
}

func TestFairymax(t *testing.T) {
	path := oracle.Path(t, "fairymax")
	e, err := New(Config{Name: "fairymax", Command: path, Protocol: XBoard, Variants: map[string]string{"gothic": "gothic"}})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	playShort(t, e, 4)
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
