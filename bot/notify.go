package bot

import (
	"slices"

	"github.com/missivechess/missive/bot/words"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/storage"
)

// tell notifies the player of side in g, with the board from that side, as the
// player's settings ask. When the reply to the current request shows in the game's
// place (inPlace), a mention there is made by the reply itself.
func (s *Service) tell(tx *storage.Tx, e *effects, g *storage.Game, side rules.Side, kind NoticeKind, text, key string, inPlace bool) error {
	return s.tellUser(tx, e, g.Player(side), kind, s.GameTitle(g), text, key, inPlace,
		Place{Guild: g.Guild, Channel: g.Channel, Thread: g.Thread}, g)
}

// tellUser notifies seat about something that happened at place (in game g when not
// nil, with g's board from seat's side, else with actions as its buttons),
// honouring seat's notification style. Outside a server the place is someone's
// direct messages (or a group DM the bot cannot post in): the notice goes to seat
// directly, whatever the style.
func (s *Service) tellUser(tx *storage.Tx, e *effects, seat storage.Seat, kind NoticeKind, title, text, key string,
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
	n := Notification{Key: key, Kind: kind, To: User{ID: seat.ID, Name: words.Seat(seat)}, Channel: channel, Direct: direct,
		Reply: Reply{Title: title, Text: text}}
	var img *Picture
	if g != nil {
		n.Game = RefOf(g)
		n.Reply.Game = RefOf(g)
		n.Reply.Actions = s.Buttons(g)
		n.Reply.Final = !g.Active()
		side, _ := g.SideOf(seat.ID)
		if img, err = s.boardImage(tx, g, side, false); err != nil {
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

// outsideServer reports whether place is a direct message or group DM rather than
// a server's channel or local play (no place at all).
func outsideServer(place Place) bool {
	return place.Guild == "" && (place.Channel != "" || place.Thread != "")
}
