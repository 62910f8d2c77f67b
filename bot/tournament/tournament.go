package tournament

import (
	"fmt"
	"slices"
	"strings"
)

// Format is the kind of tournament, with a stable name as persisted.
type Format string

// The formats.
const (
	RoundRobin       Format = "round-robin"
	DoubleRoundRobin Format = "double-round-robin"
	Swiss            Format = "swiss"
)

// ParseFormat reads a format name: "round-robin" (or "rr"),
// "double-round-robin" (or "double", "drr") or "swiss".
func ParseFormat(s string) (Format, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "round-robin", "roundrobin", "rr":
		return RoundRobin, nil
	case "double-round-robin", "double", "drr":
		return DoubleRoundRobin, nil
	case "swiss":
		return Swiss, nil
	}
	return "", fmt.Errorf("%w: unknown format %q; use round-robin, double-round-robin or swiss", ErrBadTournament, s)
}

// Limits of a tournament: the number of participants, and the rounds of a
// Swiss (see also MaxSwissRounds).
const (
	MinPlayers = 2
	MaxPlayers = 100
	// SwissRoundLimit caps the rounds of any Swiss: more than a year of
	// correspondence play, and what keeps the pairing weights in range.
	SwissRoundLimit = 20
)

// MaxSwissRounds returns the most rounds a Swiss of n players may have: as
// many as can always be paired without a rematch and with the bye rotated,
// whatever the results (withdrawals aside), and at most SwissRoundLimit.
//
// After k rounds every player has met at most k others, so each can still meet
// n-1-k; by Dirac's theorem the players left after the bye, whoever has it,
// then have a pairing without rematches as long as k stays below half of them,
// which allows n/2 rounds (rounded down). For 3, 4 and 5 players the tests try
// every possible sequence of results and find that 3 rounds always work out.
func MaxSwissRounds(n int) int {
	switch {
	case n < 2:
		return 0
	case n == 2:
		return 1
	case n <= 5:
		return 3
	}
	return min(n/2, SwissRoundLimit)
}

// Tournament is the state of a tournament as plain values, as persisted: the
// settings, the players in seed order, the withdrawals and every pairing made
// so far with its result. Its methods never modify it: they return a new value.
type Tournament struct {
	Format Format `json:"format"`
	// Rounds is the number of rounds: chosen for a Swiss, fixed by the number
	// of players for a round robin.
	Rounds int `json:"rounds"`
	// Players lists the participants in seed order (strongest first).
	Players []PlayerID `json:"players"`
	// Withdrawn lists the players who have withdrawn, in order.
	Withdrawn []PlayerID `json:"withdrawn,omitempty"`
	// Games holds every pairing made, in round and board order.
	Games []Game `json:"games"`
}

// New starts a tournament of the format among players in seed order. A round
// robin gets its whole schedule at once, every game pending (games are played
// at the same time); rounds is ignored for it. A Swiss gets rounds rounds,
// paired one at a time by NextRound.
func New(format Format, players []PlayerID, rounds int) (Tournament, error) {
	t := Tournament{Format: format, Players: slices.Clone(players)}
	if err := t.checkSettings(); err != nil {
		return Tournament{}, err
	}
	switch format {
	case RoundRobin:
		t.Rounds = RoundsPerCycle(len(players))
		t.Games = BergerSchedule(players, 1)
	case DoubleRoundRobin:
		t.Rounds = 2 * RoundsPerCycle(len(players))
		t.Games = BergerSchedule(players, 2)
	case Swiss:
		if most := MaxSwissRounds(len(players)); rounds < 1 || rounds > most {
			return Tournament{}, fmt.Errorf("%w: a Swiss of %d players can have 1 to %d rounds, not %d; for more, play a round robin",
				ErrBadTournament, len(players), most, rounds)
		}
		t.Rounds = rounds
	}
	return t, nil
}

// checkSettings validates the format and the players.
func (t Tournament) checkSettings() error {
	switch t.Format {
	case RoundRobin, DoubleRoundRobin, Swiss:
	default:
		return fmt.Errorf("%w: unknown format %q", ErrBadTournament, t.Format)
	}
	if n := len(t.Players); n < MinPlayers || n > MaxPlayers {
		return fmt.Errorf("%w: %d players; a tournament needs %d to %d", ErrBadTournament, n, MinPlayers, MaxPlayers)
	}
	seen := make(map[PlayerID]bool, len(t.Players))
	for _, p := range t.Players {
		if p == "" {
			return fmt.Errorf("%w: a player has an empty id", ErrBadTournament)
		}
		if seen[p] {
			return fmt.Errorf("%w: player %s is listed twice", ErrBadTournament, p)
		}
		seen[p] = true
	}
	return nil
}

// Validate checks a tournament read back from storage: settings, withdrawals
// and every game consistent, so that a damaged record is refused rather than
// paired from.
func (t Tournament) Validate() error {
	if err := t.checkSettings(); err != nil {
		return err
	}
	n := len(t.Players)
	switch t.Format {
	case RoundRobin, DoubleRoundRobin:
		cycles := 1
		if t.Format == DoubleRoundRobin {
			cycles = 2
		}
		if t.Rounds != cycles*RoundsPerCycle(n) {
			return fmt.Errorf("%w: a %s of %d players has %d rounds, not %d", ErrBadTournament, t.Format, n, cycles*RoundsPerCycle(n), t.Rounds)
		}
		want := BergerSchedule(t.Players, cycles)
		if len(want) != len(t.Games) {
			return fmt.Errorf("%w: the schedule has %d games, not %d", ErrBadTournament, len(t.Games), len(want))
		}
		for i, g := range t.Games {
			if g.Round != want[i].Round || g.White != want[i].White || g.Black != want[i].Black {
				return fmt.Errorf("%w: game %d (%v) is not in the schedule", ErrBadTournament, i+1, g)
			}
		}
	case Swiss:
		if t.Rounds < 1 || t.Rounds > MaxSwissRounds(n) {
			return fmt.Errorf("%w: a Swiss of %d players cannot have %d rounds", ErrBadTournament, n, t.Rounds)
		}
	}
	known := make(map[PlayerID]bool, n)
	for _, p := range t.Players {
		known[p] = true
	}
	gone := map[PlayerID]bool{}
	for _, p := range t.Withdrawn {
		if !known[p] || gone[p] {
			return fmt.Errorf("%w: withdrawal of %q is not of a participant or is listed twice", ErrBadTournament, p)
		}
		gone[p] = true
	}
	inRound := map[int]map[PlayerID]bool{}
	met := map[[2]PlayerID]int{}
	last := 0
	for i, g := range t.Games {
		if g.Round < 1 || g.Round > t.Rounds {
			return fmt.Errorf("%w: game %d is in round %d of %d", ErrBadTournament, i+1, g.Round, t.Rounds)
		}
		if g.Round < last {
			return fmt.Errorf("%w: game %d (round %d) comes after round %d", ErrBadTournament, i+1, g.Round, last)
		}
		if t.Format == Swiss && g.Round > last+1 {
			return fmt.Errorf("%w: round %d is missing", ErrBadTournament, last+1)
		}
		last = g.Round
		if !g.Result.valid() {
			return fmt.Errorf("%w: game %d has result %q", ErrBadResult, i+1, g.Result)
		}
		if (g.Result == Bye) != g.IsBye() || g.IsBye() && t.Format != Swiss {
			return fmt.Errorf("%w: game %d: a bye needs a Swiss, no Black and the result \"bye\"", ErrBadTournament, i+1)
		}
		if inRound[g.Round] == nil {
			inRound[g.Round] = map[PlayerID]bool{}
		}
		for _, p := range []PlayerID{g.White, g.Black} {
			if p == "" && p == g.Black {
				continue
			}
			if !known[p] {
				return fmt.Errorf("%w: game %d has player %q who is not a participant", ErrBadTournament, i+1, p)
			}
			if inRound[g.Round][p] {
				return fmt.Errorf("%w: player %s is paired twice in round %d", ErrBadTournament, p, g.Round)
			}
			inRound[g.Round][p] = true
		}
		if g.White == g.Black {
			return fmt.Errorf("%w: game %d pairs %s with themselves", ErrBadTournament, i+1, g.White)
		}
		if t.Format == Swiss && !g.IsBye() {
			k := [2]PlayerID{min(g.White, g.Black), max(g.White, g.Black)}
			if met[k]++; met[k] > 1 {
				return fmt.Errorf("%w: %s and %s are paired twice", ErrBadTournament, g.White, g.Black)
			}
		}
	}
	if t.Format == Swiss {
		for r := 1; r < last; r++ {
			for _, g := range t.Games {
				if g.Round == r && !g.Result.Decided() {
					return fmt.Errorf("%w: round %d has a game without a result after round %d was paired", ErrBadTournament, r, r+1)
				}
			}
		}
	}
	return nil
}

// Round returns the number of the last round paired (0 before the first).
func (t Tournament) Round() int {
	r := 0
	for _, g := range t.Games {
		r = max(r, g.Round)
	}
	return r
}

// Pending returns the games that have no result yet.
func (t Tournament) Pending() []Game {
	var out []Game
	for _, g := range t.Games {
		if !g.Result.Decided() {
			out = append(out, g)
		}
	}
	return out
}

// RoundGames returns the pairings of round r in board order.
func (t Tournament) RoundGames(r int) []Game {
	var out []Game
	for _, g := range t.Games {
		if g.Round == r {
			out = append(out, g)
		}
	}
	return out
}

// Active returns the players who have not withdrawn, in seed order.
func (t Tournament) Active() []PlayerID {
	var out []PlayerID
	for _, p := range t.Players {
		if !slices.Contains(t.Withdrawn, p) {
			out = append(out, p)
		}
	}
	return out
}

// Finished reports whether the tournament is over: every game decided and no
// round left to pair (all rounds paired, or fewer than two players left).
func (t Tournament) Finished() bool {
	if len(t.Pending()) > 0 {
		return false
	}
	if t.Format != Swiss {
		return true
	}
	return t.Round() >= t.Rounds || len(t.Active()) < 2
}

// NextRound pairs the next round of a Swiss once every game of the current one
// has a result, and returns the tournament with the new pairings and the new
// pairings themselves (a bye already carries its result).
//
// The pairing is a pure function of the players, the withdrawals and the
// games of the earlier rounds, so a service that stores the tournament after
// each change can always tell whether a round was already paired (Round) and
// never pairs anyone twice.
func (t Tournament) NextRound() (Tournament, []Game, error) {
	if t.Format != Swiss {
		return t, nil, fmt.Errorf("%w: a round robin has all its games from the start", ErrNotSwiss)
	}
	if err := t.Validate(); err != nil {
		return t, nil, err
	}
	if p := t.Pending(); len(p) > 0 {
		return t, nil, fmt.Errorf("%w: round %d has %d game(s) without a result", ErrRoundInProgress, t.Round(), len(p))
	}
	round := t.Round() + 1
	if round > t.Rounds {
		return t, nil, fmt.Errorf("%w: all %d rounds have been played", ErrFinished, t.Rounds)
	}
	games, err := PairSwiss(t.Players, t.Withdrawn, t.Games, round)
	if err != nil {
		return t, nil, err
	}
	next := t.clone()
	next.Games = append(next.Games, games...)
	return next, games, nil
}

// PairSwiss pairs round round of a Swiss among players (in seed order), less
// the withdrawn ones, from the games of the earlier rounds: the pure function
// behind NextRound. See the package documentation for the rules.
func PairSwiss(players, withdrawn []PlayerID, history []Game, round int) ([]Game, error) {
	gone := make(map[PlayerID]bool, len(withdrawn))
	for _, p := range withdrawn {
		gone[p] = true
	}
	var earlier []Game
	for _, g := range history {
		if g.Round < round {
			earlier = append(earlier, g)
		}
	}
	return pairSwiss(players, gone, earlier, round)
}

// Record sets the result of the pending game of round round between white
// and black.
func (t Tournament) Record(round int, white, black PlayerID, r Result) (Tournament, error) {
	if !r.valid() || r == Pending || r == Bye {
		return t, fmt.Errorf("%w: %q is not the result of a game; use 1-0, 0-1, 1/2-1/2, +-, -+ or --", ErrBadResult, r)
	}
	for i, g := range t.Games {
		if g.Round != round || g.White != white || g.Black != black || g.IsBye() {
			continue
		}
		if g.Result.Decided() {
			return t, fmt.Errorf("%w: %v", ErrAlreadyDecided, g)
		}
		next := t.clone()
		next.Games[i].Result = r
		return next, nil
	}
	return t, fmt.Errorf("%w: round %d has no game %s - %s", ErrUnknownGame, round, white, black)
}

// Withdraw withdraws player p: every pending game of p is forfeited to the
// opponent, and a Swiss pairs p no more. It returns the new tournament and the
// games it decided, so that the caller can close them.
func (t Tournament) Withdraw(p PlayerID) (Tournament, []Game, error) {
	if !slices.Contains(t.Players, p) {
		return t, nil, fmt.Errorf("%w: %s", ErrUnknownPlayer, p)
	}
	if slices.Contains(t.Withdrawn, p) {
		return t, nil, fmt.Errorf("%w: %s", ErrWithdrawn, p)
	}
	next := t.clone()
	next.Withdrawn = append(next.Withdrawn, p)
	var forfeited []Game
	for i, g := range next.Games {
		if g.Result.Decided() || !g.Has(p) {
			continue
		}
		if g.White == p {
			next.Games[i].Result = BlackWinsByForfeit
		} else {
			next.Games[i].Result = WhiteWinsByForfeit
		}
		forfeited = append(forfeited, next.Games[i])
	}
	return next, forfeited, nil
}

// Standings returns the current standings (see the function Standings).
func (t Tournament) Standings() []Standing {
	return Standings(t.Format, t.Players, t.Withdrawn, t.Games)
}

func (t Tournament) clone() Tournament {
	t.Players = slices.Clone(t.Players)
	t.Withdrawn = slices.Clone(t.Withdrawn)
	t.Games = slices.Clone(t.Games)
	return t
}
