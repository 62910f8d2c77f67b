package storage

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"time"
)

// NotifyStyle says how a player wants to hear about their games; the texts are stored.
type NotifyStyle string

// The notification styles. The empty style means the bot's default.
const (
	NotifyDefault NotifyStyle = ""
	NotifyMention NotifyStyle = "mention" // mention in the game's channel or thread
	NotifyDM      NotifyStyle = "dm"      // direct message
	NotifyBoth    NotifyStyle = "both"
)

// Player is a person's (or an engine's) settings, created on first use.
type Player struct {
	ID     string      `json:"id"` // Discord user id or engine id
	Name   string      `json:"name,omitempty"`
	Notify NotifyStyle `json:"notify,omitempty"`
	Theme  string      `json:"theme,omitempty"` // board theme name; empty means the default
	// ReminderHours lists how many hours before a deadline to remind the player; nil
	// means the bot's default, an empty list means no reminders.
	ReminderHours []int `json:"reminder_hours"`
	// Leave is the player's leave in progress, nil when they are not on leave.
	Leave *Leave `json:"leave,omitempty"`
	// LeaveYear and LeaveUsedHours count the leave taken in a calendar year (UTC):
	// the hours of every leave that began in that year.
	LeaveYear      int `json:"leave_year,omitempty"`
	LeaveUsedHours int `json:"leave_used_h,omitempty"`
	// DigestHour, when set, is the hour (0-23, UTC) of the player's daily digest;
	// DigestNext is when the next one is due and DigestSent the date (2006-01-02, UTC)
	// of the last one sent.
	DigestHour *int      `json:"digest_hour,omitempty"`
	DigestNext time.Time `json:"digest_next,omitzero"`
	DigestSent string    `json:"digest_sent,omitempty"`
	// Lang is the language the player chose with /settings language (a code of
	// bot/i18n: "de", "pt-BR"), empty when they chose none; Locale is the language
	// of their last interaction, remembered for what is sent to them unasked. Both
	// are optional fields of the JSON record (no schema change).
	Lang   string `json:"lang,omitempty"`
	Locale string `json:"locale,omitempty"`
	Stamp
}

// Leave is a period during which a player's clocks are frozen: from Start until End
// at the latest (the player may end it sooner).
type Leave struct {
	Start time.Time `json:"start"`
	End   time.Time `json:"end"`
}

// MaxReminderHours bounds a reminder's lead time (two weeks, the longest clock).
const MaxReminderHours = 14 * 24

func (p *Player) recordKey() []byte { return []byte(p.ID) }
func (p *Player) indexes() []indexEntry {
	var out []indexEntry
	for _, t := range []time.Time{p.leaveEnd(), p.digestNext()} {
		if !t.IsZero() && (len(out) == 0 || !bytes.Equal(out[0].key[:8], timeKey(t))) {
			out = append(out, indexEntry{bucket: xPlayerDue, key: concat(timeKey(t), []byte(p.ID)), value: []byte{}})
		}
	}
	return out
}

// leaveEnd is when p's leave ends, zero when p is not on leave.
func (p *Player) leaveEnd() time.Time {
	if p.Leave == nil {
		return time.Time{}
	}
	return p.Leave.End
}

// digestNext is when p's next digest is due, zero when p asked for none.
func (p *Player) digestNext() time.Time {
	if p.DigestHour == nil {
		return time.Time{}
	}
	return p.DigestNext
}

func (p *Player) validate() error {
	if err := checkKeyPart("player id", p.ID, true); err != nil {
		return err
	}
	switch p.Notify {
	case NotifyDefault, NotifyMention, NotifyDM, NotifyBoth:
	default:
		return fmt.Errorf("storage: player %s: notification style %q is not mention, dm or both: %w", p.ID, p.Notify, ErrInvalid)
	}
	for _, h := range p.ReminderHours {
		if h < 1 || h > MaxReminderHours {
			return fmt.Errorf("storage: player %s: reminder %d hours before the deadline is outside 1..%d: %w", p.ID, h, MaxReminderHours, ErrInvalid)
		}
	}
	if l := p.Leave; l != nil && !l.End.After(l.Start) {
		return fmt.Errorf("storage: player %s: a leave that ends (%v) before it starts (%v): %w", p.ID, l.End, l.Start, ErrInvalid)
	}
	if p.LeaveUsedHours < 0 {
		return fmt.Errorf("storage: player %s: negative leave taken: %w", p.ID, ErrInvalid)
	}
	if h := p.DigestHour; h != nil && (*h < 0 || *h > 23 || p.DigestNext.IsZero()) {
		return fmt.Errorf("storage: player %s: a digest at hour %d (0 to 23) with no next time: %w", p.ID, *h, ErrInvalid)
	}
	return nil
}

// DuePlayers returns the players the scheduler must look at by t: those whose leave
// ends, or whose daily digest is due, at or before t.
func (tx *Tx) DuePlayers(t time.Time) ([]*Player, error) {
	due, err := tx.timeIndex(xPlayerDue, t, 0)
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, d := range due {
		if !slices.Contains(ids, d.Game) {
			ids = append(ids, d.Game)
		}
	}
	return loadRecords[Player](tx, kindPlayer, ids)
}

// Player returns the settings of player id, or an error wrapping ErrNotFound.
func (tx *Tx) Player(id string) (*Player, error) {
	return getRecord[Player](tx, kindPlayer, []byte(id))
}

// PutPlayer writes p with the version check (Version 0 creates it).
func (tx *Tx) PutPlayer(p *Player) error { return putRecord(tx, kindPlayer, p) }

// DeletePlayer removes a player's settings.
func (tx *Tx) DeletePlayer(id string) error {
	return deleteRecord[Player](tx, kindPlayer, []byte(id))
}

// ChallengeStatus is the state of a challenge; the texts are stored.
type ChallengeStatus string

// The states of a challenge. Only open challenges are in the challenge indexes.
const (
	ChallengeOpen      ChallengeStatus = "open"
	ChallengeAccepted  ChallengeStatus = "accepted"
	ChallengeDeclined  ChallengeStatus = "declined"
	ChallengeCancelled ChallengeStatus = "cancelled"
	ChallengeExpired   ChallengeStatus = "expired"
)

// ColorChoice is the colour a challenger asks for; the texts are stored.
type ColorChoice string

// The colour choices.
const (
	ColorWhite  ColorChoice = "white"
	ColorBlack  ColorChoice = "black"
	ColorRandom ColorChoice = "random"
)

// Challenge is an offer to play, to one opponent or (Opponent.ID empty) to anyone in
// the guild.
type Challenge struct {
	ID          string          `json:"id"` // assigned on first write when empty
	Guild       string          `json:"guild,omitempty"`
	Channel     string          `json:"channel,omitempty"`
	Challenger  Seat            `json:"challenger"`
	Opponent    Seat            `json:"opponent"` // ID empty: open to anyone
	Variant     string          `json:"variant"`
	Color       ColorChoice     `json:"color"` // the challenger's colour
	DaysPerMove int             `json:"days"`
	Bank        *TimeBank       `json:"bank,omitempty"` // a time-bank clock instead of days per move
	Rated       bool            `json:"rated"`
	Start       string          `json:"start,omitempty"` // a start position text, empty for the variant's own
	Status      ChallengeStatus `json:"status"`
	Game        string          `json:"game,omitempty"`   // the game created on acceptance
	ExpiresAt   time.Time       `json:"expires,omitzero"` // zero: never
	Tournament  string          `json:"tournament,omitempty"`
	Stamp
}

func (c *Challenge) recordKey() []byte { return []byte(c.ID) }
func (c *Challenge) getID() string     { return c.ID }
func (c *Challenge) setID(id string)   { c.ID = id }

func (c *Challenge) validate() error {
	what := "challenge " + c.ID
	if err := checkKeyPart("challenge id", c.ID, true); err != nil {
		return err
	}
	for _, f := range []struct {
		name, v  string
		required bool
	}{{"guild", c.Guild, false}, {"challenger id", c.Challenger.ID, true}, {"opponent id", c.Opponent.ID, false},
		{"variant", c.Variant, true}, {"game", c.Game, false}, {"tournament", c.Tournament, false}} {
		if err := checkKeyPart(what+": "+f.name, f.v, f.required); err != nil {
			return err
		}
	}
	switch c.Color {
	case ColorWhite, ColorBlack, ColorRandom:
	default:
		return fmt.Errorf("storage: %s: colour %q is not white, black or random: %w", what, c.Color, ErrInvalid)
	}
	switch c.Status {
	case ChallengeOpen, ChallengeAccepted, ChallengeDeclined, ChallengeCancelled, ChallengeExpired:
	default:
		return fmt.Errorf("storage: %s: status %q is not open, accepted, declined, cancelled or expired: %w", what, c.Status, ErrInvalid)
	}
	if c.DaysPerMove < 0 {
		return fmt.Errorf("storage: %s: negative days per move: %w", what, ErrInvalid)
	}
	return c.Bank.validate(what)
}

func (c *Challenge) indexes() []indexEntry {
	if c.Status != ChallengeOpen {
		return nil
	}
	out := []indexEntry{
		{bucket: xChallengeOpen, key: key(c.Guild, c.ID), value: []byte{}},
		{bucket: xChallengePlayer, key: key(c.Challenger.ID, c.ID), value: []byte{}},
	}
	if c.Opponent.ID != "" && c.Opponent.ID != c.Challenger.ID {
		out = append(out, indexEntry{bucket: xChallengePlayer, key: key(c.Opponent.ID, c.ID), value: []byte{}})
	}
	if !c.ExpiresAt.IsZero() {
		out = append(out, indexEntry{bucket: xChallengeExpiry, key: concat(timeKey(c.ExpiresAt), []byte(c.ID)), value: []byte{}})
	}
	return out
}

// Challenge returns challenge id, or an error wrapping ErrNotFound.
func (tx *Tx) Challenge(id string) (*Challenge, error) {
	return getRecord[Challenge](tx, kindChallenge, []byte(id))
}

// PutChallenge writes c with the version check (Version 0 creates it, assigning an id
// when ID is empty).
func (tx *Tx) PutChallenge(c *Challenge) error {
	if c.Status == "" {
		c.Status = ChallengeOpen
	}
	return putRecord(tx, kindChallenge, c)
}

// DeleteChallenge removes a challenge and its index entries.
func (tx *Tx) DeleteChallenge(id string) error {
	return deleteRecord[Challenge](tx, kindChallenge, []byte(id))
}

// challenges reads the challenges an index lists under pre, oldest first.
func (tx *Tx) challenges(name, pre []byte) ([]*Challenge, error) {
	ids, err := tx.indexIDs(name, pre, 0, 0, false)
	if err != nil {
		return nil, err
	}
	cs, err := loadRecords[Challenge](tx, kindChallenge, ids)
	sortOldestFirst(cs, func(c *Challenge) string { return c.ID })
	return cs, err
}

// OpenChallenges returns the open challenges of a guild ("" for local play), oldest first.
func (tx *Tx) OpenChallenges(guild string) ([]*Challenge, error) {
	return tx.challenges(xChallengeOpen, prefix(guild))
}

// PlayerChallenges returns the open challenges that player made or received, oldest first.
func (tx *Tx) PlayerChallenges(player string) ([]*Challenge, error) {
	return tx.challenges(xChallengePlayer, prefix(player))
}

// ExpiredChallenges returns the open challenges whose ExpiresAt is at or before t.
func (tx *Tx) ExpiredChallenges(t time.Time) ([]*Challenge, error) {
	expired, err := tx.timeIndex(xChallengeExpiry, t, 0)
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(expired))
	for i, e := range expired {
		ids[i] = e.Game
	}
	return loadRecords[Challenge](tx, kindChallenge, ids)
}

// TournamentFormat is how a tournament pairs its players; the texts are those of
// package bot/tournament and are stored.
type TournamentFormat string

// The tournament formats.
const (
	RoundRobin       TournamentFormat = "round-robin"
	DoubleRoundRobin TournamentFormat = "double-round-robin"
	Swiss            TournamentFormat = "swiss"
)

// TournamentStatus is the state of a tournament; the texts are stored.
type TournamentStatus string

// The states of a tournament.
const (
	TournamentOpen      TournamentStatus = "open" // taking entrants
	TournamentRunning   TournamentStatus = "running"
	TournamentFinished  TournamentStatus = "finished"
	TournamentCancelled TournamentStatus = "cancelled"
)

// Tournament is a server's tournament: its settings, its entrants, and the pairing
// state kept by package bot/tournament (players in seed order, withdrawals, every
// pairing with its result) so that a restart pairs nobody twice. The games of the
// tournament are ordinary games whose Tournament and Round name it (TournamentGames).
type Tournament struct {
	ID          string           `json:"id"` // assigned on first write when empty
	Guild       string           `json:"guild,omitempty"`
	Channel     string           `json:"channel,omitempty"`
	Thread      string           `json:"thread,omitempty"` // where standings and results are posted
	Name        string           `json:"name"`
	Organizer   string           `json:"organizer,omitempty"` // user id
	Variant     string           `json:"variant"`
	Format      TournamentFormat `json:"format"`
	Rounds      int              `json:"rounds,omitempty"` // Swiss: rounds chosen at creation
	DaysPerMove int              `json:"days"`
	Bank        *TimeBank        `json:"bank,omitempty"`     // a time-bank clock instead of days per move
	NoLeave     bool             `json:"no_leave,omitempty"` // leave does not freeze its games' clocks
	Rated       bool             `json:"rated"`
	MaxPlayers  int              `json:"max_players,omitempty"` // 0: no limit
	Engines     []string         `json:"engines,omitempty"`     // engine ids allowed to enter
	Status      TournamentStatus `json:"status"`
	Entrants    []Entrant        `json:"entrants"`
	// Pairing is the JSON of the bot/tournament.Tournament value once the event has
	// started, stored as given (that package validates it when read back).
	Pairing    json.RawMessage `json:"pairing,omitempty"`
	StartedAt  time.Time       `json:"started,omitzero"`
	FinishedAt time.Time       `json:"finished,omitzero"`
	Stamp
}

// Entrant is one player who joined a tournament.
type Entrant struct {
	Player      Seat      `json:"player"`
	JoinedAt    time.Time `json:"joined"`
	Withdrawn   bool      `json:"withdrawn,omitempty"`
	WithdrawnAt time.Time `json:"withdrawn_at,omitzero"`
}

func (t *Tournament) recordKey() []byte { return []byte(t.ID) }
func (t *Tournament) getID() string     { return t.ID }
func (t *Tournament) setID(id string)   { t.ID = id }

func (t *Tournament) validate() error {
	what := "tournament " + t.ID
	if err := checkKeyPart("tournament id", t.ID, true); err != nil {
		return err
	}
	if err := checkKeyPart(what+": guild", t.Guild, false); err != nil {
		return err
	}
	if err := checkKeyPart(what+": variant", t.Variant, true); err != nil {
		return err
	}
	switch t.Format {
	case RoundRobin, DoubleRoundRobin, Swiss:
	default:
		return fmt.Errorf("storage: %s: format %q is not round-robin, double-round-robin or swiss: %w", what, t.Format, ErrInvalid)
	}
	switch t.Status {
	case TournamentOpen, TournamentRunning, TournamentFinished, TournamentCancelled:
	default:
		return fmt.Errorf("storage: %s: status %q is not open, running, finished or cancelled: %w", what, t.Status, ErrInvalid)
	}
	if err := t.Bank.validate(what); err != nil {
		return err
	}
	if len(t.Pairing) > 0 && !json.Valid(t.Pairing) {
		return fmt.Errorf("storage: %s: the pairing state is not valid JSON: %w", what, ErrInvalid)
	}
	return nil
}

// Active reports whether the tournament is open or running.
func (t *Tournament) Active() bool {
	return t.Status == TournamentOpen || t.Status == TournamentRunning
}

func (t *Tournament) indexes() []indexEntry {
	state := "o"
	if t.Active() {
		state = "a"
	}
	return []indexEntry{{bucket: xTournamentGuild, key: key(t.Guild, state, t.ID), value: []byte{}}}
}

// Tournament returns tournament id, or an error wrapping ErrNotFound.
func (tx *Tx) Tournament(id string) (*Tournament, error) {
	return getRecord[Tournament](tx, kindTournament, []byte(id))
}

// PutTournament writes t with the version check (Version 0 creates it, assigning an id
// when ID is empty).
func (tx *Tx) PutTournament(t *Tournament) error {
	if t.Status == "" {
		t.Status = TournamentOpen
	}
	return putRecord(tx, kindTournament, t)
}

// DeleteTournament removes a tournament and its index entry (its games stay).
func (tx *Tx) DeleteTournament(id string) error {
	return deleteRecord[Tournament](tx, kindTournament, []byte(id))
}

// GuildTournaments returns a guild's tournaments, the open and running ones when
// active is true, the finished and cancelled ones otherwise, oldest first.
func (tx *Tx) GuildTournaments(guild string, active bool) ([]*Tournament, error) {
	state := "o"
	if active {
		state = "a"
	}
	ids, err := tx.indexIDs(xTournamentGuild, prefix(guild, state), 0, 0, false)
	if err != nil {
		return nil, err
	}
	ts, err := loadRecords[Tournament](tx, kindTournament, ids)
	sortOldestFirst(ts, func(t *Tournament) string { return t.ID })
	return ts, err
}

// Rating is a player's rating in one variant on one server, with the fields of
// bot/rating.Rating (Glicko-2 on the Glicko scale), and their record there. Guild is
// empty for local play.
type Rating struct {
	Guild      string    `json:"guild"`
	Variant    string    `json:"variant"`
	Player     string    `json:"player"`
	Rating     float64   `json:"rating"`
	RD         float64   `json:"rd"`
	Volatility float64   `json:"volatility"`
	Games      int       `json:"games"`         // rated games played
	Last       time.Time `json:"last,omitzero"` // when the last rated game ended
	Wins       int       `json:"wins"`
	Draws      int       `json:"draws"`
	Losses     int       `json:"losses"`
	Stamp
}

func (r *Rating) recordKey() []byte     { return key(r.Guild, r.Variant, r.Player) }
func (r *Rating) indexes() []indexEntry { return nil }
func (r *Rating) validate() error {
	if err := checkKeyPart("rating guild", r.Guild, false); err != nil {
		return err
	}
	if err := checkKeyPart("rating variant", r.Variant, true); err != nil {
		return err
	}
	return checkKeyPart("rating player", r.Player, true)
}

// Rating returns player's rating in variant on guild, or an error wrapping ErrNotFound.
func (tx *Tx) Rating(guild, variant, player string) (*Rating, error) {
	return getRecord[Rating](tx, kindRating, key(guild, variant, player))
}

// PutRating writes r with the version check (Version 0 creates it).
func (tx *Tx) PutRating(r *Rating) error { return putRecord(tx, kindRating, r) }

// Server is a server's settings: Lang is the language an admin chose for the posts
// many read there (a code of bot/i18n), empty when none was chosen; Locale is the
// server's own language as Discord last sent it (guild_locale), for the posts no
// interaction carries (a reminder in a game's thread).
type Server struct {
	ID     string `json:"id"` // Discord guild id
	Lang   string `json:"lang,omitempty"`
	Locale string `json:"locale,omitempty"`
	Stamp
}

func (s *Server) recordKey() []byte     { return []byte(s.ID) }
func (s *Server) indexes() []indexEntry { return nil }
func (s *Server) validate() error       { return checkKeyPart("server id", s.ID, true) }

// Server returns the settings of server id, or an error wrapping ErrNotFound.
func (tx *Tx) Server(id string) (*Server, error) {
	return getRecord[Server](tx, kindServer, []byte(id))
}

// PutServer writes s with the version check (Version 0 creates it).
func (tx *Tx) PutServer(s *Server) error { return putRecord(tx, kindServer, s) }

// Ratings returns every rating in variant on guild, highest first (a leaderboard).
func (tx *Tx) Ratings(guild, variant string) ([]*Rating, error) {
	var out []*Rating
	var derr error
	err := tx.scanPrefix(bRatings, prefix(guild, variant), func(rest, v []byte) bool {
		var r Rating
		if derr = decodeRecord(v, &r, describe(kindRating, key(guild, variant, string(rest)))); derr != nil {
			return false
		}
		out = append(out, &r)
		return true
	})
	if err = cmp.Or(err, derr); err != nil {
		return nil, err
	}
	slices.SortStableFunc(out, func(a, b *Rating) int { return cmp.Compare(b.Rating, a.Rating) })
	return out, nil
}
