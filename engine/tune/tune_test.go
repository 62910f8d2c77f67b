package tune

import (
	"context"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/missivechess/missive/engine"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/variants"
)

func loadTestdata(t *testing.T) *Data {
	t.Helper()
	f, err := os.Open("testdata/gothic-40.pgn")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var d Data
	if err := Load(context.Background(), f, variants.Registry(), "gothic", Options{SkipPlies: 10, HoldOut: 5}, &d); err != nil {
		t.Fatal(err)
	}
	return &d
}

// TestLoad reads every game of the file and keeps only quiet positions.
func TestLoad(t *testing.T) {
	d := loadTestdata(t)
	if d.Games != 40 {
		t.Errorf("%d games, want 40", d.Games)
	}
	if len(d.Train) < 1000 || len(d.HeldOut) == 0 {
		t.Fatalf("%d training and %d held-out positions", len(d.Train), len(d.HeldOut))
	}
	for _, s := range d.Train {
		if s.Result != 0 && s.Result != 0.5 && s.Result != 1 {
			t.Fatalf("result %v", s.Result)
		}
	}
	var other Data
	f, _ := os.Open("testdata/gothic-40.pgn")
	defer f.Close()
	if err := Load(context.Background(), f, variants.Registry(), "keltic", Options{}, &other); err != nil || len(other.Train) != 0 {
		t.Errorf("keltic from Gothic games: %d positions, %v", len(other.Train), err)
	}
}

// TestFitLowersLoss fits the prior weights on the test games: the training loss
// must fall clearly, and the frozen terms must keep their weights.
func TestFitLowersLoss(t *testing.T) {
	d := loadTestdata(t)
	_, prior, err := engine.WeightsFor(d.Start)
	if err != nil {
		t.Fatal(err)
	}
	k := FitK(d.Train, prior)
	before := Loss(d.Train, prior, k)
	tuned, err := Fit(context.Background(), d.Train, prior, k, FitOptions{Epochs: 200, Frozen: map[string]bool{"material.pawn": true}})
	if err != nil {
		t.Fatal(err)
	}
	after := Loss(d.Train, tuned, k)
	t.Logf("K %.3f, training loss %.5f -> %.5f, held out %.5f -> %.5f", k, before, after, Loss(d.HeldOut, prior, k), Loss(d.HeldOut, tuned, k))
	if after > 0.9*before {
		t.Errorf("training loss %.5f -> %.5f: no clear gain", before, after)
	}
	if tuned.MG[0] != prior.MG[0] || tuned.EG[0] != prior.EG[0] {
		t.Errorf("frozen material.pawn moved: %d %d -> %d %d", prior.MG[0], prior.EG[0], tuned.MG[0], tuned.EG[0])
	}
	var sb strings.Builder
	if err := tuned.Write(&sb, "test"); err != nil {
		t.Fatal(err)
	}
	back, err := engine.ReadEvalWeights(strings.NewReader(sb.String()))
	if err != nil {
		t.Fatal(err)
	}
	for i := range tuned.MG {
		if back.MG[i] != tuned.MG[i] || back.EG[i] != tuned.EG[i] {
			t.Fatalf("term %d does not survive writing and reading", i)
		}
	}
}

// TestModelIsEngine checks that the tuner's float evaluation agrees with the
// engine's integer one within rounding on the loaded positions.
func TestModelIsEngine(t *testing.T) {
	d := loadTestdata(t)
	w, _, err := engine.WeightsFor(d.Start)
	if err != nil {
		t.Fatal(err)
	}
	m := newModel(w)
	for _, s := range d.Train[:500] {
		got, want := m.eval(&s.Features), float64(w.Score(s.Features))
		if got < want-1 || got > want+1 {
			t.Fatalf("tuner %v, engine %v", got, want)
		}
	}
}

// TestDropAdjudicated skips games adjudicated at a ply cap only when asked.
func TestDropAdjudicated(t *testing.T) {
	data, err := os.ReadFile("testdata/gothic-40.pgn")
	if err != nil {
		t.Fatal(err)
	}
	games, err := splitGames(strings.NewReader(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	adjudicated := strings.Replace(games[0], "[Variant", "[Termination \"adjudicated a draw at the 300-ply cap\"]\n[Variant", 1)
	for _, drop := range []bool{false, true} {
		var d Data
		if err := Load(context.Background(), strings.NewReader(adjudicated+"\n"+games[1]), variants.Registry(), "gothic", Options{DropAdjudicated: drop}, &d); err != nil {
			t.Fatal(err)
		}
		if want := map[bool]int{false: 2, true: 1}[drop]; d.Games != want {
			t.Errorf("DropAdjudicated %v: %d games, want %d", drop, d.Games, want)
		}
	}
}

// TestLoadAugment checks that --augment adds labelled positions one move away
// from the games' own, the same ones on every run.
func TestLoadAugment(t *testing.T) {
	load := func(augment int) (*Data, map[string]bool) {
		f, err := os.Open("testdata/gothic-40.pgn")
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		seen := map[string]bool{}
		teach := func(p rules.Position) (float64, bool, error) {
			seen[p.String()] = true
			return 25, true, nil
		}
		var d Data
		opts := Options{SkipPlies: 10, HoldOut: 5, Teachers: []TeachFunc{teach}, Augment: augment}
		if err := Load(context.Background(), f, variants.Registry(), "gothic", opts, &d); err != nil {
			t.Fatal(err)
		}
		return &d, seen
	}
	plain, plainSeen := load(0)
	aug, augSeen := load(2)
	again, _ := load(2)
	n := func(d *Data) int { return len(d.Train) + len(d.HeldOut) }
	if n(aug) <= n(plain) || n(aug) > 3*n(plain)+2*40*300 {
		t.Fatalf("augmented %d samples, plain %d", n(aug), n(plain))
	}
	if n(again) != n(aug) {
		t.Errorf("augmenting twice gave %d and %d samples", n(aug), n(again))
	}
	extra := 0
	for fen := range augSeen {
		if !plainSeen[fen] {
			extra++
		}
	}
	if extra == 0 {
		t.Error("augmenting labelled no position outside the games")
	}
	for _, s := range aug.Train {
		if !s.Taught || s.Teacher != 25 {
			t.Fatalf("augmented sample not labelled by the teacher: %+v", s)
		}
	}
}

// TestLoadTeachersInParallel checks that several teachers label every position as
// one teacher does, and that a teacher's failure is Load's error.
func TestLoadTeachersInParallel(t *testing.T) {
	label := func(p rules.Position) (float64, bool, error) {
		fen := p.String()
		return float64(len(fen) + strings.Count(fen, "p")), len(fen)%7 != 0, nil
	}
	load := func(teachers ...TeachFunc) (*Data, error) {
		f, err := os.Open("testdata/gothic-40.pgn")
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		var d Data
		err = Load(context.Background(), f, variants.Registry(), "gothic", Options{SkipPlies: 10, Teachers: teachers}, &d)
		return &d, err
	}
	one, err := load(label)
	if err != nil {
		t.Fatal(err)
	}
	three, err := load(label, label, label)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(one, three) {
		t.Fatal("three teachers labelled the positions otherwise than one")
	}
	taught := 0
	for _, s := range one.Train {
		if s.Taught {
			taught++
		}
	}
	if taught == 0 || taught == len(one.Train) {
		t.Fatalf("%d of %d positions taught; the label skips some", taught, len(one.Train))
	}
	failing := func(rules.Position) (float64, bool, error) { return 0, false, ErrTeacher }
	if _, err := load(label, failing); !errors.Is(err, ErrTeacher) {
		t.Fatalf("a failing teacher: %v, want ErrTeacher", err)
	}
}
