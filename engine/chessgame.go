package engine

import (
	"encoding/binary"
	"hash/fnv"
	"slices"
	"time"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/board"
	"github.com/missivechess/missive/rules/chess"
)

// chessGame searches the chess family (Gothic, Keltic, Go-Chess) on a chess.SearchBoard.
type chessGame struct {
	b        *chess.SearchBoard
	ev       *chessEval
	exchange []rules.PieceKind // kinds from least to most valuable (see)
	salt     uint64            // told into hash: the variant and its board's cells
	tmp      [chess.MaxMoves]chess.Move
	pawns    pawnCache // nil outside a search
}

func newChessGame(p rules.Position) (*chessGame, error) {
	b, err := chess.NewSearchBoard(p)
	if err != nil {
		return nil, err
	}
	ev := evalFor(b.Spec(), b.Geometry())
	// The engine keeps its table from one search to the next, whatever the game:
	// positions of two variants, or of two Go-Chess boards with other blocked
	// cells, must not share keys.
	salt := fnv.New64a()
	salt.Write([]byte(b.Spec().Key))
	open := b.Geometry().Open()
	binary.Write(salt, binary.LittleEndian, [2]uint64{open.Lo, open.Hi})
	return &chessGame{b: b, ev: ev, exchange: exchangeOrder(b.Kinds(), &ev.value), salt: salt.Sum64()}, nil
}

func (c *chessGame) moves(dst []mv, noisy bool) []mv {
	var cm []chess.Move
	if noisy {
		cm = c.b.GenerateCaptures(c.tmp[:0])
	} else {
		cm = c.b.GenerateMoves(c.tmp[:0])
	}
	for _, m := range cm {
		dst = append(dst, mv(m))
	}
	return dst
}

// pieceKeys hashes where each side's pieces besides the pawns stand.
func (c *chessGame) pieceKeys() (white, black uint64) {
	var h [2]uint64
	for s := range h {
		x := uint64(c.b.King(rules.Side(s)))
		for i, k := range c.b.Kinds() {
			bb := c.b.Pieces(rules.Side(s), k)
			x ^= (bb.Lo ^ bb.Hi*0x9e3779b97f4a7c15 + uint64(i)) * 0xbf58476d1ce4e5b9
			x ^= x >> 31
		}
		h[s] = x
	}
	return h[0], h[1]
}

func (c *chessGame) make(m mv)                { c.b.Make(chess.Move(m)) }
func (c *chessGame) unmake()                  { c.b.Unmake() }
func (c *chessGame) makeNull()                { c.b.MakeNull() }
func (c *chessGame) hash() uint64             { return c.b.Hash() ^ c.salt }
func (c *chessGame) identity() (uint64, bool) { return c.salt, true }
func (c *chessGame) inCheck() bool            { return c.b.InCheck() }
func (c *chessGame) side() rules.Side         { return c.b.Turn() }
func (c *chessGame) maxMoves() int            { return chess.MaxMoves }
func (c *chessGame) qDepth() int              { return 0 }

func (c *chessGame) terminal(ply int) (Score, bool) {
	b := c.b
	if b.InsufficientMaterial() {
		return drawScore, true
	}
	// Within the search a single repetition is scored as the draw it can force.
	if b.Repetitions() >= 2 {
		return drawScore, true
	}
	if b.HalfmoveClock() >= 100 && !b.InCheck() {
		return drawScore, true
	}
	return 0, false
}

func (c *chessGame) noMoves(ply int) Score {
	if c.b.InCheck() {
		return -MateScore + Score(ply)
	}
	return drawScore
}

func (c *chessGame) captureScore(m mv) int {
	cm := chess.Move(m)
	sc := 0
	if p := cm.Promotion(); p != rules.NoPiece {
		sc += c.ev.value[p]
	}
	if cm.IsEnPassant() {
		return sc + 10*c.ev.value[rules.Pawn]
	}
	victim := c.b.PieceAt(cm.To())
	if victim.Kind == rules.NoPiece || cm.IsCastling() {
		return sc
	}
	attacker := c.b.PieceAt(cm.From())
	return sc + 10*c.ev.value[victim.Kind] - c.ev.value[attacker.Kind]/10 + 1
}

// prune skips captures that lose material in the exchange on their cell, and
// captures whose gain plus a margin stays below alpha.
func (c *chessGame) prune(m mv, stand, alpha Score) bool {
	cm := chess.Move(m)
	gain := 0
	if p := cm.Promotion(); p != rules.NoPiece {
		gain += c.ev.value[p] - c.ev.value[rules.Pawn]
	}
	victim := rules.Pawn
	if !cm.IsEnPassant() {
		victim = c.b.PieceAt(cm.To()).Kind
	}
	gain += c.ev.value[victim]
	if stand+Score(gain)+200 < alpha {
		return true
	}
	return !c.see(m, 0)
}

// structureKey hashes the pawns of both sides.
func (c *chessGame) structureKey() (uint64, bool) {
	return pawnHash([2]board.Bitboard{c.b.Pieces(rules.White, rules.Pawn), c.b.Pieces(rules.Black, rules.Pawn)}), true
}

// canNull allows a null move unless the side to move has only king and pawns
// (where zugzwang is common and a pass would be unsound); the search itself
// refuses it in check.
func (c *chessGame) canNull() bool {
	return c.armed(c.b.Turn())
}

// bothArmed reports whether each side has a piece besides king and pawns.
func (c *chessGame) bothArmed() bool {
	return c.armed(rules.White) && c.armed(rules.Black)
}

// armed reports whether side s has a piece besides king and pawns (Kinds lists
// neither).
func (c *chessGame) armed(s rules.Side) bool {
	for _, k := range c.b.Kinds() {
		if c.b.Pieces(s, k).Any() {
			return true
		}
	}
	return false
}

func (c *chessGame) histIndex(m mv) int {
	return int(chess.Move(m).From())<<7 | int(chess.Move(m).To())
}

func (c *chessGame) toRules(m mv) rules.Move { return chess.Move(m).ToRules() }

func (c *chessGame) fromRules(m rules.Move) (mv, bool) {
	x, ok := c.b.FromRules(m)
	return mv(x), ok
}

func (c *chessGame) evaluate() Score { return c.ev.evaluate(c.b, c.pawns) }

// usePawnCache gives c the pawn cache of the search's memory.
func (c *chessGame) usePawnCache(pc pawnCache) { c.pawns = pc }

func (c *chessGame) drift(e Score) Score { return e }

// forSearch returns the game the search plays on: c itself, or, in a variant whose
// pawns never promote (Go-Chess), c with the endgame knowledge that turns a material
// edge into a win (convertingGame). The tuner reads c's own evaluation, whose terms
// it fits.
func (c *chessGame) forSearch() game {
	if len(c.b.Spec().Pawn.Promotions) > 0 {
		return c
	}
	return &convertingGame{chessGame: c, conv: newConversion(c.ev)}
}

// convertingGame is a chessGame whose evaluation adds its conversion's knowledge,
// and whose search knows the exact value of a king and one piece or pawn against
// a lone king from the tables of its memory.
type convertingGame struct {
	*chessGame
	conv    *conversion
	endings loneKings
}

// useLoneKings gives c the tables of the search's memory and builds, until the
// time given (no limit when zero), the table of the position searched when it is
// a king and one piece or pawn against a lone king (its descendants are too), and
// with five men or fewer the pawn tables of the sides with a pawn, so that the
// search sees an exchange into king and pawn against king as the draw it nearly
// always is. A piece's table takes about a quarter of a second, a pawn's about a
// hundredth, once a board; until one is done, the search goes on without it.
func (c *convertingGame) useLoneKings(t loneKings, until time.Time) {
	c.endings = t
	// The pawn's table knows single steps and captures: no double step, en
	// passant or sideways step (Go-Chess's pawns).
	pr := c.b.Spec().Pawn
	plainPawns := !pr.DoubleStep && !pr.EnPassant && !pr.SidewaysWhenBlocked
	var want []loneKingKey
	if kind, strong, _, _, _, ok := ending(c.b); ok && !c.b.InsufficientMaterial() && (kind != rules.Pawn || plainPawns) {
		want = append(want, keyOf(c.salt, kind, strong))
	}
	if plainPawns && c.b.Occupied(rules.White).Or(c.b.Occupied(rules.Black)).Count() <= 5 {
		for _, side := range rules.Sides {
			if k := keyOf(c.salt, rules.Pawn, side); c.b.Pieces(side, rules.Pawn).Any() && !slices.Contains(want, k) {
				want = append(want, k)
			}
		}
	}
	missing := 0
	for _, key := range want {
		if t[key] == nil {
			missing++
		}
	}
	if missing > 0 && len(t)+missing > maxLoneKings {
		clear(t)
	}
	for _, key := range want {
		b := t[key]
		if b == nil {
			b = newLoneKingBuild(c.ev, c.b.Geometry(), key.kind, key.strong)
			t[key] = b
		}
		if !b.done && !b.run(until) {
			return
		}
	}
}

// terminal adds to the draw rules the exact value of the endings c has tables for.
func (c *convertingGame) terminal(ply int) (Score, bool) {
	if sc, ok := c.chessGame.terminal(ply); ok {
		return sc, ok
	}
	kind, strong, sk, p, wk, ok := ending(c.b)
	if !ok {
		return 0, false
	}
	if b := c.endings[keyOf(c.salt, kind, strong)]; b != nil && b.done {
		return b.t.probe(c.b, strong, sk, p, wk, ply)
	}
	return 0, false
}

// evaluate adds the mop-up bonus, a function of the position like the rest.
func (c *convertingGame) evaluate() Score { return c.chessGame.evaluate() + c.conv.mopUp(c.b) }

// razor keeps razoring out of Go-Chess: against the search without it, 100 games
// at 50 ms a move scored -35 ± 42 Elo.
func (c *convertingGame) razor() bool { return false }

// drift scales the evaluation toward the draw the game is heading for.
func (c *convertingGame) drift(e Score) Score { return c.conv.drift(c.b, e) }

// standOnTable keeps the table's bounds out of Go-Chess's stand pat: they were
// searched before the evaluation drifted (the position's key leaves out how long
// the game has gone without progress), and would undo the drift. With them, the
// engine at depth 6 did not mate with king and rook before the fifty-move rule
// (TestEngineMatesWithRook, before that ending was played from loneking.go's table).
func (c *convertingGame) standOnTable() bool { return false }

// forwardPrune always allows pruning by the static evaluation in the chess
// family: checks, which it cannot judge, are never pruned.
func (c *chessGame) forwardPrune() bool { return true }

// singular turns singular extensions on in the chess family.
func (c *chessGame) singular() bool { return true }

// razor turns razoring on in Gothic and Keltic (in Gothic self-play at 40 ms a
// move +28 Elo over 600 games; in Keltic +7 ± 64 over 100).
func (c *chessGame) razor() bool { return true }

// standOnTable lets the table's bounds refine the stand pat in Gothic and Keltic
// (in Gothic self-play at 40 ms a move +55 Elo over 400 games; in Keltic at 50 ms
// +56 ± 64 over 100).
func (c *chessGame) standOnTable() bool { return true }
