package bot

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/missivechess/missive/bot/words"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/record"
	"github.com/missivechess/missive/storage"
)

// PGN export, written by record.WritePGN (which documents the layout, the position
// tags and the Go-Chess placement comment).
//
// Every game gets the Seven Tag Roster plus Variant (the variant key: gothic, keltic,
// gochess, gess), SetUp "1" and FEN (the position the movetext starts from), for
// Go-Chess PlacementFEN and Seed, then TimeControl: "1/N" (one move per N seconds, the
// days per move), or for a time bank "B+I" (the base and the increment in seconds, the
// standard's form for a control with an increment) followed by TimeBankCap "C" (the
// cap in seconds; the standard has no form for a cap, so "2592000+86400" with
// TimeBankCap "3888000" is 30 days + 1 a move, capped at 45), then Termination, Outcome (how the game ended, in words, such as "drawn
// on time, as the other side could not possibly win") and, in tournaments, the round.
// Movetext uses the display notation (SAN; Gess "m3-m6"/"m3xm6") numbered by
// record.Movetext: chess-family games as in standard PGN (a game set up with Black to
// move starts "N..."), Gess from its first mover (Black): "1. e3-e5 l18xl15 2. ...".
// Choices still secret are never exported. record.ReadPGN reads the result back.

// PGN returns the PGN text of g.
func (s *Service) PGN(g *storage.Game) (string, error) {
	h, err := g.History(s.reg)
	if err != nil {
		return "", err
	}
	p := s.PGNHeader(g)
	p.History = h
	var b strings.Builder
	err = record.WritePGN(&b, p)
	return b.String(), err
}

// PGNHeader returns g's PGN without its history: the tags and the result.
func (s *Service) PGNHeader(g *storage.Game) record.PGN {
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
	extra := append(timeControl(g.Clock), record.Tag{Name: "Termination", Value: termination(g.Outcome)})
	if g.Outcome.IsOver() {
		extra = append(extra, record.Tag{Name: "Outcome", Value: DescribeOutcome(g)})
	}
	return record.PGN{
		Event: event, Site: s.site, Date: g.CreatedAt.UTC().Format("2006.01.02"), Round: round,
		White: words.Seat(g.Players[rules.White]), Black: words.Seat(g.Players[rules.Black]),
		Result: result(g.Outcome), Seed: g.Seed, Extra: extra,
	}
}

// timeControl is the TimeControl tag of c (the PGN standard's forms, in seconds:
// "1/N" one move per N seconds for days per move, "B+I" a base with an increment for
// a time bank, "-" for none) and, for a time bank, TimeBankCap (the cap in seconds,
// which the standard has no form for).
func timeControl(c storage.Clock) []record.Tag {
	secs := func(d time.Duration) string { return strconv.FormatInt(int64(d/time.Second), 10) }
	switch {
	case c.Bank != nil:
		return []record.Tag{{Name: "TimeControl", Value: secs(c.Bank.Base()) + "+" + secs(c.Bank.Increment())},
			{Name: "TimeBankCap", Value: secs(c.Bank.Cap())}}
	case c.DaysPerMove > 0:
		return []record.Tag{{Name: "TimeControl", Value: fmt.Sprintf("1/%d", c.DaysPerMove*24*3600)}}
	}
	return []record.Tag{{Name: "TimeControl", Value: "-"}}
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
