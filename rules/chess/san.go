package chess

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/board"
)

// maxListed is how many candidate moves an error message lists.
const maxListed = 10

// SAN returns the Standard Algebraic Notation of the legal move m: piece letter,
// disambiguation, x for a capture, destination, =X for a promotion, + or #.
// Castling is O-O (toward the higher files) or O-O-O. A pawn's move off its file
// without capturing (Keltic's sideways step, Go-Chess's pawns) names its file, and
// a pawn that still needs telling apart names its whole square. A move that is not
// legal is given in coordinates.
func (p *Position) SAN(m rules.Move) string {
	x, ok := p.find(m)
	if !ok {
		return p.UCI(m)
	}
	return p.san(x)
}

func (p *Position) san(x Move) string {
	s := p.sanNoSuffix(x)
	next := p.playPacked(x)
	if next.InCheck() {
		if len(next.info().moves) == 0 {
			return s + "#"
		}
		return s + "+"
	}
	return s
}

func (p *Position) sanNoSuffix(x Move) string {
	st := &p.st
	d := st.t.spec.Dims
	from, to := x.From(), x.To()
	if x.IsCastling() {
		if d.File(to) > d.File(from) {
			return "O-O"
		}
		return "O-O-O"
	}
	kind := st.sq[from].kind()
	capture := st.sq[to] != 0 || x.IsEnPassant()
	var b strings.Builder
	if kind == rules.Pawn {
		prefix := ""
		if capture || d.File(from) != d.File(to) {
			prefix = d.Name(from)[:1]
		}
		for _, o := range p.info().moves {
			if o.To() == to && o.From() != from && st.sq[o.From()].kind() == rules.Pawn && d.File(o.From()) == d.File(from) {
				prefix = d.Name(from)
				break
			}
		}
		b.WriteString(prefix)
	} else {
		b.WriteByte(kind.Letter())
		var others []rules.Square
		for _, o := range p.info().moves {
			if o.To() == to && o.From() != from && !o.IsCastling() && st.sq[o.From()].kind() == kind {
				others = append(others, o.From())
			}
		}
		if len(others) > 0 {
			sameFile, sameRank := false, false
			for _, o := range others {
				sameFile = sameFile || d.File(o) == d.File(from)
				sameRank = sameRank || d.Rank(o) == d.Rank(from)
			}
			name := d.Name(from)
			switch {
			case !sameFile:
				b.WriteString(name[:1])
			case !sameRank:
				b.WriteString(name[1:])
			default:
				b.WriteString(name)
			}
		}
	}
	if capture {
		b.WriteByte('x')
	}
	b.WriteString(d.Name(to))
	if k := x.Promotion(); k != rules.NoPiece {
		b.WriteByte('=')
		b.WriteByte(k.Letter())
	}
	return b.String()
}

// sanList names the moves in SAN, the first maxListed of them: the English list
// and the list arg of a refusal (rules.ListArg).
func (p *Position) sanList(moves []Move) (string, string) {
	var names []string
	for i, m := range moves {
		if i == maxListed {
			break
		}
		names = append(names, p.san(m))
	}
	return listed(names, len(moves)-len(names))
}

// listed returns names with "and N more" for the more left out, as English and
// as a refusal's list arg.
func listed(names []string, more int) (string, string) {
	arg := rules.ListArg(names, more)
	if more > 0 {
		names = append(slices.Clip(names), fmt.Sprintf("and %d more", more))
	}
	return strings.Join(names, ", "), arg
}

// reason is why a move is illegal: a clause (lower case, no full stop) in English
// and its key and args in the rules' catalogue (chess.illegal.<key>).
type reason struct {
	key  string
	args rules.Args
	text string
}

// because returns the reason key with args, written in English by format.
func because(key string, args rules.Args, format string, a ...any) reason {
	return reason{key: key, args: args, text: fmt.Sprintf(format, a...)}
}

// illegal refuses the move text for a reason: "You cannot play "Nf3": no knight
// can reach f3.", keyed chess.illegal.<key> with the text as the arg Move.
func illegal(text string, r reason) error {
	args := rules.Args{"Move": rules.Echo(text)}
	for k, v := range r.args {
		args[k] = v
	}
	return rules.RefuseAs(rules.ErrIllegalMove, "chess.illegal."+r.key, args, "You cannot play %s: %s", rules.Echo(text), endSentence(r.text))
}

// endSentence returns s with a full stop unless it already ends a sentence.
func endSentence(s string) string {
	if strings.HasSuffix(s, ".") || strings.HasSuffix(s, "?") || strings.HasSuffix(s, ")") {
		return s
	}
	return s + "."
}

// badNotation refuses text that is not a move at all, with examples of the variant's moves.
func (v *Variant) badNotation(text string) error {
	d := v.spec.Dims
	examples := "e4, Nf3, exd5"
	if len(v.spec.Castlings) > 0 {
		examples += ", O-O"
	}
	if len(v.spec.Pawn.Promotions) > 0 {
		examples += fmt.Sprintf(", e%d=Q", d.Ranks)
	}
	last := d.Name(d.Square(d.Files-1, d.Ranks-1))
	how := fmt.Sprintf("a move like %s, or in coordinates like e2e4 (squares a1 to %s)", examples, last)
	args := rules.Args{"Examples": examples, "Last": last}
	if text == "" {
		return rules.RefuseAs(rules.ErrBadNotation, "chess.notation.empty", args, "Write %s.", how)
	}
	args["Text"] = rules.Echo(text)
	return rules.RefuseAs(rules.ErrBadNotation, "chess.notation.unreadable", args, "I cannot read %s as a move; write %s.", rules.Echo(text), how)
}

// ParseMove reads a move in SAN or coordinates, forgivingly: x, +, #, = and
// annotations may be left out or added, O-O may be written 0-0 or o-o, and letters
// may be in either case. Forgiveness never changes what a move means: the text read
// exactly as written (standard SAN, or coordinates in lower case) decides when it
// fits a legal move; otherwise every forgiving reading is tried and the move is
// accepted only when exactly one legal move fits (C6C5 is refused as ambiguous when
// both the pawn c6-c5 and a chancellor on rank 6 can go to c5). A bare destination
// is a pawn's step, never a capture. It returns the legal move meant, or an error
// wrapping ErrBadNotation, ErrIllegalMove (with the reason and the candidates when
// few) or ErrAmbiguousMove (with the ways to say each).
func (p *Position) ParseMove(text string) (rules.Move, error) {
	x, err := p.parseMove(text)
	if err != nil {
		return rules.NullMove, err
	}
	return x.ToRules(), nil
}

// maxMoveText is the longest text read as a move.
const maxMoveText = 24

func (p *Position) parseMove(text string) (Move, error) {
	d := p.st.t.spec.Dims
	raw := strings.TrimSpace(text)
	if raw == "" || len(raw) > maxMoveText {
		return 0, p.st.t.v.badNotation(raw)
	}
	if o := p.Outcome(); o.IsOver() {
		e := rules.GameOver(o)
		e.Cause = rules.ErrIllegalMove
		return 0, e
	}
	s := raw
	for _, suf := range []string{"e.p.", "ep"} {
		s = strings.TrimSpace(strings.TrimSuffix(s, suf))
	}
	s = strings.TrimRight(s, "+#!? ")
	if s == "" {
		return 0, p.st.t.v.badNotation(raw)
	}
	if c := strings.ReplaceAll(strings.ToUpper(strings.ReplaceAll(s, "0", "O")), "-", ""); c == "OO" || c == "OOO" {
		return p.parseCastling(raw, c == "OO")
	}
	// Every reading of the text, exact or forgiving, with the legal moves it fits.
	var exact, loose []Move
	add := func(ms []Move, ex bool) {
		for _, m := range ms {
			if ex && !slices.Contains(exact, m) {
				exact = append(exact, m)
			} else if !ex && !slices.Contains(loose, m) {
				loose = append(loose, m)
			}
		}
	}
	coord, isCoord, coordExact, cerr := p.scanCoordinates(raw, s)
	if isCoord && cerr == nil {
		add(p.coordMoves(coord), coordExact)
	}
	readings, bare := p.sanReadings(s)
	for _, r := range readings {
		add(p.match(r.q), r.exact)
	}
	cands, forgiven := exact, false
	if len(cands) == 0 {
		cands, forgiven = loose, true
	}
	switch {
	case len(cands) == 1:
		return cands[0], nil
	case len(cands) > 1:
		return 0, p.ambiguous(raw, cands, isCoord, forgiven)
	}
	// Nothing fits: say why, after the reading the text most likely meant (a piece
	// move when it starts with an upper-case piece letter, else coordinates).
	k, isPiece := rules.PieceKindFromLetter(s[0])
	pieceFirst := isPiece && s[0] >= 'A' && s[0] <= 'Z' && p.st.t.v.hasKind(k) && k != rules.Pawn
	switch {
	case isCoord && (!pieceFirst || len(readings) == 0):
		if cerr != nil {
			return 0, cerr
		}
		return 0, p.explain(coord)
	case len(readings) == 0:
		return 0, p.st.t.v.badNotation(raw)
	case bare:
		if caps := p.pawnCaptures(readings[0].q.to); len(caps) > 0 {
			or, arg := p.orList(caps)
			return 0, illegal(raw, because("pawn.capture", rules.Args{"Square": d.Name(readings[0].q.to), "MovesOr": arg},
				"no pawn can move to %s; did you mean %s?", d.Name(readings[0].q.to), or))
		}
	}
	return 0, p.explainSAN(raw, readings[0].q)
}

// ambiguous refuses text that fits several legal moves, listing them.
func (p *Position) ambiguous(raw string, cands []Move, isCoord, forgiven bool) error {
	slices.SortStableFunc(cands, func(a, b Move) int {
		if a.From() != b.From() {
			return int(a.From()) - int(b.From())
		}
		return int(a.To()) - int(b.To())
	})
	samePromo := true
	for _, m := range cands {
		samePromo = samePromo && m.From() == cands[0].From() && m.To() == cands[0].To()
	}
	switch {
	case samePromo && isCoord:
		var names []string
		for _, m := range cands {
			names = append(names, p.UCI(m.ToRules()))
		}
		text, arg := listed(names, 0)
		return rules.RefuseAs(rules.ErrAmbiguousMove, "chess.ambiguous.promotion", rules.Args{"MovesList": arg}, "Say what the pawn becomes: %s.", text)
	case samePromo:
		text, arg := p.sanList(cands)
		return rules.RefuseAs(rules.ErrAmbiguousMove, "chess.ambiguous.promotion", rules.Args{"MovesList": arg}, "Say what the pawn becomes: %s.", text)
	case forgiven:
		var names []string
		for _, m := range cands {
			names = append(names, p.san(m)+" ("+p.UCI(m.ToRules())+")")
		}
		text, arg := listed(names, 0)
		return rules.RefuseAs(rules.ErrAmbiguousMove, "chess.ambiguous.forgiven", rules.Args{"Text": rules.Echo(raw), "Count": strconv.Itoa(len(cands)), "MovesList": arg},
			"Which move do you mean by %s? It can be read as %d moves: %s.", rules.Echo(raw), len(cands), text)
	}
	text, arg := p.sanList(cands)
	return rules.RefuseAs(rules.ErrAmbiguousMove, "chess.ambiguous.moves", rules.Args{"Text": rules.Echo(raw), "Count": strconv.Itoa(len(cands)), "MovesList": arg},
		"Which move do you mean by %s? %d moves fit: %s.", rules.Echo(raw), len(cands), text)
}

// pawnCaptures returns the legal pawn captures onto to.
func (p *Position) pawnCaptures(to rules.Square) []Move {
	st := &p.st
	var out []Move
	for _, m := range p.info().moves {
		if m.To() == to && st.sq[m.From()].kind() == rules.Pawn && (st.sq[to] != 0 || m.IsEnPassant()) {
			out = append(out, m)
		}
	}
	return out
}

// orList names the moves in SAN as "a", "a or b", "a, b or c", and as a
// refusal's "Or" arg (rules.Error).
func (p *Position) orList(moves []Move) (string, string) {
	var names []string
	for _, m := range moves {
		names = append(names, p.san(m))
	}
	arg := rules.ListArg(names, 0)
	if len(names) == 1 {
		return names[0], arg
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1], arg
}

func (p *Position) parseCastling(raw string, kingside bool) (Move, error) {
	st := &p.st
	d := st.t.spec.Dims
	for _, m := range p.info().moves {
		if m.IsCastling() && (d.File(m.To()) > d.File(m.From())) == kingside {
			return m, nil
		}
	}
	side := "queenside"
	if kingside {
		side = "kingside"
	}
	wing := rules.Args{}
	var rule *castleRule
	for i := range st.t.castles[st.turn] {
		if c := &st.t.castles[st.turn][i]; c.kingside == kingside {
			rule = c
		}
	}
	switch {
	case rule == nil:
		return 0, illegal(raw, because("castle.none", rules.Args{"Variant": st.t.spec.Key}, "there is no castling in %s", st.t.spec.Name))
	case st.castling&rule.right == 0:
		return 0, illegal(raw, because("castle.moved."+side, wing, "you can no longer castle %s: your king or that rook has moved", side))
	case st.all().And(rule.empty).Any():
		return 0, illegal(raw, because("castle.blocked."+side, wing, "every square between the king and the rook must be empty to castle %s", side))
	case st.inCheck():
		return 0, illegal(raw, castleCheck)
	}
	return 0, illegal(raw, castleAttacked)
}

// The reasons castling is refused in check or through attacked squares.
var (
	castleCheck    = because("castle.check", nil, "you cannot castle out of check")
	castleAttacked = because("castle.attacked", nil, "the king would cross or land on an attacked square")
)

// scanPromotion reads "=X", "X" or "(X)" after the destination at the end of s
// and returns the rest.
func (p *Position) scanPromotion(s string) (string, rules.PieceKind, bool) {
	s = strings.TrimSuffix(s, ")")
	if n := len(s); n >= 3 {
		c := s[n-1]
		k, ok := rules.PieceKindFromLetter(c)
		prev := s[n-2]
		if ok && (prev == '=' || prev == '(' || (prev >= '0' && prev <= '9')) {
			return strings.TrimRight(s[:n-1], "=("), k, true
		}
	}
	return s, rules.NoPiece, false
}

// isLower reports whether c is a lower-case ASCII letter.
func isLower(c byte) bool { return c >= 'a' && c <= 'z' }

// scanCoordinates reads s as two squares and an optional promotion letter. It
// reports whether s has that shape, whether both squares are written in lower case
// (the exact spelling), and an error when what follows the squares cannot be read.
func (p *Position) scanCoordinates(raw, s string) (m rules.Move, ok, exact bool, err error) {
	d := p.st.t.spec.Dims
	from, n := d.ScanSquare(s)
	if n == 0 {
		return m, false, false, nil
	}
	rest := strings.TrimLeft(s[n:], "-x:")
	to, n2 := d.ScanSquare(rest)
	if n2 == 0 {
		return m, false, false, nil
	}
	exact = isLower(s[0]) && isLower(rest[0])
	rest = strings.TrimPrefix(rest[n2:], "=")
	m = rules.Move{From: from, To: to}
	if rest != "" {
		k, ok := rules.PieceKindFromLetter(rest[0])
		if !ok || len(rest) > 1 {
			return m, true, exact, p.st.t.v.badNotation(raw)
		}
		m.Promotion = k
	}
	return m, true, exact, nil
}

// coordMoves returns the legal moves from m.From to m.To (with m's promotion, if any).
func (p *Position) coordMoves(m rules.Move) []Move {
	var out []Move
	for _, x := range p.info().moves {
		if x.From() == m.From && x.To() == m.To && (m.Promotion == rules.NoPiece || x.Promotion() == m.Promotion) {
			out = append(out, x)
		}
	}
	return out
}

type sanQuery struct {
	kind       rules.PieceKind
	file, rank int // -1 when not given
	to         rules.Square
	promo      rules.PieceKind
	strictPawn bool // a pawn move without a file: from the destination's file
	push       bool // a pawn move that does not capture (a bare destination)
}

func (p *Position) match(q sanQuery) []Move {
	st := &p.st
	d := st.t.spec.Dims
	var out []Move
	for _, m := range p.info().moves {
		from := m.From()
		if m.To() != q.to || st.sq[from].kind() != q.kind ||
			(q.file >= 0 && d.File(from) != q.file) || (q.rank >= 0 && d.Rank(from) != q.rank) ||
			(q.promo != rules.NoPiece && m.Promotion() != q.promo) ||
			(q.strictPawn && d.File(from) != d.File(q.to)) ||
			(q.push && (st.sq[q.to] != 0 || m.IsEnPassant())) {
			continue
		}
		out = append(out, m)
	}
	return out
}

// sanReading is one way of understanding a move's text as SAN; exact when the text
// is standard SAN for it (piece letter in upper case, files in lower case, a pawn
// step on its own file), forgiving otherwise.
type sanReading struct {
	q     sanQuery
	exact bool
}

// sanReadings returns the ways s can be read as SAN, the most likely first, and
// whether s is a bare destination (a pawn's step).
func (p *Position) sanReadings(s string) (out []sanReading, bare bool) {
	st := &p.st
	v := st.t.v
	d := st.t.spec.Dims
	s, promo, _ := p.scanPromotion(s)
	// The destination is the last square of the text.
	end := len(s)
	start := -1
	for i := end - 1; i >= 0 && i >= end-3; i-- {
		if c := s[i]; (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') {
			if _, n := d.ScanSquare(s[i:]); n == end-i && n > 0 {
				start = i
			}
			break
		}
	}
	if start < 0 {
		return nil, false
	}
	to, _ := d.ScanSquare(s[start:])
	lowerTo := isLower(s[start])
	prefix := strings.Map(func(r rune) rune {
		if r == 'x' || r == 'X' || r == ':' || r == '-' {
			return -1
		}
		return r
	}, s[:start])
	if len(prefix) > 4 {
		return nil, false
	}
	// Each reading of the prefix: a piece letter or not, then an optional file and rank.
	read := func(kind rules.PieceKind, rest string, exact bool) {
		q := sanQuery{kind: kind, file: -1, rank: -1, to: to, promo: promo}
		if rest != "" {
			c := rest[0] | 0x20
			if c >= 'a' && int(c-'a') < d.Files {
				q.file = int(c - 'a')
				exact = exact && isLower(rest[0])
				rest = rest[1:]
			}
		}
		if rest != "" {
			r := 0
			for i := 0; i < len(rest); i++ {
				if rest[i] < '0' || rest[i] > '9' || i > 1 {
					return
				}
				r = r*10 + int(rest[i]-'0')
			}
			if r < 1 || r > d.Ranks {
				return
			}
			q.rank = r - 1
		}
		// A pawn named without its file (Pe4) steps; it does not capture.
		q.push = kind == rules.Pawn && q.file < 0
		out = append(out, sanReading{q: q, exact: exact && lowerTo})
	}
	if prefix == "" {
		// A bare destination: a pawn's step from the destination's file (standard
		// SAN), or from any file (Keltic's sideways step, Go-Chess's pawns).
		push := sanQuery{kind: rules.Pawn, file: -1, rank: -1, to: to, promo: promo, push: true}
		strict := push
		strict.strictPawn = true
		return []sanReading{{q: strict, exact: lowerTo}, {q: push}}, true
	}
	c := prefix[0]
	k, isPiece := rules.PieceKindFromLetter(c)
	isPiece = isPiece && v.hasKind(k) && k != rules.Pawn
	isFile := int((c|0x20)-'a') < d.Files && (c|0x20) >= 'a'
	upper := c >= 'A' && c <= 'Z'
	if (c == 'P' || c == 'p') && !isFile {
		read(rules.Pawn, prefix[1:], true)
		bare = len(prefix) == 1
	}
	if upper {
		if isPiece {
			read(k, prefix[1:], true)
		}
		if isFile {
			read(rules.Pawn, prefix, false)
		}
	} else {
		if isFile {
			read(rules.Pawn, prefix, true)
		}
		if isPiece {
			read(k, prefix[1:], false)
		}
	}
	return out, bare
}

// explainSAN says why no legal move fits q.
func (p *Position) explainSAN(raw string, q sanQuery) error {
	st := &p.st
	d := st.t.spec.Dims
	if !st.t.geo.IsOpen(q.to) {
		return illegal(raw, p.cellProblem(q.to))
	}
	if st.pieces[st.turn][q.kind].IsEmpty() {
		return illegal(raw, because("nopiece", rules.Args{"LackPiece": q.kind.String()}, "you have no %s", q.kind))
	}
	if q.promo != rules.NoPiece && !st.t.v.canPromoteTo(q.promo) {
		return illegal(raw, p.promotionProblem())
	}
	var buf [MaxMoves]Move
	for _, m := range st.generate(buf[:0], genPseudo) {
		if m.To() == q.to && st.sq[m.From()].kind() == q.kind &&
			(q.file < 0 || d.File(m.From()) == q.file) && (q.rank < 0 || d.Rank(m.From()) == q.rank) &&
			(!q.push || (st.sq[q.to] == 0 && !m.IsEnPassant())) {
			return illegal(raw, p.selfCheck())
		}
	}
	var mine []Move
	for _, m := range p.info().moves {
		if st.sq[m.From()].kind() == q.kind {
			mine = append(mine, m)
		}
	}
	what := "no " + q.kind.String()
	key := "noreach.any"
	args := rules.Args{"NonePiece": q.kind.String(), "Square": d.Name(q.to)}
	if q.file >= 0 || q.rank >= 0 {
		var origin string
		key, origin = describeOrigin(d, q.file, q.rank, args)
		what = fmt.Sprintf("no %s from the %s", q.kind, origin)
	}
	if len(mine) == 0 {
		args["YoursPiece"] = q.kind.String()
		return illegal(raw, because(key+".stuck", args, "%s can reach %s, and your %ss have no legal move", what, d.Name(q.to), q.kind))
	}
	text, list := p.sanList(mine)
	args["MovesPiece"], args["MovesList"] = q.kind.String(), list
	return illegal(raw, because(key+".moves", args, "%s can reach %s; %s moves here: %s", what, d.Name(q.to), q.kind, text))
}

// describeOrigin names where a SAN move's piece comes from, "square e2", "e-file"
// or "rank 2", with the key of the reason's sentence, adding its args to args.
func describeOrigin(d rules.Dims, file, rank int, args rules.Args) (string, string) {
	switch {
	case file >= 0 && rank >= 0:
		args["From"] = d.Name(d.Square(file, rank))
		return "noreach.square", "square " + d.Name(d.Square(file, rank))
	case file >= 0:
		args["File"] = string(rune('a' + file))
		return "noreach.file", string(rune('a'+file)) + "-file"
	}
	args["Rank"] = strconv.Itoa(rank + 1)
	return "noreach.rank", fmt.Sprintf("rank %d", rank+1)
}

func (p *Position) cellProblem(sq rules.Square) reason {
	d := p.st.t.spec.Dims
	args := rules.Args{"Square": d.Name(sq)}
	if p.st.t.geo.State(sq) == rules.Blocked {
		return because("cell.blocked", args, "%s is a blocked cell: nothing may stand there", d.Name(sq))
	}
	return because("cell.missing", args, "%s is not a cell of this board", d.Name(sq))
}

func (p *Position) selfCheck() reason {
	if p.InCheck() {
		return because("check.stays", nil, "you are in check and this move does not get you out of it")
	}
	return because("check.exposes", nil, "it would leave your king in check")
}

func (p *Position) promotionProblem() reason {
	var letters []string
	for _, k := range p.st.t.spec.Pawn.Promotions {
		letters = append(letters, string(k.Letter()))
	}
	if len(letters) == 0 {
		return because("promotion.never", rules.Args{"Variant": p.st.t.spec.Key}, "pawns never promote in %s", p.st.t.spec.Name)
	}
	return because("promotion.only", rules.Args{"Letters": strings.Join(letters, ", ")}, "a pawn can only become %s", strings.Join(letters, ", "))
}

// explain says why the move m is not legal.
func (p *Position) explain(m rules.Move) error {
	st := &p.st
	d := st.t.spec.Dims
	g := st.t.geo
	text := p.UCI(m)
	if m.Drop != rules.NoPiece || m.From == rules.NoSquare {
		return illegal(text, because("placed", rules.Args{"Variant": st.t.spec.Key}, "pieces are moved, not placed, in this phase of %s", st.t.spec.Name))
	}
	if !d.Contains(m.From) || !d.Contains(m.To) {
		return illegal(text, because("offboard", rules.Args{"Files": strconv.Itoa(d.Files), "Ranks": strconv.Itoa(d.Ranks)},
			"the squares must be on the %dx%d board", d.Files, d.Ranks))
	}
	if !g.IsOpen(m.From) {
		return illegal(text, p.cellProblem(m.From))
	}
	pc := st.sq[m.From]
	if pc == 0 {
		return illegal(text, because("empty", rules.Args{"From": d.Name(m.From)}, "there is no piece on %s", d.Name(m.From)))
	}
	if pc.side() != st.turn {
		return illegal(text, because("notyours", rules.Args{"ThePiece": pc.kind().String(), "PieceSide": pc.side().String(), "From": d.Name(m.From), "TurnSide": st.turn.String()},
			"the %s on %s is not yours: it is %s's turn", pc.rules(), d.Name(m.From), st.turn))
	}
	if !g.IsOpen(m.To) {
		return illegal(text, p.cellProblem(m.To))
	}
	if m.Promotion != rules.NoPiece && (pc.kind() != rules.Pawn || !st.t.v.canPromoteTo(m.Promotion)) {
		if pc.kind() != rules.Pawn {
			return illegal(text, because("promotion.pawnsonly", nil, "only a pawn can promote"))
		}
		return illegal(text, p.promotionProblem())
	}
	var buf [MaxMoves]Move
	var sameDest []Move
	for _, x := range st.generate(buf[:0], genPseudo) {
		if x.From() == m.From && x.To() == m.To {
			sameDest = append(sameDest, x)
		}
	}
	for _, x := range sameDest {
		if x.Promotion() == m.Promotion {
			if x.IsCastling() {
				if st.inCheck() {
					return illegal(text, castleCheck)
				}
				return illegal(text, castleAttacked)
			}
			return illegal(text, p.selfCheck())
		}
	}
	if len(sameDest) > 0 && m.Promotion == rules.NoPiece {
		var names []string
		for _, x := range sameDest {
			names = append(names, p.UCI(x.ToRules()))
		}
		list, arg := listed(names, 0)
		return illegal(text, because("promotion.which", rules.Args{"MovesList": arg}, "say what the pawn becomes: %s", list))
	}
	if len(sameDest) > 0 {
		return illegal(text, because("promotion.lastrank", nil, "a pawn promotes only on reaching its last rank"))
	}
	var dests []string
	for _, x := range p.info().moves {
		if x.From() == m.From {
			dests = append(dests, p.UCI(x.ToRules()))
		}
	}
	kind := pc.kind()
	args := rules.Args{"ThePiece": kind.String(), "From": d.Name(m.From), "To": d.Name(m.To)}
	if len(dests) == 0 {
		return illegal(text, because("cannotgo.stuck", args, "the %s on %s cannot go to %s; it has no legal move", kind, d.Name(m.From), d.Name(m.To)))
	}
	more := 0
	if len(dests) > maxListed {
		dests, more = dests[:maxListed], len(dests)-maxListed
	}
	list, arg := listed(dests, more)
	args["MovesList"] = arg
	return illegal(text, because("cannotgo.moves", args, "the %s on %s cannot go to %s; its moves: %s", kind, d.Name(m.From), d.Name(m.To), list))
}

var _ = board.MaxCells
