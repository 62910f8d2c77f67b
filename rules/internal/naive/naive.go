package naive

import (
	"fmt"
	"strconv"
	"strings"
)

// Game selects the rules.
type Game int

// The games.
const (
	Gothic Game = iota
	Keltic
	GoChess
)

// Pos is a position: cells[rank][file] holds '.', '*' (no cell / blocked) or a FEN letter.
type Pos struct {
	game         Game
	files, ranks int
	cells        [][]byte
	white        bool
	castle       string
	epF, epR     int // en passant target, -1 when none
}

// Parse reads a FEN of game.
func Parse(game Game, fen string) (*Pos, error) {
	f := strings.Fields(fen)
	if len(f) < 4 {
		return nil, fmt.Errorf("naive: short FEN %q", fen)
	}
	rows := strings.Split(f[0], "/")
	p := &Pos{game: game, ranks: len(rows), white: f[1] == "w", castle: f[2], epF: -1, epR: -1}
	if p.castle == "-" {
		p.castle = ""
	}
	for i, row := range rows {
		var line []byte
		for j := 0; j < len(row); j++ {
			c := row[j]
			if c >= '0' && c <= '9' {
				k := j
				for k < len(row) && row[k] >= '0' && row[k] <= '9' {
					k++
				}
				n, _ := strconv.Atoi(row[j:k])
				line = append(line, []byte(strings.Repeat(".", n))...)
				j = k - 1
				continue
			}
			line = append(line, c)
		}
		if i == 0 {
			p.files = len(line)
			p.cells = make([][]byte, p.ranks)
		}
		if len(line) != p.files {
			return nil, fmt.Errorf("naive: ragged FEN %q", fen)
		}
		p.cells[p.ranks-1-i] = line
	}
	if f[3] != "-" {
		p.epF = int(f[3][0] - 'a')
		p.epR, _ = strconv.Atoi(f[3][1:])
		p.epR--
	}
	return p, nil
}

func (p *Pos) at(f, r int) byte {
	if f < 0 || r < 0 || f >= p.files || r >= p.ranks {
		return '*'
	}
	return p.cells[r][f]
}

func isWhite(c byte) bool { return c >= 'A' && c <= 'Z' }
func isPiece(c byte) bool { return c != '.' && c != '*' }
func lower(c byte) byte {
	if isWhite(c) {
		return c + 32
	}
	return c
}

func (p *Pos) own(c byte, white bool) bool { return isPiece(c) && isWhite(c) == white }

type move struct {
	f1, r1, f2, r2 int
	promo          byte
	castleRook     [4]int // rook from f,r to f,r; f = -1 when not castling
	ep             bool
	double         bool
}

func (m move) uci() string {
	s := fmt.Sprintf("%c%d%c%d", 'a'+m.f1, m.r1+1, 'a'+m.f2, m.r2+1)
	if m.promo != 0 {
		s += string(m.promo)
	}
	return s
}

var knight = [][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}}
var kingD = [][2]int{{0, 1}, {1, 1}, {1, 0}, {1, -1}, {0, -1}, {-1, -1}, {-1, 0}, {-1, 1}}
var orth = [][2]int{{0, 1}, {1, 0}, {0, -1}, {-1, 0}}
var diag = [][2]int{{1, 1}, {1, -1}, {-1, -1}, {-1, 1}}

// targets lists the squares the piece on (f, r) attacks or moves to, ignoring
// pawns' non-capturing steps (attacks only when attacksOnly).
func (p *Pos) pieceTargets(f, r int, attacksOnly bool) [][2]int {
	c := p.at(f, r)
	white := isWhite(c)
	var out [][2]int
	leap := func(ds [][2]int) {
		for _, d := range ds {
			t := p.at(f+d[0], r+d[1])
			if t != '*' && !p.own(t, white) {
				out = append(out, [2]int{f + d[0], r + d[1]})
			}
		}
	}
	slide := func(ds [][2]int) {
		for _, d := range ds {
			for k := 1; ; k++ {
				t := p.at(f+d[0]*k, r+d[1]*k)
				if t == '*' || p.own(t, white) {
					break
				}
				out = append(out, [2]int{f + d[0]*k, r + d[1]*k})
				if t != '.' {
					break
				}
			}
		}
	}
	switch lower(c) {
	case 'n':
		leap(knight)
	case 'b':
		slide(diag)
		if p.game == Keltic {
			leap(knight)
		}
	case 'r':
		slide(orth)
	case 'q':
		slide(orth)
		slide(diag)
	case 'c':
		slide(orth)
		leap(knight)
	case 'a':
		slide(diag)
		leap(knight)
	case 'k':
		leap(kingD)
	case 'p':
		dirs := [][2]int{{1, 1}, {-1, 1}}
		if p.game == GoChess {
			dirs = diag
		} else if !white {
			dirs = [][2]int{{1, -1}, {-1, -1}}
		}
		for _, d := range dirs {
			t := p.at(f+d[0], r+d[1])
			if t != '*' && (attacksOnly || (isPiece(t) && !p.own(t, white))) {
				out = append(out, [2]int{f + d[0], r + d[1]})
			}
		}
	}
	return out
}

func (p *Pos) attacked(f, r int, byWhite bool) bool {
	for rr := 0; rr < p.ranks; rr++ {
		for ff := 0; ff < p.files; ff++ {
			if !p.own(p.at(ff, rr), byWhite) {
				continue
			}
			for _, t := range p.pieceTargets(ff, rr, true) {
				if t[0] == f && t[1] == r {
					return true
				}
			}
		}
	}
	return false
}

func (p *Pos) kingSquare(white bool) (int, int) {
	k := byte('k')
	if white {
		k = 'K'
	}
	for r := 0; r < p.ranks; r++ {
		for f := 0; f < p.files; f++ {
			if p.cells[r][f] == k {
				return f, r
			}
		}
	}
	return -1, -1
}

// InCheck reports whether the side to move is in check.
func (p *Pos) InCheck() bool {
	f, r := p.kingSquare(p.white)
	return p.attacked(f, r, !p.white)
}

func (p *Pos) pseudo() []move {
	var out []move
	white := p.white
	fwd := 1
	if !white {
		fwd = -1
	}
	lastRank := func(r int) bool { return (white && r == p.ranks-1) || (!white && r == 0) }
	promos := map[Game]string{Gothic: "qcarbn", Keltic: "qrbn"}[p.game]
	addPawn := func(m move) {
		if p.game != GoChess && lastRank(m.r2) {
			for _, c := range []byte(promos) {
				m.promo = c
				out = append(out, m)
			}
			return
		}
		out = append(out, m)
	}
	for r := 0; r < p.ranks; r++ {
		for f := 0; f < p.files; f++ {
			c := p.cells[r][f]
			if !p.own(c, white) {
				continue
			}
			if lower(c) != 'p' {
				for _, t := range p.pieceTargets(f, r, false) {
					out = append(out, move{f1: f, r1: r, f2: t[0], r2: t[1], castleRook: [4]int{-1}})
				}
				continue
			}
			for _, t := range p.pieceTargets(f, r, false) {
				addPawn(move{f1: f, r1: r, f2: t[0], r2: t[1], castleRook: [4]int{-1}})
			}
			switch p.game {
			case GoChess:
				for _, d := range orth {
					if p.at(f+d[0], r+d[1]) == '.' {
						addPawn(move{f1: f, r1: r, f2: f + d[0], r2: r + d[1], castleRook: [4]int{-1}})
					}
				}
			case Keltic:
				if p.at(f, r+fwd) == '.' {
					addPawn(move{f1: f, r1: r, f2: f, r2: r + fwd, castleRook: [4]int{-1}})
				} else {
					for _, df := range []int{-1, 1} {
						if p.at(f+df, r) == '.' {
							addPawn(move{f1: f, r1: r, f2: f + df, r2: r, castleRook: [4]int{-1}})
						}
					}
				}
			case Gothic:
				if p.at(f, r+fwd) == '.' {
					addPawn(move{f1: f, r1: r, f2: f, r2: r + fwd, castleRook: [4]int{-1}})
					start := 1
					if !white {
						start = p.ranks - 2
					}
					if r == start && p.at(f, r+2*fwd) == '.' {
						out = append(out, move{f1: f, r1: r, f2: f, r2: r + 2*fwd, castleRook: [4]int{-1}, double: true})
					}
				}
				for _, df := range []int{-1, 1} {
					if f+df == p.epF && r+fwd == p.epR {
						out = append(out, move{f1: f, r1: r, f2: p.epF, r2: p.epR, castleRook: [4]int{-1}, ep: true})
					}
				}
			}
		}
	}
	if p.game == Gothic {
		out = append(out, p.castles()...)
	}
	return out
}

func (p *Pos) castles() []move {
	var out []move
	r, k, q := 0, "K", "Q"
	if !p.white {
		r, k, q = p.ranks-1, "k", "q"
	}
	for _, c := range []struct {
		right           string
		kTo, rFrom, rTo int
	}{{k, 8, 9, 7}, {q, 2, 0, 3}} {
		if !strings.Contains(p.castle, c.right) {
			continue
		}
		lo, hi := min(5, c.rFrom), max(5, c.rFrom)
		ok := true
		for f := lo + 1; f < hi; f++ {
			ok = ok && p.at(f, r) == '.'
		}
		step := 1
		if c.kTo < 5 {
			step = -1
		}
		for f := 5; ok; f += step {
			ok = !p.attacked(f, r, !p.white)
			if f == c.kTo {
				break
			}
		}
		if ok {
			out = append(out, move{f1: 5, r1: r, f2: c.kTo, r2: r, castleRook: [4]int{c.rFrom, r, c.rTo, r}})
		}
	}
	return out
}

func (p *Pos) play(m move) *Pos {
	n := &Pos{game: p.game, files: p.files, ranks: p.ranks, white: !p.white, epF: -1, epR: -1}
	n.cells = make([][]byte, p.ranks)
	for r := range p.cells {
		n.cells[r] = append([]byte(nil), p.cells[r]...)
	}
	c := n.cells[m.r1][m.f1]
	n.cells[m.r1][m.f1] = '.'
	if m.ep {
		n.cells[m.r1][m.f2] = '.'
	}
	if m.promo != 0 {
		c = m.promo
		if p.white {
			c -= 32
		}
	}
	n.cells[m.r2][m.f2] = c
	if m.castleRook[0] >= 0 {
		rk := n.cells[m.castleRook[1]][m.castleRook[0]]
		n.cells[m.castleRook[1]][m.castleRook[0]] = '.'
		n.cells[m.castleRook[3]][m.castleRook[2]] = rk
	}
	if m.double {
		n.epF, n.epR = m.f1, (m.r1+m.r2)/2
	}
	// Castling rights go with a king or rook leaving, or a rook being taken on, its square.
	keep := ""
	for _, right := range p.castle {
		rank, rf := 0, 9
		if right == 'q' || right == 'Q' {
			rf = 0
		}
		if right == 'k' || right == 'q' {
			rank = p.ranks - 1
		}
		touched := func(f, r int) bool { return r == rank && (f == 5 || f == rf) }
		if !touched(m.f1, m.r1) && !touched(m.f2, m.r2) {
			keep += string(right)
		}
	}
	n.castle = keep
	return n
}

// Moves returns the legal moves in coordinates.
func (p *Pos) Moves() []string {
	var out []string
	for _, m := range p.legal() {
		out = append(out, m.uci())
	}
	return out
}

func (p *Pos) legal() []move {
	var out []move
	for _, m := range p.pseudo() {
		n := p.play(m)
		f, r := n.kingSquare(p.white)
		if !n.attacked(f, r, !p.white) {
			out = append(out, m)
		}
	}
	return out
}

// Perft counts the leaves of the legal move tree.
func (p *Pos) Perft(depth int) uint64 {
	if depth == 0 {
		return 1
	}
	moves := p.legal()
	if depth == 1 {
		return uint64(len(moves))
	}
	var n uint64
	for _, m := range moves {
		n += p.play(m).Perft(depth - 1)
	}
	return n
}

// Divide returns the perft below each legal move, keyed by coordinates.
func (p *Pos) Divide(depth int) map[string]uint64 {
	out := map[string]uint64{}
	for _, m := range p.legal() {
		out[m.uci()] = p.play(m).Perft(depth - 1)
	}
	return out
}
