package engine

// see treats every Gess move as winning its exchange: the game has no exchange
// on one cell to evaluate, and captureScore already orders by stones removed.
func (g *gessGame) see(mv, int) bool { return true }

// pieceTo indexes m by its target centre, below contSize.
func (g *gessGame) pieceTo(m mv) int { return int(unpackGess(m).To) }
