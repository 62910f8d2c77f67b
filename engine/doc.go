// Package engine is Missive's built-in engine for Gothic, Keltic, Go-Chess and Gess:
// iterative-deepening principal-variation search with aspiration windows, a
// transposition table of two-slot buckets (also used by the quiescence search, which
// skips quiet check evasions that lose their exchange once one evasion escapes mate
// and, in Gothic and Keltic, stands pat on its bounds where they prove more than the
// static evaluation; and keeping each position's static evaluation), correction
// histories that move the static evaluation by what searches found in positions with
// the same pawn structure and, in the chess family, with either side's pieces on the
// same cells, move ordering (hash move, captures by static exchange evaluation,
// MVV-LVA and capture history, killers, counter-moves, history and continuation
// histories, which also credit the quiet move that led to a node that fails low),
// null-move pruning (never in check or with only king and pawns; in Gess only while
// no ring is under threat), ProbCut (where forward pruning is allowed), razoring
// (Gothic and Keltic), reverse futility, futility, late-move, history and exchange
// pruning of quiet moves (checks are never pruned), late-move reductions (of quiet
// moves, of late captures at expected cut nodes or where the evaluation is far enough
// below alpha, and of quiet moves at the root; steeper, and two plies more at
// expected cut nodes, while each side has a piece besides king and pawns, not in
// Gess), internal iterative reduction, check and singular extensions (with
// multi-cut), repetition and 50-move awareness, time management (timeman.go), and an
// evaluation per game. The chess family's evaluation (chesseval.go) is a weighted sum
// of features tapered by phase (piece-square terms among them); its weights per
// variant are data in weights/, fitted by engine/tune to game results or, in Gothic,
// to Fairy-Stockfish's evaluation. In Go-Chess, whose pawns never promote, the
// search's evaluation also knows how to mate with a material edge and drifts toward a
// draw while no irreversible move is played (convert.go), and the search knows the
// exact value of a king and one piece or pawn against a lone king on the game's
// board, from a table it builds backward from the mates (loneking.go). Callers hand
// it an immutable rules.Position and get a rules.Move back; make/unmake stays inside
// the search.
//
//	e := engine.New(engine.Options{})
//	move, err := e.Move(ctx, pos, 5)         // strength level 1..8
//	best, score, err := e.Hint(ctx, pos)     // full strength
//	res, err := e.Search(ctx, pos, engine.Limits{Depth: 6}) // deterministic
//	rv, err := e.Review(ctx, history, engine.DefaultReviewLimits) // a game review
//
// Review (review.go) analyses a game's every position and classes each move by the
// winning chance it lost; its notes document the thresholds and the accuracy.
package engine
