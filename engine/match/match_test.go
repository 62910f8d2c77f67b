package match

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/missivechess/missive/engine"
	"github.com/missivechess/missive/engine/external"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/variants"
)

func lookup(t *testing.T, key string) rules.Variant {
	t.Helper()
	v, err := variants.Registry().Lookup(key)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// firstMove plays the first legal move; hook, when set, runs before each move.
type firstMove struct {
	name string
	hook func(plies int)
	err  error
}

func (f *firstMove) Name() string { return f.name }
func (f *firstMove) Move(_ context.Context, start rules.Position, moves []rules.Move) (rules.Move, error) {
	if f.hook != nil {
		f.hook(len(moves))
	}
	if f.err != nil {
		return rules.NullMove, f.err
	}
	pos, err := replay(start, moves)
	if err != nil {
		return rules.NullMove, err
	}
	return pos.LegalMoves()[0], nil
}

func fixedStart(t *testing.T, v rules.Variant, fen string) func(int, *rand.Rand) (rules.Position, error) {
	p, err := v.ParsePosition(fen)
	if err != nil {
		t.Fatal(err)
	}
	return func(int, *rand.Rand) (rules.Position, error) { return p, nil }
}

func TestMateIsAdjudicatedByTheRules(t *testing.T) {
	v := lookup(t, "gothic")
	a := &Builtin{Label: "a", Engine: engine.New(engine.Options{HashBits: 12}), Limits: engine.Limits{Depth: 2}}
	c := Config{Variant: v, A: a, B: &firstMove{name: "b"}, Games: 1,
		Start: fixedStart(t, v, "k9/10/1K8/10/10/10/10/9R w - - 0 1")}
	sum, games, err := Run(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	g := games[0]
	if g.Outcome.Status != rules.Won || g.Outcome.Winner != rules.White || len(g.Moves) != 1 || g.Note != "" {
		t.Fatalf("game = %v in %d moves (%q), want White mates at once", g.Outcome, len(g.Moves), g.Note)
	}
	if sum.Wins != 1 || sum.Games() != 1 || sum.Score() != 1 {
		t.Fatalf("summary %+v", sum)
	}
}

func TestMoveCapDrawAndAlternatingColours(t *testing.T) {
	v := lookup(t, "gothic")
	var pgn bytes.Buffer
	c := Config{Variant: v, A: &firstMove{name: "a"}, B: &firstMove{name: "b"}, Games: 4, MaxPlies: 6, OpeningPlies: 2, Seed: 5, PGN: &pgn}
	sum, games, err := Run(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	if e, _ := sum.Elo(); len(games) != 4 || sum.Games() != 4 || sum.Draws != 4 || sum.Score() != 0.5 || e.Diff != 0 {
		t.Fatalf("summary %+v, %d games", sum, len(games))
	}
	for i, g := range games {
		if g.Outcome.Status != rules.Drawn || len(g.Moves) != 6 || !strings.Contains(g.Note, "6-ply cap") {
			t.Errorf("game %d: %v, %d plies, note %q; want a draw at the cap", i+1, g.Outcome, len(g.Moves), g.Note)
		}
		wantWhite := "a"
		if i%2 == 1 {
			wantWhite = "b"
		}
		if g.White != wantWhite || g.Black == g.White {
			t.Errorf("game %d: %s - %s, want %s with White", i+1, g.White, g.Black, wantWhite)
		}
	}
	// Both games of a pair play the same opening; the pairs differ.
	if games[0].Moves[0] != games[1].Moves[0] || games[0].Moves[1] != games[1].Moves[1] {
		t.Errorf("the games of a pair open differently: %v / %v", games[0].Moves[:2], games[1].Moves[:2])
	}
	checkPGN(t, v, pgn.String(), games)
}

// checkPGN checks the tags of every game and replays its movetext with the rules.
func checkPGN(t *testing.T, v rules.Variant, text string, games []Game) {
	t.Helper()
	blocks := strings.Split(strings.TrimSpace(text), "\n\n[Event")
	if len(blocks) != len(games) {
		t.Fatalf("PGN holds %d games, want %d:\n%s", len(blocks), len(games), text)
	}
	tag := regexp.MustCompile(`(?m)^\[(\w+) "([^"]*)"\]$`)
	num := regexp.MustCompile(`^\d+\.(\.\.)?$`)
	token := regexp.MustCompile(`\{[^}]*\}|\S+`)
	for i, b := range blocks {
		commented := map[int]bool{}
		tags := map[string]string{}
		for _, m := range tag.FindAllStringSubmatch(b, -1) {
			tags[m[1]] = m[2]
		}
		g := games[i]
		for k, want := range map[string]string{"White": g.White, "Black": g.Black, "Result": g.Outcome.Result(), "Variant": v.Key()} {
			if tags[k] != want {
				t.Errorf("game %d: tag %s = %q, want %q", i+1, k, tags[k], want)
			}
		}
		_, movetext, _ := strings.Cut(strings.TrimSpace(b), "\n\n") // the movetext may wrap over lines
		tokens := token.FindAllString(movetext, -1)
		if tokens[len(tokens)-1] != g.Outcome.Result() {
			t.Errorf("game %d: movetext ends %q, want the result %q", i+1, tokens[len(tokens)-1], g.Outcome.Result())
		}
		pos := g.Start
		n := 0
		for _, tok := range tokens[:len(tokens)-1] {
			if num.MatchString(tok) {
				continue
			}
			if strings.HasPrefix(tok, "{") {
				// The comment after a move is the time its answer took; the
				// opening's random moves have none.
				if n == 0 || n > len(g.Took) || g.Took[n-1] == 0 {
					t.Errorf("game %d: comment %q after ply %d, which no player chose", i+1, tok, n)
				} else if want := "{" + emt(g.Took[n-1]) + "}"; tok != want {
					t.Errorf("game %d ply %d: comment %q, want %q", i+1, n, tok, want)
				}
				commented[n] = true
				continue
			}
			m, err := pos.ParseMove(tok)
			if err != nil {
				t.Fatalf("game %d: movetext %q: %v", i+1, tok, err)
			}
			if m != g.Moves[n] {
				t.Errorf("game %d ply %d: PGN %q is not the move played", i+1, n+1, tok)
			}
			if pos, err = pos.Play(m); err != nil {
				t.Fatal(err)
			}
			n++
		}
		if n != len(g.Moves) {
			t.Errorf("game %d: PGN has %d moves, the game %d", i+1, n, len(g.Moves))
		}
		for k, d := range g.Took {
			if d > 0 && !commented[k+1] {
				t.Errorf("game %d ply %d: no time written for an answer of %v", i+1, k+1, d)
			}
		}
	}
}

// TestFailingPlayerLoses: a player whose move fails loses the game, noted with who
// failed and why; an external engine's resignation is noted as a resignation.
func TestFailingPlayerLoses(t *testing.T) {
	v := lookup(t, "keltic")
	for _, c := range []struct {
		err  error
		note string
	}{
		{errors.New("engine crashed"), "bad failed: engine crashed"},
		{fmt.Errorf("%w: bad sent \"resign\"", external.ErrResigned), "bad resigned"},
	} {
		bad := &firstMove{name: "bad", err: c.err}
		sum, games, err := Run(context.Background(), Config{Variant: v, A: &firstMove{name: "good"}, B: bad, Games: 2})
		if err != nil {
			t.Fatal(err)
		}
		if sum.Wins != 2 || sum.Losses != 0 {
			t.Fatalf("%v: summary %+v, want the failing player to lose both games", c.err, sum)
		}
		for _, g := range games {
			if g.Note != c.note || g.Outcome.Reason != rules.Resignation {
				t.Errorf("%s noted %q, want %q", g.Outcome, g.Note, c.note)
			}
		}
	}
}

func TestInterruptedMatchCountsFinishedGames(t *testing.T) {
	v := lookup(t, "gothic")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	games := 0
	a := &firstMove{name: "a", hook: func(plies int) {
		if plies == 0 {
			games++
			if games == 2 { // A is White in games 1 and 3
				cancel()
			}
		}
	}}
	sum, played, err := Run(ctx, Config{Variant: v, A: a, B: &firstMove{name: "b"}, Games: 10, MaxPlies: 4})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if sum.Games() != 2 || len(played) != 2 || sum.Draws != 2 {
		t.Fatalf("summary %+v with %d games, want the 2 finished games", sum, len(played))
	}
	if !strings.Contains(sum.String(), "of 2 games") {
		t.Errorf("summary %q", sum)
	}
}

func TestEloAndSummary(t *testing.T) {
	e, err := Record{Wins: 2, Draws: 1, Losses: 1}.Elo()
	score := Record{Wins: 2, Draws: 1, Losses: 1}.Score()
	if err != nil || score != 0.625 || math.Abs(e.Diff-88.7) > 0.1 || e.Margin <= 0 {
		t.Fatalf("Elo = %v %+v (%v), want 0.625, +88.7 and a positive margin", score, e, err)
	}
	// More games of the same score narrow the margin.
	if many, _ := (Record{Wins: 20, Draws: 10, Losses: 10}).Elo(); math.Abs(many.Diff-e.Diff) > 1e-9 || many.Margin >= e.Margin {
		t.Errorf("40 games: Elo %v ± %v, want %v with a margin below %v", many.Diff, many.Margin, e.Diff, e.Margin)
	}
	if _, err := (Record{}).Elo(); !errors.Is(err, ErrBadRecord) {
		t.Errorf("no games: %v", err)
	}
	if s := (Record{}).Score(); s != 0 {
		t.Errorf("no games: score %v", s)
	}
	sum := Summary{A: "x", B: "y", Record: Record{Wins: 2, Draws: 1, Losses: 1}}
	if got, want := sum.String(), "x vs y: +2 =1 -1 of 4 games, score 62.5%, Elo +89"; !strings.HasPrefix(got, want) {
		t.Errorf("summary %q, want it to start %q", got, want)
	}
}

func TestGoChessStartPlaysThePlacement(t *testing.T) {
	v := lookup(t, "gochess")
	a := &Builtin{Label: "a", Engine: engine.New(engine.Options{HashBits: 10}), Limits: engine.Limits{Depth: 1}}
	rng := rand.New(rand.NewPCG(1, 2))
	pos, err := GoChessStart(context.Background(), v, a, NewGreedy(1), rng)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := pos.(rules.Simultaneous); ok || len(pos.LegalMoves()) == 0 {
		t.Fatalf("GoChessStart returned %T %s, want a play position", pos, pos)
	}
	pieces := 0
	for _, c := range pos.Board().Cells {
		if c.Piece.Kind != rules.NoPiece {
			pieces++
		}
	}
	if pieces != 32 {
		t.Errorf("%d pieces placed, want 32", pieces)
	}
}

// TestGoChessStartPlacesSoundlyForExternalPlayers: a player that cannot place
// (greedy, an external engine) places as the built-in engine does, so that two
// such players start from the position two built-in engines would reach, not from
// random placements that hang pieces.
func TestGoChessStartPlacesSoundlyForExternalPlayers(t *testing.T) {
	v := lookup(t, "gochess")
	for seed := uint64(1); seed <= 5; seed++ {
		ext, err := GoChessStart(context.Background(), v, NewGreedy(1), NewGreedy(2), rand.New(rand.NewPCG(seed, 2)))
		if err != nil {
			t.Fatal(err)
		}
		a := &Builtin{Label: "a", Engine: engine.New(engine.Options{HashBits: 10}), Limits: engine.Limits{Depth: 1}}
		b := &Builtin{Label: "b", Engine: engine.New(engine.Options{HashBits: 10}), Limits: engine.Limits{Depth: 1}}
		built, err := GoChessStart(context.Background(), v, a, b, rand.New(rand.NewPCG(seed, 2)))
		if err != nil {
			t.Fatal(err)
		}
		if ext.String() != built.String() {
			t.Fatalf("seed %d: players without a placement start from %s, built-in engines from %s", seed, ext, built)
		}
	}
}

func TestRunRefusesNoGames(t *testing.T) {
	v := lookup(t, "gothic")
	for _, n := range []int{0, -2} {
		sum, games, err := Run(context.Background(), Config{Variant: v, A: &firstMove{name: "a"}, B: &firstMove{name: "b"}, Games: n})
		if !errors.Is(err, ErrBadConfig) || len(games) != 0 || sum.Games() != 0 {
			t.Errorf("%d games: %v, %d played; want ErrBadConfig and nothing played", n, err, len(games))
		}
	}
}

// A match times every answer and books it to the player who gave it, whichever
// colour it had, in Run and in a parallel match alike, and says where the
// longest was; the opening's random moves are nobody's.
func TestThinkingTime(t *testing.T) {
	v := lookup(t, "gothic")
	const nap = 20 * time.Millisecond
	slow := func() Player {
		answers := 0
		return &firstMove{name: "slow", hook: func(int) {
			answers++
			if answers == 5 { // in Run, the slow player's first answer of game 3
				time.Sleep(4 * nap)
			}
			time.Sleep(nap)
		}}
	}
	fast := func() Player { return &firstMove{name: "fast"} }
	c := Config{Variant: v, A: slow(), B: fast(), Games: 4, MaxPlies: 6, OpeningPlies: 2, Seed: 5}
	check := func(how string, sum Summary) {
		t.Helper()
		// 4 games of 6 plies after 2 opening plies: 2 answers a side a game.
		if sum.AThought.Moves != 8 || sum.BThought.Moves != 8 {
			t.Fatalf("%s: %d and %d answers timed, want 8 each", how, sum.AThought.Moves, sum.BThought.Moves)
		}
		if a := sum.AThought; a.Mean() < nap {
			t.Errorf("%s: the slow player's answers %+v, mean %v; want each at least %v", how, a, a.Mean(), nap)
		}
		if text := sum.TimeText(); !strings.HasPrefix(text, "time a move: slow ") || !strings.Contains(text, ", fast ") || !strings.Contains(text, " ms on average (at most ") {
			t.Errorf("%s: %q", how, text)
		}
	}
	sum, games, err := Run(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	check("Run", sum)
	var longest time.Duration
	for i, g := range games {
		slowSide := FirstSide(i)
		if g.Thought[slowSide].Moves != 2 || g.Thought[slowSide].Mean() < nap || g.Thought[slowSide.Other()].Moves != 2 {
			t.Errorf("game %d: %+v, want the slow player's 2 answers on %v", i+1, g.Thought, slowSide)
		}
		longest = max(longest, g.Thought[slowSide].Max)
	}
	if sum.AThought.Max != longest {
		t.Errorf("the slow player's longest answer %v over the match, %v in its longest game", sum.AThought.Max, longest)
	}
	ply := 0
	for k, d := range games[2].Took {
		if d == longest {
			ply = k + 1
		}
	}
	if a := sum.AThought; a.MaxGame != 3 || a.MaxPly != ply || ply == 0 || !strings.Contains(sum.TimeText(), fmt.Sprintf("game 3 ply %d)", ply)) {
		t.Errorf("the longest answer (%v) at game %d ply %d, want game 3 ply %d (%v in game 3); %q", longest, a.MaxGame, a.MaxPly, ply, games[2].Took, sum.TimeText())
	}
	p := Parallel{Config: c, Jobs: 2, Players: func(int) (Player, Player, error) { return slow(), fast(), nil }}
	psum, _, err := p.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	check("Parallel", psum)
}
