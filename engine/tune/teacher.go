package tune

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/missivechess/missive/engine"
	"github.com/missivechess/missive/rules"
)

// ErrTeacher means the teacher engine did not answer as expected.
var ErrTeacher = errors.New("tune: teacher engine")

// Teacher labels positions with another engine's judgment: a Fairy-Stockfish
// process asked either for its static evaluation (`eval`, its "Total evaluation"
// line, in pawns from White's side) or for the score of a search to a fixed depth
// (`go depth N`, the last score before its best move, from the side to move's).
// Not safe for concurrent use; start one per goroutine.
type Teacher struct {
	cmd     *exec.Cmd
	in      io.WriteCloser
	lines   chan string
	timeout time.Duration
	depth   int // 0: the static evaluation
}

// StartTeacher starts the engine at path (Fairy-Stockfish) for variant (its
// UCI_Variant name); with depth above 0 it labels by a search to that depth
// instead of the static evaluation.
func StartTeacher(ctx context.Context, path, variant string, depth int) (*Teacher, error) {
	cmd := exec.CommandContext(ctx, path)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrTeacher, err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrTeacher, err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("%w: starting %s: %v", ErrTeacher, path, err)
	}
	// An answer (a static evaluation, or a shallow search) comes in milliseconds;
	// the deadline, per line, is generous so that a loaded machine (a match beside
	// the tuner, CI under -race) is not taken for a hung teacher.
	t := &Teacher{cmd: cmd, in: in, lines: make(chan string, 64), timeout: 30 * time.Second, depth: depth}
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
		for sc.Scan() {
			t.lines <- sc.Text()
		}
		close(t.lines)
	}()
	if err := t.send("uci"); err != nil {
		t.Close()
		return nil, err
	}
	if _, err := t.await(func(l string) bool { return l == "uciok" }); err != nil {
		t.Close()
		return nil, err
	}
	if err := t.send("setoption name UCI_Variant value " + variant + "\nisready"); err != nil {
		t.Close()
		return nil, err
	}
	if _, err := t.await(func(l string) bool { return l == "readyok" }); err != nil {
		t.Close()
		return nil, err
	}
	return t, nil
}

func (t *Teacher) send(s string) error {
	if _, err := io.WriteString(t.in, s+"\n"); err != nil {
		return fmt.Errorf("%w: %v", ErrTeacher, err)
	}
	return nil
}

// await returns the first line ok accepts, within the teacher's timeout.
func (t *Teacher) await(ok func(string) bool) (string, error) {
	deadline := time.After(t.timeout)
	for {
		select {
		case l, open := <-t.lines:
			if !open {
				return "", fmt.Errorf("%w: it exited", ErrTeacher)
			}
			if ok(l) {
				return l, nil
			}
		case <-deadline:
			return "", fmt.Errorf("%w: no answer within %v", ErrTeacher, t.timeout)
		}
	}
}

// Eval returns the teacher's evaluation of pos in centipawns from White's side;
// ok is false when it gives none (in check, a position it cannot judge, or, by
// search, a mate, whose score says nothing of the evaluation's terms).
func (t *Teacher) Eval(pos rules.Position) (cp float64, ok bool, err error) {
	if t.depth > 0 {
		return t.searchEval(pos)
	}
	if err := t.send("position fen " + pos.String() + "\neval"); err != nil {
		return 0, false, err
	}
	l, err := t.await(func(l string) bool {
		return strings.HasPrefix(l, "Total evaluation:") || strings.HasPrefix(l, "Final evaluation")
	})
	if err != nil {
		return 0, false, err
	}
	f := strings.Fields(l[strings.Index(l, ":")+1:])
	if len(f) == 0 {
		return 0, false, nil
	}
	v, perr := strconv.ParseFloat(f[0], 64)
	if perr != nil {
		return 0, false, nil // "none (in check)"
	}
	return 100 * v, true, nil
}

// searchEval labels pos by the teacher's search to its depth: the score of the
// last "info" line that has one before "bestmove".
func (t *Teacher) searchEval(pos rules.Position) (float64, bool, error) {
	if err := t.send(fmt.Sprintf("position fen %s\ngo depth %d", pos, t.depth)); err != nil {
		return 0, false, err
	}
	var cp float64
	ok := false
	if _, err := t.await(func(l string) bool {
		if strings.HasPrefix(l, "info ") {
			if v, mate, found := uciScore(l); found {
				cp, ok = v, !mate
			}
		}
		return strings.HasPrefix(l, "bestmove")
	}); err != nil {
		return 0, false, err
	}
	if pos.Turn() == rules.Black {
		cp = -cp
	}
	return cp, ok, nil
}

// uciScore reads the score of a UCI "info" line: centipawns, or mate (then the
// value is the signed distance); found is false when the line has no score.
func uciScore(line string) (v float64, mate, found bool) {
	f := strings.Fields(line)
	for i := 0; i+2 < len(f); i++ {
		if f[i] != "score" {
			continue
		}
		n, err := strconv.Atoi(f[i+2])
		if err != nil || f[i+1] != "cp" && f[i+1] != "mate" {
			return 0, false, false
		}
		return float64(n), f[i+1] == "mate", true
	}
	return 0, false, false
}

// Close ends the teacher's process.
func (t *Teacher) Close() {
	_ = t.send("quit")
	_ = t.in.Close()
	done := make(chan struct{})
	go func() { _ = t.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
		_ = t.cmd.Process.Kill()
		<-done
	}
}

// TeacherCorrelation returns the correlation of the evaluations under w with the
// teacher's over the taught samples (0 when there are fewer than two).
func TeacherCorrelation(samples []Sample, w engine.EvalWeights) float64 {
	var n, sx, sy, sxx, syy, sxy float64
	for i := range samples {
		if !samples[i].Taught {
			continue
		}
		x, y := float64(w.Score(samples[i].Features)), samples[i].Teacher
		n++
		sx, sy, sxx, syy, sxy = sx+x, sy+y, sxx+x*x, syy+y*y, sxy+x*y
	}
	if n < 2 {
		return 0
	}
	vx, vy := sxx/n-(sx/n)*(sx/n), syy/n-(sy/n)*(sy/n)
	if vx <= 0 || vy <= 0 {
		return 0
	}
	return (sxy/n - (sx/n)*(sy/n)) / math.Sqrt(vx*vy)
}

// SearchTeacher labels positions with the score of a search of the built-in
// engine (with the weights it was built with) within fixed limits: the static
// evaluation is then fitted to what the search finds. Not safe for concurrent use.
type SearchTeacher struct {
	ctx context.Context
	eng *engine.Engine
	lim engine.Limits
}

// NewSearchTeacher returns a teacher that searches each position within lim
// (a depth or a node count keeps the labels independent of the machine's load);
// ctx stops its searches.
func NewSearchTeacher(ctx context.Context, lim engine.Limits) *SearchTeacher {
	// A small table: depth-limited searches clear it before each position.
	return &SearchTeacher{ctx: ctx, eng: engine.New(engine.Options{HashBits: 16}), lim: lim}
}

// Eval returns the search's score of pos in centipawns from White's side; ok is
// false for a decided position (the game is over, or the search sees a mate),
// whose score says nothing about the evaluation's terms.
func (t *SearchTeacher) Eval(pos rules.Position) (cp float64, ok bool, err error) {
	res, err := t.eng.Search(t.ctx, pos, t.lim)
	if errors.Is(err, engine.ErrGameOver) {
		return 0, false, nil
	}
	if err == nil {
		err = t.ctx.Err() // a stopped search returns its best so far
	}
	if err != nil {
		return 0, false, fmt.Errorf("%w: searching %s: %w", ErrTeacher, pos, err)
	}
	if res.Score.IsMate() {
		return 0, false, nil
	}
	cp = float64(res.Score)
	if pos.Turn() == rules.Black {
		cp = -cp
	}
	return cp, true, nil
}
