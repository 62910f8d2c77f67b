package match

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math"
	"strings"
	"sync"

	"github.com/missivechess/missive/rules"
)

// SuiteEntry is one position of a test suite and the moves that solve it.
type SuiteEntry struct {
	ID   string // the entry's id, or "line N" of its file
	Pos  rules.Position
	Best []rules.Move
}

// ReadSuite reads a test suite from r, the text called name, in the manner of
// EPD: a position of v a line, its FEN, then "bm" and the best moves (in any
// spelling the rules read, one legal move each), and optionally an id, each
// operation ended by a semicolon:
//
//	10/p6pp1/6p2p/1pk3P3/5K1P2/2P4P2/1P7P/10 w - - 6 38 bm f4e5; id "g88 ply 74";
//
// Other operations are skipped, as are blank lines and lines that start with #.
// A line without a position, a "bm" or a legal best move is an error naming the
// line, and so is a text without any entry.
func ReadSuite(r io.Reader, v rules.Variant, name string) ([]SuiteEntry, error) {
	var out []SuiteEntry
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		bad := func(format string, args ...any) error {
			return fmt.Errorf("%w: line %d of %s %s", ErrBadConfig, n, name, fmt.Sprintf(format, args...))
		}
		fen, ops, ok := strings.Cut(line, " bm ")
		if !ok {
			return nil, bad(`has no best move: write the position's FEN, then "bm" and the move, as in "... w - - 0 1 bm e2e4;"`)
		}
		pos, err := v.ParsePosition(strings.TrimSpace(fen))
		if err != nil {
			return nil, bad("is not a %s position: %s", v.Name(), rules.SentenceOf(err))
		}
		if o := pos.Outcome(); o.IsOver() {
			return nil, bad("is a finished game (%v)", o)
		}
		e := SuiteEntry{ID: fmt.Sprintf("line %d", n), Pos: pos}
		fields := strings.Split(ops, ";")
		for _, text := range strings.Fields(fields[0]) {
			m, err := pos.ParseMove(text)
			if err == nil {
				_, err = pos.Play(m)
			}
			if err != nil {
				return nil, bad("has a best move %s that is not a legal move there: %s", rules.Echo(text), rules.SentenceOf(err))
			}
			e.Best = append(e.Best, m)
		}
		if len(e.Best) == 0 {
			return nil, bad(`has "bm" without a move`)
		}
		for _, op := range fields[1:] {
			if k, val, _ := strings.Cut(strings.TrimSpace(op), " "); k == "id" {
				e.ID = strings.Trim(strings.TrimSpace(val), `"`)
			}
		}
		out = append(out, e)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("match: reading %s: %w", name, err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: %s holds no entry (a FEN, \"bm\" and the best move a line)", ErrBadConfig, name)
	}
	return out, nil
}

// NewGamer is a player that can forget what it learnt in earlier searches, so
// that each entry of a suite is searched as the start of a new game (an
// external UCI engine hears "ucinewgame" for every new start anyway).
type NewGamer interface {
	NewGame()
}

// NewGame clears the engine's table and histories.
func (b *Builtin) NewGame() { b.Engine.Forget() }

// Suite searches every entry of a test suite with each of several players,
// several entries at once.
type Suite struct {
	Entries []SuiteEntry
	// Jobs is the number of entries searched at once (at least 1); each worker
	// asks its players one after another.
	Jobs int
	// Players returns worker w's own players, in the same order for every worker.
	Players func(w int) ([]Player, error)
	// Progress, when set, is called with the number of entries searched so far
	// after each.
	Progress func(done int)
}

// SuiteResult is what the players of a suite chose: Moves[p][i] is player p's
// move in entry i; Done[i] tells whether entry i was searched by all of them
// (false when the run stopped before it).
type SuiteResult struct {
	Names   []string
	Entries []SuiteEntry
	Moves   [][]rules.Move
	Done    []bool
}

// Run searches the entries and returns the moves chosen. When ctx ends early it
// returns ctx's error with the entries finished so far; a player's error stops
// the run and is returned.
func (s Suite) Run(ctx context.Context) (SuiteResult, error) {
	jobs := min(max(s.Jobs, 1), max(len(s.Entries), 1))
	workers := make([][]Player, jobs)
	for w := range workers {
		ps, err := s.Players(w)
		if err != nil {
			return SuiteResult{}, err
		}
		if w > 0 && len(ps) != len(workers[0]) {
			return SuiteResult{}, fmt.Errorf("%w: worker %d has %d players, worker 0 %d", ErrBadConfig, w, len(ps), len(workers[0]))
		}
		workers[w] = ps
	}
	res := SuiteResult{Entries: s.Entries, Done: make([]bool, len(s.Entries))}
	for _, p := range workers[0] {
		res.Names = append(res.Names, p.Name())
		res.Moves = append(res.Moves, make([]rules.Move, len(s.Entries)))
	}
	var (
		mu      sync.Mutex
		next    int
		done    int
		firstEr error
		wg      sync.WaitGroup
	)
	for _, ps := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				i := next
				next++
				stop := firstEr != nil || i >= len(s.Entries) || ctx.Err() != nil
				mu.Unlock()
				if stop {
					return
				}
				moves := make([]rules.Move, len(ps))
				for p, pl := range ps {
					if ng, ok := pl.(NewGamer); ok {
						ng.NewGame()
					}
					m, err := pl.Move(ctx, s.Entries[i].Pos, nil)
					if err != nil {
						mu.Lock()
						if firstEr == nil && ctx.Err() == nil {
							firstEr = fmt.Errorf("match: %s in %s: %w", pl.Name(), s.Entries[i].ID, err)
						}
						mu.Unlock()
						return
					}
					moves[p] = m
				}
				mu.Lock()
				for p, m := range moves {
					res.Moves[p][i] = m
				}
				res.Done[i] = true
				done++
				if s.Progress != nil {
					s.Progress(done)
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if firstEr != nil {
		return res, firstEr
	}
	return res, ctx.Err()
}

// Found reports whether player p found a best move of entry i.
func (r SuiteResult) Found(p, i int) bool {
	if !r.Done[i] {
		return false
	}
	for _, b := range r.Entries[i].Best {
		if r.Moves[p][i] == b {
			return true
		}
	}
	return false
}

// Count returns how many of the searched entries player p solved, and how many
// entries were searched.
func (r SuiteResult) Count(p int) (found, searched int) {
	for i, ok := range r.Done {
		if ok {
			searched++
			if r.Found(p, i) {
				found++
			}
		}
	}
	return found, searched
}

// Compare counts the searched entries only player p solved and those only q
// solved, and returns McNemar's z for p against q: (onlyP-onlyQ)/√(onlyP+onlyQ),
// 0 when they solved the same entries.
func (r SuiteResult) Compare(p, q int) (onlyP, onlyQ int, z float64) {
	for i := range r.Done {
		fp, fq := r.Found(p, i), r.Found(q, i)
		switch {
		case fp && !fq:
			onlyP++
		case fq && !fp:
			onlyQ++
		}
	}
	if onlyP+onlyQ > 0 {
		z = float64(onlyP-onlyQ) / math.Sqrt(float64(onlyP+onlyQ))
	}
	return onlyP, onlyQ, z
}

// String summarises the run: each player's count, and each later player against
// the first.
func (r SuiteResult) String() string {
	var b strings.Builder
	for p, name := range r.Names {
		found, searched := r.Count(p)
		pct := 0.0
		if searched > 0 {
			pct = 100 * float64(found) / float64(searched)
		}
		fmt.Fprintf(&b, "%s: %d of %d best moves found (%.1f%%)", name, found, searched, pct)
		if p > 0 {
			onlyP, onlyQ, z := r.Compare(p, 0)
			fmt.Fprintf(&b, "; against %s %+d: %d found only by %s, %d only by %s, z %.2f", r.Names[0], onlyP-onlyQ, onlyP, name, onlyQ, r.Names[0], z)
		}
		b.WriteString("\n")
	}
	return strings.TrimSuffix(b.String(), "\n")
}
