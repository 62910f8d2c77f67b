package chess

import (
	"math/rand/v2"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/board"
)

const numKinds = int(rules.Archbishop) + 1

// zobristKeys are the random keys of the position hash; they come from a fixed seed
// so hashes are the same in every run, and are never written after init.
type zobristKeys struct {
	piece  [2][numKinds][board.MaxCells]uint64
	side   uint64
	castle [16]uint64
	ep     [board.MaxCells]uint64
}

var zobrist = func() *zobristKeys {
	z := new(zobristKeys)
	r := rand.New(rand.NewPCG(0x4d697373, 0x69766521))
	for s := range z.piece {
		for k := range z.piece[s] {
			for sq := range z.piece[s][k] {
				z.piece[s][k][sq] = r.Uint64()
			}
		}
	}
	z.side = r.Uint64()
	for i := 1; i < len(z.castle); i++ {
		z.castle[i] = r.Uint64()
	}
	for i := range z.ep {
		z.ep[i] = r.Uint64()
	}
	return z
}()

func zobPiece(p piece, sq rules.Square) uint64 {
	return zobrist.piece[p>>4&1][p&15][sq&(board.MaxCells-1)]
}
