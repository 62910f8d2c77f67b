package bot

import (
	"context"
	"slices"
	"time"

	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/bot/words"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/storage"
)

// Tx is one change in progress as a feature sees it: the data file's transaction
// (embedded, so that a feature reads and writes its records through it) and what
// the service does once it commits — the reply and its picture, the notifications,
// engine moves, hooks to run after the commit, a wake-up of the scheduler. Nothing
// of it happens when the transaction fails. A Tx is valid only inside the function
// it is handed to.
type Tx struct {
	*storage.Tx
	s *Service
	e *effects
}

// tx wraps a store transaction and its effects as a Tx.
func (s *Service) tx(tx *storage.Tx, e *effects) *Tx { return &Tx{Tx: tx, s: s, e: e} }

// Now returns the service's current time.
func (t *Tx) Now() time.Time { return t.s.Now() }

// Reply returns the reply being built, to set or amend.
func (t *Tx) Reply() *Reply { return &t.e.reply }

// SetReply sets the reply and its picture (nil for none); a board drawn with
// Board is described in the reply's reader's language.
func (t *Tx) SetReply(r Reply, p *Picture) {
	t.e.reply, t.e.image = r, p.describedIn(t.s, t.e.readerLang())
}

// Picture returns the reply's picture, nil when it has none.
func (t *Tx) Picture() *Picture { return t.e.image }

// Tell notifies the player of side in g, with the board from that side, as the
// player's settings ask; when the reply shows in g's own place (inPlace), the
// reply mentions the player instead. key identifies the notice by what it says.
func (t *Tx) Tell(g *storage.Game, side rules.Side, kind NoticeKind, text, key string, inPlace bool) error {
	return t.s.tell(t.Tx, t.e, g, side, kind, Same(text), key, inPlace)
}

// TellIn is Tell with text in each reader's language: a post in g's thread in
// the server's, a direct message in the player's; its title is g's, in the same.
func (t *Tx) TellIn(g *storage.Game, side rules.Side, kind NoticeKind, text Phrase, key string, inPlace bool) error {
	return t.s.tell(t.Tx, t.e, g, side, kind, text, key, inPlace)
}

// Lang returns the language of the reply's reader: the asker's (English for a
// change no request asked for).
func (t *Tx) Lang() i18n.Lang { return t.e.readerLang() }

// Notice is a notification for one user about something that happened at Place,
// as TellUser sends it.
type Notice struct {
	To          storage.Seat
	Kind        NoticeKind
	Title, Text string
	Key         string
	// InPlace says that the reply shows where the notice would go (the reply then
	// mentions the user instead).
	InPlace bool
	Place   Place
	// Game, when set, is the game concerned: the notice carries its board from the
	// user's side and its buttons; else Actions are its buttons.
	Game    *storage.Game
	Actions []Action
	// TitleIn and TextIn, when set, are the title and text in each reader's
	// language (a post in a server's channel in the server's, a direct message in
	// the user's), used instead of Title and Text.
	TitleIn, TextIn Phrase
}

// TellUser notifies n.To as the user's settings ask; outside a server the place is
// someone's direct messages, so the notice goes to the user directly.
func (t *Tx) TellUser(n Notice) error {
	title, text := n.TitleIn, n.TextIn
	if title == nil {
		title = Same(n.Title)
	}
	if text == nil {
		text = Same(n.Text)
	}
	return t.s.tellUser(t.Tx, t.e, n.To, n.Kind, title, text, n.Key, n.InPlace, n.Place, n.Game, n.Actions...)
}

// TellDirect sends seat a direct message, whatever the seat's settings say (a
// notice about the player's own account, such as their leave or digest).
func (t *Tx) TellDirect(seat storage.Seat, kind NoticeKind, r Reply, key string) {
	if seat.IsEngine() || seat.ID == "" {
		return
	}
	t.Send(Notification{Key: key, Kind: kind, To: User{ID: seat.ID, Name: words.Seat(seat)}, Direct: true, Reply: r}, nil)
}

// Send queues n as it is, with its picture p (nil for none): a post in an event's
// place, a notice a feature addresses itself. A board drawn with Board is
// described in the language of n's reader: the server's for a post in a
// server's channel, else the player's.
func (t *Tx) Send(n Notification, p *Picture) {
	if n.Reply.Lang == "" || p != nil && p.anyLang {
		l := t.noticeLang(n)
		p = p.describedIn(t.s, l)
		if n.Reply.Lang == "" {
			n.Reply.Lang = written(l)
		}
	}
	t.e.notes = append(t.e.notes, note{n: n, image: p})
}

// noticeLang is the language of n's reader, as tellUser chooses it: the server's
// for a post in a server's channel, else the player's (in local play, the
// asker's for a player whose language is unknown); English when it cannot be read.
func (t *Tx) noticeLang(n Notification) i18n.Lang {
	if n.Channel && n.Game != nil && n.Game.Place.Guild != "" {
		l, _ := ServerLang(t.Tx, n.Game.Place.Guild, "")
		return l
	}
	if n.To.ID == "" {
		return t.e.readerLang()
	}
	p, err := Settings(t.Tx, n.To.ID)
	if err != nil {
		return i18n.English
	}
	if p.Lang == "" && p.Locale == "" && (n.To.ID == t.e.asker || n.Game == nil || n.Game.Place == (Place{})) {
		return t.e.readerLang()
	}
	return PlayerLang(p)
}

// Notices returns how many notifications the change has queued so far.
func (t *Tx) Notices() int { return len(t.e.notes) }

// DropNotices removes the notifications queued from index from on for which drop
// says so (a notice made moot by what followed in the same change).
func (t *Tx) DropNotices(from int, drop func(i int, n Notification) bool) {
	kept := t.e.notes[:from:from]
	for i, n := range t.e.notes[from:] {
		if !drop(from+i, n.n) {
			kept = append(kept, n)
		}
	}
	t.e.notes = kept
}

// PictureLast sets the picture of the last notification queued.
func (t *Tx) PictureLast(p *Picture) {
	if len(t.e.notes) > 0 {
		t.e.notes[len(t.e.notes)-1].image = p
	}
}

// After runs fn once the change has committed (and never when it fails).
func (t *Tx) After(fn func(ctx context.Context)) { t.e.after = append(t.e.after, fn) }

// Wake makes the scheduler look at its index again after the commit (a deadline
// changed).
func (t *Tx) Wake() { t.e.wake = true }

// Merge adds the notifications and background work of o, another change, to t
// (not its reply).
func (t *Tx) Merge(o *Tx) { merge(t.e, o.e) }

// Fork returns a change in the same transaction with effects of its own, which
// Merge may add to t later (a game created for an event, whose reply is not the
// request's).
func (t *Tx) Fork() *Tx { return &Tx{Tx: t.Tx, s: t.s, e: &effects{}} }

// Board returns the picture of g's board for viewer in that player's theme,
// public (no pending secret choice) unless private is set, described in the
// language of the reply (SetReply) or notice (Send) it goes with.
func (t *Tx) Board(g *storage.Game, viewer rules.Side, private bool) (*Picture, error) {
	return t.s.boardImage(t.Tx, g, viewer, private)
}

// BoardIn is Board with the picture described for a reader of language l.
func (t *Tx) BoardIn(l i18n.Lang, g *storage.Game, viewer rules.Side, private bool) (*Picture, error) {
	return t.s.boardImageIn(l, t.Tx, g, viewer, private)
}

// Save stores g: the features' Saving hooks run, its next wake-up is planned, the
// reminders due are sent, the end-of-game hooks run when it has just ended, and an
// engine due to act is started after the commit.
func (t *Tx) Save(g *storage.Game) error { return t.s.save(t.Tx, t.e, g, t.s.Now()) }

// End finishes g with outcome o, caused by side's action, stores it and announces
// it with text; from is where the request came from (nil when none did).
func (t *Tx) End(g *storage.Game, side rules.Side, o rules.Outcome, text string, from *Place) error {
	return t.s.end(t.Tx, t.e, g, side, o, Same(text), from)
}

// EndIn is End with text in each reader's language (the reply in the asker's,
// each notice in its reader's).
func (t *Tx) EndIn(g *storage.Game, side rules.Side, o rules.Outcome, text Phrase, from *Place) error {
	return t.s.end(t.Tx, t.e, g, side, o, text, from)
}

// Announce builds the public reply after side acted in g and tells the other
// player (both when the game ended); key identifies the notices.
func (t *Tx) Announce(g *storage.Game, side rules.Side, text string, from *Place, key string) error {
	return t.s.announce(t.Tx, t.e, g, side, Same(text), from, key)
}

// AnnounceIn is Announce with text in each reader's language.
func (t *Tx) AnnounceIn(g *storage.Game, side rules.Side, text Phrase, from *Place, key string) error {
	return t.s.announce(t.Tx, t.e, g, side, text, from, key)
}

// Play plays text as side's move in g through the path of every move: the
// features' Moving hooks (for a player's own move, from not nil), the clock, the
// store, the announcement, the Moved hooks.
func (t *Tx) Play(g *storage.Game, side rules.Side, text string, from *Place) error {
	return t.s.play(t.Tx, t.e, g, side, text, from)
}

// Choose makes side's secret choice text in g's current round (Go-Chess
// placement), through the same path.
func (t *Tx) Choose(g *storage.Game, side rules.Side, text string, from *Place) error {
	return t.s.choose(t.Tx, t.e, g, side, text, from)
}

// TookBack runs the features' TookBack hooks after side agreed to take back moves
// in g, which is stored and announced with said; notices counts the notifications
// queued before the announcement.
func (t *Tx) TookBack(g *storage.Game, side rules.Side, said string, from *Place, notices int) error {
	return t.TookBackIn(g, side, Same(said), from, notices)
}

// TookBackIn is TookBack with what was said in each reader's language.
func (t *Tx) TookBackIn(g *storage.Game, side rules.Side, said Phrase, from *Place, notices int) error {
	return t.s.changed(t.s.hooks.tookBack, GameChange{Tx: t, Game: g, Side: side, Said: said(i18n.English), SaidIn: said, From: from, Notices: notices})
}

// CreateGame stores a new game, starts its clock and prepares the reply and the
// notices; starter, the user whose request started it, learns of it from the
// reply, and from is where that request came from (nil for none).
func (t *Tx) CreateGame(ng NewGame, starter string, from *Place) (*storage.Game, error) {
	return t.s.createGame(t.Tx, t.e, ng, starter, from)
}

// Unmention removes id from the reply's mentions.
func (t *Tx) Unmention(id string) {
	t.e.reply.Mentions = slices.DeleteFunc(t.e.reply.Mentions, func(m string) bool { return m == id })
}

// SaveAt stores g as Save does, as of now rather than the service's current
// time: a change that runs as of a given time (a scheduler pass, a move) stores
// every game it touches as of that time.
func (t *Tx) SaveAt(g *storage.Game, now time.Time) error { return t.s.save(t.Tx, t.e, g, now) }
