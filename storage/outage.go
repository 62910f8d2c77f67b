package storage

import (
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Outages given back in steps.
//
// After an outage longer than its grace, package bot gives the time back to every
// running game. At a million games that is too much for one write transaction (every
// player's write would wait for it, and its memory grows with the games), so the work
// is cut into batches, each its own transaction, and what it has done is stored as it
// goes: the outage being given back is in the meta bucket under "outage" (BeginOutage),
// with a cursor (the last game id handled, in the order of idx.game.active), and each
// game shifted carries the outage's id (Clock.Outage). A process stopped half-way
// resumes from the cursor, and no game is shifted twice for one outage.
//
// While an outage is being given back, players are served between batches: a game
// read in a transaction (Tx.GameRecord, Tx.Game) comes with the outage already
// given back when it is owed (OutageOwed), so a move or an offer made before the
// batches reach the game sees the right deadline, and writing it stores the shift and
// the mark with the change. (Store.UpdateGame, which prepares its write outside the
// transaction, reads the stored clock; no command uses it.)
//
// The notices are one per player, not one per game: each batch adds the games it
// gives the time back to into the player's tally, in the bucket "outage.players"
// (player id -> OutageTally), which exists only while an outage is being given back,
// and the tallies become notices in batches after the last game.
//
//	meta            "outage"      {"id","from","to","cursor","phase","shifted","damaged"}
//	outage.players  player id     {"name","games","game","deadline"}

var (
	metaOutageKey  = []byte("outage")
	bOutagePlayers = []byte("outage.players")
)

// OutagePhase is the step an outage being given back is at.
type OutagePhase string

const (
	// OutageShift: the batches are moving the running games' clocks.
	OutageShift OutagePhase = "shift"
	// OutageNotify: every game is done; the players' notices are being queued.
	OutageNotify OutagePhase = "notify"
	// OutageDone: every notice is queued and the outage is forgotten (EndOutage);
	// never stored.
	OutageDone OutagePhase = "done"
)

// Outage is an outage being given back to the running games.
type Outage struct {
	ID       string      `json:"id"` // From in Unix milliseconds, the mark games get
	From     time.Time   `json:"from"`
	To       time.Time   `json:"to"`
	Cursor   string      `json:"cursor,omitempty"` // the last game id handled
	Phase    OutagePhase `json:"phase"`
	Shifted  int         `json:"shifted"` // games given the time back so far
	Damaged  int         `json:"damaged"` // game records skipped because they do not decode
	Notified int         `json:"notified"`
}

// Length is how long the outage lasted.
func (o *Outage) Length() time.Duration { return o.To.Sub(o.From) }

// Owed reports whether g is owed outage o: it is in progress with a deadline that
// had not passed when the outage began (a game already out of time was lost before
// anyone failed it), it was created and its period began before the outage ended,
// and it has not been given this outage yet.
func (o *Outage) Owed(g *Game) bool {
	c := &g.Clock
	return g.Active() && c.Outage != o.ID && !c.Deadline.IsZero() && !c.Deadline.Before(o.From) &&
		g.CreatedAt.Before(o.To) && (c.Since.IsZero() || c.Since.Before(o.To))
}

// giveBack moves g's clock on by outage o and marks it, when it is owed.
func (o *Outage) giveBack(g *Game) bool {
	if !o.Owed(g) {
		return false
	}
	g.Clock.Shift(o.Length()) // the period's start too, so a time bank is not charged for it
	g.Clock.Outage = o.ID
	return true
}

// Outage returns the outage being given back, nil when there is none.
func (tx *Tx) Outage() (*Outage, error) {
	meta, err := tx.bucket(bMeta)
	if err != nil {
		return nil, err
	}
	raw := meta.Get(metaOutageKey)
	if raw == nil {
		return nil, nil
	}
	var o Outage
	if err := json.Unmarshal(raw, &o); err != nil || o.ID == "" {
		return nil, fmt.Errorf("storage: data file %s has an unreadable outage record %q: %w", tx.s.path, raw, ErrCorrupt)
	}
	return &o, nil
}

// BeginOutage records that the outage from..to is to be given back to the running
// games, from the first game on.
func (tx *Tx) BeginOutage(from, to time.Time) (*Outage, error) {
	if err := tx.writable(); err != nil {
		return nil, err
	}
	if cur, err := tx.Outage(); err != nil || cur != nil {
		if err == nil {
			err = fmt.Errorf("storage: the outage from %s is still being given back: %w", cur.From.Format(time.RFC3339), ErrExists)
		}
		return nil, err
	}
	if _, err := tx.btx.CreateBucketIfNotExists(bOutagePlayers); err != nil {
		return nil, fmt.Errorf("storage: %w", err)
	}
	o := &Outage{ID: strconv.FormatInt(from.UnixMilli(), 10), From: from.UTC(), To: to.UTC(), Phase: OutageShift}
	return o, tx.SaveOutage(o)
}

// SaveOutage stores how far outage o has got.
func (tx *Tx) SaveOutage(o *Outage) error {
	raw, err := json.Marshal(o)
	if err != nil {
		return fmt.Errorf("storage: encoding the outage: %w", err)
	}
	return tx.putMeta(metaOutageKey, string(raw))
}

// EndOutage forgets the outage being given back and its tallies.
func (tx *Tx) EndOutage() error {
	meta, err := tx.metaToWrite()
	if err != nil {
		return err
	}
	if err := tx.btx.DeleteBucket(bOutagePlayers); err != nil && err != bolt.ErrBucketNotFound {
		return fmt.Errorf("storage: %w", err)
	}
	return meta.Delete(metaOutageKey)
}

// ActiveGamesAfter returns the ids of at most limit games in progress that follow
// after in id byte order (from the first when after is empty).
func (tx *Tx) ActiveGamesAfter(after string, limit int) ([]string, error) {
	b, err := tx.bucket(xGameActive)
	if err != nil {
		return nil, err
	}
	var ids []string
	c := b.Cursor()
	k, _ := c.Seek([]byte(after))
	if k != nil && string(k) == after {
		k, _ = c.Next()
	}
	for ; k != nil && len(ids) < limit; k, _ = c.Next() {
		ids = append(ids, string(k))
	}
	return ids, nil
}

// GiveBack gives outage o back to game id when it is owed, storing the shifted clock
// and the mark without replaying the game (only its clock changes). It returns the
// game, not replayed, and whether the game had the outage given back, now or
// earlier (by a player's write since the outage began). A record that does not decode
// gives an error matching ErrCorrupt.
func (tx *Tx) GiveBack(o *Outage, id string) (*Game, bool, error) {
	if err := tx.writable(); err != nil {
		return nil, false, err
	}
	g, raw, err := tx.rawGame(id)
	if err != nil {
		return nil, false, err
	}
	oldIdx := g.indexes()
	if !o.giveBack(g) {
		return g, g.Active() && g.Clock.Outage == o.ID, nil
	}
	// Decoded once in this transaction: the write needs no second read of the record
	// (as putRecord would do) to check its version and find its old index entries.
	w, err := prepareWrite(kindGame, g, raw, oldIdx, tx.now)
	if err != nil {
		return nil, false, err
	}
	if err := tx.apply(w); err != nil {
		return nil, false, err
	}
	return g, true, nil
}

// pendingOutage applies the outage being given back, if any, to g just read.
func (tx *Tx) pendingOutage(g *Game) error {
	meta, err := tx.bucket(bMeta)
	if err != nil || meta.Get(metaOutageKey) == nil {
		return err
	}
	o, err := tx.Outage()
	if err != nil {
		return err
	}
	o.giveBack(g)
	return nil
}

// OutageTally is what a player is told after an outage: how many of their games
// had the time back, and the last of them with its new deadline (named when it is
// the only one).
type OutageTally struct {
	Player   string    `json:"-"`
	Name     string    `json:"name"`
	Games    int       `json:"games"`
	Game     string    `json:"game"`
	Deadline time.Time `json:"deadline"`
}

// TallyOutage counts game g, given the outage back, for the player in seat.
func (tx *Tx) TallyOutage(seat Seat, g *Game) error {
	if err := tx.writable(); err != nil {
		return err
	}
	b := tx.btx.Bucket(bOutagePlayers)
	if b == nil {
		return fmt.Errorf("storage: no outage is being given back (BeginOutage first): %w", ErrNotFound)
	}
	var t OutageTally
	if raw := b.Get([]byte(seat.ID)); raw != nil {
		if err := json.Unmarshal(raw, &t); err != nil {
			return fmt.Errorf("storage: the outage tally of player %s is damaged: %w", seat.ID, ErrCorrupt)
		}
	}
	t.Name, t.Games, t.Game, t.Deadline = seat.Name, t.Games+1, g.ID, g.Clock.Deadline
	raw, err := json.Marshal(&t)
	if err != nil {
		return fmt.Errorf("storage: encoding an outage tally: %w", err)
	}
	tx.dirty = true
	return b.Put([]byte(seat.ID), raw)
}

// OutageTallies returns at most limit players' tallies, in player id order.
func (tx *Tx) OutageTallies(limit int) ([]OutageTally, error) {
	b := tx.btx.Bucket(bOutagePlayers)
	if b == nil {
		return nil, nil
	}
	var out []OutageTally
	c := b.Cursor()
	for k, v := c.First(); k != nil && len(out) < limit; k, v = c.Next() {
		var t OutageTally
		if err := json.Unmarshal(v, &t); err != nil {
			return nil, fmt.Errorf("storage: the outage tally of player %s is damaged: %w", k, ErrCorrupt)
		}
		t.Player = string(k)
		out = append(out, t)
	}
	return out, nil
}

// DeleteOutageTally removes player's tally once the player's notice is queued.
func (tx *Tx) DeleteOutageTally(player string) error {
	if err := tx.writable(); err != nil {
		return err
	}
	b := tx.btx.Bucket(bOutagePlayers)
	if b == nil {
		return nil
	}
	tx.dirty = true
	return b.Delete([]byte(player))
}
