// Package engine is Missive's built-in engine for Gothic, Keltic, Go-Chess and Gess:
// iterative-deepening principal-variation search with a transposition table,
// quiescence search, move ordering (hash move, MVV-LVA, killers, history), null-move
// pruning (chess family only, never in check or with only king and pawns; never in
// Gess, whose board cannot pass), late-move reductions, repetition and 50-move
// awareness, and an evaluation per game. The chess family's evaluation (chesseval.go)
// is a weighted sum of features tapered by phase, its weights per variant are data in
// weights/ fitted to game results by engine/tune. Callers hand it an immutable
// rules.Position and get a rules.Move back; make/unmake stays inside the search.
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
