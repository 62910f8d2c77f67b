package engine

import (
	"context"
	"math"
	"time"

	"github.com/missivechess/missive/rules"
)

// game is what the search needs from a variant: a mutable board with legal move
// generation, make/unmake, hashing, terminal rules and a static evaluation, all
// from the side to move's point of view. Each search owns its game.
type game interface {
	// moves appends the legal moves; noisy restricts them to the tactical ones
	// (captures, promotions; in Gess moves that remove enemy stones).
	moves(dst []mv, noisy bool) []mv
	make(m mv)
	unmake()
	makeNull()
	hash() uint64
	inCheck() bool
	// terminal scores a position decided before any move is generated (draw rules,
	// Gess's ring rule, the mates of Go-Chess's lone-king tables); ok is false
	// when the game goes on.
	terminal(ply int) (s Score, ok bool)
	// noMoves scores a position without legal moves.
	noMoves(ply int) Score
	evaluate() Score
	// captureScore orders tactical moves (MVV-LVA); 0 means quiet.
	captureScore(m mv) int
	// prune reports whether the tactical move m can be skipped in the quiescence
	// search: it loses material by a simple exchange test, or even its full gain
	// cannot lift stand past alpha.
	prune(m mv, stand, alpha Score) bool
	// canNull reports whether a null move is sound here (see each game).
	canNull() bool
	side() rules.Side
	// histIndex maps m to an index below histSize for the history heuristic.
	histIndex(m mv) int
	toRules(m mv) rules.Move
	fromRules(m rules.Move) (mv, bool)
	// maxMoves is the buffer capacity move generation needs per ply.
	maxMoves() int
	// qDepth bounds the quiescence search (0 for unbounded).
	qDepth() int
	// see reports whether the tactical move m wins at least threshold centipawns in
	// the exchange it starts (static exchange evaluation).
	see(m mv, threshold int) bool
	// pieceTo indexes m by what moves and where, below contSize, for the
	// continuation histories and counter-moves.
	pieceTo(m mv) int
	// victim indexes what the tactical move m takes, below victimSize, for the
	// capture history (0 for nothing).
	victim(m mv) int
	// structureKey hashes what of the position changes slowly (the pawns in
	// chess), for the correction history; ok false where the game has none.
	structureKey() (key uint64, ok bool)
	// identity tells games apart whose histories mean different things: the
	// variant and, in Go-Chess, the blocked cells; keep is false where a search's
	// histories should not carry over to the next search (Gess).
	identity() (id uint64, keep bool)
	// drift adjusts the static evaluation e of the position (a function of the
	// position alone, which the table keeps) by what the position does not show:
	// how long the game has gone without progress (Go-Chess); most games return e.
	drift(e Score) Score
	// forwardPrune reports whether the static evaluation may prune moves unsearched
	// (reverse futility, futility, late-move pruning): in Gess only while no ring
	// of the side to move is threatened, as a check is seen in chess.
	forwardPrune() bool
	// singular reports whether the search tests hash moves for singular
	// extensions (the chess family; in Gess they lost games).
	singular() bool
	// razor reports whether the search razors: drops to the quiescence search
	// near the horizon far below alpha (Gothic and Keltic).
	razor() bool
	// standOnTable reports whether the quiescence search stands pat on the
	// table's bounds where they prove more than the static evaluation (Gothic and
	// Keltic).
	standOnTable() bool
	// nullReduction is the depth a null move saves at depth when the static
	// evaluation is over centipawns above beta.
	nullReduction(depth int, over Score) int
	// bothArmed reports whether each side has a piece besides its king and pawns:
	// outside such positions (a lone king hunted down) the search reduces less.
	bothArmed() bool
}

// histSize bounds histIndex; contSize bounds pieceTo; victimSize bounds victim.
const (
	histSize   = 1 << 18
	contSize   = 1280
	victimSize = 16
)

// maxHistory bounds every history score (the update's gravity keeps it inside).
const maxHistory = 16384

// Limits bound one search; zero fields are unlimited (at least depth 1 is searched).
// Time alone is a fixed time for the move (UCI's movetime), used to the end unless
// the move is forced or a mate is found; with Optimum set, Time is only the hard
// limit and the search stops after an iteration once it has spent Optimum, scaled
// by how settled the best move is.
type Limits struct {
	Depth   int           // iterations of iterative deepening
	Nodes   int64         // nodes visited
	Time    time.Duration // wall-clock time for this move, never exceeded
	Optimum time.Duration // time the search aims to spend (0: all of Time)
	// Contempt is what a draw costs the side to move at the root, in centipawns:
	// above 0 it plays on rather than repeat or trade into a dead draw.
	Contempt Score
}

// DefaultContempt is the contempt of the engine's games: a draw costs it a fifth
// of a pawn. In Go-Chess against ebe9f39 at 50 ms a move (seeds 8888, 8989 and
// 9090, 300 games) 60 scored +104 =169 -27 (+91 Elo, 95% +66 to +117) where 20
// scored +94 =183 -23 (+84, +60 to +108) on the same openings: fewer draws, but
// within the noise. Nor did another value score more in Gothic against the
// stronger Fairy-Stockfish, at 40 ms a move on the same 200 openings (seed
// 10202): 20 scored 32.0%, -100 24.0%, -40 26.5%, 60 20.0% and 100 26.5%;
// valuing draws above an even game drew more games (16 and 14 of 200, where 20
// drew 6) but lost more too.
const DefaultContempt Score = 20

// Result is the outcome of a search.
type Result struct {
	Move  rules.Move
	Score Score // from the side to move's point of view
	Depth int   // last completed iteration
	Nodes int64
	PV    []rules.Move
	Time  time.Duration
}

// Info reports progress after each completed iteration.
type Info struct {
	Depth int
	Score Score
	Nodes int64
	Time  time.Duration
	PV    []rules.Move
}

// searcher is one search: its game, table and ordering state; never shared.
type searcher struct {
	g        game
	tt       *table
	killers  [maxPly + 8][2]mv
	history  [2][]int32
	cont     []int16            // continuation history: [previous pieceTo][pieceTo]
	capHist  [2][]int16         // capture history: [side][pieceTo][victim]
	capBuf   [maxPly + 8][32]mv // the tactical moves tried at each ply, for capture-history maluses
	counter  [2][contSize]mv    // the reply that last refuted a move, by its pieceTo
	moved    [maxPly + 8]int    // pieceTo of the move made at each ply; -1 for a pass
	quietBuf [maxPly + 8][64]mv
	bufs     [][]mv
	scores   [][]int
	nodes    int64
	maxNodes int64
	ctx      context.Context
	deadline time.Time
	stopped  bool
	pv       [maxPly + 8][maxPly + 8]mv
	pvLen    [maxPly + 8]int
	evals    [maxPly + 8]Score // static evaluation by ply; noScore in check
	excluded [maxPly + 8]mv    // the move a singular test leaves out, by ply
	quietAt  [maxPly + 8]bool  // whether the move made at each ply was quiet
	depth    int               // the iteration's depth
	corr     []int32           // correction history: [side][structure key], see corrected
	// corrPieces is the correction history by each side's pieces:
	// [side to move][side][piece key]; pieceKeys is nil where the game has none.
	corrPieces []int32
	pieceKeys  pieceKeyer
	useNull    bool
	pause      func(context.Context) error // see Engine.search; nil for none
	contempt   Score                       // see Limits.Contempt
}

// drawn returns sc, the score of a finished game at ply, with a draw valued by the
// contempt: below 0 for the side to move at the root, above 0 for its opponent.
func (s *searcher) drawn(sc Score, ply int) Score {
	if sc != drawScore || s.contempt == 0 {
		return sc
	}
	if ply%2 == 0 {
		return -s.contempt
	}
	return s.contempt
}

func newSearcher(ctx context.Context, g game, tt *table, mem *searchMem, fresh bool) *searcher {
	s := &searcher{g: g, tt: tt, ctx: ctx, useNull: true}
	mem.prepare(g, fresh)
	s.history, s.cont, s.capHist, s.bufs, s.scores = mem.history, mem.cont, mem.capHist, mem.bufs, mem.scores
	if _, ok := g.structureKey(); ok {
		s.corr = mem.corr
		if pk, ok := g.(pieceKeyer); ok {
			s.corrPieces, s.pieceKeys = mem.corrPieces, pk
		}
	}
	if d, ok := ctx.Deadline(); ok {
		s.deadline = d
	}
	// Go-Chess's exact endings: a table is built within half the search's time.
	if lg, ok := g.(interface{ useLoneKings(loneKings, time.Time) }); ok {
		if mem.loneKings == nil {
			mem.loneKings = make(loneKings)
		}
		var until time.Time
		if !s.deadline.IsZero() {
			now := time.Now()
			until = now.Add(s.deadline.Sub(now) / 2)
		}
		lg.useLoneKings(mem.loneKings, until)
	}
	return s
}

// searchMem is the memory of a search's tables and move buffers, which an engine
// keeps for its next search instead of allocating about 6 MiB each time. The
// histories it keeps are what the previous search of the same game learnt, aged.
type searchMem struct {
	history    [2][]int32
	cont       []int16
	capHist    [2][]int16
	corr       []int32
	corrPieces []int32
	bufs       [][]mv
	scores     [][]int
	pawns      pawnCache
	loneKings  loneKings // exact endings, kept whatever the game
	game       uint64    // identity of the game the tables were learnt in
	learnt     bool      // whether the tables hold anything of game
}

// pawnCacheSize is the number of pawn structures a search keeps (224 KiB).
const pawnCacheSize = 1 << 11

// prepare makes m ready for a search of g: tables allocated, or cleared when fresh
// is set or they were learnt in another game, else aged (the histories halved, so
// that the previous move's lessons order the first iterations but yield to this
// search's); move buffers large enough for g.
func (m *searchMem) prepare(g game, fresh bool) {
	id, keep := g.identity()
	switch {
	case m.cont == nil:
		m.alloc()
	case fresh || !keep || !m.learnt || m.game != id:
		clear(m.history[0])
		clear(m.history[1])
		clear(m.cont)
		clear(m.capHist[0])
		clear(m.capHist[1])
		clear(m.corr)
		clear(m.corrPieces)
		clear(m.pawns)
	default:
		halve(m.history[0])
		halve(m.history[1])
		halve(m.cont)
		halve(m.capHist[0])
		halve(m.capHist[1])
	}
	m.game, m.learnt = id, true
	// The chess family scores pawn structures once each; the cache holds one
	// game's scores, so it is cleared above when the game changes.
	if pg, ok := g.(interface{ usePawnCache(pawnCache) }); ok {
		pg.usePawnCache(m.pawns)
	}
	if n := g.maxMoves(); m.bufs == nil || cap(m.bufs[0]) < n {
		m.bufs = make([][]mv, maxPly+8)
		m.scores = make([][]int, maxPly+8)
		for i := range m.bufs {
			m.bufs[i] = make([]mv, 0, n)
			m.scores[i] = make([]int, n)
		}
	}
}

// alloc allocates m's tables, all cleared, when it has none.
func (m *searchMem) alloc() {
	if m.cont != nil {
		return
	}
	m.history[0] = make([]int32, histSize)
	m.history[1] = make([]int32, histSize)
	m.cont = make([]int16, contSize*contSize)
	m.capHist[0] = make([]int16, contSize*victimSize)
	m.capHist[1] = make([]int16, contSize*victimSize)
	m.corr = make([]int32, 2*corrSize)
	m.corrPieces = make([]int32, 4*corrSize)
	m.pawns = make(pawnCache, pawnCacheSize)
}

// halve ages a history table: every score halved.
func halve[T int16 | int32](h []T) {
	for i := range h {
		h[i] /= 2
	}
}

// poll checks the node budget, the context every 256 nodes, and pause and the
// deadline every 1024.
func (s *searcher) poll() bool {
	if s.stopped {
		return true
	}
	if s.maxNodes > 0 && s.nodes >= s.maxNodes {
		s.stopped = true
		return true
	}
	if s.nodes&255 == 0 {
		if s.pause != nil && s.nodes&1023 == 0 && s.pause(s.ctx) != nil {
			s.stopped = true
		}
		select {
		case <-s.ctx.Done():
			s.stopped = true
		default:
		}
		// The clock is read too, so that the search ends at its deadline even
		// when the context's timer fires late.
		if !s.deadline.IsZero() && s.nodes&1023 == 0 && !time.Now().Before(s.deadline) {
			s.stopped = true
		}
	}
	return s.stopped
}

// order scores the moves at ply: hash move, captures that win their exchange (by
// MVV-LVA), killers, the counter-move, quiet moves by their histories, and
// captures that lose their exchange last. Ordering quiet moves also by the
// threats of cheaper enemy pieces (up when a piece leaves such an attack, down
// when it walks into one, by 20 or 50 times its value; checked against the
// rules' attackers) scored +3 ± 46 Elo at 20, and +19 ± 46 and -28 ± 45 on two
// sets of openings at 50, over 200 Gothic games at 40 ms a move each. Tried
// again with one attack map a node (pieces within a pawn's value of each other
// do not threaten each other; maxHistory up, twice that down): +10 ± 45 and
// +10 ± 46 over two sets of 200 (seeds 3737, 3939), then +7 =4 -89 (9.0%, seed
// 4040) against Fairy-Stockfish at 500 ms. The enemy pawns' threats alone
// scored +2 ± 45; testing every quiet move's exchange (see) in ordering slowed
// the search so much that it scored -109 ± 48.
func (s *searcher) order(moves []mv, ply int, hashMove mv) []int {
	sc := s.scores[ply][:len(moves)]
	g := s.g
	side := g.side()
	p1, p2 := s.prevMoved(ply, 1), s.prevMoved(ply, 2)
	var counter mv
	if p1 >= 0 {
		counter = s.counter[side][p1]
	}
	for i, m := range moves {
		switch {
		case m == hashMove:
			sc[i] = 1 << 30
		default:
			if c := g.captureScore(m); c > 0 {
				c += int(*s.capSlot(m, side)) / capOrder
				if g.see(m, 0) {
					sc[i] = 1<<28 + c
				} else {
					sc[i] = -1<<24 + c
				}
			} else if m == s.killers[ply][0] {
				sc[i] = 1<<27 + 1
			} else if m == s.killers[ply][1] {
				sc[i] = 1 << 27
			} else if m == counter {
				sc[i] = 1 << 26
			} else {
				sc[i] = s.quietScore(m, side, p1, p2)
			}
		}
	}
	return sc
}

// orderTactical scores the tactical moves of the quiescence search by MVV-LVA
// (and quiet evasions by their history). Adding the capture history, as order
// does, found 21 more of the 1,415 best moves of scripts/testdata/gothic-suite.epd
// at 250,000 nodes (83 only with it, 62 only without, z 1.74), but scored +0 ± 45
// Elo over 200 Gothic games at 40 ms a move and +9 =5 -86 (11.5%, seed 9999)
// against Fairy-Stockfish at 500 ms.
func (s *searcher) orderTactical(moves []mv, ply int) []int {
	sc := s.scores[ply][:len(moves)]
	side := s.g.side()
	for i, m := range moves {
		if c := s.g.captureScore(m); c > 0 {
			sc[i] = 1<<28 + c
		} else {
			sc[i] = int(s.history[side][s.g.histIndex(m)])
		}
	}
	return sc
}

// capSlot returns the capture history of the tactical move m by side.
func (s *searcher) capSlot(m mv, side rules.Side) *int16 {
	return &s.capHist[side][s.g.pieceTo(m)*victimSize+s.g.victim(m)]
}

// capOrder divides the capture history where it adds to MVV-LVA (a pawn taken
// is worth about 1000 there): at most two pawns' worth either way.
const capOrder = 8

// rewardCapture credits the tactical move m that caused a cutoff at depth (when
// it is not 0) and debits the tactical moves tried before it.
func (s *searcher) rewardCapture(m mv, depth int, tried []mv) {
	side := s.g.side()
	bonus := statBonus(depth)
	if m != 0 {
		h := s.capSlot(m, side)
		*h = int16(gravity(int(*h), bonus))
	}
	for _, q := range tried {
		if q != m {
			h := s.capSlot(q, side)
			*h = int16(gravity(int(*h), -bonus))
		}
	}
}

// prevMoved returns the pieceTo of the move made back plies before ply, or -1.
func (s *searcher) prevMoved(ply, back int) int {
	if ply < back {
		return -1
	}
	return s.moved[ply-back]
}

// quietScore is a quiet move's history: its own and its continuations after the
// last two moves. Adding the continuation after the move four plies back (in the
// same table, read and taught alike) scored -47 ± 45 Elo over 200 Gothic games at
// 40 ms a move. Adding a history by pawn structure and side (512 structures by
// their hash, read and taught alike, as Stockfish's pawn history) found 3 more of
// the 1,415 best moves of scripts/testdata/gothic-suite.epd at 250,000 nodes (82
// found only with it, 79 only without, z 0.24).
func (s *searcher) quietScore(m mv, side rules.Side, p1, p2 int) int {
	pt := s.g.pieceTo(m)
	v := int(s.history[side][s.g.histIndex(m)])
	if p1 >= 0 {
		v += int(s.cont[p1*contSize+pt])
	}
	if p2 >= 0 {
		v += int(s.cont[p2*contSize+pt])
	}
	return v
}

// statBonus is the history bonus for a cutoff at depth.
func statBonus(depth int) int { return min(32*depth*depth+64*depth, 2000) }

// gravity adds bonus to a history value, damped so that it stays within maxHistory.
func gravity(v, bonus int) int { return v + bonus - v*abs(bonus)/maxHistory }

// rewardQuiet credits the quiet move m that caused a cutoff at ply and debits the
// quiet moves tried before it; a node that fails low credits the quiet move that
// led to it, at the end of negamax. That credit alone scored +26 ± 44, +5 ± 46,
// +9 ± 46 and +9 ± 46 Elo over four sets of 200 Gothic games at 40 ms a move
// (+364 =100 -336 of 800, +12 ± 23), which did not show a gain by itself; it
// came in with the late captures' reductions and the root's (see lmrTable),
// which together scored +20 over 800 games.
func (s *searcher) rewardQuiet(m mv, ply, depth int, tried []mv) {
	g := s.g
	side := g.side()
	bonus := statBonus(depth)
	if s.killers[ply][0] != m {
		s.killers[ply][1] = s.killers[ply][0]
		s.killers[ply][0] = m
	}
	p1, p2 := s.prevMoved(ply, 1), s.prevMoved(ply, 2)
	if p1 >= 0 {
		s.counter[side][p1] = m
	}
	s.updateQuiet(m, side, p1, p2, bonus)
	for _, q := range tried {
		if q != m {
			s.updateQuiet(q, side, p1, p2, -bonus)
		}
	}
}

func (s *searcher) updateQuiet(m mv, side rules.Side, p1, p2, bonus int) {
	h := &s.history[side][s.g.histIndex(m)]
	*h = int32(gravity(int(*h), bonus))
	s.updateCont(s.g.pieceTo(m), p1, p2, bonus)
}

// updateCont adds bonus to the continuation histories of a move whose pieceTo is
// pt after the moves whose pieceTo are p1 and p2 (-1 for none).
func (s *searcher) updateCont(pt, p1, p2, bonus int) {
	for _, p := range [2]int{p1, p2} {
		if p >= 0 {
			c := &s.cont[p*contSize+pt]
			*c = int16(gravity(int(*c), bonus))
		}
	}
}

// pick moves the best-scored remaining move to position i (selection sort step).
func pick(moves []mv, sc []int, i int) {
	best := i
	for j := i + 1; j < len(moves); j++ {
		if sc[j] > sc[best] {
			best = j
		}
	}
	moves[i], moves[best] = moves[best], moves[i]
	sc[i], sc[best] = sc[best], sc[i]
}

// negamax searches a node of the tree to depth. cutNode marks a node of a null
// window that is expected to fail high: the first child of a cut node is not one,
// that of any other non-PV node is, and so is a late move's reduced search (its
// full-depth re-search is the parent's opposite). While both sides have pieces,
// late moves at a cut node are reduced two plies more.
func (s *searcher) negamax(depth, ply int, alpha, beta Score, nullOK, cutNode bool) Score {
	s.pvLen[ply] = ply
	s.nodes++
	if s.poll() {
		return 0
	}
	g := s.g
	if ply > 0 {
		if sc, ok := g.terminal(ply); ok {
			return s.drawn(sc, ply)
		}
		// Mate-distance pruning.
		alpha = max(alpha, -MateScore+Score(ply))
		beta = min(beta, MateScore-Score(ply+1))
		if alpha >= beta {
			return alpha
		}
	}
	inCheck := g.inCheck()
	// Check extension. Extending instead only the checks that do not lose their
	// exchange (in the parent) scored +3 ± 45 Elo over 200 Gothic games at 40 ms.
	// Extending also a capture of a piece that leaves at most two rooks' worth of
	// pieces on the board (Stockfish 11's last captures) scored +9 ± 45 (seed 5555).
	if inCheck && ply < maxPly/2 {
		depth++
	}
	if depth <= 0 || ply >= maxPly {
		return s.quiesce(ply, alpha, beta, 0)
	}
	pvNode := beta-alpha > 1
	key := g.hash()
	// A singular test searches the node again without its hash move: the table
	// speaks of the whole node, so it gives only the static evaluation then.
	excluded := s.excluded[ply]
	var hashMove mv
	rawEval, known := noScore, false
	tte, ttHit := s.tt.probe(key)
	if ttHit {
		if excluded == 0 {
			hashMove = tte.move
			if !pvNode && int(tte.depth) >= depth && ply > 0 {
				if sc, ok := tte.cut(ply, alpha, beta); ok {
					return sc
				}
			}
		}
		rawEval, known = tte.staticEval()
	}
	staticEval := noScore
	var corr corrEntries // found once: corrected now, taught at the end
	if !inCheck {
		if !known {
			rawEval = g.evaluate()
		}
		corr = s.corrSlots()
		staticEval = corr.corrected(g.drift(rawEval))
	} else {
		rawEval = noScore
	}
	s.evals[ply] = staticEval
	s.killers[ply+1] = [2]mv{}
	// Improving: the static evaluation rose since our previous move.
	improving := !inCheck && ply >= 2 && (staticEval > s.evals[ply-2] || s.evals[ply-2] == noScore)
	prune := !pvNode && !inCheck && g.forwardPrune() && abs(beta) < mateBound
	// Reverse futility pruning: near the horizon, a static evaluation that beats
	// beta by a margin per ply is trusted to hold.
	if prune && excluded == 0 && depth <= rfpDepth && abs(beta) < rfpDecided {
		margin := Score(rfpMargin * depth)
		if improving {
			margin -= rfpMargin / 2
		}
		if staticEval-margin >= beta {
			return staticEval
		}
	}
	// Razoring: near the horizon, a static evaluation far below alpha is checked
	// by the quiescence search alone, and trusted when that stays below alpha too.
	if prune && excluded == 0 && depth <= razorDepth && g.razor() && staticEval+Score(razorMargin*depth) < alpha {
		v := s.quiesce(ply, alpha-1, alpha, 0)
		if s.stopped {
			return 0
		}
		if v < alpha {
			return v
		}
	}
	// Null-move pruning: skip a turn and see whether the opponent still cannot reach
	// beta; the further the evaluation is above beta, the shallower the test.
	if s.useNull && nullOK && excluded == 0 && !pvNode && !inCheck && depth >= 3 && g.canNull() && staticEval >= beta && abs(beta) < mateBound {
		r := g.nullReduction(depth, staticEval-beta)
		s.moved[ply], s.quietAt[ply] = -1, false
		g.makeNull()
		sc := -s.negamax(depth-1-r, ply+1, -beta, -beta+1, false, !cutNode)
		g.unmake()
		if s.stopped {
			return 0
		}
		if sc >= beta {
			if sc >= mateBound {
				sc = beta
			}
			return sc
		}
	}
	// ProbCut: a capture whose shallow search beats beta by a margin would very
	// likely beat beta at full depth too; a quiescence search screens each
	// capture first, and the table is trusted when it says the margin fails.
	if prune && excluded == 0 && depth >= probCutDepth {
		pcBeta := beta + Score(probCutMargin)
		if improving {
			pcBeta -= probCutMargin / 4
		}
		if !(ttHit && int(tte.depth) >= depth-3 && fromTT(Score(tte.score), ply) < pcBeta && tte.bound != boundLower) {
			caps := g.moves(s.bufs[ply][:0], true)
			csc := s.orderTactical(caps, ply)
			for i := range caps {
				pick(caps, csc, i)
				m := caps[i]
				if g.captureScore(m) == 0 || !g.see(m, int(pcBeta-staticEval)) {
					continue
				}
				s.moved[ply], s.quietAt[ply] = g.pieceTo(m), false
				g.make(m)
				v := -s.quiesce(ply+1, -pcBeta, -pcBeta+1, 0)
				if v >= pcBeta {
					v = -s.negamax(depth-probCutReduction, ply+1, -pcBeta, -pcBeta+1, true, !cutNode)
				}
				g.unmake()
				if s.stopped {
					return 0
				}
				if v >= pcBeta {
					s.tt.store(key, m, v, depth-probCutReduction+1, boundLower, ply, rawEval)
					return v
				}
			}
		}
	}
	// Internal iterative reduction: a node without a hash move is likely new and
	// not worth its full depth.
	if hashMove == 0 && depth >= iirDepth && excluded == 0 {
		depth--
	}
	// Singular extension: when the table says the hash move holds beta by itself,
	// search the node without it to a lower bound a little under its score; if
	// every other move falls short, the hash move is extended a ply, and if that
	// bound is above beta too, the node is cut at once (multi-cut).
	ext := 0
	if ply > 0 && ply < 2*s.depth && depth >= seDepth && hashMove != 0 && g.singular() &&
		(tte.bound == boundLower || tte.bound == boundExact) && int(tte.depth) >= depth-3 {
		if ttScore := fromTT(Score(tte.score), ply); abs(ttScore) < mateBound {
			sBeta := ttScore - Score(seMargin*depth)
			s.excluded[ply] = hashMove
			v := s.negamax((depth-1)/2, ply, sBeta-1, sBeta, false, cutNode)
			s.excluded[ply] = 0
			if s.stopped {
				return 0
			}
			if v < sBeta {
				ext = 1
			} else if sBeta >= beta {
				return sBeta
			}
		}
	}
	moves := g.moves(s.bufs[ply][:0], false)
	if len(moves) == 0 {
		return s.drawn(g.noMoves(ply), ply)
	}
	sc := s.order(moves, ply, hashMove)
	best, bestMove := noScore, mv(0)
	origAlpha := alpha
	side := g.side()
	quiets := 0
	tried := s.quietBuf[ply][:0]
	triedCaps := s.capBuf[ply][:0]
	p1, p2 := s.prevMoved(ply, 1), s.prevMoved(ply, 2)
	// Futility: near the horizon, quiet moves that give no check cannot lift a
	// static evaluation this far below alpha.
	futile := prune && depth <= futilityDepth && staticEval+Score(futilityMargin*(depth+1)) <= alpha
	lmpCount := 3 + depth*depth
	if !improving {
		lmpCount /= 2
	}
	armed := depth >= 3 && g.bothArmed() // the steeper reductions (from depth 3)
	for i := range moves {
		pick(moves, sc, i)
		m := moves[i]
		if m == excluded {
			continue
		}
		quiet := g.captureScore(m) == 0
		var stat int
		// A move may be pruned at a node that allows it once an earlier move has
		// scored better than being mated.
		mayPrune := prune && i > 0 && best > -mateBound
		// Near the horizon a quiet move is skipped, unless it gives check, when it
		// comes this late (late-move pruning), its histories are bad (history
		// pruning) or it loses its exchange (see quietSeeMargin).
		late := false
		if quiet {
			quiets++
			stat = s.quietScore(m, side, p1, p2)
			late = mayPrune && (depth <= lmpDepth && quiets > lmpCount ||
				depth <= histPruneDepth && stat < -histPruneMargin*depth ||
				depth <= quietSeeDepth && !g.see(m, -quietSeeMargin*depth*depth))
		} else if mayPrune && depth <= seeDepth && sc[i] < 0 && !g.see(m, -seeMargin*depth) {
			// A capture that loses too much in its exchange near the horizon.
			continue
		}
		s.moved[ply], s.quietAt[ply] = g.pieceTo(m), quiet
		g.make(m)
		if (late || futile && quiet && mayPrune) && !g.inCheck() {
			g.unmake()
			continue
		}
		var v Score
		if i == 0 {
			if m != hashMove {
				ext = 0 // the extension is the hash move's alone
			}
			v = -s.negamax(depth-1+ext, ply+1, -beta, -alpha, true, !pvNode && !cutNode)
		} else {
			// Late-move reduction for quiet moves searched late: logarithmic in depth
			// and move number (steeper, and more at cut nodes, while both sides have
			// pieces), less at PV nodes, for moves with good histories and when
			// improving, never into the quiescence search.
			red := 0
			// A late capture is reduced at a cut node, or when the static
			// evaluation plus a tenth of the move's ordering score stays at or
			// below alpha. That score is read after the move is made, so it is
			// about the capturing piece's value, not the taken piece's that
			// Stockfish 11 adds. The taken piece's, read before the move, scored
			// -19 ± 32 Elo against this over 400 Gothic games at 40 ms a move
			// (+161 =56 -183, seed 7272). In Gess the ordering score counts
			// stones, so there the test is all but whether the evaluation is at
			// or below alpha.
			if depth >= 3 && i >= 3 && !inCheck && m != s.killers[ply][0] && m != s.killers[ply][1] &&
				(quiet || cutNode || staticEval+Score(g.captureScore(m)/10) <= alpha) {
				if armed {
					red = int(lmrSteep[min(depth, 63)][min(i, 63)])
					if cutNode {
						red += 2
					}
				} else {
					red = int(lmrTable[min(depth, 63)][min(i, 63)])
				}
				// Reducing a ply less also where the table says the node has been
				// on the principal variation (Stockfish 11's ttPv, a flag kept in
				// each entry) scored +2 ± 31 Elo over 400 Gothic games at 40 ms a
				// move (+171 =60 -169, seed 7474), for 36% more nodes in
				// BenchmarkGothicSearch.
				if pvNode {
					red--
				}
				if !improving {
					red++
				}
				red -= min(max(stat/lmrHistory, -2), 2)
				if g.inCheck() {
					red--
				}
				red = min(max(red, 0), depth-2)
			}
			v = -s.negamax(depth-1-red, ply+1, -alpha-1, -alpha, true, true)
			if v > alpha && red > 0 {
				v = -s.negamax(depth-1, ply+1, -alpha-1, -alpha, true, !cutNode)
			}
			if v > alpha && v < beta {
				v = -s.negamax(depth-1, ply+1, -beta, -alpha, true, false)
			}
		}
		g.unmake()
		if s.stopped {
			return 0
		}
		if v > best {
			best, bestMove = v, m
			if v > alpha {
				alpha = v
				s.pv[ply][ply] = m
				copy(s.pv[ply][ply+1:], s.pv[ply+1][ply+1:s.pvLen[ply+1]])
				s.pvLen[ply] = s.pvLen[ply+1]
				if v >= beta {
					if quiet {
						s.rewardQuiet(m, ply, depth, tried)
						s.rewardCapture(0, depth, triedCaps)
					} else {
						s.rewardCapture(m, depth, triedCaps)
					}
					break
				}
			}
		}
		if quiet && len(tried) < cap(tried) {
			tried = append(tried, m)
		} else if !quiet && len(triedCaps) < cap(triedCaps) {
			triedCaps = append(triedCaps, m)
		}
	}
	if excluded != 0 {
		// A singular test leaves the table and the correction history alone; a
		// node whose only move is the excluded one fails it low.
		return max(best, alpha)
	}
	// A fail high is stored and returned as searched: pulling it towards beta off
	// the principal variation, (best·depth+beta)/(depth+1) as Stockfish does,
	// scored -10 ± 46 Elo over 200 Gothic games at 40 ms a move (seed 4444).
	bound := boundUpper
	switch {
	case best >= beta:
		bound = boundLower
	case best > origAlpha:
		bound = boundExact
	}
	if !inCheck && (bestMove == 0 || g.captureScore(bestMove) == 0) &&
		!(bound == boundLower && best <= staticEval) && !(bound == boundUpper && best >= staticEval) {
		corr.correct(best-staticEval, depth)
	}
	// A fail low credits the quiet move that led here in its continuation
	// histories: no reply reached alpha (see rewardQuiet for what it scored).
	if bound == boundUpper && ply >= 1 && s.quietAt[ply-1] && (depth >= 3 || pvNode) {
		s.updateCont(s.moved[ply-1], s.prevMoved(ply-1, 1), s.prevMoved(ply-1, 2), statBonus(depth))
	}
	s.tt.store(key, bestMove, best, depth, bound, ply, rawEval)
	return best
}

// The correction histories learn, per side to move and pawn structure (and in the
// chess family per side to move and where each side's other pieces stand), how
// far the searches of quiet positions end from their static evaluations, and move
// later static evaluations of the same structure by that much: the pawns' in
// full, the pieces' by half each (in 1/corrGrain centipawns, each entry at most
// corrLimit centipawns). The pieces' histories scored +30 ± 45 and +19 ± 46 Elo
// over two sets of 200 Gothic games at 40 ms a move (+192 =44 -164 of 400); a
// fourth, keyed by the last two moves, scored +28 ± 45 on the first set, no more.
const (
	corrSize  = 1 << 14
	corrGrain = 256
	corrLimit = 64
)

// corrEntries are the correction-history entries of one position: the pawn
// structure's, and where the game has them each side's pieces'; n is how many.
type corrEntries struct {
	c [3]*int32
	n int
}

// corrSlots returns the correction-history entries of the position.
func (s *searcher) corrSlots() (ce corrEntries) {
	if s.corr == nil {
		return ce
	}
	side := int(s.g.side())
	k, _ := s.g.structureKey()
	ce.c[0], ce.n = &s.corr[side*corrSize+int(k%corrSize)], 1
	if s.pieceKeys == nil {
		return ce
	}
	w, b := s.pieceKeys.pieceKeys()
	ce.c[1] = &s.corrPieces[(side*2)*corrSize+int(w%corrSize)]
	ce.c[2] = &s.corrPieces[(side*2+1)*corrSize+int(b%corrSize)]
	ce.n = 3
	return ce
}

// corrected returns the static evaluation e moved by the correction histories.
func (ce corrEntries) corrected(e Score) Score {
	if ce.n == 0 || abs(e) >= mateBound {
		return e
	}
	sum := *ce.c[0]
	if ce.n == 3 {
		sum += (*ce.c[1] + *ce.c[2]) / 2
	}
	return min(max(e+Score(sum/corrGrain), -mateBound+1), mateBound-1)
}

// correct moves the corrections of the position towards diff, the more the
// deeper the search that found it.
func (ce corrEntries) correct(diff Score, depth int) {
	if ce.n == 0 || abs(diff) >= mateBound/2 {
		return
	}
	w := int32(min(depth*depth+2*depth+1, 128))
	for _, c := range ce.c[:ce.n] {
		v := (*c*(256-w) + int32(diff)*corrGrain*w) / 256
		*c = min(max(v, -corrLimit*corrGrain), corrLimit*corrGrain)
	}
}

// pieceKeyer is a game whose pieces besides the pawns key correction histories
// of their own, one per side.
type pieceKeyer interface {
	// pieceKeys hashes where White's and Black's pieces other than pawns stand.
	pieceKeys() (white, black uint64)
}

// quiesce searches tactical moves until the position is quiet.
func (s *searcher) quiesce(ply int, alpha, beta Score, qply int) Score {
	s.pvLen[ply] = ply
	s.nodes++
	if s.poll() {
		return 0
	}
	g := s.g
	if sc, ok := g.terminal(ply); ok {
		return s.drawn(sc, ply)
	}
	key := g.hash()
	pvNode := beta-alpha > 1
	var hashMove mv
	rawEval, known := noScore, false
	tte, ttHit := s.tt.probe(key)
	if ttHit {
		hashMove = tte.move
		if !pvNode {
			if sc, ok := tte.cut(ply, alpha, beta); ok {
				return sc
			}
		}
		rawEval, known = tte.staticEval()
	}
	origAlpha := alpha
	// In check (near the horizon) the evasions are searched so that mates are seen,
	// without a stand-pat score (losing quiet ones skipped once one holds, below);
	// otherwise only captures and promotions, after it.
	// Quiet checks too at the first ply (those that do not lose their exchange)
	// scored -19 ± 45 Elo over 200 Gothic games at 40 ms a move.
	var moves []mv
	var stand Score
	best, standPat := noScore, false
	if g.inCheck() && qply < 4 && ply < maxPly {
		moves = g.moves(s.bufs[ply][:0], false)
		if len(moves) == 0 {
			return s.drawn(g.noMoves(ply), ply)
		}
	} else {
		if !known {
			rawEval = g.evaluate()
		}
		stand = s.corrSlots().corrected(g.drift(rawEval))
		// A bound in the table proves more than the static evaluation guesses.
		if ttHit && g.standOnTable() {
			stand = tte.refine(stand, ply)
		}
		// Standing pat above beta returns the evaluation itself: returning it
		// averaged with beta off the principal variation (as Stockfish does)
		// scored -17 ± 44 Elo over 200 Gothic games at 40 ms a move (seed 4242).
		if stand >= beta || ply >= maxPly {
			return stand
		}
		if qd := g.qDepth(); qd > 0 && qply >= qd {
			return stand
		}
		alpha = max(alpha, stand)
		moves = g.moves(s.bufs[ply][:0], true)
		best, standPat = stand, true
	}
	sc := s.orderTactical(moves, ply)
	for i, m := range moves {
		if m == hashMove {
			sc[i] = 1 << 30
		}
	}
	var bestMove mv
	for i := range moves {
		pick(moves, sc, i)
		if standPat && g.prune(moves[i], stand, alpha) {
			continue
		}
		// In check, once an evasion has scored better than being mated, a quiet
		// evasion that loses its exchange is skipped (Stockfish 11's prunable
		// evasions): +28 ± 45 and +21 ± 44 Elo over two sets of 200 Gothic games at
		// 40 ms a move (seeds 10707, 10808; +184 =60 -156 of 400), and +14 =5 -81
		// (16.5%, seed 10909) against Fairy-Stockfish at 500 ms.
		if !standPat && best > -mateBound && g.captureScore(moves[i]) == 0 && !g.see(moves[i], 0) {
			continue
		}
		s.moved[ply] = g.pieceTo(moves[i])
		g.make(moves[i])
		v := -s.quiesce(ply+1, -beta, -alpha, qply+1)
		g.unmake()
		if s.stopped {
			return 0
		}
		if v > best {
			best, bestMove = v, moves[i]
			if v > alpha {
				alpha = v
				if v >= beta {
					break
				}
			}
		}
	}
	bound := boundUpper
	switch {
	case best >= beta:
		bound = boundLower
	case best > origAlpha && !standPat:
		bound = boundExact
	}
	s.tt.store(key, bestMove, best, 0, bound, ply, rawEval)
	return best
}

// rootResult is the state of iterative deepening after an iteration.
type rootResult struct {
	move  mv
	score Score
	depth int
	pv    []mv
}

// iterate runs iterative deepening up to lim and reports each completed iteration.
func (s *searcher) iterate(lim Limits, noise func(rootMoves []mv, scores []Score) int, info func(Info)) (rootResult, error) {
	start := time.Now()
	g := s.g
	rootMoves := g.moves(make([]mv, 0, g.maxMoves()), false)
	if len(rootMoves) == 0 {
		return rootResult{}, errNoMoves
	}
	s.maxNodes = lim.Nodes
	s.contempt = lim.Contempt
	maxDepth := lim.Depth
	if maxDepth <= 0 {
		maxDepth = maxPly - 8
	}
	res := rootResult{move: rootMoves[0], score: noScore}
	rootScores := make([]Score, len(rootMoves))
	tm := timeManager{optimum: lim.Optimum}
	for depth := 1; depth <= maxDepth; depth++ {
		s.depth = depth
		// Order root moves: previous best first, then by last iteration's scores.
		if depth > 1 {
			sortRoot(rootMoves, rootScores, res.move)
		} else {
			sc := s.order(rootMoves, 0, 0)
			for i := range rootMoves {
				pick(rootMoves, sc, i)
			}
		}
		wantAll := noise != nil
		// Aspiration window: from depth 4 search a narrow window around the last
		// score, widening it on the side that fails until the score falls inside.
		lo, hi := -infinity, infinity
		delta := Score(aspiration)
		if aspiration > 0 && depth >= 4 && !wantAll && !res.score.IsMate() && res.score != noScore {
			lo, hi = max(res.score-delta, -infinity), min(res.score+delta, infinity)
		}
		var best Score
		var bestMove mv
		for {
			best, bestMove = s.searchRoot(rootMoves, rootScores, depth, lo, hi, wantAll)
			if s.stopped {
				break
			}
			failLow := best <= lo && lo > -infinity
			failHigh := best >= hi && hi < infinity
			if !failLow && !failHigh {
				break
			}
			delta += delta / 2
			if failLow {
				hi = (lo + hi) / 2
				lo = max(best-delta, -infinity)
			} else {
				hi = min(best+delta, infinity)
				// The move that failed high goes first in the re-search.
				sortRoot(rootMoves, rootScores, bestMove)
			}
			if delta > 500 {
				lo, hi = -infinity, infinity
			}
		}
		if s.stopped {
			// A move that beat the previous best in the unfinished iteration is kept.
			if bestMove != 0 && res.score != noScore && bestMove != res.move && best > res.score {
				res.move, res.score = bestMove, best
				res.pv = append(res.pv[:0], s.pv[0][:s.pvLen[0]]...)
			}
			break
		}
		res = rootResult{move: bestMove, score: best, depth: depth, pv: append([]mv(nil), s.pv[0][:s.pvLen[0]]...)}
		if wantAll {
			res.move = rootMoves[noise(rootMoves, rootScores)]
		}
		s.tt.store(g.hash(), bestMove, best, depth, boundExact, 0, noScore)
		if info != nil {
			info(Info{Depth: depth, Score: best, Nodes: s.nodes, Time: time.Since(start), PV: s.rulesPV(res.pv)})
		}
		if best.IsMate() && depth > 2*int(MateScore-abs(best)) {
			break
		}
		// A forced move is played at once when time is the limit.
		if len(rootMoves) == 1 && (depth >= 2 || lim.Time > 0 || lim.Optimum > 0) {
			break
		}
		if lim.Optimum > 0 && tm.stop(depth, res.move, best, time.Since(start)) {
			break
		}
	}
	if res.score == noScore {
		res.score = 0
	}
	return res, nil
}

// Reverse futility pruning applies up to rfpDepth plies from the horizon, with
// a margin of rfpMargin centipawns a ply. Reverse futility, razoring, null-move
// and futility pruning all read the static evaluation: reading it refined by the
// table's bound (an exact score too), as the quiescence search stands pat, scored
// +2 ± 45 Elo over 200 Gothic games at 40 ms a move.
const (
	rfpDepth  = 6
	rfpMargin = 80
	// Nor where beta is already decided: there the mate matters, and a queen
	// giving checks lifts the static evaluation past any margin.
	rfpDecided = 1000
)

// Razoring drops to the quiescence search up to razorDepth plies from the
// horizon when the static evaluation is razorMargin centipawns a ply below alpha.
const (
	razorDepth  = 3
	razorMargin = 250
)

// Futility pruning skips quiet moves up to futilityDepth plies from the horizon
// when the static evaluation plus futilityMargin a ply (and one more) stays
// below alpha; late-move pruning skips quiet moves after 3+depth² of them (half
// as many when not improving) up to lmpDepth plies from it. Late-move pruning up
// to 8 plies scored -9 ± 45 Elo against 5 (200 Gothic games at 40 ms a move).
// Judging futility by the depth a quiet move's late-move reduction would leave
// it (pruning late moves further from the horizon, with a smaller margin) scored
// -26 ± 46 over 200 games. Judging futility and the quiet moves' exchange test
// that way (Stockfish's lmrDepth; 15% fewer nodes to depth 15 after 1.e4 e5
// 2.Nh3) scored +19 ± 45 on another 200 (seed 1717), then against
// Fairy-Stockfish at 500 ms a move +13 =3 -84 (seed 1818) and +7 =6 -87 (seed
// 1919): 12.3% of 200 games, where the current engine pools at 13.3% of 1,000.
const (
	futilityDepth  = 4
	futilityMargin = 100
	lmpDepth       = 5
)

// History pruning skips quiet moves, up to histPruneDepth plies from the horizon,
// whose histories (their own and their continuations) are below -histPruneMargin
// a ply.
const (
	histPruneDepth  = 3
	histPruneMargin = 4000
)

// Quiet moves that lose more than quietSeeMargin centipawns times the square of
// the depth in the exchange on their target cell are skipped up to quietSeeDepth
// plies from the horizon.
const (
	quietSeeDepth  = 6
	quietSeeMargin = 25
)

// lmrTable is the late-move reduction by depth and move number,
// 0.5 + ln(depth)·ln(move)/2 plies; lmrSteep, 0.5 + 0.6·ln(depth)·ln(move), is
// used while both sides have pieces (see bothArmed). Tried and dropped, each over
// 200 Gothic games at 40 ms a move: reducing captures that lose their exchange
// too (-2 ± 45 Elo), reducing from the third move instead of the fourth (-7 ± 45),
// reducing a ply less at nodes once on the principal variation, by a flag in the
// table (-24 ± 45), a ply more where the hash move is a capture (-12 ± 44), a
// ply more where more than three replies so far have cut off at the next ply
// (-9 ± 46), and a ply less where the move before was tried after more than 14
// others at its node (-10 ± 46). Giving a node reached by a reduction of three
// plies or more a ply back when the opponent's static evaluation did not worsen,
// and taking one more from a reduced node when both sides' evaluations sum past
// 180 (Stockfish's hindsight adjustment), found 6 fewer of the suite positions
// below (65 only with it, 71 only without, z -0.51). Steeper tables (0.6 and
// 0.75 for 0.5 and 0.6) with singular tests from depth 6 and internal iterative
// reduction from depth 4 found Fairy-Stockfish's best move in 26 more of 1,415
// positions of a 500 ms match (its search to depth 13, the move at least 100
// centipawns above the next; ours at 250,000 nodes: 105 found only by them, 79
// only without, z 1.9; each alone +14, +17 and +15; half the nodes -33;
// scripts/testdata/gothic-suite.epd), but scored +13 =3 -84 (14.5%) and +9 =3
// -88 (10.5%, seed 9797) against Fairy-Stockfish at 500 ms a move on fresh
// openings: 12.5% of 200 games, where ten sets of the current engine pool at
// 13.3% of 1,000. Re-searching a reduced move that beat alpha a ply deeper when
// it beat the best so far by 40 centipawns and two a ply, a ply shallower when it
// did not beat it by a centipawn a ply (Stockfish's deeper and shallower
// re-searches), scored -5 ± 46 (seed 4646); reducing the counter-move a ply less
// -19 ± 46 (seed 4848); two plies less, off cut nodes, for a quiet move that takes
// a piece away from an attack by a cheaper enemy piece or from an attack where
// nothing defends it (Stockfish 11's escape) -12 ± 46 (seed 5454); a ply less
// where the move's histories are at least 0 and those of the quiet move that led
// to the node below 0, a ply more the other way round (Stockfish 11's comparison
// of statScores) +17 ± 45 and -14 ± 45 (seeds 6060, 6161; +174 =54 -172 of 400);
// reducing late captures too (below) alone, +26 ± 46, +5 ± 45 and -3 ± 45
// (seeds 6262, 6363, 6464; +270 =76 -254 of 600, +9 ± 26).
//
// Late captures are reduced as quiet moves are at cut nodes, or where the static
// evaluation plus about the capturing piece's value stays at or below alpha (see
// negamax: Stockfish 11 adds the taken piece's); the late quiet root moves are
// reduced by lmrTable less a ply (see searchRoot); and a node that fails low
// credits the quiet move that led to it (see rewardQuiet). Each of the three
// scored within the noise alone; together, against the search without them, they
// scored +175 =66 -159 (+14 ± 31) and +187 =56 -157 (+26 ± 32) over two sets of
// 400 Gothic games at 40 ms a move (seeds 6565, 6666): +362 =122 -316 of 800, +20
// Elo (95% -2 to +42); against Fairy-Stockfish at 500 ms a move +11 =3 -86,
// +10 =4 -86, +13 =5 -82, +8 =4 -88, +11 =4 -85, +8 =4 -88, +7 =4 -89,
// +10 =3 -87, +11 =6 -83, +8 =2 -90, +13 =3 -84, +7 =4 -89, +12 =1 -87,
// at 322ba10 +12 =4 -84, at 69701bd +13 =1 -86 and, built with the profile of
// cmd/missive/default.pgo, +10 =7 -83 (e83d7fd) and +11 =3 -86 (33152c9) (seeds
// 7070, 7171, 7373, 7575, 7777, 7878, 7979, 8080, 8181, 8282, 8383, 8484, 8585,
// 10101, 10404, 10505, 10606; +175 =62 -1463, 12.1% of 1,700, 95% 10.6% to
// 13.6%), where the search without them pools at 13.2% of 1,600 games.
var lmrTable, lmrSteep = lmrReductions(0.5), lmrReductions(0.6)

// lmrReductions returns the table 0.5 + f·ln(depth)·ln(move), in plies.
func lmrReductions(f float64) (t [64][64]int8) {
	for d := 1; d < 64; d++ {
		for i := 1; i < 64; i++ {
			t[d][i] = int8(0.5 + math.Log(float64(d))*math.Log(float64(i))*f)
		}
	}
	return t
}

// lmrHistory is the history score per ply a quiet move is reduced less (or more,
// when negative), at most two plies either way. 16384 (Stockfish 11's divisor,
// half the histories' pull) scored -2 ± 44 Elo over 200 Gothic games at 40 ms a
// move (seed 5353).
const lmrHistory = 8192

// Captures that lose more than seeMargin centipawns a ply in their exchange are
// skipped up to seeDepth plies from the horizon.
const (
	seeDepth  = 6
	seeMargin = 90
)

// ProbCut applies from probCutDepth plies, to captures whose search
// probCutReduction plies shallower beats beta by probCutMargin centipawns (a
// quarter less when improving).
const (
	probCutDepth     = 5
	probCutMargin    = 200
	probCutReduction = 4
)

// aspiration is the half-width of the first aspiration window, in centipawns; 0
// turns the windows off. A failing side widens by half again each time (a fail
// low also pulls the upper bound to the middle), up to a full window past 500.
// Over 48 positions of three variants searched to depth 8, widths of 30-40 took
// 15-20% fewer nodes than the full window, 50-70 about as many. In Gothic at
// 40 ms a move, 20 scored -42 ± 45 Elo against 40 over 200 games.
const aspiration = 40

// searchRoot searches the root moves at depth within (alpha, beta), recording each
// move's score in scores (a bound for moves that failed low), and returns the best
// score and move; it stops at the first move reaching beta. With all set, every
// move gets an exact score (the weak levels choose among them). The late quiet
// root moves (from the fourth) are reduced by lmrTable less a ply and searched
// again at full depth when they beat alpha. Alone that scored +7, +5, +24 and -10
// Elo over four sets of 200 Gothic games at 40 ms a move (+350 =115 -335 of 800,
// +7, 95% -16 to +29), and came in with two other reductions (see lmrTable). A
// first build of it that judged captures after making the move reduced castling
// alone, yet scored +14, +10 and +30 on three other sets (+18 over 600): that far
// the noise of 200-game sets reaches.
func (s *searcher) searchRoot(rootMoves []mv, scores []Score, depth int, alpha, beta Score, all bool) (Score, mv) {
	g := s.g
	best, bestMove := Score(noScore), mv(0)
	for i, m := range rootMoves {
		quietRoot := g.captureScore(m) == 0
		s.moved[0], s.quietAt[0] = g.pieceTo(m), false
		g.make(m)
		var v Score
		if i == 0 || all {
			v = -s.negamax(depth-1, 1, -beta, -alpha, true, false)
		} else {
			red := 0
			if quietRoot && i >= 3 && depth >= 3 {
				red = min(max(int(lmrTable[min(depth, 63)][min(i, 63)])-1, 0), depth-2)
			}
			v = -s.negamax(depth-1-red, 1, -alpha-1, -alpha, true, true)
			if v > alpha && red > 0 && !s.stopped {
				v = -s.negamax(depth-1, 1, -alpha-1, -alpha, true, true)
			}
			if v > alpha && v < beta && !s.stopped {
				v = -s.negamax(depth-1, 1, -beta, -alpha, true, false)
			}
		}
		g.unmake()
		if s.stopped {
			break
		}
		scores[i] = v
		if !all && v <= alpha && i > 0 {
			scores[i] = alpha - 1
		}
		if v > best {
			best, bestMove = v, m
			s.pv[0][0] = m
			copy(s.pv[0][1:], s.pv[1][1:s.pvLen[1]])
			s.pvLen[0] = max(s.pvLen[1], 1)
			if !all {
				alpha = max(alpha, v)
			}
		}
		if !all && best >= beta {
			break
		}
	}
	return best, bestMove
}

// abs returns the magnitude of x.
func abs[T ~int | ~int32](x T) T {
	if x < 0 {
		return -x
	}
	return x
}

// sortRoot puts first at the front and the rest by their last scores, stably.
func sortRoot(moves []mv, scores []Score, first mv) {
	for i := 1; i < len(moves); i++ {
		for j := i; j > 0 && scores[j] > scores[j-1]; j-- {
			moves[j], moves[j-1] = moves[j-1], moves[j]
			scores[j], scores[j-1] = scores[j-1], scores[j]
		}
	}
	for i, m := range moves {
		if m == first {
			copy(moves[1:i+1], moves[:i])
			s := scores[i]
			copy(scores[1:i+1], scores[:i])
			moves[0], scores[0] = first, s
			break
		}
	}
}

// rulesPV converts a principal variation, stopping at the first move that is not legal
// (a table collision can make the tail unreliable), and follows a mate the game
// knows past its end.
func (s *searcher) rulesPV(pv []mv) []rules.Move {
	out := make([]rules.Move, 0, len(pv))
	made := 0
	for _, m := range pv {
		legal := false
		for _, x := range s.g.moves(make([]mv, 0, s.g.maxMoves()), false) {
			if x == m {
				legal = true
				break
			}
		}
		if !legal {
			break
		}
		out = append(out, s.g.toRules(m))
		s.g.make(m)
		made++
	}
	// A line that ends where the game knows a mate without searching (Go-Chess's
	// lone-king tables) goes on to the mate, the best move each time.
	for len(out) < maxPly {
		if sc, ok := s.g.terminal(made); !ok || !sc.IsMate() {
			break
		}
		best, bestScore := mv(0), noScore
		for _, x := range s.g.moves(make([]mv, 0, s.g.maxMoves()), false) {
			s.g.make(x)
			if sc, ok := s.g.terminal(made + 1); ok && -sc > bestScore {
				best, bestScore = x, -sc
			}
			s.g.unmake()
		}
		if bestScore == noScore {
			break
		}
		out = append(out, s.g.toRules(best))
		s.g.make(best)
		made++
	}
	for ; made > 0; made-- {
		s.g.unmake()
	}
	return out
}

// iirDepth is the depth from which a node without a hash move is searched a ply
// shallower (internal iterative reduction). From depth 4 it scored +14 ± 45,
// +21 ± 46 and -40 ± 46 Elo against 6 over three sets of 200 Gothic games at 40 ms
// a move: +263 =71 -266 of 600, no gain. From depth 4 it found Fairy-Stockfish's
// best move in 15 more of the 1,415 positions of lmrTable's comment, which also
// gives it combined with other changes.
const iirDepth = 6

// Singular extensions test the hash move from seDepth plies from the horizon,
// against a bound seMargin centipawns a ply under its score. Searching the hash
// move a ply shallower when the test fails only because another move nearly holds
// (a negative extension) scored -19 ± 45 Elo over 200 Gothic games at 40 ms; a
// second ply when the test fails by 20 centipawns more (not on the principal
// variation, at most six on a line) +9 ± 46; testing from depth 6 +17 ± 45 on the
// same openings, and Fairy-Stockfish's best move in 17 more of the 1,415
// positions of lmrTable's comment, which also gives it combined with other changes.
// A margin of 1 centipawn a ply scored -9 ± 45 (seed 4545).
const (
	seDepth  = 8
	seMargin = 2
)
