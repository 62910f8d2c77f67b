package gess

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/missivechess/missive/rules"
)

// fault says why a move is not legal; fine means it is.
type fault uint8

const (
	fine         fault = iota
	notGessMove        // a promotion or drop, or a square outside the frame
	emptyBlock         // no stone of the mover's in the block
	enemyInBlock       // an opponent stone in the block
	noDistance         // from == to
	notALine           // not along a rank, file or diagonal
	noPerimeter        // no stone of the piece's perimeter in that direction
	tooFar             // more than 3 squares without a centre stone
	obstructed         // the footprint overlaps a stone before reaching the target
)

// verdict is the result of judging a move, with what an explanation needs.
type verdict struct {
	fault fault
	dir   direction
	dist  int          // squares travelled (or asked for)
	stop  rules.Square // obstructed: the centre where the piece must stop
}

// IsLegal reports whether m is a legal move of the side to move, not looking at
// whether the game is already decided; it does not allocate, so a search can test a
// move from its transposition table or killer slots.
func (b *Board) IsLegal(m rules.Move) bool { return b.judge(m).fault == fine }

// judge checks m against the rules of movement.
func (b *Board) judge(m rules.Move) verdict {
	if m.Promotion != rules.NoPiece || m.Drop != rules.NoPiece ||
		m.From < 0 || int(m.From) >= Size*Size || m.To < 0 || int(m.To) >= Size*Size {
		return verdict{fault: notGessMove}
	}
	f, r := coords(m.From)
	own := &b.stones[b.turn]
	mine := block(own, f, r)
	switch {
	case block(&b.stones[b.turn^1], f, r) != 0:
		return verdict{fault: enemyInBlock}
	case mine == 0:
		return verdict{fault: emptyBlock}
	case m.From == m.To:
		return verdict{fault: noDistance}
	}
	tf, tr := coords(m.To)
	df, dr := tf-f, tr-r
	dist := max(abs(df), abs(dr))
	if df != 0 && dr != 0 && abs(df) != abs(dr) {
		return verdict{fault: notALine, dist: dist}
	}
	d := directions[dirIndex(sign(df), sign(dr))]
	switch {
	case mine>>d.bit&1 == 0:
		return verdict{fault: noPerimeter, dir: d, dist: dist}
	case mine>>centreBit&1 == 0 && dist > 3:
		return verdict{fault: tooFar, dir: d, dist: dist}
	}
	var all [rowCount]uint32
	for i := range all {
		all[i] = b.stones[0][i] | b.stones[1][i]
	}
	mask := uint32(rowOfBlock) << f
	all[r] &^= mask
	all[r+1] &^= mask
	all[r+2] &^= mask
	for k := 1; k < dist; k++ {
		nf, nr := f+k*d.df, r+k*d.dr
		if (all[nr]|all[nr+1]|all[nr+2])>>nf&rowOfBlock != 0 {
			return verdict{fault: obstructed, dir: d, dist: dist, stop: square(nf, nr)}
		}
	}
	return verdict{fault: fine, dir: d, dist: dist}
}

// dirIndex returns the index in directions of the step (df, dr), which is not (0, 0).
func dirIndex(df, dr int) int {
	i := (dr+1)*3 + df + 1
	if i > centreBit {
		i--
	}
	return i
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func sign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// explain returns nil when m is legal, or an error wrapping rules.ErrIllegalMove that
// says which rule it breaks and how to move instead.
func (b *Board) explain(m rules.Move) error {
	v := b.judge(m)
	if v.fault == fine {
		return nil
	}
	name := squareName
	var why string
	key := ""
	args := rules.Args{"Move": squareName(m.From) + "-" + squareName(m.To), "From": name(m.From), "To": name(m.To)}
	switch v.fault {
	case notGessMove:
		key = "notmove"
		why = "a Gess move names two footprint centres inside the frame (a1-t20) and nothing else"
	case emptyBlock:
		key = "empty"
		args["TurnSide"] = b.turn.String()
		why = fmt.Sprintf("no piece of yours: the 3x3 block centred on %s holds none of your stones (%s to move)",
			name(m.From), b.turn)
	case enemyInBlock:
		theirs := b.blockStones(b.turn.Other(), m.From)
		key = "enemy"
		args["StoneOfSide"], args["StonesAnd"] = b.turn.Other().String(), squaresArg(theirs)
		why = fmt.Sprintf("no piece of yours: the 3x3 block centred on %s holds %s %s on %s, and a piece may hold only your own stones",
			name(m.From), b.turn.Other(), plural(len(theirs), "stone", "stones"), list(theirs))
		if len(theirs) == 1 {
			key = "enemy.one"
		}
	case noDistance:
		key = "nodistance"
		why = "a piece must move at least one square"
	case notALine:
		key = "notline"
		why = fmt.Sprintf("%s is not on a straight or diagonal line from %s: a piece moves along a rank, a file or a diagonal",
			name(m.To), name(m.From))
	case noPerimeter:
		f, r := coords(m.From)
		args["Perimeter"], args["Direction"] = name(square(f+v.dir.df, r+v.dir.dr)), v.dir.name
		why = fmt.Sprintf("the piece on %s has no stone on %s, its perimeter square to the %s, so it cannot move %s",
			name(m.From), name(square(f+v.dir.df, r+v.dir.dr)), v.dir.name, v.dir.name)
		if dirs := b.pieceDirections(m.From); dirs != "" {
			key = "perimeter.other"
			args["CanDirections"] = strings.ReplaceAll(dirs, ", ", "\n")
			why += "; it can move " + dirs
		} else {
			key = "perimeter.none"
			why += "; it has no perimeter stone, so it cannot move at all"
		}
	case tooFar:
		key = "toofar"
		args["Distance"] = strconv.Itoa(v.dist)
		why = fmt.Sprintf("the piece on %s has no stone at its centre, so it moves 1 to 3 squares, not %d", name(m.From), v.dist)
	case obstructed:
		hit := b.overlap(m.From, v.stop)
		key = "obstructed"
		if len(hit) == 1 {
			key = "obstructed.one"
		}
		args["Stop"], args["StonesAnd"] = name(v.stop), squaresArg(hit)
		why = fmt.Sprintf("the piece must stop at %s, where its footprint first overlaps the %s on %s, so it cannot go on to %s",
			name(v.stop), plural(len(hit), "stone", "stones"), list(hit), name(m.To))
	}
	return rules.RefuseAs(rules.ErrIllegalMove, "gess.illegal."+key, args, "You cannot play %s: %s.", squareName(m.From)+"-"+squareName(m.To), why)
}

// squaresArg names squares for a refusal's "And" arg (rules.Error).
func squaresArg(sqs []rules.Square) string {
	names := make([]string, len(sqs))
	for i, sq := range sqs {
		names[i] = squareName(sq)
	}
	return rules.ListArg(names, 0)
}

// blockStones lists side's stones in the block centred on c.
func (b *Board) blockStones(side rules.Side, c rules.Square) []rules.Square {
	f, r := coords(c)
	var out []rules.Square
	for dr := -1; dr <= 1; dr++ {
		for df := -1; df <= 1; df++ {
			if !inFrame(f+df, r+dr) {
				continue
			}
			if p := b.At(square(f+df, r+dr)); !p.IsNone() && p.Side == side {
				out = append(out, square(f+df, r+dr))
			}
		}
	}
	return out
}

// overlap lists the stones under the block centred on at that are not in the block
// centred on from (the piece's own stones).
func (b *Board) overlap(from, at rules.Square) []rules.Square {
	f0, r0 := coords(from)
	f, r := coords(at)
	var out []rules.Square
	for dr := -1; dr <= 1; dr++ {
		for df := -1; df <= 1; df++ {
			sf, sr := f+df, r+dr
			if !inFrame(sf, sr) || b.At(square(sf, sr)).IsNone() || (abs(sf-f0) <= 1 && abs(sr-r0) <= 1) {
				continue
			}
			out = append(out, square(sf, sr))
		}
	}
	return out
}

// pieceDirections names the directions the piece centred on c may move in.
func (b *Board) pieceDirections(c rules.Square) string {
	f, r := coords(c)
	mine := block(&b.stones[b.turn], f, r)
	var names []string
	for _, d := range directions {
		if mine>>d.bit&1 != 0 {
			names = append(names, d.name)
		}
	}
	return strings.Join(names, ", ")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// list names squares as "a, b and c".
func list(sqs []rules.Square) string {
	names := make([]string, len(sqs))
	for i, sq := range sqs {
		names[i] = squareName(sq)
	}
	if len(names) <= 1 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}
