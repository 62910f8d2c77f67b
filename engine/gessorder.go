package engine

// see treats every Gess move as winning its exchange: the game has no exchange
// on one cell to evaluate, and captureScore already orders by stones removed.
func (g *gessGame) see(mv, int) bool { return true }

// pieceTo indexes m by its target centre, below contSize.
func (g *gessGame) pieceTo(m mv) int { return int(unpackGess(m).To) }

// nullReduction is the gentler classic one: Gess has no checks to keep a pass
// honest, and the chess family's larger reduction lost to it (see the issue 21 note).
func (g *gessGame) nullReduction(depth int, _ Score) int { return 2 + depth/4 }

// victim indexes a move by the enemy stones it removes (up to 15).
func (g *gessGame) victim(m mv) int {
	return min(g.b.Captures(unpackGess(m)), victimSize-1)
}
