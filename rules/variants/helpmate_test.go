package variants_test

import (
	"cmp"
	"fmt"
	"testing"

	"github.com/missivechess/missive/rules"
)

// A brute-force oracle for the time-out draw of Gothic Chess (10x8): does any
// position exist, with White's king and one piece against Black's king and one
// piece, where Black to move is checkmated? None means White could never mate,
// whatever the players do; one means a helped mate is there to be played for.

const hmFiles, hmRanks = 10, 8

type hmSquare struct{ f, r int }

// hmPiece moves by its leaps and along its slides.
type hmPiece struct {
	leaps, slides [][2]int
}

var (
	hmKnightLeaps = [][2]int{{1, 2}, {2, 1}, {-1, 2}, {-2, 1}, {1, -2}, {2, -1}, {-1, -2}, {-2, -1}}
	hmDiagonal    = [][2]int{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}}
	hmOrthogonal  = [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}
	hmKing        = hmPiece{leaps: append(append([][2]int{}, hmDiagonal...), hmOrthogonal...)}
	hmPieces      = map[rules.PieceKind]hmPiece{
		rules.Knight:     {leaps: hmKnightLeaps},
		rules.Bishop:     {slides: hmDiagonal},
		rules.Rook:       {slides: hmOrthogonal},
		rules.Queen:      {slides: append(append([][2]int{}, hmDiagonal...), hmOrthogonal...)},
		rules.Chancellor: {leaps: hmKnightLeaps, slides: hmOrthogonal},
		rules.Archbishop: {leaps: hmKnightLeaps, slides: hmDiagonal},
	}
)

func hmOn(s hmSquare) bool { return s.f >= 0 && s.f < hmFiles && s.r >= 0 && s.r < hmRanks }

// attacks reports whether p on from attacks to, the squares in occupied blocking.
func (p hmPiece) attacks(from, to hmSquare, occupied func(hmSquare) bool) bool {
	df, dr := to.f-from.f, to.r-from.r
	for _, l := range p.leaps {
		if l[0] == df && l[1] == dr {
			return true
		}
	}
	for _, d := range p.slides {
		for s := (hmSquare{from.f + d[0], from.r + d[1]}); hmOn(s); s = (hmSquare{s.f + d[0], s.r + d[1]}) {
			if s == to {
				return true
			}
			if occupied(s) {
				break
			}
		}
	}
	return false
}

// between lists the squares strictly between a and b on a line, nil when a and b
// share no line.
func between(a, b hmSquare) []hmSquare {
	df, dr := b.f-a.f, b.r-a.r
	if df != 0 && dr != 0 && df != dr && df != -dr {
		return nil
	}
	sf, sr := cmp.Compare(df, 0), cmp.Compare(dr, 0)
	var out []hmSquare
	for s := (hmSquare{a.f + sf, a.r + sr}); s != b; s = (hmSquare{s.f + sf, s.r + sr}) {
		out = append(out, s)
	}
	return out
}

// mateExists looks for a position in which White's king and a piece of kind x mate
// Black's king guarded by a piece of kind y, Black to move.
func mateExists(x, y rules.PieceKind) (string, bool) {
	px, py := hmPieces[x], hmPieces[y]
	var all []hmSquare
	for r := range hmRanks {
		for f := range hmFiles {
			all = append(all, hmSquare{f, r})
		}
	}
	for _, bk := range all {
		if bk.f >= hmFiles/2 || bk.r >= hmRanks/2 {
			continue // the board's mirror images give the rest
		}
		for _, xs := range all {
			if xs == bk || !px.attacks(xs, bk, func(hmSquare) bool { return false }) {
				continue // no check even on an empty board
			}
			for _, wk := range all {
				if wk == bk || wk == xs || hmKing.attacks(wk, bk, nil) {
					continue
				}
				for _, ys := range all {
					if ys == bk || ys == xs || ys == wk {
						continue
					}
					occ := func(s hmSquare) bool { return s == bk || s == xs || s == wk || s == ys }
					if !px.attacks(xs, bk, occ) || py.attacks(ys, wk, occ) {
						continue // no check, or White's king attacked with Black to move
					}
					if !escapes(px, py, bk, xs, wk, ys) {
						return fmt.Sprintf("black K%c%d %c%c%d, white K%c%d %c%c%d", 'a'+bk.f, bk.r+1, y.Letter(), 'a'+ys.f, ys.r+1,
							'a'+wk.f, wk.r+1, x.Letter(), 'a'+xs.f, xs.r+1), true
					}
				}
			}
		}
	}
	return "", false
}

// escapes reports whether Black, in check from the piece on xs, has a legal move.
func escapes(px, py hmPiece, bk, xs, wk, ys hmSquare) bool {
	for _, l := range hmKing.leaps {
		to := hmSquare{bk.f + l[0], bk.r + l[1]}
		if !hmOn(to) || to == ys {
			continue
		}
		if to == xs { // taking the checker, unless White's king guards it
			if !hmKing.attacks(wk, xs, nil) {
				return true
			}
			continue
		}
		occ := func(s hmSquare) bool { return s == to || s == xs || s == wk || s == ys }
		if !hmKing.attacks(wk, to, nil) && !px.attacks(xs, to, occ) {
			return true
		}
	}
	occ := func(s hmSquare) bool { return s == bk || s == xs || s == wk || s == ys }
	if py.attacks(ys, xs, occ) {
		return true // the guard takes the checker
	}
	for _, s := range between(xs, bk) {
		if py.attacks(ys, s, occ) {
			return true // the guard blocks the check
		}
	}
	return false
}

// Gothic's CanWin for a king and one knight or bishop against a king and one piece
// agrees with the oracle: it says White cannot win exactly where no mate exists.
func TestCanWinAgainstHelpmateOracle(t *testing.T) {
	if testing.Short() {
		t.Skip("the oracle searches millions of positions")
	}
	letters := map[rules.PieceKind]string{rules.Knight: "N", rules.Bishop: "B", rules.Rook: "R", rules.Queen: "Q", rules.Chancellor: "C", rules.Archbishop: "A"}
	for _, x := range []rules.PieceKind{rules.Knight, rules.Bishop} {
		for _, y := range []rules.PieceKind{rules.Knight, rules.Bishop, rules.Rook, rules.Queen, rules.Chancellor, rules.Archbishop} {
			example, exists := mateExists(x, y)
			fen := "k9/1" + toLower(letters[y]) + "8/10/10/10/10/10/K" + letters[x] + "8 w - - 0 1"
			p := parse(t, "gothic", fen)
			if p.Outcome().IsOver() {
				continue // an automatic draw: White cannot win on time either way
			}
			if got := rules.CanWin(p, rules.White); got != exists {
				t.Errorf("K+%s v K+%s: CanWin %v, but a mate exists: %v (%s)", letters[x], letters[y], got, exists, example)
			} else {
				t.Logf("K+%s v K+%s: mate %v %s", letters[x], letters[y], exists, example)
			}
		}
	}
}

func toLower(s string) string { return string(rune(s[0]) | 0x20) }
