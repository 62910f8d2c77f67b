package storage_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/storage"
)

var update_ = flag.Bool("update", false, "rewrite the golden files in testdata")

// rawRecord reads the stored bytes of bucket/key from a closed data file.
func rawRecord(t *testing.T, path, bucket, key string) []byte {
	t.Helper()
	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true, Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var out []byte
	db.View(func(tx *bolt.Tx) error {
		out = bytes.Clone(tx.Bucket([]byte(bucket)).Get([]byte(key)))
		return nil
	})
	if out == nil {
		t.Fatalf("no %s/%s in %s", bucket, key, path)
	}
	return out
}

// writeRaw replaces bucket/key in a closed data file.
func writeRaw(t *testing.T, path, bucket, key string, value []byte) {
	t.Helper()
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Update(func(tx *bolt.Tx) error { return tx.Bucket([]byte(bucket)).Put([]byte(key), value) }); err != nil {
		t.Fatal(err)
	}
}

// fullGame returns a game with every field set, its moves played through Play.
func fullGame(t *testing.T, clock *fakeClock) *storage.Game {
	g := newGame("walk", "111", "engine:builtin:5")
	g.Players[rules.Black].Name = "Missive level 5"
	g.Guild, g.Channel, g.Thread = "900", "901", "902"
	g.Seed = 9 // blocks b2
	g.Rated = true
	g.Tournament, g.Round = "4", 2
	g.Clock.DaysPerMove = 3
	return g
}

func TestGameRoundTripAndGolden(t *testing.T) {
	s, clock, path := openTemp(t)
	ctx := context.Background()
	g := create(t, s, fullGame(t, clock))
	if g.ID != "1" || g.Version != 1 || !g.CreatedAt.Equal(clock.Now()) {
		t.Fatalf("created game: id %q version %d created %v", g.ID, g.Version, g.CreatedAt)
	}
	for i, mv := range []string{"e2", "Ke7", "e2e3"} { // any accepted notation; stored canonically
		clock.Advance(time.Hour)
		g = play(t, s, g.ID, mv)
		if len(g.Moves) != i+1 {
			t.Fatalf("after %s: %d moves", mv, len(g.Moves))
		}
	}
	g, err := s.UpdateGame(ctx, g.ID, func(g *storage.Game) error {
		g.Clock.SetDeadline(clock.Now().Add(72 * time.Hour))
		g.Clock.MarkSent("engine:builtin:5", 24)
		g.Clock.Wake = clock.Now().Add(70 * time.Hour)
		g.DrawOffer = &storage.Offer{By: rules.White, Ply: 3, At: clock.Now()}
		g.Takeback = &storage.Offer{By: rules.Black, Ply: 2, At: clock.Now()}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"e1e2", "e8e7", "e2e3"}
	for i, e := range g.Moves {
		if e.Move != want[i] || e.Simultaneous {
			t.Errorf("move %d stored as %+v, want %s", i, e, want[i])
		}
	}
	if g.Version != 5 || len(g.ToMove) != 1 || g.ToMove[0] != rules.Black {
		t.Errorf("version %d, to move %v", g.Version, g.ToMove)
	}
	loaded, err := s.Game(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(g)
	b, _ := json.Marshal(loaded)
	if !bytes.Equal(a, b) {
		t.Errorf("round trip changed the game:\n%s\n%s", a, b)
	}
	if loaded.Position.String() != "e3 e7 b 3 b2" {
		t.Errorf("replayed position %q", loaded.Position.String())
	}
	if !loaded.Clock.HasSent("engine:builtin:5", 24) || loaded.Clock.HasSent("111", 24) {
		t.Errorf("reminders %+v", loaded.Clock.Sent)
	}
	if !loaded.Players[rules.Black].IsEngine() || loaded.Players[rules.White].IsEngine() {
		t.Error("IsEngine wrong")
	}

	// The stored bytes are the schema: compare with the golden record.
	s.Close()
	raw := rawRecord(t, path, "games", "1")
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, raw, "", "  "); err != nil {
		t.Fatal(err)
	}
	pretty.WriteByte('\n')
	golden := filepath.Join("testdata", "game_v1.json")
	if *update_ {
		os.WriteFile(golden, pretty.Bytes(), 0o644)
	}
	wantRaw, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(pretty.Bytes(), wantRaw) {
		t.Errorf("stored game differs from %s (run with -update if the change is deliberate and migrated):\n%s", golden, pretty.Bytes())
	}

	// A record in the golden form reads back and replays.
	var compact bytes.Buffer
	json.Compact(&compact, wantRaw)
	writeRaw(t, path, "games", "1", compact.Bytes())
	s2 := openAt(t, path, nil)
	g2, err := s2.Game(ctx, "1")
	if err != nil {
		t.Fatal(err)
	}
	if len(g2.Moves) != 3 || g2.Outcome.Status != rules.Ongoing || g2.DrawOffer == nil || g2.DrawOffer.By != rules.White ||
		g2.Takeback.By != rules.Black || g2.Seed != 9 || g2.Round != 2 {
		t.Errorf("golden record read as %+v", g2)
	}
}

func TestPlayRefusalsChangeNothing(t *testing.T) {
	s, _, _ := openTemp(t)
	ctx := context.Background()
	g := create(t, s, newGame("walk", "a", "b"))
	for _, tc := range []struct {
		side rules.Side
		text string
		want error
	}{
		{rules.White, "e1e5", rules.ErrIllegalMove},
		{rules.White, "zz", rules.ErrBadNotation},
		{rules.Black, "e7", rules.ErrNotYourTurn},
	} {
		_, err := s.UpdateGame(ctx, g.ID, func(g *storage.Game) error {
			_, err := g.Play(tc.side, tc.text, time.Time{})
			return err
		})
		if !errors.Is(err, tc.want) {
			t.Errorf("Play(%v, %q) = %v, want %v", tc.side, tc.text, err, tc.want)
		}
	}
	got, _ := s.Game(ctx, g.ID)
	if got.Version != 1 || len(got.Moves) != 0 {
		t.Errorf("refused moves changed the game: version %d, %d moves", got.Version, len(got.Moves))
	}
	// A game the rules ended refuses further moves, and records its outcome.
	g2 := newGame("walk", "a", "b")
	g2.Start = "e7 a8 w 10"
	create(t, s, g2)
	g2 = play(t, s, g2.ID, "e8")
	if g2.Outcome != rules.Win(rules.White, rules.Checkmate) || g2.EndedAt.IsZero() || g2.ToMove != nil {
		t.Errorf("outcome %v ended %v to move %v", g2.Outcome, g2.EndedAt, g2.ToMove)
	}
	_, err := s.UpdateGame(ctx, g2.ID, func(g *storage.Game) error {
		_, err := g.Play(rules.Black, "a7", time.Time{})
		return err
	})
	if !errors.Is(err, rules.ErrGameOver) {
		t.Errorf("move after the end: %v", err)
	}
}

func TestSimultaneousPlacement(t *testing.T) {
	s, _, path := openTemp(t)
	ctx := context.Background()
	g := create(t, s, newGame("walkplace", "a", "b"))
	if len(g.ToMove) != 2 {
		t.Fatalf("placement awaits %v, want both", g.ToMove)
	}
	choose := func(side rules.Side, text string) error {
		_, err := s.UpdateGame(ctx, g.ID, func(g *storage.Game) error {
			_, err := g.Play(side, text, time.Time{})
			return err
		})
		return err
	}
	if err := choose(rules.Black, "f8"); err != nil {
		t.Fatal(err)
	}
	if err := choose(rules.Black, "g8"); !errors.Is(err, rules.ErrNotYourTurn) {
		t.Fatalf("second choice by black: %v", err)
	}
	if err := choose(rules.White, "K@f8"); !errors.Is(err, rules.ErrIllegalMove) {
		t.Fatalf("white on rank 8: %v", err)
	}
	mid, _ := s.Game(ctx, g.ID)
	if len(mid.ToMove) != 1 || mid.ToMove[0] != rules.White {
		t.Fatalf("after black's choice, awaiting %v", mid.ToMove)
	}
	if err := choose(rules.White, "c1"); err != nil {
		t.Fatal(err)
	}
	g = play(t, s, g.ID, "c2", "f7")
	want := []storage.MoveEntry{
		{Move: "K@f8", Side: rules.Black, Simultaneous: true},
		{Move: "K@c1", Side: rules.White, Simultaneous: true},
		{Move: "c1c2"}, {Move: "f8f7"},
	}
	for i, e := range g.Moves {
		e.At = time.Time{}
		if e != want[i] {
			t.Errorf("entry %d = %+v, want %+v", i, e, want[i])
		}
	}
	s.Close()
	raw := string(rawRecord(t, path, "games", g.ID))
	if !strings.Contains(raw, `{"m":"K@f8","side":"black",`) || !strings.Contains(raw, `{"m":"c1c2","at":`) {
		t.Errorf("stored moves: %s", raw)
	}
	s2 := openAt(t, path, nil)
	g2, err := s2.Game(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if g2.Position.String() != "c2 f7 w 2" {
		t.Errorf("replayed to %q", g2.Position.String())
	}
}

func TestReplayFailureIsReported(t *testing.T) {
	s, _, path := openTemp(t)
	ctx := context.Background()
	g := create(t, s, newGame("walk", "a", "b"))
	play(t, s, g.ID, "e2", "e7", "e3", "e6")
	s.Close()
	raw := rawRecord(t, path, "games", g.ID)
	writeRaw(t, path, "games", g.ID, bytes.Replace(raw, []byte(`"m":"e2e3"`), []byte(`"m":"e2e5"`), 1))

	s2 := openAt(t, path, nil)
	_, err := s2.Game(ctx, g.ID)
	var re *storage.ReplayError
	if !errors.As(err, &re) || re.Game != g.ID || re.Index != 2 || re.Move != "e2e5" ||
		!errors.Is(err, storage.ErrReplay) || !errors.Is(err, rules.ErrIllegalMove) {
		t.Fatalf("loading the damaged game: %v", err)
	}
	if !strings.Contains(err.Error(), "game 1 does not replay: move list entry 3") {
		t.Errorf("message: %v", err)
	}
	if _, err := s2.UpdateGame(ctx, g.ID, func(*storage.Game) error { return nil }); !errors.Is(err, storage.ErrReplay) {
		t.Errorf("UpdateGame on a game that does not replay: %v", err)
	}
	view(t, s2, func(tx *storage.Tx) error { // the record itself is still readable
		rec, err := tx.GameRecord(g.ID)
		if err != nil || len(rec.Moves) != 4 || rec.Position != nil {
			t.Errorf("GameRecord: %v %v", rec, err)
		}
		return nil
	})
	if err := s2.Verify(ctx); !errors.Is(err, storage.ErrReplay) {
		t.Errorf("Verify: %v", err)
	}
	// An unknown variant is reported the same way.
	s2.Close()
	writeRaw(t, path, "games", g.ID, bytes.Replace(raw, []byte(`"variant":"walk"`), []byte(`"variant":"chaturanga"`), 1))
	s3 := openAt(t, path, nil)
	if _, err := s3.Game(ctx, g.ID); !errors.Is(err, storage.ErrReplay) || !errors.Is(err, rules.ErrUnknownVariant) {
		t.Errorf("unknown variant: %v", err)
	}
}

func TestPutGameRefusesRecordsThatDoNotReplay(t *testing.T) {
	s, _, _ := openTemp(t)
	ctx := context.Background()
	g := create(t, s, newGame("walk", "a", "b"))
	g = play(t, s, g.ID, "e2")
	g.Moves = append(g.Moves, storage.MoveEntry{Move: "e8e1"}) // edited behind Play's back
	err := s.Update(ctx, func(tx *storage.Tx) error { return tx.PutGame(g) })
	if !errors.Is(err, storage.ErrReplay) {
		t.Fatalf("PutGame with an illegal move: %v", err)
	}
	if g.Version != 2 {
		t.Errorf("a failed write changed the caller's version to %d", g.Version)
	}
	bad := newGame("walk", "a", "b")
	bad.Start = "e1 e1 w 0"
	if err := s.CreateGame(ctx, bad); !errors.Is(err, rules.ErrBadPosition) || bad.ID != "" {
		t.Errorf("bad start position: %v (id %q)", err, bad.ID)
	}
	for _, tc := range []struct {
		name string
		edit func(g *storage.Game)
	}{
		{"no variant", func(g *storage.Game) { g.Variant = "" }},
		{"no black player", func(g *storage.Game) { g.Players[1].ID = "" }},
		{"NUL in thread", func(g *storage.Game) { g.Thread = "a\x00b" }},
		{"bad status", func(g *storage.Game) { g.Outcome.Status = "paused" }},
		{"offer beyond the moves", func(g *storage.Game) { g.DrawOffer = &storage.Offer{Ply: 9} }},
	} {
		g := newGame("walk", "a", "b")
		tc.edit(g)
		if err := s.CreateGame(ctx, g); !errors.Is(err, storage.ErrInvalid) {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
}

func TestUndo(t *testing.T) {
	s, _, _ := openTemp(t)
	ctx := context.Background()
	g := newGame("walk", "a", "b")
	g.Start = "e6 a8 w 0"
	create(t, s, g)
	g = play(t, s, g.ID, "e7", "a7", "e8")
	if !g.Outcome.IsOver() {
		t.Fatal("white should have won")
	}
	g, err := s.UpdateGame(ctx, g.ID, func(g *storage.Game) error { return g.Undo(2, s.Registry()) })
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Moves) != 1 || g.Outcome.IsOver() || !g.EndedAt.IsZero() || g.Position.Turn() != rules.Black {
		t.Errorf("after undo: %d moves, outcome %v, ended %v", len(g.Moves), g.Outcome, g.EndedAt)
	}
	mustVerify(t, s)
	if err := g.Undo(5, s.Registry()); !errors.Is(err, storage.ErrInvalid) {
		t.Errorf("undo of too many moves: %v", err)
	}
}

func TestVersionConflict(t *testing.T) {
	s, _, _ := openTemp(t)
	ctx := context.Background()
	g := create(t, s, newGame("walk", "a", "b"))
	first, _ := s.Game(ctx, g.ID)
	second, _ := s.Game(ctx, g.ID)
	if _, err := first.Play(rules.White, "e2", time.Time{}); err != nil {
		t.Fatal(err)
	}
	if _, err := second.Play(rules.White, "d2", time.Time{}); err != nil {
		t.Fatal(err)
	}
	if err := s.Update(ctx, func(tx *storage.Tx) error { return tx.PutGame(first) }); err != nil {
		t.Fatal(err)
	}
	err := s.Update(ctx, func(tx *storage.Tx) error { return tx.PutGame(second) })
	if !errors.Is(err, storage.ErrConflict) || !strings.Contains(err.Error(), "changed since it was read (version 1, now 2)") {
		t.Fatalf("second write: %v", err)
	}
	got, _ := s.Game(ctx, g.ID)
	if len(got.Moves) != 1 || got.Moves[0].Move != "e1e2" {
		t.Errorf("stored moves %+v", got.Moves)
	}

	// Many writers racing with the same loaded version: exactly one wins.
	base, _ := s.Game(ctx, g.ID)
	const n = 16
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mine, _ := s.Game(ctx, g.ID)
			if mine.Version != base.Version {
				errs[i] = storage.ErrConflict
				return
			}
			if _, err := mine.Play(rules.Black, "e7", time.Time{}); err != nil {
				errs[i] = err
				return
			}
			errs[i] = s.Update(ctx, func(tx *storage.Tx) error { return tx.PutGame(mine) })
		}()
	}
	wg.Wait()
	wins := 0
	for _, err := range errs {
		switch {
		case err == nil:
			wins++
		case !errors.Is(err, storage.ErrConflict):
			t.Errorf("racing writer: %v", err)
		}
	}
	got, _ = s.Game(ctx, g.ID)
	if wins != 1 || len(got.Moves) != 2 {
		t.Errorf("%d writers won, game has %d moves; want 1 and 2", wins, len(got.Moves))
	}

	// Concurrent UpdateGame calls are serialised: the second sees the first's move.
	var wg2 sync.WaitGroup
	results := make([]error, 2)
	for i := range 2 {
		wg2.Add(1)
		go func() {
			defer wg2.Done()
			_, results[i] = s.UpdateGame(ctx, g.ID, func(g *storage.Game) error {
				_, err := g.Play(rules.White, "e3", time.Time{})
				return err
			})
		}()
	}
	wg2.Wait()
	if (results[0] == nil) == (results[1] == nil) {
		t.Errorf("both or neither of two identical moves applied: %v, %v", results[0], results[1])
	}
	mustVerify(t, s)
}

func TestFailedTransactionRestoresRecords(t *testing.T) {
	s, _, _ := openTemp(t)
	ctx := context.Background()
	g := newGame("walk", "a", "b")
	p := &storage.Player{ID: "a"}
	boom := errors.New("boom")
	err := s.Update(ctx, func(tx *storage.Tx) error {
		if err := tx.PutGame(g); err != nil {
			return err
		}
		if err := tx.PutPlayer(p); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) || g.ID != "" || g.Version != 0 || p.Version != 0 || !p.CreatedAt.IsZero() {
		t.Fatalf("after a failed transaction: %v, game %q v%d, player v%d", err, g.ID, g.Version, p.Version)
	}
	view(t, s, func(tx *storage.Tx) error {
		if _, err := tx.Player("a"); !errors.Is(err, storage.ErrNotFound) {
			t.Errorf("player written by a failed transaction: %v", err)
		}
		return nil
	})
	// A panic inside a transaction is an error, and nothing is written.
	err = s.Update(ctx, func(tx *storage.Tx) error {
		tx.PutPlayer(&storage.Player{ID: "x"})
		panic("bug")
	})
	if err == nil || !strings.Contains(err.Error(), "aborted by a panic") {
		t.Fatalf("panic: %v", err)
	}
	mustVerify(t, s)
	create(t, s, g) // the restored game can still be created
	if g.ID != "1" {
		t.Errorf("id %q", g.ID)
	}
}

func TestUpdateGameStartsAgainWhenTheGameMovesOn(t *testing.T) {
	s, _, _ := openTemp(t)
	ctx := context.Background()
	g := create(t, s, newGame("walk", "a", "b"))
	calls := 0
	got, err := s.UpdateGame(ctx, g.ID, func(g *storage.Game) error {
		calls++
		if calls == 1 { // another writer gets in while this change is being prepared
			play(t, s, g.ID, "e2")
		}
		_, err := g.Play(g.Position.Turn(), map[rules.Side]string{rules.White: "e2", rules.Black: "e7"}[g.Position.Turn()], time.Time{})
		return err
	})
	if err != nil || calls != 2 || len(got.Moves) != 2 || got.Moves[1].Move != "e8e7" || got.Version != 3 {
		t.Fatalf("after a concurrent move: %v, %d calls, %+v", err, calls, got)
	}
	// fn may not change the game's identity.
	if _, err := s.UpdateGame(ctx, g.ID, func(g *storage.Game) error { g.ID = "99"; return nil }); !errors.Is(err, storage.ErrInvalid) {
		t.Errorf("changing the id: %v", err)
	}
	// A change that no longer replays is refused.
	if _, err := s.UpdateGame(ctx, g.ID, func(g *storage.Game) error {
		g.Moves = append(g.Moves, storage.MoveEntry{Move: "a1a8"})
		return nil
	}); !errors.Is(err, storage.ErrReplay) {
		t.Errorf("appending an illegal move: %v", err)
	}
	mustVerify(t, s)
}

func TestVerifyComparesStatusWithTheRules(t *testing.T) {
	s, _, path := openTemp(t)
	g := newGame("walk", "a", "b")
	g.Start = "e7 a8 w 0"
	create(t, s, g)
	g = play(t, s, g.ID, "e8")
	s.Close()
	raw := rawRecord(t, path, "games", g.ID)
	// As if an older Missive had not known this ending.
	edited := bytes.Replace(raw, []byte(`"status":"won","winner":"white","reason":"checkmate"`), []byte(`"status":"ongoing","to_move":["black"]`), 1)
	if bytes.Equal(edited, raw) {
		t.Fatalf("record %s", raw)
	}
	writeRaw(t, path, "games", g.ID, edited)
	s = openAt(t, path, nil)
	if err := s.Verify(context.Background()); !errors.Is(err, storage.ErrReplay) || !strings.Contains(err.Error(), "stored as ongoing, but the rules say white wins by checkmate") {
		t.Errorf("Verify: %v", err)
	}
}
