package tournament

import "slices"

// Tiebreak names a tie-break, with a stable short name.
type Tiebreak string

// The tie-breaks, each described where it is computed (see Standings).
const (
	SonnebornBerger Tiebreak = "SB"
	Buchholz        Tiebreak = "BH"
	MedianBuchholz  Tiebreak = "MBH"
	WinCount        Tiebreak = "WIN"
)

// Name returns the tie-break's name for people.
func (t Tiebreak) Name() string {
	switch t {
	case SonnebornBerger:
		return "Sonneborn-Berger"
	case Buchholz:
		return "Buchholz"
	case MedianBuchholz:
		return "Median-Buchholz"
	case WinCount:
		return "Wins"
	}
	return string(t)
}

// Tiebreaks returns the tie-breaks of the format, in the order they apply
// after points; the seed settles whatever they leave tied.
func (f Format) Tiebreaks() []Tiebreak {
	if f == Swiss {
		return []Tiebreak{Buchholz, MedianBuchholz, WinCount}
	}
	return []Tiebreak{SonnebornBerger, WinCount}
}

// Standing is one line of the standings.
type Standing struct {
	// Rank is the place, from 1; no two players share one.
	Rank   int
	Player PlayerID
	// Seed is the player's place in the seed order, from 1.
	Seed   int
	Points float64
	// Played counts the games played over the board, and Wins, Draws and
	// Losses divide them; Unplayed counts byes and forfeits either way.
	Played, Wins, Draws, Losses, Unplayed int
	Withdrawn                             bool
	// Tiebreaks holds the values of Format.Tiebreaks, in that order.
	Tiebreaks []float64
}

// Standings ranks the players by points, then by the format's tie-breaks, then
// by seed. Games without a result count for nothing yet.
//
// Sonneborn-Berger (round robin) adds, over a player's decided games, the
// final score of each opponent beaten and half that of each opponent drawn;
// forfeits count as the wins and losses they are scored as.
//
// Buchholz (Swiss) adds one value per paired round, as FIDE's 2023 tie-break
// rules do: for a game played over the board, the opponent's score in which
// every unplayed round of the opponent (bye, forfeit, round after withdrawing)
// counts as a draw; for a round the player did not play (bye, forfeit won or
// lost, no pairing after withdrawing), the player's own score. Median-Buchholz
// is the same sum without its highest and lowest value (once at least three
// rounds count). Wins counts the games won over the board.
func Standings(format Format, players []PlayerID, withdrawn []PlayerID, games []Game) []Standing {
	idx := make(map[PlayerID]int, len(players))
	out := make([]Standing, len(players))
	for i, p := range players {
		idx[p] = i
		out[i] = Standing{Player: p, Seed: i + 1, Withdrawn: slices.Contains(withdrawn, p)}
	}
	halves := make([]int, len(players))
	lastRound := 0
	byRound := make([]map[int]Game, len(players))
	for i := range byRound {
		byRound[i] = map[int]Game{}
	}
	for _, g := range games {
		lastRound = max(lastRound, g.Round)
		for _, p := range []PlayerID{g.White, g.Black} {
			i, ok := idx[p]
			if !ok {
				continue
			}
			byRound[i][g.Round] = g
			if !g.Result.Decided() {
				continue
			}
			s := &out[i]
			h := g.halvesOf(p)
			halves[i] += h
			if !g.Result.Played() {
				s.Unplayed++
				continue
			}
			s.Played++
			switch h {
			case 2:
				s.Wins++
			case 1:
				s.Draws++
			default:
				s.Losses++
			}
		}
	}
	// adjusted returns a player's score with unplayed rounds as draws, in halves.
	adjusted := func(i int) int {
		sum := 0
		for r := 1; r <= lastRound; r++ {
			g, ok := byRound[i][r]
			switch {
			case !ok:
				sum++
			case !g.Result.Decided():
			case g.Result.Played():
				sum += g.halvesOf(players[i])
			default:
				sum++
			}
		}
		return sum
	}
	for i := range out {
		s := &out[i]
		s.Points = float64(halves[i]) / 2
		for _, tb := range format.Tiebreaks() {
			var v float64
			switch tb {
			case SonnebornBerger:
				quarters := 0
				for _, g := range byRound[i] {
					if g.Result.Decided() && !g.IsBye() {
						quarters += g.halvesOf(players[i]) * halves[idx[g.Opponent(players[i])]]
					}
				}
				v = float64(quarters) / 4
			case Buchholz, MedianBuchholz:
				var parts []int
				for r := 1; r <= lastRound; r++ {
					g, ok := byRound[i][r]
					switch {
					case ok && !g.Result.Decided():
					case ok && g.Result.Played():
						parts = append(parts, adjusted(idx[g.Opponent(players[i])]))
					default:
						parts = append(parts, halves[i])
					}
				}
				sum := 0
				for _, x := range parts {
					sum += x
				}
				if tb == MedianBuchholz && len(parts) >= 3 {
					sum -= slices.Max(parts) + slices.Min(parts)
				}
				v = float64(sum) / 2
			case WinCount:
				v = float64(s.Wins)
			}
			s.Tiebreaks = append(s.Tiebreaks, v)
		}
	}
	slices.SortStableFunc(out, func(a, b Standing) int {
		if a.Points != b.Points {
			return cmpDesc(a.Points, b.Points)
		}
		for k := range a.Tiebreaks {
			if a.Tiebreaks[k] != b.Tiebreaks[k] {
				return cmpDesc(a.Tiebreaks[k], b.Tiebreaks[k])
			}
		}
		return a.Seed - b.Seed
	})
	for i := range out {
		out[i].Rank = i + 1
	}
	return out
}

func cmpDesc(a, b float64) int {
	if a > b {
		return -1
	}
	return 1
}

// FirstPlace describes the top of the standings: who is level with the leader and
// what, if anything, put the leader above them.
type FirstPlace struct {
	// Level holds the players level on points with the leader, the leader first.
	Level []Standing
	// Shared counts the players of Level that are also level on every tie-break:
	// more than one share first place (the seed only orders them).
	Shared int
	// Decider is the tie-break that put the leader above the second, when Level
	// holds more than one player and Shared is 1.
	Decider Tiebreak
}

// Top returns the first place of st, standings of f in Standings' order; the zero
// FirstPlace when st is empty.
func (f Format) Top(st []Standing) FirstPlace {
	if len(st) == 0 {
		return FirstPlace{}
	}
	var fp FirstPlace
	for _, s := range st {
		if s.Points != st[0].Points {
			break
		}
		fp.Level = append(fp.Level, s)
		if slices.Equal(s.Tiebreaks, st[0].Tiebreaks) {
			fp.Shared++
		}
	}
	if fp.Shared == 1 && len(fp.Level) > 1 {
		tbs := f.Tiebreaks()
		for k := range st[0].Tiebreaks {
			if k < len(tbs) && st[0].Tiebreaks[k] != st[1].Tiebreaks[k] {
				fp.Decider = tbs[k]
				break
			}
		}
	}
	return fp
}
