package tournaments

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/bot/tournament"
	"github.com/missivechess/missive/bot/words"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/storage"
)

// pairing reads the pairing state of a started tournament.
func pairing(t *storage.Tournament) (tournament.Tournament, error) {
	var pt tournament.Tournament
	if err := json.Unmarshal(t.Pairing, &pt); err != nil {
		return pt, fmt.Errorf("tournaments: tournament %s: pairing state: %w", t.ID, err)
	}
	return pt, pt.Validate()
}

func setPairing(t *storage.Tournament, pt tournament.Tournament) error {
	raw, err := json.Marshal(pt)
	t.Pairing = raw
	return err
}

// advance starts the games of t that are due and have none yet (a round robin's
// whole schedule, a Swiss's next round once the last one is over), or ends t when
// every game is decided. It runs in the transaction that changed t, so a round is
// created exactly once. Its news are in the server's language (guildLocale: the
// request's, "" when no request made the change).
func (f *feature) advance(tx *bot.Tx, t *storage.Tournament, guildLocale string) error {
	if t.Status != storage.TournamentRunning {
		return nil
	}
	pt, err := pairing(t)
	if err != nil {
		return err
	}
	news, err := newsSpeech(tx, t.Guild, guildLocale, t.Organizer)
	if err != nil {
		return err
	}
	if pt.Format != tournament.Swiss {
		if _, err := f.openRoundRobin(tx, t, pt); err != nil {
			return err
		}
	}
	if pt.Format == tournament.Swiss && len(pt.Pending()) == 0 && pt.Round() < pt.Rounds {
		next, games, err := pt.NextRound()
		if errors.Is(err, tournament.ErrNoPairing) {
			pt.Rounds = pt.Round() // too few players left: the tournament ends here
		} else if err != nil {
			return err
		} else {
			pt = next
			if err := setPairing(t, pt); err != nil {
				return err
			}
			if err := tx.PutTournament(t); err != nil {
				return err
			}
			if err := f.startRound(tx, t, games); err != nil {
				return err
			}
			f.post(tx, news, t, news.T("round.paired", i18n.Data{"Round": pt.Round(), "Rounds": pt.Rounds})+"\n"+f.pairingText(news, t, games), fmt.Sprintf("round/%s/%d", t.ID, pt.Round()))
		}
	}
	if pt.Finished() || (len(pt.Pending()) == 0 && pt.Round() >= pt.Rounds) {
		t.Status, t.FinishedAt = storage.TournamentFinished, f.svc.Now()
		if err := setPairing(t, pt); err != nil {
			return err
		}
		if err := tx.PutTournament(t); err != nil {
			return err
		}
		f.postStandings(tx, news, t, pt, f.finalText(news, t, pt), "final/"+t.ID)
	}
	return nil
}

// startRound creates the games of the pairings (byes aside) in the tournament's
// channel; each gets its own thread, as any game does (a thread holds one game).
//
// A Swiss round starts all its games at once, whatever Options.GuildGames: the next
// round is paired only when every game of this one is over, so holding some back would
// hold up every player, and a round has at most half the players' games (50 for 100
// players), where a round robin's whole schedule runs to 4,950. Where the server has
// no room for their threads (Discord's 160006), the adapter plays those games in the
// channel, says why once, and gives each game its thread with a later post once
// threads are archived; its thread-creation pace delays first notices, not commands.
func (f *feature) startRound(tx *bot.Tx, t *storage.Tournament, games []tournament.Game) error {
	for _, pg := range games {
		if pg.IsBye() || pg.Result.Decided() {
			continue
		}
		ge := tx.Fork()
		_, err := ge.CreateGame(bot.NewGame{Variant: t.Variant, White: f.entrantSeat(t, pg.White), Black: f.entrantSeat(t, pg.Black),
			Place: bot.Place{Guild: t.Guild, Channel: t.Channel}, DaysPerMove: t.DaysPerMove, Bank: t.Bank, NoLeave: t.NoLeave,
			Rated: t.Rated, Tournament: t.ID, Round: pg.Round}, "", nil)
		if err != nil {
			return err
		}
		tx.Merge(ge)
	}
	return nil
}

// openWaitingGames runs inside the transaction that ends a game in a server: the
// room it frees may start games of the server's round robins that wait for the
// server's cap (Options.GuildGames).
func (f *feature) openWaitingGames(end bot.GameEnd) error {
	if end.Game.Guild == "" {
		return nil
	}
	ts, err := end.Tx.GuildTournaments(end.Game.Guild, true)
	if err != nil {
		return err
	}
	for _, t := range ts {
		if t.Status != storage.TournamentRunning || t.Format == storage.Swiss {
			continue
		}
		pt, err := pairing(t)
		if err != nil {
			return err
		}
		if _, err := f.openRoundRobin(end.Tx, t, pt); err != nil {
			return err
		}
	}
	return nil
}

// openRoundRobin starts the games of round robin t that are due: in schedule
// order, each undecided pairing without a game yet whose two players both have
// fewer than Options.EventGames games of t in progress, while the server has fewer
// than Options.GuildGames games in progress. It returns the pairings started.
//
// A large round robin is played a few games per player at a time rather than all
// at once: 24 players would otherwise open 276 threads in one channel at once (100
// players 4,950, beyond Discord's 1,000 active threads a server), flooding the
// channel and Discord's thread-creation limits, and would hand each player more
// simultaneous deadlines than correspondence play expects. Games not yet started
// have no clock, so waiting for one costs nobody time; small events (each player
// with at most Options.EventGames games) still start every game at once.
func (f *feature) openRoundRobin(tx *bot.Tx, t *storage.Tournament, pt tournament.Tournament) ([]tournament.Game, error) {
	sums, err := tx.TournamentGames(t.ID)
	if err != nil {
		return nil, err
	}
	type pairKey struct {
		round        int
		white, black string
	}
	made := map[pairKey]bool{}
	playing := map[string]int{}
	for _, g := range sums {
		made[pairKey{g.Round, g.Players[rules.White].ID, g.Players[rules.Black].ID}] = true
		if !g.Outcome.IsOver() {
			playing[g.Players[rules.White].ID]++
			playing[g.Players[rules.Black].ID]++
		}
	}
	room := f.opts.GuildGames
	if t.Guild != "" {
		n, err := tx.RunningGames(t.Guild) // a count kept with each write: no scan of the running games
		if err != nil {
			return nil, err
		}
		room -= n
	}
	var opened []tournament.Game
	for _, pg := range pt.Games {
		if room <= 0 {
			break
		}
		w, b := string(pg.White), string(pg.Black)
		if pg.IsBye() || pg.Result.Decided() || made[pairKey{pg.Round, w, b}] ||
			playing[w] >= f.opts.EventGames || playing[b] >= f.opts.EventGames {
			continue
		}
		if err := f.startRound(tx, t, []tournament.Game{pg}); err != nil {
			return nil, err
		}
		playing[w]++
		playing[b]++
		room--
		opened = append(opened, pg)
	}
	return opened, nil
}

func (f *feature) entrantSeat(t *storage.Tournament, id tournament.PlayerID) storage.Seat {
	for _, en := range t.Entrants {
		if en.Player.ID == string(id) {
			return en.Player
		}
	}
	return storage.Seat{ID: string(id)}
}

func (f *feature) entrantName(t *storage.Tournament, id tournament.PlayerID) string {
	return words.Seat(f.entrantSeat(t, id))
}

// pairingText lists pairings as "Round 1: alice (white) – bob (black)", in sp.
func (f *feature) pairingText(sp speech, t *storage.Tournament, games []tournament.Game) string {
	var b strings.Builder
	for _, g := range games {
		if g.IsBye() {
			b.WriteString(sp.T("pairing.bye", i18n.Data{"Round": g.Round, "Player": f.entrantName(t, g.White)}) + "\n")
			continue
		}
		b.WriteString(sp.T("pairing.game", i18n.Data{"Round": g.Round,
			"White": sp.w.Seated(f.entrantSeat(t, g.White), rules.White), "Black": sp.w.Seated(f.entrantSeat(t, g.Black), rules.Black)}) + "\n")
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// post tells the tournament's place something, in news: the server's language.
func (f *feature) post(tx *bot.Tx, news speech, t *storage.Tournament, text, key string) {
	tx.Send(bot.Notification{Key: "tournament/" + key, Kind: NoticeTournament, Channel: true,
		To:    bot.User{Name: news.T("news.to", i18n.Data{"ID": t.ID})},
		Game:  &bot.GameRef{Place: bot.Place{Guild: t.Guild, Channel: t.Channel, Thread: t.Thread}},
		Event: &bot.EventRef{Kind: EventTournament, ID: t.ID, Name: t.Name},
		Reply: bot.Reply{Title: t.Name, Text: text}}, nil)
}

// tournamentResult is the result of a finished tournament game as the pairing
// state records it (a game is aborted only when a withdrawal has forfeited it).
func tournamentResult(g *storage.Game) tournament.Result {
	switch {
	case g.Outcome.Reason == rules.Aborted:
		return tournament.DoubleForfeit
	case g.Outcome.Status == rules.Drawn:
		return tournament.Draw
	case g.Outcome.Winner == rules.White:
		return tournament.WhiteWins
	}
	return tournament.BlackWins
}

// tournamentGameEnded runs inside the transaction that ends a game: for a
// tournament game, it records the result, posts the standings and starts the next
// round when it is due.
func (f *feature) tournamentGameEnded(end bot.GameEnd) error {
	tx, g := end.Tx, end.Game
	if g.Tournament == "" {
		return nil
	}
	t, err := tx.Tournament(g.Tournament)
	if err != nil || t.Status != storage.TournamentRunning {
		return err
	}
	pt, err := pairing(t)
	if err != nil {
		return err
	}
	w, b := tournament.PlayerID(g.Players[rules.White].ID), tournament.PlayerID(g.Players[rules.Black].ID)
	// The hook does not know who asked: the refusal is worded when it is read (in
	// the asker's language), the news in the server's, where the game is played.
	if g.Outcome.Reason == rules.Aborted && slices.ContainsFunc(pt.Pending(), func(p tournament.Game) bool {
		return p.Round == g.Round && p.White == w && p.Black == b
	}) {
		return refusal("noabort", func(speech) i18n.Data { return i18n.Data{"ID": g.ID} })
	}
	news, err := newsSpeech(tx, t.Guild, "", t.Organizer)
	if err != nil {
		return err
	}
	next, err := pt.Record(g.Round, w, b, tournamentResult(g))
	if errors.Is(err, tournament.ErrAlreadyDecided) {
		return nil // forfeited by a withdrawal
	}
	if err != nil {
		return err
	}
	if err := setPairing(t, next); err != nil {
		return err
	}
	if err := tx.PutTournament(t); err != nil {
		return err
	}
	f.postStandings(tx, news, t, next, news.T("result", i18n.Data{"ID": g.ID, "Round": g.Round, "Outcome": news.w.Outcome(g.Players, g.Outcome)}), "result/"+g.ID)
	return f.advance(tx, t, "")
}
