package storage_test

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/variants"
	"github.com/missivechess/missive/storage"
)

// goChessFEN is a Go-Chess position in play (its placement phase is not built yet):
// the ten blocked cells of seed 3 with a few pieces each.
const goChessFEN = "1k1r6/pppppppp2/2**1*2*1/9*/10/9*/10/10/*PPPPPPPP1/*K1R1*2*1 w - - 0 1"

// randomMove picks a legal move of pos (a choice of a simultaneous round when one is
// on) and writes it in SAN or in coordinates at random, as players would.
func randomMove(r *rand.Rand, pos rules.Position) (rules.Side, string, bool) {
	if sim, ok := pos.(rules.Simultaneous); ok && len(sim.Awaiting()) > 0 {
		side := sim.Awaiting()[r.IntN(len(sim.Awaiting()))]
		moves := sim.LegalMovesFor(side)
		if len(moves) == 0 {
			return side, "", false
		}
		return side, pos.UCI(moves[r.IntN(len(moves))]), true
	}
	moves := pos.LegalMoves()
	if len(moves) == 0 {
		return pos.Turn(), "", false
	}
	m := moves[r.IntN(len(moves))]
	for try := 0; try < 30; try++ { // prefer moves that keep the game going (Gess rings break easily)
		if next, err := pos.Play(m); err == nil && !next.Outcome().IsOver() {
			break
		}
		m = moves[r.IntN(len(moves))]
	}
	if r.IntN(2) == 0 {
		return pos.Turn(), pos.SAN(m), true
	}
	return pos.Turn(), pos.UCI(m), true
}

// TestRealVariantsReplay plays random games of every registered variant through the
// store, reopens it and checks that each game replays to the same position and outcome.
func TestRealVariantsReplay(t *testing.T) {
	reg := variants.Registry()
	path := filepath.Join(t.TempDir(), "real.db")
	s, err := storage.Open(path, reg, &storage.Options{NoSync: true, NoBackupSocket: true})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	r := rand.New(rand.NewPCG(11, 12))
	type want struct {
		pos     string
		outcome rules.Outcome
		plies   int
	}
	wants := map[string]want{}
	var games []*storage.Game
	for _, v := range reg.Variants() {
		for seed := uint64(1); seed <= 3; seed++ {
			g := newGame(v.Key(), "alice", "bob")
			g.Seed = seed
			if v.Key() == "gochess" && len(v.Start(seed).LegalMoves()) == 0 {
				if _, ok := v.Start(seed).(rules.Simultaneous); !ok {
					g.Seed, g.Start = 0, goChessFEN // no placement phase yet: start in play
				}
			}
			games = append(games, g)
		}
	}
	for _, g := range games {
		if err := s.CreateGame(ctx, g); err != nil {
			t.Fatalf("%s: %v", g.Variant, err)
		}
		for chunk := 0; chunk < 12 && g.Active(); chunk++ {
			g, err = s.UpdateGame(ctx, g.ID, func(g *storage.Game) error {
				for range 10 {
					if !g.Active() {
						break
					}
					before := g.Position
					side, text, ok := randomMove(r, before)
					if !ok {
						break
					}
					if _, err := g.Play(side, text, time.Time{}); err != nil {
						t.Fatalf("%s game %s: playing %q in %s: %v", g.Variant, g.ID, text, before, err)
					}
					if e := g.Moves[len(g.Moves)-1]; e.Move == "" {
						t.Fatalf("%s: empty canonical text for %q", g.Variant, text)
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		wants[g.ID] = want{g.Position.String(), g.Outcome, len(g.Moves)}
		t.Logf("%s game %s: %d plies, %v", g.Variant, g.ID, len(g.Moves), g.Outcome)
		if len(g.Moves) == 0 {
			t.Errorf("%s game %s: no move was played", g.Variant, g.ID)
		}
	}
	s.Close()

	s, err = storage.Open(path, reg, &storage.Options{NoBackupSocket: true, CacheSize: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	mustVerify(t, s)
	for id, w := range wants {
		g, err := s.Game(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if g.Position.String() != w.pos || g.Outcome != w.outcome || len(g.Moves) != w.plies {
			t.Errorf("%s game %s replayed to %q (%v, %d plies), want %q (%v, %d plies)",
				g.Variant, id, g.Position.String(), g.Outcome, len(g.Moves), w.pos, w.outcome, w.plies)
		}
	}
}

func TestRealGameThatNoLongerReplays(t *testing.T) {
	reg := variants.Registry()
	path := filepath.Join(t.TempDir(), "gothic.db")
	s, err := storage.Open(path, reg, &storage.Options{NoBackupSocket: true})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	g := create(t, s, newGame("gothic", "alice", "bob"))
	g = play(t, s, g.ID, "e4", "e5", "Nh3", "Cf6") // knights start on b and i, the chancellor on e
	if g.Moves[2].Move != "i1h3" || g.Moves[3].Move != "e8f6" {
		t.Fatalf("stored %+v", g.Moves)
	}
	s.Close()
	raw := rawRecord(t, path, "games", g.ID)
	writeRaw(t, path, "games", g.ID, bytes.Replace(raw, []byte(`"m":"i1h3"`), []byte(`"m":"i1i3"`), 1))
	s, err = storage.Open(path, reg, &storage.Options{NoBackupSocket: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	_, err = s.Game(ctx, g.ID)
	var re *storage.ReplayError
	if !errors.As(err, &re) || re.Index != 2 || re.Move != "i1i3" || !errors.Is(err, rules.ErrIllegalMove) {
		t.Fatalf("damaged Gothic game: %v", err)
	}
}

// A takeback of a pending Go-Chess placement choice reopens the round for that side
// only, is stored, and the history never shows the choice once taken back.
func TestGoChessPlacementUndo(t *testing.T) {
	reg := variants.Registry()
	s, err := storage.Open(filepath.Join(t.TempDir(), "gochess.db"), reg, &storage.Options{NoBackupSocket: true, CacheSize: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	g := newGame("gochess", "alice", "bob")
	g.Seed = 7
	create(t, s, g)
	var white, black string
	g, err = s.UpdateGame(ctx, g.ID, func(g *storage.Game) error {
		sim := g.Position.(rules.Simultaneous)
		white = g.Position.UCI(sim.LegalMovesFor(rules.White)[0])
		black = g.Position.UCI(sim.LegalMovesFor(rules.Black)[3])
		_, err := g.Play(rules.White, white, time.Time{})
		return err
	})
	if err != nil || len(g.ToMove) != 1 || g.ToMove[0] != rules.Black || !g.Moves[0].Simultaneous || g.Moves[0].Side != rules.White {
		t.Fatalf("after white's choice: %v %v %+v", err, g.ToMove, g.Moves)
	}
	g, err = s.UpdateGame(ctx, g.ID, func(g *storage.Game) error { return g.Undo(1, s.Registry()) })
	if err != nil || len(g.Moves) != 0 || len(g.ToMove) != 2 {
		t.Fatalf("after taking the choice back: %v %v %+v", err, g.ToMove, g.Moves)
	}
	g, err = s.UpdateGame(ctx, g.ID, func(g *storage.Game) error {
		if _, err := g.Play(rules.Black, black, time.Time{}); err != nil {
			return err
		}
		_, err := g.Play(rules.White, white, time.Time{})
		return err
	})
	if err != nil || len(g.ToMove) != 2 {
		t.Fatalf("a full round after the takeback: %v %v", err, g.ToMove)
	}
	g, err = s.Game(ctx, g.ID) // no cache: loading replays, and History reuses that replay
	if err != nil {
		t.Fatal(err)
	}
	h, err := g.History(s.Registry())
	if err != nil || len(h.Steps) != 2 || !h.Steps[1].Revealed || h.Steps[0].Side != rules.Black || h.Position() != g.Position {
		t.Fatalf("history %+v: %v", h, err)
	}
	mustVerify(t, s)
}

// History follows the record through Play and Undo, never a stale replay.
func TestHistoryFollowsTheRecord(t *testing.T) {
	reg := variants.Registry()
	s, err := storage.Open(filepath.Join(t.TempDir(), "gothic.db"), reg, &storage.Options{NoBackupSocket: true, CacheSize: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	g := create(t, s, newGame("gothic", "alice", "bob"))
	play(t, s, g.ID, "e4", "e5")
	g, err = s.Game(context.Background(), g.ID)
	if err != nil {
		t.Fatal(err)
	}
	sans := func() string {
		h, err := g.History(s.Registry())
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, st := range h.Steps {
			out = append(out, st.SAN)
		}
		return strings.Join(out, " ")
	}
	if got := sans(); got != "e4 e5" {
		t.Fatalf("loaded: %q", got)
	}
	if err := g.Undo(1, s.Registry()); err != nil {
		t.Fatal(err)
	}
	if _, err := g.Play(rules.Black, "d5", time.Time{}); err != nil {
		t.Fatal(err)
	}
	if got := sans(); got != "e4 d5" {
		t.Fatalf("after undo and play: %q", got)
	}
}
