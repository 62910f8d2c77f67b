package engine

import (
	"context"
	"time"

	"github.com/missivechess/missive/rules"
)

// DrawAfterMove is the move from which the engine agrees to, and offers, a draw in
// a level position, counted from White's making it for answers and offers alike;
// before it, only a worse position makes it agree (an opponent who offers a draw
// in the opening is not there to play).
const DrawAfterMove = 30

// DrawWorse is how far behind (in centipawns) the engine agrees to a draw at any
// move: a pawn, well past the first move's advantage, so that it does not agree to
// one on move 1 as Black. (Half a pawn was too close: the engine's searches of
// Gothic's start position score White +0.18 to +0.46 by depth, and a short search
// under load once agreed.)
const DrawWorse Score = 100

// DrawOfferEvery is how many moves apart the engine considers offering a draw: at
// its moves DrawAfterMove, DrawAfterMove+DrawOfferEvery, and so on, so that a
// declined offer is not made again at every move.
const DrawOfferEvery = 10

// levelFrom is the half-moves played once White has made move DrawAfterMove.
const levelFrom = 2*DrawAfterMove - 1

// DrawTime bounds the search that judges a draw offer when ctx has no deadline.
const DrawTime = 2 * time.Second

// AcceptsDraw reports whether the engine, playing side in pos after plies half-moves
// of the game, agrees to a draw. It judges at full strength, searching for ctx's
// deadline or two seconds, and agrees when side stands DrawWorse or more behind, or,
// from White's move DrawAfterMove on, when side stands no more than the engine's
// contempt ahead (the position is level).
func (e *Engine) AcceptsDraw(ctx context.Context, pos rules.Position, side rules.Side, plies int) (bool, error) {
	return e.acceptsDraw(ctx, pos, side, plies, fullStrength(ctx, DrawTime))
}

// acceptsDraw is AcceptsDraw judging with a search bounded by lim (tests bound it by
// depth, so that the judgement does not depend on the machine's speed).
func (e *Engine) acceptsDraw(ctx context.Context, pos rules.Position, side rules.Side, plies int, lim Limits) (bool, error) {
	r, err := e.search(ctx, pos, lim, 0, nil)
	if err != nil {
		return false, err
	}
	return drawAgreed(r.Score, pos.Turn() == side, plies), nil
}

// drawAgreed is AcceptsDraw's judgement of a search's score for the side to move:
// own says whether that side is the engine's.
func drawAgreed(sc Score, own bool, plies int) bool {
	if !own {
		sc = -sc
	}
	if plies >= levelFrom {
		return sc <= DefaultContempt
	}
	return sc <= -DrawWorse
}

// OffersDraw reports whether the engine, having just played side's move that led to
// pos after plies half-moves of the game, offers a draw with it. It considers one
// only at the moves OfferDue names, judges at full strength as AcceptsDraw does, and
// offers when the game is level: side stands no more than the engine's contempt
// ahead and less than DrawWorse behind (further behind it would accept a draw but
// does not ask for one). A game the move ended gets no offer.
func (e *Engine) OffersDraw(ctx context.Context, pos rules.Position, side rules.Side, plies int) (bool, error) {
	return e.offersDraw(ctx, pos, side, plies, fullStrength(ctx, DrawTime))
}

// offersDraw is OffersDraw judging with a search bounded by lim, as acceptsDraw.
func (e *Engine) offersDraw(ctx context.Context, pos rules.Position, side rules.Side, plies int, lim Limits) (bool, error) {
	if !OfferDue(plies) || pos.Outcome().IsOver() {
		return false, nil
	}
	r, err := e.search(ctx, pos, lim, 0, nil)
	if err != nil {
		return false, err
	}
	return drawOffered(r.Score, pos.Turn() == side, plies), nil
}

// OfferDue reports whether the move that made plies half-moves of a game is one at
// which the engine considers offering a draw: the mover's move DrawAfterMove, or
// a multiple of DrawOfferEvery moves after it (counting White's first move as move
// 1 of each side).
func OfferDue(plies int) bool {
	n := (plies + 1) / 2 // the mover's move number
	return n >= DrawAfterMove && (n-DrawAfterMove)%DrawOfferEvery == 0
}

// drawOffered is OffersDraw's judgement of a search's score for the side to move:
// own says whether that side is the engine's.
func drawOffered(sc Score, own bool, plies int) bool {
	if !own {
		sc = -sc
	}
	return plies >= levelFrom && sc > -DrawWorse && sc <= DefaultContempt
}
