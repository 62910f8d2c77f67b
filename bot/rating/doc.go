// Package rating computes players' ratings with Glicko-2 for rated games. It is
// pure: no storage, no clock, no Discord. (An engine match's Elo estimate is
// engine/match's Record.Elo.)
//
// # Glicko-2
//
// The computation is Glickman's "Example of the Glicko-2 system" step by step:
// ratings and RDs go to the Glicko-2 scale (÷173.7178), v and Δ are computed
// over the period's games, the new volatility is the root found by the Illinois
// algorithm (ε = 0.000001), then φ* = sqrt(φ² + σ'²), the new φ and μ, and back
// to the Glicko scale. The system constant τ is Config.Tau (0.5 by default).
// A new player is 1500, RD 350, σ 0.06.
//
// Rating periods. Correspondence games end at irregular times, days or weeks
// apart, so a fixed calendar period would hold a finished game's rating change
// back for no reason. Missive therefore rates each game as a rating period of its
// own, for both players, when the game ends (Config.Game): each player is
// updated against the other's pre-game rating, so the order of the two updates
// does not matter. This is what large correspondence and online servers do.
//
// Inactivity. Between games RD grows as Glicko-2 grows it for a period without
// games (step 6 alone): after n idle periods φ' = sqrt(φ² + n·σ²), the rating
// and volatility unchanged. One idle period is Config.Period (a week by
// default; fractions count), measured from the player's last rated game
// (Rating.Last); the growth stops at Config.MaxRD (350, an unrated player's RD).
// The stored rating is not rewritten as time passes: Config.At computes the
// rating as it stands at a given time, for display and before rating a game.
// With σ = 0.06, an RD of 50 grows to about 90 after a year without games and
// passes the provisional threshold before two years are out.
//
// A consequence of one game per period: an active player's RD settles near 60
// (σ 0.06) however much they play, since each game adds step 6's growth before
// its own information takes RD down.
//
// Provisional ratings. A rating is provisional while its RD is above
// Config.ProvisionalRD (110) or the player has fewer than
// Config.ProvisionalGames (5) rated games; a new player needs about ten games
// against established opponents to bring RD under 110.
package rating
