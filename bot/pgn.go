package bot

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/storage"
)

// PGN export.
//
// Every game gets the Seven Tag Roster plus Variant (the variant key: gothic, keltic,
// gochess, gess), SetUp "1" and FEN (the position the movetext starts from, in the
// variant's own position text), TimeControl "1/N" (one move per N seconds, the days
// per move), Termination, Outcome (how the game ended, in words, such as "drawn on
// time, as the other side could not possibly win") and, in tournaments, the round.
// Movetext uses the display notation (SAN; Gess "m3-m6"/"m3xm6"), numbered so that
// "1." is a White move: a game whose first mover is Black (Gess, some Go-Chess
// games) starts "1...".
//
// Go-Chess placement: the FEN tag holds the position when placement ended (the
// position the moves start from), the tag PlacementFEN the empty board with its
// blocked cells, the tag Seed the game's random seed, and a comment before the
// first move lists the revealed rounds ("{Placement: 1. P@d4 P@e7 2. ...}",
// White's choice first, a round chosen again shown as "(again)"). Choices still
// secret are never exported; while placement goes on, FEN is the last revealed
// position and the movetext is empty.

// pgnVariantTag returns the Variant tag value of a variant key.
func pgnVariantTag(key string) string { return key }

// pgn returns the PGN text of g.
func (s *Service) pgn(g *storage.Game) (string, error) {
	v, err := s.reg.Lookup(g.Variant)
	if err != nil {
		return "", err
	}
	all, err := replaySteps(v, g, -1)
	if err != nil {
		return "", err
	}
	steps := public(all)
	start, err := startPosition(v, g)
	if err != nil {
		return "", err
	}
	placement, moves := splitPlacement(steps)
	fen := start.String()
	if len(placement) > 0 {
		fen = placement[len(placement)-1].After.String()
	}
	var b strings.Builder
	tag := func(name, value string) {
		fmt.Fprintf(&b, "[%s \"%s\"]\n", name, strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(value))
	}
	event := "Missive casual game"
	if g.Rated {
		event = "Missive rated game"
	}
	round := "-"
	if g.Tournament != "" {
		event = "Missive tournament " + g.Tournament
		round = strconv.Itoa(g.Round)
	}
	if g.Match != "" {
		event = "Missive engine match " + g.Match
		round = strconv.Itoa(g.Round)
	}
	tag("Event", event)
	tag("Site", s.site)
	tag("Date", g.CreatedAt.UTC().Format("2006.01.02"))
	tag("Round", round)
	tag("White", seatName(g.Players[rules.White]))
	tag("Black", seatName(g.Players[rules.Black]))
	tag("Result", result(g.Outcome))
	tag("Variant", pgnVariantTag(g.Variant))
	tag("SetUp", "1")
	tag("FEN", fen)
	if _, ok := start.(rules.Simultaneous); ok || len(placement) > 0 {
		tag("PlacementFEN", start.String())
		tag("Seed", strconv.FormatUint(g.Seed, 10))
	}
	if g.Clock.DaysPerMove > 0 {
		tag("TimeControl", fmt.Sprintf("1/%d", g.Clock.DaysPerMove*24*3600))
	} else {
		tag("TimeControl", "-")
	}
	tag("Termination", termination(g.Outcome))
	if g.Outcome.IsOver() {
		tag("Outcome", describeOutcome(g))
	}
	b.WriteString("\n")
	var text []string
	if len(placement) > 0 {
		text = append(text, "{Placement: "+placementText(placement)+"}")
	}
	text = append(text, movetext(moves)...)
	text = append(text, result(g.Outcome))
	b.WriteString(wrap(text, 79))
	b.WriteString("\n")
	return b.String(), nil
}

// result is the PGN result of o: "*" for an aborted game, which has none.
func result(o rules.Outcome) string {
	if o.Reason == rules.Aborted {
		return "*"
	}
	return o.Result()
}

// termination is the PGN Termination tag for o.
func termination(o rules.Outcome) string {
	switch {
	case !o.IsOver():
		return "unterminated"
	case o.Reason == rules.Timeout || o.Reason == rules.TimeoutDraw:
		return "time forfeit"
	case o.Reason == rules.Aborted:
		return "abandoned"
	}
	return "normal"
}

// movetext numbers moves so that "N." starts a White move, counting from the
// fullmove number of the first position.
func movetext(moves []step) []string {
	var out []string
	num := 1
	if len(moves) > 0 {
		num = moveNumber(moves[0].Before)
	}
	for i, st := range moves {
		switch side := st.Before.Turn(); {
		case side == rules.White:
			out = append(out, fmt.Sprintf("%d.", num))
		case i == 0:
			out = append(out, fmt.Sprintf("%d...", num))
		}
		out = append(out, st.SAN)
		if st.Before.Turn() == rules.Black {
			num++
		}
	}
	return out
}

// moveNumber reads the fullmove number from a position text's last field, or 1.
func moveNumber(pos rules.Position) int {
	f := strings.Fields(pos.String())
	if len(f) >= 6 {
		if n, err := strconv.Atoi(f[len(f)-1]); err == nil && n > 0 {
			return n
		}
	}
	return 1
}

// placementText lists revealed placement rounds: "1. P@d4 P@e7 2. ...".
func placementText(steps []step) string {
	var parts []string
	round := 0
	for i := 0; i+1 < len(steps); i += 2 {
		a, b := steps[i], steps[i+1]
		if a.Side == rules.Black {
			a, b = b, a
		}
		num, again := round+1, ""
		if countPieces(publicView(steps[i+1].After)) == countPieces(publicView(steps[i].Before)) {
			again = " (again)"
		} else {
			round++
		}
		parts = append(parts, fmt.Sprintf("%d. %s %s%s", num, a.SAN, b.SAN, again))
	}
	return strings.Join(parts, " ")
}

// wrap joins tokens with spaces into lines of at most width characters.
func wrap(tokens []string, width int) string {
	var b strings.Builder
	line := 0
	for _, t := range tokens {
		if line > 0 && line+1+len(t) > width {
			b.WriteString("\n")
			line = 0
		}
		if line > 0 {
			b.WriteString(" ")
			line++
		}
		b.WriteString(t)
		line += len(t)
	}
	return b.String()
}
