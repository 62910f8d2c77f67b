package uciserver

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/missivechess/missive/engine"
	"github.com/missivechess/missive/rules"
)

// Server is one UCI session over a reader and a writer.
type Server struct {
	reg     *rules.Registry
	out     io.Writer
	mu      sync.Mutex // serialises writes to out
	variant rules.Variant
	pos     rules.Position
	hash    uint
	// contempt is the Contempt option: what a draw costs the engine, in centipawns.
	contempt engine.Score
	cancel   context.CancelFunc
	done     chan struct{}
	// eng is kept between searches so that its transposition table carries over
	// within a game; "ucinewgame" clears the table, a new Hash size drops it.
	eng *engine.Engine
	// searching is the position of the running search, read by its info reports;
	// it is written only while no search runs.
	searching rules.Position
}

// Serve runs a UCI session until "quit", the end of in, or ctx ends.
func Serve(ctx context.Context, reg *rules.Registry, in io.Reader, out io.Writer) error {
	s := &Server{reg: reg, out: out, hash: 20, contempt: engine.DefaultContempt}
	v, err := reg.Lookup("gothic")
	if err != nil {
		return err
	}
	s.setVariant(v)
	lines := make(chan string)
	errc := make(chan error, 1)
	go func() {
		sc := bufio.NewScanner(in)
		sc.Buffer(make([]byte, 64*1024), 1<<20)
		for sc.Scan() {
			select {
			case lines <- sc.Text():
			case <-ctx.Done():
				return
			}
		}
		errc <- sc.Err()
		close(lines)
	}()
	defer s.stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case line, ok := <-lines:
			if !ok {
				return <-errc
			}
			if quit := s.handle(ctx, strings.Fields(line)); quit {
				return nil
			}
		}
	}
}

func (s *Server) printf(format string, args ...any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	fmt.Fprintf(s.out, format+"\n", args...)
}

func (s *Server) setVariant(v rules.Variant) {
	s.variant = v
	s.pos = v.Start(0)
}

// handle runs one command; it reports whether the session ends.
func (s *Server) handle(ctx context.Context, f []string) bool {
	if len(f) == 0 {
		return false
	}
	switch f[0] {
	case "uci":
		s.printf("id name Missive")
		s.printf("id author the Missive authors")
		s.printf("option name UCI_Variant type combo default %s%s", s.variant.Key(), varList(s.reg))
		s.printf("option name Hash type spin default 16 min 1 max 1024")
		s.printf("option name Contempt type spin default %d min %d max %d", engine.DefaultContempt, -maxContempt, maxContempt)
		s.printf("uciok")
	case "isready":
		// The engine's memory is allocated now, before a clock runs: a first
		// search that allocated it took 20 to 50 ms over its movetime.
		s.engine().Ready()
		s.printf("readyok")
	case "ucinewgame":
		s.stop()
		s.pos = s.variant.Start(0)
		if s.eng != nil {
			s.eng.Forget()
		}
	case "setoption":
		s.setOption(f[1:])
	case "position":
		s.stop()
		if err := s.position(f[1:]); err != nil {
			s.printf("info string error: %v", err)
		}
	case "go":
		s.stop()
		s.goSearch(ctx, f[1:])
	case "stop":
		s.stop()
	case "quit":
		return true
	case "d":
		s.printf("info string %s", s.pos.String())
	default:
		s.printf("info string unknown command %q", f[0])
	}
	return false
}

func varList(reg *rules.Registry) string {
	var b strings.Builder
	for _, k := range reg.Keys() {
		b.WriteString(" var " + k)
	}
	return b.String()
}

// maxContempt bounds the Contempt option, in centipawns either way.
const maxContempt = 100

func (s *Server) setOption(f []string) {
	// setoption name <id> [value <x>]
	var name, value []string
	cur := &name
	for _, w := range f {
		switch strings.ToLower(w) {
		case "name":
			cur = &name
			continue
		case "value":
			cur = &value
			continue
		}
		*cur = append(*cur, w)
	}
	n, val := strings.ToLower(strings.Join(name, " ")), strings.Join(value, " ")
	switch n {
	case "uci_variant":
		v, err := s.reg.Lookup(val)
		if err != nil {
			s.printf("info string error: %v", err)
			return
		}
		s.stop()
		s.setVariant(v)
	case "hash":
		mb, err := strconv.Atoi(val)
		if err != nil || mb < 1 {
			s.printf("info string error: Hash takes a size in MB, not %q", val)
			return
		}
		bits := uint(10)
		for (1<<(bits+1))*24 <= mb<<20 && bits < 26 {
			bits++
		}
		s.stop()
		s.hash, s.eng = bits, nil
	case "contempt":
		c, err := strconv.Atoi(val)
		if err != nil || c < -maxContempt || c > maxContempt {
			s.printf("info string error: Contempt takes centipawns from %d to %d, not %q", -maxContempt, maxContempt, val)
			return
		}
		s.contempt = engine.Score(c)
	default:
		s.printf("info string unknown option %q", n)
	}
}

// position handles "startpos|fen <fen...> [moves m1 m2 ...]".
func (s *Server) position(f []string) error {
	if len(f) == 0 {
		return fmt.Errorf("position needs startpos or fen")
	}
	var p rules.Position
	i := 1
	switch f[0] {
	case "startpos":
		p = s.variant.Start(0)
	case "fen":
		for i < len(f) && f[i] != "moves" {
			i++
		}
		var err error
		if p, err = s.variant.ParsePosition(strings.Join(f[1:i], " ")); err != nil {
			return err
		}
	default:
		return fmt.Errorf("position needs startpos or fen, not %q", f[0])
	}
	if i < len(f) && f[i] == "moves" {
		for _, t := range f[i+1:] {
			m, err := p.ParseMove(t)
			if err != nil {
				return fmt.Errorf("move %q: %w", t, err)
			}
			if p, err = p.Play(m); err != nil {
				return fmt.Errorf("move %q: %w", t, err)
			}
		}
	}
	s.pos = p
	return nil
}

// goSearch starts a search in the background; "stop" or a new command ends it.
func (s *Server) goSearch(ctx context.Context, f []string) {
	if _, ok := s.pos.(rules.Simultaneous); ok {
		// Go-Chess's placement: both sides choose in secret at once, which UCI cannot say.
		s.printf("info string %s starts with a placement phase in which both players choose cells in secret at the same time; UCI cannot play it, so send a position of the play phase with position fen", s.pos.Variant().Name())
		s.printf("bestmove (none)")
		return
	}
	var lim engine.Limits
	var clock [2]time.Duration
	var inc [2]time.Duration
	movesToGo := 0
	infinite := false
	num := func(i int) int64 {
		if i+1 < len(f) {
			n, _ := strconv.ParseInt(f[i+1], 10, 64)
			return n
		}
		return 0
	}
	for i := 0; i < len(f); i++ {
		switch f[i] {
		case "depth":
			lim.Depth = int(num(i))
		case "nodes":
			lim.Nodes = num(i)
		case "movetime":
			lim.Time = time.Duration(num(i)) * time.Millisecond
		case "wtime":
			clock[rules.White] = time.Duration(num(i)) * time.Millisecond
		case "btime":
			clock[rules.Black] = time.Duration(num(i)) * time.Millisecond
		case "winc":
			inc[rules.White] = time.Duration(num(i)) * time.Millisecond
		case "binc":
			inc[rules.Black] = time.Duration(num(i)) * time.Millisecond
		case "movestogo":
			movesToGo = int(num(i))
		case "infinite":
			infinite = true
		}
	}
	if us := s.pos.Turn(); lim.Time == 0 && clock[us] > 0 {
		lim.Optimum, lim.Time = clockTime(clock[us], inc[us], movesToGo)
	}
	if lim == (engine.Limits{}) && !infinite {
		lim.Depth = 6
	}
	lim.Contempt = s.contempt
	sctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	s.cancel, s.done = cancel, done
	pos := s.pos
	s.searching = pos
	e := s.engine()
	go func() {
		defer close(done)
		r, err := e.Search(sctx, pos, lim)
		if err != nil {
			s.printf("info string %v", err)
			s.printf("bestmove (none)")
			return
		}
		if infinite {
			<-sctx.Done() // UCI: with "go infinite" the answer waits for "stop"
		}
		s.printf("bestmove %s", pos.UCI(r.Move))
	}()
}

// info prints a UCI info line for a completed iteration of the running search.
func (s *Server) info(i engine.Info) {
	pv := make([]string, 0, len(i.PV))
	q := s.searching
	for _, m := range i.PV {
		pv = append(pv, q.UCI(m))
		if next, err := q.Play(m); err == nil {
			q = next
		}
	}
	nps := int64(0)
	if i.Time > 0 {
		nps = i.Nodes * int64(time.Second) / int64(i.Time)
	}
	s.printf("info depth %d score %s nodes %d nps %d time %d pv %s", i.Depth, i.Score.UCI(), i.Nodes, nps, i.Time.Milliseconds(), strings.Join(pv, " "))
}

// engine returns the server's engine, made with the current hash size when there is none.
func (s *Server) engine() *engine.Engine {
	if s.eng == nil {
		s.eng = engine.New(engine.Options{HashBits: s.hash, Info: s.info})
	}
	return s.eng
}

// stop ends a running search and waits for its bestmove.
func (s *Server) stop() {
	if s.cancel != nil {
		s.cancel()
		<-s.done
		s.cancel, s.done = nil, nil
	}
}

// clockTime returns the time a move aims at and the most it may take, given the
// clock left, the increment and the moves to go (0 when unknown): an even share of
// the clock plus most of the increment, up to four times that when the search is
// unsettled, never more than a third of what is left.
func clockTime(left, inc time.Duration, movesToGo int) (optimum, most time.Duration) {
	n := 30
	if movesToGo > 0 {
		n = movesToGo + 1
	}
	optimum = min(left/time.Duration(n)+inc*3/4, left/3)
	most = max(min(optimum*4, left/3, left-50*time.Millisecond), optimum, time.Millisecond)
	return optimum, most
}
