package bot

import (
	"slices"

	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/bot/words"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/storage"
)

// Phrase is a text in the language of whoever reads it: a notice that goes to a
// game's thread and to a player's direct messages is written once for each.
type Phrase func(l i18n.Lang) string

// Same is the Phrase that says text in every language (a text already written
// for its reader, or one that has no words to translate).
func Same(text string) Phrase { return func(i18n.Lang) string { return text } }

// readerLang is the language of the reply's reader (English when no request asked).
func (e *effects) readerLang() i18n.Lang {
	if e.lang == "" {
		return i18n.English
	}
	return e.lang
}

// tell notifies the player of side in g, with the board from that side, as the
// player's settings ask. When the reply to the current request shows in the game's
// place (inPlace), a mention there is made by the reply itself.
func (s *Service) tell(tx *storage.Tx, e *effects, g *storage.Game, side rules.Side, kind NoticeKind, text Phrase, key string, inPlace bool) error {
	return s.tellUser(tx, e, g.Player(side), kind, func(l i18n.Lang) string { return s.GameTitleIn(l, g) }, text, key, inPlace,
		Place{Guild: g.Guild, Channel: g.Channel, Thread: g.Thread}, g)
}

// tellUser notifies seat about something that happened at place (in game g when not
// nil, with g's board from seat's side, else with actions as its buttons),
// honouring seat's notification style. Outside a server the place is someone's
// direct messages (or a group DM the bot cannot post in): the notice goes to seat
// directly, whatever the style. A post in a server's channel is in the server's
// language, a direct message in the player's: when the notice goes both ways and
// the two differ, each is sent in its own.
func (s *Service) tellUser(tx *storage.Tx, e *effects, seat storage.Seat, kind NoticeKind, title, text Phrase, key string,
	inPlace bool, place Place, g *storage.Game, actions ...Action) error {
	if seat.IsEngine() || seat.ID == "" {
		return nil
	}
	p, err := Settings(tx, seat.ID)
	if err != nil {
		return err
	}
	channel := p.Notify != storage.NotifyDM || e.forceChannel
	direct := p.Notify == storage.NotifyDM || p.Notify == storage.NotifyBoth
	if outsideServer(place) {
		channel, direct = false, true
	}
	if inPlace && channel {
		if !slices.Contains(e.reply.Mentions, seat.ID) {
			e.reply.Mentions = append(e.reply.Mentions, seat.ID)
		}
		channel = false
	}
	if !channel && !direct {
		return nil
	}
	// The player's language, and the server's for a post in its channel (outside a
	// server, in local play, the player is the one who reads it). In local play
	// (the console: no place at all) the notice shows where the reply does: a player
	// whose language is unknown reads it in the asker's, or in that of local play's
	// last request when no request asked.
	own := PlayerLang(p)
	if p.Lang == "" && p.Locale == "" && seat.ID == e.asker && e.lang != "" {
		own = e.lang // the asker, whose record is made after the change (rememberNewPlayer)
	} else if place == (Place{}) && p.Lang == "" && p.Locale == "" {
		if e.lang != "" {
			own = e.lang
		} else if l, ok := s.localLang.Load().(i18n.Lang); ok {
			own = l
		}
	}
	public := own
	if channel && place.Guild != "" {
		if public, err = ServerLang(tx, place.Guild, ""); err != nil {
			return err
		}
	}
	if channel && direct && own != public {
		if err := s.note(tx, e, seat, kind, title, text, key, public, true, false, place, g, actions); err != nil {
			return err
		}
		return s.note(tx, e, seat, kind, title, text, key, own, false, true, place, g, actions)
	}
	l := own
	if channel {
		l = public
	}
	return s.note(tx, e, seat, kind, title, text, key, l, channel, direct, place, g, actions)
}

// note queues one notification of tellUser, written in language l.
func (s *Service) note(tx *storage.Tx, e *effects, seat storage.Seat, kind NoticeKind, title, text Phrase, key string,
	l i18n.Lang, channel, direct bool, place Place, g *storage.Game, actions []Action) error {
	n := Notification{Key: key, Kind: kind, To: User{ID: seat.ID, Name: words.Seat(seat)}, Channel: channel, Direct: direct,
		Reply: Reply{Title: say(title, l), Text: say(text, l), Lang: written(l)}}
	var img *Picture
	if g != nil {
		n.Game = RefOf(g)
		n.Reply.Game = RefOf(g)
		n.Reply.Actions = s.ButtonsIn(l, g)
		n.Reply.Final = !g.Active()
		side, _ := g.SideOf(seat.ID)
		var err error
		if img, err = s.boardImageIn(l, tx, g, side, false); err != nil {
			return err
		}
	} else {
		n.Game = &GameRef{Place: place}
		n.Reply.Actions = actions
		if len(actions) > 0 {
			n.Reply.Topic = e.reply.Topic // the buttons act on what the reply's act on
		}
	}
	e.notes = append(e.notes, note{n: n, image: img})
	return nil
}

// written is l as a Reply's Lang: empty for English.
func written(l i18n.Lang) i18n.Lang {
	if l == i18n.English {
		return ""
	}
	return l
}

// say is p in language l, "" for no phrase.
func say(p Phrase, l i18n.Lang) string {
	if p == nil {
		return ""
	}
	return p(l)
}

// outsideServer reports whether place is a direct message or group DM rather than
// a server's channel or local play (no place at all).
func outsideServer(place Place) bool {
	return place.Guild == "" && (place.Channel != "" || place.Thread != "")
}
