package storage

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// PlayerData is what the store keeps about one player, as PlayerData gathers it
// for the player to see (bot/privacy).
type PlayerData struct {
	// Player is the player's settings; nil when none were ever stored.
	Player *Player
	// Ratings are the player's ratings, per server and variant.
	Ratings []*Rating
	// Games are the games the player plays or played, ongoing first.
	Games []*GameSummary
	// Conditional holds, by game id, the conditional lines the player prepared.
	Conditional map[string][]Conditional
	// Challenges are the challenges the player made or received, any status.
	Challenges []*Challenge
	// Tournaments are those the player entered or organised.
	Tournaments []*Tournament
	// Notices are the notices still to deliver that are addressed to the player
	// or name their id.
	Notices []*OutboxEntry
	// Reviews are the review requests the player made (/review) and not yet made.
	Reviews []*ReviewRequest
}

// forEachRecord decodes every record of kind k and calls fn with it, until fn
// returns an error: a whole-bucket scan, for the rare requests that must find
// every record naming a player (PlayerData, ErasePlayer).
func forEachRecord[T any, P interface {
	*T
	record
}](tx *Tx, k *kind, fn func(P) error) error {
	b, err := tx.bucket(k.bucket)
	if err != nil {
		return err
	}
	return b.ForEach(func(rk, raw []byte) error {
		r := P(new(T))
		if err := decodeRecord(raw, r, describe(k, rk)); err != nil {
			return err
		}
		return fn(r)
	})
}

// namesPlayer reports whether an outbox entry is for player id or names their id.
func namesPlayer(e *OutboxEntry, id string) bool {
	quoted, _ := json.Marshal(id)
	return strings.HasSuffix(e.Dest, ":"+id) || bytes.Contains(e.Body, quoted)
}

// PlayerData returns what the store keeps about player id. It scans the
// ratings, challenges, tournaments, the outbox and the review queue whole: it is
// for a player's rare request to see their data, not for play.
func (tx *Tx) PlayerData(id string) (*PlayerData, error) {
	d := &PlayerData{Conditional: map[string][]Conditional{}}
	p, err := tx.Player(id)
	switch {
	case err == nil:
		d.Player = p
	case !errors.Is(err, ErrNotFound):
		return nil, err
	}
	if err := forEachRecord(tx, kindRating, func(r *Rating) error {
		if r.Player == id {
			d.Ratings = append(d.Ratings, r)
		}
		return nil
	}); err != nil {
		return nil, err
	}
	active, err := tx.PlayerActiveGames(id)
	if err != nil {
		return nil, err
	}
	finished, err := tx.PlayerFinishedGames(id, 0)
	if err != nil {
		return nil, err
	}
	d.Games = append(active, finished...)
	for _, s := range d.Games {
		g, err := tx.GameRecord(s.ID)
		if err != nil {
			return nil, err
		}
		for _, c := range g.Conditional {
			if g.Player(c.Side).ID == id {
				d.Conditional[g.ID] = append(d.Conditional[g.ID], c)
			}
		}
	}
	if err := forEachRecord(tx, kindChallenge, func(c *Challenge) error {
		if c.Challenger.ID == id || c.Opponent.ID == id {
			d.Challenges = append(d.Challenges, c)
		}
		return nil
	}); err != nil {
		return nil, err
	}
	if err := forEachRecord(tx, kindTournament, func(t *Tournament) error {
		if t.Organizer == id || slices.ContainsFunc(t.Entrants, func(e Entrant) bool { return e.Player.ID == id }) {
			d.Tournaments = append(d.Tournaments, t)
		}
		return nil
	}); err != nil {
		return nil, err
	}
	notices, err := tx.Outbox(0)
	if err != nil {
		return nil, err
	}
	for _, e := range notices {
		if namesPlayer(e, id) {
			d.Notices = append(d.Notices, e)
		}
	}
	asked, err := tx.ReviewRequests()
	if err != nil {
		return nil, err
	}
	for _, r := range asked {
		if r.By == id {
			d.Reviews = append(d.Reviews, r)
		}
	}
	return d, nil
}

// ErasePlayer deletes what the store keeps about player id: their settings,
// ratings, challenges, conditional lines, the notices still to deliver that
// drop picks among those naming the player (the store does not read a notice's
// body: its writer says which are for the player), and who asked for their
// review requests. Their games stay,
// as records of the opponents' play, with the player's seat replaced by as (a
// former player: an id and a name that say nothing of the person); so do the
// tournaments they played, with the same seat in the entrants and pairings. The
// caller makes sure the player has no game in progress and plays in no open or
// running tournament. It returns what it erased (as PlayerData read before).
func (tx *Tx) ErasePlayer(id string, as Seat, drop func(*OutboxEntry) bool) (*PlayerData, error) {
	if err := tx.writable(); err != nil {
		return nil, err
	}
	if as.ID == "" || as.ID == id {
		return nil, fmt.Errorf("storage: erasing player %s needs another seat to put in their games: %w", id, ErrInvalid)
	}
	d, err := tx.PlayerData(id)
	if err != nil {
		return nil, err
	}
	if d.Player != nil {
		if err := tx.DeletePlayer(id); err != nil {
			return nil, err
		}
	}
	for _, r := range d.Ratings {
		if err := deleteRecord[Rating](tx, kindRating, r.recordKey()); err != nil {
			return nil, err
		}
	}
	for _, c := range d.Challenges {
		if err := tx.DeleteChallenge(c.ID); err != nil {
			return nil, err
		}
	}
	for _, s := range d.Games {
		g, err := tx.Game(s.ID)
		if err != nil {
			return nil, err
		}
		for side, seat := range g.Players {
			if seat.ID == id {
				g.Players[side] = as
			}
		}
		g.Conditional = slices.DeleteFunc(g.Conditional, func(c Conditional) bool { return g.Player(c.Side) == as })
		if err := tx.PutGame(g); err != nil {
			return nil, err
		}
	}
	from, _ := json.Marshal(id)
	to, _ := json.Marshal(as.ID)
	for _, t := range d.Tournaments {
		if t.Organizer == id {
			t.Organizer = ""
		}
		for i := range t.Entrants {
			if t.Entrants[i].Player.ID == id {
				t.Entrants[i].Player = as
			}
		}
		// The pairing state names players by id, as JSON strings.
		t.Pairing = bytes.ReplaceAll(t.Pairing, from, to)
		if err := tx.PutTournament(t); err != nil {
			return nil, err
		}
	}
	for _, e := range d.Notices {
		if !drop(e) {
			continue
		}
		if err := tx.DeleteOutbox(e.ID); err != nil {
			return nil, err
		}
	}
	for _, r := range d.Reviews {
		r.By = ""
		if err := putRecord(tx, kindReviewAsk, r); err != nil {
			return nil, err
		}
	}
	return d, nil
}
