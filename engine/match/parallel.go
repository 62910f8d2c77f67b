package match

import (
	"context"
	"fmt"
	"sync"
)

// Parallel is a match whose game pairs are played by several workers at once,
// each with players of its own (an engine process cannot play two games at
// once). Config's A and B name the players; the openings, colours, cap and
// PGN are Config's, pair by pair as Run plays them.
type Parallel struct {
	Config
	// Jobs is the number of pairs played at once (at least 1).
	Jobs int
	// Players returns worker w's own two players, A's first.
	Players func(w int) (a, b Player, err error)
	// Stop, when set, is asked after each finished pair, with the match so far,
	// whether to stop the match before its last game (an SPRT that decided).
	Stop func(Summary, Pentanomial) bool
}

// Run plays the match and returns its summary and its pairs by score. Pairs
// already started when Stop says so are finished and counted. When ctx ends
// early it returns ctx's error with the games finished so far.
func (p Parallel) Run(ctx context.Context) (Summary, Pentanomial, error) {
	sum := Summary{A: p.A.Name(), B: p.B.Name()}
	var penta Pentanomial
	if p.Games < 1 {
		return sum, penta, fmt.Errorf("%w: a match needs at least 1 game, not %d", ErrBadConfig, p.Games)
	}
	pairs := (p.Games + 1) / 2
	jobs := min(max(p.Jobs, 1), pairs)
	var (
		mu      sync.Mutex
		next    int
		stopped bool
		firstEr error
		wg      sync.WaitGroup
	)
	fail := func(err error) {
		if firstEr == nil {
			firstEr = err
		}
		stopped = true
	}
	seats := make([][2]Player, jobs)
	for w := range seats {
		a, b, err := p.Players(w)
		if err != nil {
			return sum, penta, err
		}
		seats[w] = [2]Player{a, b}
	}
	for _, seat := range seats {
		a, b := seat[0], seat[1]
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				pair := next
				next++
				done := stopped || pair >= pairs || ctx.Err() != nil
				mu.Unlock()
				if done {
					return
				}
				opening, err := p.opening(pair)
				if err != nil {
					mu.Lock()
					fail(err)
					mu.Unlock()
					return
				}
				var games []Game
				for i := 2 * pair; i < min(2*pair+2, p.Games); i++ {
					white, black := Seats(i, a, b)
					g := play(ctx, opening.Start, opening.Moves, white, black, p.MaxPlies)
					if ctx.Err() != nil {
						return
					}
					games = append(games, g)
				}
				mu.Lock()
				var rec Record
				for j, g := range games {
					i := 2*pair + j
					rec.Add(g.Outcome, FirstSide(i))
					sum.addGame(g, i)
					if p.PGN != nil {
						if err := writePGN(p.PGN, g, i+1); err != nil {
							fail(err)
						}
					}
					if p.Log != nil {
						fmt.Fprintf(p.Log, "game %d: %s - %s %s (%d plies) %s\n", i+1, g.White, g.Black, g.Outcome.Result(), len(g.Moves), g.Note)
					}
				}
				if len(games) == 2 {
					penta[2*rec.Wins+rec.Draws]++
				}
				if p.Stop != nil && !stopped && p.Stop(sum, penta) {
					stopped = true
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if firstEr != nil {
		return sum, penta, firstEr
	}
	return sum, penta, ctx.Err()
}
