package storage

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/missivechess/missive/rules"
	rec "github.com/missivechess/missive/rules/record"
)

func (g *Game) recordKey() []byte { return []byte(g.ID) }
func (g *Game) getID() string     { return g.ID }
func (g *Game) setID(id string)   { g.ID = id }

func (g *Game) validate() error {
	what := "game " + g.ID
	if err := checkKeyPart("game id", g.ID, false); err != nil {
		return err
	}
	if err := checkKeyPart(what+": variant", g.Variant, true); err != nil {
		return err
	}
	for _, s := range rules.Sides {
		if err := checkKeyPart(what+": "+s.String()+" player id", g.Players[s].ID, true); err != nil {
			return err
		}
	}
	for _, f := range []struct{ name, v string }{{"guild", g.Guild}, {"channel", g.Channel}, {"thread", g.Thread}, {"tournament", g.Tournament}, {"match", g.Match}} {
		if err := checkKeyPart(what+": "+f.name, f.v, false); err != nil {
			return err
		}
	}
	switch g.Outcome.Status {
	case rules.Ongoing, rules.Drawn:
	case rules.Won:
		if g.Outcome.Winner != rules.White && g.Outcome.Winner != rules.Black {
			return fmt.Errorf("storage: %s: winner %v is not a side: %w", what, g.Outcome.Winner, ErrInvalid)
		}
	default:
		return fmt.Errorf("storage: %s: status %q is not ongoing, won or drawn: %w", what, g.Outcome.Status, ErrInvalid)
	}
	if g.Clock.DaysPerMove < 0 || g.Round < 0 {
		return fmt.Errorf("storage: %s: negative days per move or round: %w", what, ErrInvalid)
	}
	if err := g.Clock.Bank.validate(what); err != nil {
		return err
	}
	for _, o := range []*Offer{g.DrawOffer, g.Takeback} {
		if o != nil && (o.Ply < 0 || o.Ply > len(g.Moves) || o.By > rules.Black) {
			return fmt.Errorf("storage: %s: an offer refers to ply %d of %d or to side %v: %w", what, o.Ply, len(g.Moves), o.By, ErrInvalid)
		}
	}
	return nil
}

// indexes returns the index entries of g; see doc.go for their layout.
func (g *Game) indexes() []indexEntry {
	id := []byte(g.ID)
	active := g.Active()
	var out []indexEntry
	for i, s := range g.Players {
		if i == 1 && s.ID == g.Players[0].ID {
			break
		}
		if active {
			out = append(out, indexEntry{bucket: xGamePlayer, key: key(s.ID, "a", g.ID), value: []byte{}})
		} else {
			out = append(out, indexEntry{bucket: xGamePlayer, key: concat(prefix(s.ID, "o"), timeKey(g.EndedAt), id), value: []byte{}})
		}
	}
	if g.Thread != "" {
		out = append(out, indexEntry{bucket: xGameThread, key: []byte(g.Thread), value: id, unique: "thread " + g.Thread})
	}
	out = append(out, indexEntry{bucket: xGameSummary, key: id, value: encodeSummary(g)})
	if active {
		out = append(out, indexEntry{bucket: xGameActive, key: id, value: []byte{}})
		if due := g.Clock.Due(); !due.IsZero() {
			out = append(out, indexEntry{bucket: xGameDue, key: concat(timeKey(due), id), value: []byte{}})
		}
	}
	if g.Tournament != "" {
		out = append(out, indexEntry{bucket: xGameTournament, key: key(g.Tournament, g.ID), value: []byte{}})
	}
	return append(out, counters(g.Outcome.Status, g.Guild)...)
}

// GameRecord returns the stored game without replaying its moves (Position is nil):
// cheap, for listings, and usable even when the record no longer replays. While an
// outage is being given back (outage.go), a game owed it comes with it given back.
func (tx *Tx) GameRecord(id string) (*Game, error) {
	g, err := getRecord[Game](tx, kindGame, []byte(id))
	if err != nil {
		return nil, err
	}
	if err := tx.pendingOutage(g); err != nil {
		return nil, err
	}
	return g, nil
}

// Game returns the stored game with its Position replayed from the start. A record
// that does not replay gives a *ReplayError (errors.Is ErrReplay).
func (tx *Tx) Game(id string) (*Game, error) {
	g, err := tx.GameRecord(id)
	if err != nil {
		return nil, err
	}
	if err := tx.s.attach(g); err != nil {
		return nil, err
	}
	return g, nil
}

// gameAndRaw returns game id replayed and a copy of its stored bytes.
func (tx *Tx) gameAndRaw(id string) (*Game, []byte, error) {
	g, raw, err := tx.rawGame(id)
	if err != nil {
		return nil, nil, err
	}
	if err := tx.s.attach(g); err != nil {
		return nil, nil, err
	}
	return g, bytes.Clone(raw), nil
}

// rawGame returns game id decoded, not replayed, and its stored bytes (valid only
// during the transaction).
func (tx *Tx) rawGame(id string) (*Game, []byte, error) {
	b, err := tx.bucket(bGames)
	if err != nil {
		return nil, nil, err
	}
	raw := b.Get([]byte(id))
	if raw == nil {
		return nil, nil, fmt.Errorf("storage: %s not found: %w", describe(kindGame, []byte(id)), ErrNotFound)
	}
	var g Game
	if err := decodeRecord(raw, &g, describe(kindGame, []byte(id))); err != nil {
		return nil, nil, err
	}
	return &g, raw, nil
}

// attach sets g.Position, from the cache when it holds g's exact start and moves.
func (s *Store) attach(g *Game) error {
	k := g.keyNow()
	if pos := s.cache.get(g.ID, k); pos != nil {
		g.Position, g.replayed = pos, k
		return nil
	}
	pos, err := replay(s.reg, g)
	if err != nil {
		return err
	}
	g.Position, g.replayed = pos, k
	s.cache.put(g.ID, k, pos)
	return nil
}

// PutGame writes g. Version 0 creates it (assigning an id when ID is empty); otherwise
// the stored version must equal g.Version or the write fails with ErrConflict. The
// record must replay: when Moves or the start were changed other than by Play or Undo,
// PutGame replays them and refuses the write if they do not. It keeps ToMove and
// EndedAt in step with the position and outcome, dates moves played with a zero time,
// bumps Version and maintains every index. If the transaction does not commit, g is
// restored.
func (tx *Tx) PutGame(g *Game) error {
	if err := tx.writable(); err != nil {
		return err
	}
	saved := *g
	tx.undo = append(tx.undo, func() { *g = saved })
	if err := tx.s.settle(g, tx.now); err != nil {
		return err
	}
	if err := putRecord(tx, kindGame, g); err != nil {
		return err
	}
	tx.s.cache.put(g.ID, g.replayed, g.Position)
	return nil
}

// settle checks g and brings its derived fields in step before a write at now.
func (s *Store) settle(g *Game, now time.Time) error {
	if g.Outcome.Status == "" {
		g.Outcome.Status = rules.Ongoing
	}
	if err := g.validate(); err != nil {
		return err
	}
	if g.Position == nil || !g.replayed.matches(g) {
		pos, err := replay(s.reg, g)
		if err != nil {
			return err
		}
		g.Position, g.replayed = pos, g.keyNow()
	}
	if i := slices.IndexFunc(g.Moves, func(e MoveEntry) bool { return e.At.IsZero() }); i >= 0 {
		g.Moves = slices.Clone(g.Moves) // leave the caller's array alone if the write fails
		for j := i; j < len(g.Moves); j++ {
			if g.Moves[j].At.IsZero() {
				g.Moves[j].At = now
			}
		}
	}
	if g.Outcome.IsOver() {
		g.ToMove = nil
		if g.EndedAt.IsZero() {
			g.EndedAt = now
		}
	} else {
		g.ToMove = rec.ToMove(g.Position)
		g.EndedAt = time.Time{}
	}
	return nil
}

// DeleteGame removes a game and its index entries.
func (tx *Tx) DeleteGame(id string) error {
	if err := deleteRecord[Game](tx, kindGame, []byte(id)); err != nil {
		return err
	}
	tx.s.cache.remove(id)
	return nil
}

// UpdateGame loads game id (replayed), lets fn change it, and writes it back with
// PutGame. When fn returns an error nothing is written and that error is returned.
func (tx *Tx) UpdateGame(id string, fn func(*Game) error) (*Game, error) {
	g, err := tx.Game(id)
	if err != nil {
		return nil, err
	}
	if err := fn(g); err != nil {
		return nil, err
	}
	if err := tx.PutGame(g); err != nil {
		return nil, err
	}
	return g, nil
}

// GameByThread returns the game played in thread (replayed).
func (tx *Tx) GameByThread(thread string) (*Game, error) {
	b, err := tx.bucket(xGameThread)
	if err != nil {
		return nil, err
	}
	id := b.Get([]byte(thread))
	if id == nil {
		return nil, fmt.Errorf("storage: no game is played in thread %s: %w", thread, ErrNotFound)
	}
	return tx.Game(string(id))
}

// PlayerActiveGames returns the summaries of the ongoing games of player, oldest first.
func (tx *Tx) PlayerActiveGames(player string) ([]*GameSummary, error) {
	ids, err := tx.indexIDs(xGamePlayer, prefix(player, "a"), 0, 0, false)
	if err != nil {
		return nil, err
	}
	return tx.summaries(ids, true)
}

// summaries reads the summaries of the games with the given ids, in order, or
// sorted oldest first.
func (tx *Tx) summaries(ids []string, sorted bool) ([]*GameSummary, error) {
	b, err := tx.bucket(xGameSummary)
	if err != nil {
		return nil, err
	}
	out := make([]*GameSummary, 0, len(ids))
	for _, id := range ids {
		raw := b.Get([]byte(id))
		if raw == nil {
			return nil, fmt.Errorf("storage: an index names game %s, which has no summary: %w", id, ErrCorrupt)
		}
		s, err := decodeSummary(raw, id)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	if sorted {
		sortOldestFirst(out, func(s *GameSummary) string { return s.ID })
	}
	return out, nil
}

// PlayerFinishedGames returns the summaries of player's finished games, most recently
// ended first, at most limit of them (all when limit <= 0).
func (tx *Tx) PlayerFinishedGames(player string, limit int) ([]*GameSummary, error) {
	ids, err := tx.indexIDs(xGamePlayer, prefix(player, "o"), 8, limit, true)
	if err != nil {
		return nil, err
	}
	return tx.summaries(ids, false)
}

// ActiveGames calls fn with the summary of every ongoing game, in id byte order,
// until fn returns an error.
func (tx *Tx) ActiveGames(fn func(*GameSummary) error) error {
	ids, err := tx.indexIDs(xGameActive, nil, 0, 0, false)
	if err != nil {
		return err
	}
	for _, id := range ids {
		ss, err := tx.summaries([]string{id}, false)
		if err != nil {
			return err
		}
		if err := fn(ss[0]); err != nil {
			return err
		}
	}
	return nil
}

// ForEachGame calls fn with every stored game record (not replayed), in id byte
// order, until fn returns an error.
func (tx *Tx) ForEachGame(fn func(*Game) error) error {
	b, err := tx.bucket(bGames)
	if err != nil {
		return err
	}
	return b.ForEach(func(k, v []byte) error {
		var g Game
		if err := decodeRecord(v, &g, describe(kindGame, k)); err != nil {
			return err
		}
		return fn(&g)
	})
}

// Due is an ongoing game and the time at which the scheduler must look at it (the
// earlier of its Clock.Wake and Clock.Deadline).
type Due struct {
	Game string
	At   time.Time
}

// DueGames returns the ongoing games due at or before t, earliest first, at most
// limit of them (all when limit <= 0).
func (tx *Tx) DueGames(t time.Time, limit int) ([]Due, error) {
	return tx.timeIndex(xGameDue, t, limit)
}

// NextDue returns the ongoing game due first, and false when no game has a clock.
func (tx *Tx) NextDue() (Due, bool, error) {
	due, err := tx.timeIndex(xGameDue, time.UnixMilli(math.MaxInt64), 1)
	if err != nil || len(due) == 0 {
		return Due{}, false, err
	}
	return due[0], true, nil
}

// timeIndex reads an index keyed by time then id: the entries at or before t,
// earliest first, at most limit of them (all when limit <= 0).
func (tx *Tx) timeIndex(name []byte, t time.Time, limit int) ([]Due, error) {
	end := t.UnixMilli()
	var out []Due
	err := tx.scanPrefix(name, nil, func(rest, _ []byte) bool {
		at, ok := parseTimeKey(rest)
		if !ok || at.UnixMilli() > end {
			return false
		}
		out = append(out, Due{Game: string(rest[8:]), At: at})
		return limit <= 0 || len(out) < limit
	})
	return out, err
}

// TournamentGames returns the summaries of the games of a tournament, oldest first.
func (tx *Tx) TournamentGames(tournament string) ([]*GameSummary, error) {
	ids, err := tx.indexIDs(xGameTournament, prefix(tournament), 0, 0, false)
	if err != nil {
		return nil, err
	}
	return tx.summaries(ids, true)
}
