package storage

import (
	"fmt"
	"time"
)

// MatchStatus is the state of an engine match; the texts are stored.
type MatchStatus string

// The states of an engine match.
const (
	MatchRunning  MatchStatus = "running"
	MatchFinished MatchStatus = "finished" // every game was played
	MatchStopped  MatchStatus = "stopped"  // an admin ended it early
)

// MaxMatchGames bounds the games of one engine match.
const MaxMatchGames = 100

// Match is an engine-versus-engine match run in a server: two engine seats play
// Games games one after another, colours alternating (Players[0] has White in odd
// games), each pair of games from the same opening. Its games are ordinary games
// whose Match and Round name it; GameIDs lists them in order, the last one possibly
// still in progress.
type Match struct {
	ID        string  `json:"id"` // assigned on first write when empty
	Guild     string  `json:"guild,omitempty"`
	Channel   string  `json:"channel,omitempty"`
	Thread    string  `json:"thread,omitempty"` // where results are posted
	Name      string  `json:"name"`
	Organizer string  `json:"organizer,omitempty"` // user id
	Variant   string  `json:"variant"`
	Players   [2]Seat `json:"players"`
	Games     int     `json:"games"`
	// Seed chooses the openings (and Go-Chess boards) of the game pairs.
	Seed         uint64      `json:"seed,string"`
	OpeningPlies int         `json:"opening_plies,omitempty"`
	MaxPlies     int         `json:"max_plies,omitempty"` // 0: no cap
	GameIDs      []string    `json:"game_ids,omitempty"`
	Status       MatchStatus `json:"status"`
	StartedAt    time.Time   `json:"started,omitzero"`
	FinishedAt   time.Time   `json:"finished,omitzero"`
	Stamp
}

func (m *Match) recordKey() []byte { return []byte(m.ID) }
func (m *Match) getID() string     { return m.ID }
func (m *Match) setID(id string)   { m.ID = id }

func (m *Match) validate() error {
	what := "match " + m.ID
	if err := checkKeyPart("match id", m.ID, true); err != nil {
		return err
	}
	if err := checkKeyPart(what+": guild", m.Guild, false); err != nil {
		return err
	}
	if err := checkKeyPart(what+": variant", m.Variant, true); err != nil {
		return err
	}
	for i, p := range m.Players {
		if !p.IsEngine() {
			return fmt.Errorf("storage: %s: player %d %q is not an engine: %w", what, i+1, p.ID, ErrInvalid)
		}
	}
	if m.Players[0].ID == m.Players[1].ID {
		return fmt.Errorf("storage: %s: both players are %q: %w", what, m.Players[0].ID, ErrInvalid)
	}
	if m.Games < 1 || m.Games > MaxMatchGames {
		return fmt.Errorf("storage: %s: %d games is not 1 to %d: %w", what, m.Games, MaxMatchGames, ErrInvalid)
	}
	if len(m.GameIDs) > m.Games || m.OpeningPlies < 0 || m.MaxPlies < 0 {
		return fmt.Errorf("storage: %s: %d games started of %d, opening %d plies, cap %d plies: %w",
			what, len(m.GameIDs), m.Games, m.OpeningPlies, m.MaxPlies, ErrInvalid)
	}
	switch m.Status {
	case MatchRunning, MatchFinished, MatchStopped:
	default:
		return fmt.Errorf("storage: %s: status %q is not running, finished or stopped: %w", what, m.Status, ErrInvalid)
	}
	return nil
}

// Active reports whether the match is still being played.
func (m *Match) Active() bool { return m.Status == MatchRunning }

func (m *Match) indexes() []indexEntry {
	state := "o"
	if m.Active() {
		state = "a"
	}
	return []indexEntry{{bucket: xMatchGuild, key: key(m.Guild, state, m.ID), value: []byte{}}}
}

// Match returns match id, or an error wrapping ErrNotFound.
func (tx *Tx) Match(id string) (*Match, error) {
	return getRecord[Match](tx, kindMatch, []byte(id))
}

// PutMatch writes m with the version check (Version 0 creates it, assigning an id
// when ID is empty).
func (tx *Tx) PutMatch(m *Match) error {
	if m.Status == "" {
		m.Status = MatchRunning
	}
	return putRecord(tx, kindMatch, m)
}

// GuildMatches returns a guild's matches, the running ones when active is true, the
// finished and stopped ones otherwise, oldest first.
func (tx *Tx) GuildMatches(guild string, active bool) ([]*Match, error) {
	state := "o"
	if active {
		state = "a"
	}
	ids, err := tx.indexIDs(xMatchGuild, prefix(guild, state), 0, 0, false)
	if err != nil {
		return nil, err
	}
	ms, err := loadRecords[Match](tx, kindMatch, ids)
	sortOldestFirst(ms, func(m *Match) string { return m.ID })
	return ms, err
}
