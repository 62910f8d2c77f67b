package variants_test

import (
	"cmp"
	"fmt"
	"strings"
	"testing"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/variants"
)

// A brute-force oracle for the time-out draw of Gothic Chess (10x8): does any
// position exist, with White's king and one piece against Black's king and one
// piece, where Black to move is checkmated? None means White could never mate,
// whatever the players do; one means a helped mate is there to be played for.

type hmSquare struct{ f, r int }

// hmBoard is the board searched: a rectangle less its missing cells.
type hmBoard struct {
	files, ranks int
	missing      map[hmSquare]bool
	mirrored     bool // the same turned left to right and top to bottom
}

var (
	hmGothic = hmBoard{files: 10, ranks: 8, mirrored: true}
	hmKeltic = hmBoard{files: 9, ranks: 7, missing: kelticMissing(), mirrored: true}
)

// kelticMissing lists the cells of Keltic Chess's 9x7 rectangle that are not on its
// cross: ranks 1 and 7 have d-f, ranks 2 and 6 c-g.
func kelticMissing() map[hmSquare]bool {
	m := map[hmSquare]bool{}
	for f := range 9 {
		for _, r := range []int{0, 6} {
			if f < 3 || f > 5 {
				m[hmSquare{f, r}] = true
			}
		}
		for _, r := range []int{1, 5} {
			if f < 2 || f > 6 {
				m[hmSquare{f, r}] = true
			}
		}
	}
	return m
}

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

func (b hmBoard) on(s hmSquare) bool {
	return s.f >= 0 && s.f < b.files && s.r >= 0 && s.r < b.ranks && !b.missing[s]
}

// attacks reports whether p on from attacks to, the squares in occupied blocking.
func (p hmPiece) attacks(b hmBoard, from, to hmSquare, occupied func(hmSquare) bool) bool {
	df, dr := to.f-from.f, to.r-from.r
	for _, l := range p.leaps {
		if l[0] == df && l[1] == dr {
			return true
		}
	}
	for _, d := range p.slides {
		for s := (hmSquare{from.f + d[0], from.r + d[1]}); b.on(s); s = (hmSquare{s.f + d[0], s.r + d[1]}) {
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
func mateExists(b hmBoard, px, py hmPiece, x, y rules.PieceKind) (string, bool) {
	var all []hmSquare
	for r := range b.ranks {
		for f := range b.files {
			if b.on(hmSquare{f, r}) {
				all = append(all, hmSquare{f, r})
			}
		}
	}
	for _, bk := range all {
		if b.mirrored && (bk.f > (b.files-1)/2 || bk.r > (b.ranks-1)/2) {
			continue // the board's mirror images give the rest
		}
		for _, xs := range all {
			if xs == bk || !px.attacks(b, xs, bk, func(hmSquare) bool { return false }) {
				continue // no check even on an empty board
			}
			for _, wk := range all {
				if wk == bk || wk == xs || hmKing.attacks(b, wk, bk, nil) {
					continue
				}
				for _, ys := range all {
					if ys == bk || ys == xs || ys == wk {
						continue
					}
					occ := func(s hmSquare) bool { return s == bk || s == xs || s == wk || s == ys }
					if !px.attacks(b, xs, bk, occ) || py.attacks(b, ys, wk, occ) {
						continue // no check, or White's king attacked with Black to move
					}
					if !escapes(b, px, py, bk, xs, wk, ys) {
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
func escapes(b hmBoard, px, py hmPiece, bk, xs, wk, ys hmSquare) bool {
	for _, l := range hmKing.leaps {
		to := hmSquare{bk.f + l[0], bk.r + l[1]}
		if !b.on(to) || to == ys {
			continue
		}
		if to == xs { // taking the checker, unless White's king guards it
			if !hmKing.attacks(b, wk, xs, nil) {
				return true
			}
			continue
		}
		occ := func(s hmSquare) bool { return s == to || s == xs || s == wk || s == ys }
		if !hmKing.attacks(b, wk, to, nil) && !px.attacks(b, xs, to, occ) {
			return true
		}
	}
	occ := func(s hmSquare) bool { return s == bk || s == xs || s == wk || s == ys }
	if py.attacks(b, ys, xs, occ) {
		return true // the guard takes the checker
	}
	for _, s := range between(xs, bk) {
		if py.attacks(b, ys, s, occ) {
			return true // the guard blocks the check
		}
	}
	return false
}

// CanWin for a king and one knight or bishop against a king and one piece agrees
// with the oracle, in Gothic Chess and Keltic Chess (whose bishop also leaps as a
// knight): White cannot win exactly where no mate exists.
func TestCanWinAgainstHelpmateOracle(t *testing.T) {
	if testing.Short() {
		t.Skip("the oracle searches millions of positions")
	}
	keltic := hmPiece{leaps: hmKnightLeaps, slides: hmDiagonal}
	for _, game := range []struct {
		key    string
		board  hmBoard
		pieces map[rules.PieceKind]hmPiece
		fen    string // X is White's piece, y Black's
	}{
		{"gothic", hmGothic, hmPieces, "k9/1y8/10/10/10/10/10/KX8 w - - 0 1"},
		{"keltic", hmKeltic, map[rules.PieceKind]hmPiece{rules.Knight: hmPieces[rules.Knight], rules.Bishop: keltic,
			rules.Rook: hmPieces[rules.Rook], rules.Queen: hmPieces[rules.Queen]}, "***k2***/**y4**/9/9/9/**5**/***XK1*** w - - 0 1"},
		// Go-Chess: its blocked cells, like Keltic's missing ones, stop sliders and are leapt.
		{"gochess", gochessBoard("10/10/10/10/10/**********/10/10/10/10"), chessPieces(), "k9/y9/10/10/10/**********/10/10/10/KX8 w - - 0 1"},
		{"gochess", gochessBoard("10/1*8/5*4/3*2*3/10/**8/6*3/10/3*3*2/*9"), chessPieces(), "k9/y*8/5*4/3*2*3/10/**8/6*3/10/3*3*2/*KX7 w - - 0 1"},
	} {
		for _, x := range []rules.PieceKind{rules.Knight, rules.Bishop} {
			for y, py := range game.pieces {
				if raceDetector && !game.board.mirrored && (x == rules.Knight) != (y == rules.Queen) {
					continue // under the race detector the unmirrored boards try N v Q and B v N, B, R only
				}
				example, exists := mateExists(game.board, game.pieces[x], py, x, y)
				fen := strings.NewReplacer("X", string(x.Letter()), "y", toLower(string(y.Letter()))).Replace(game.fen)
				p := parse(t, game.key, fen)
				if p.Outcome().IsOver() {
					continue // an automatic draw: White cannot win on time either way
				}
				if got := rules.CanWin(p, rules.White); got != exists {
					t.Errorf("%s K+%c v K+%c: CanWin %v, but a mate exists: %v %s", game.key, x.Letter(), y.Letter(), got, exists, example)
				} else {
					t.Logf("%s K+%c v K+%c: mate %v %s", game.key, x.Letter(), y.Letter(), exists, example)
				}
			}
		}
	}
}

// chessPieces are chess's knight, bishop, rook and queen.
func chessPieces() map[rules.PieceKind]hmPiece {
	out := map[rules.PieceKind]hmPiece{}
	for _, k := range []rules.PieceKind{rules.Knight, rules.Bishop, rules.Rook, rules.Queen} {
		out[k] = hmPieces[k]
	}
	return out
}

// gochessBoard is the 10x10 board of a Go-Chess board field, its '*' cells blocked.
func gochessBoard(field string) hmBoard {
	b := hmBoard{files: 10, ranks: 10, missing: map[hmSquare]bool{}}
	for i, row := range strings.Split(field, "/") {
		f := 0
		for j := 0; j < len(row); j++ {
			n := 0
			for ; j < len(row) && row[j] >= '0' && row[j] <= '9'; j++ {
				n = 10*n + int(row[j]-'0')
			}
			if f += n; j < len(row) {
				if row[j] == '*' {
					b.missing[hmSquare{f, 9 - i}] = true
				}
				f++
			}
		}
	}
	return b
}

func toLower(s string) string { return string(rune(s[0]) | 0x20) }

// BenchmarkCanWinLoneBishop times the search a player out of time in Go-Chess with a
// lone rook against a lone bishop waits for (every position searched, no mate found).
func BenchmarkCanWinLoneBishop(b *testing.B) {
	v, err := variants.Registry().Lookup("gochess")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		p, err := v.ParsePosition("k9/r9/10/10/10/**********/10/10/10/KB8 b - - 0 1")
		if err != nil {
			b.Fatal(err)
		}
		if rules.CanWin(p, rules.White) {
			b.Fatal("a lone bishop mates on this board")
		}
	}
}
