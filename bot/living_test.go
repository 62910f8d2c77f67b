package bot_test

import (
	"testing"

	"github.com/missivechess/missive/bot/bottest"
)

// Replies name what their buttons act on, mark the answers that settle it, and mark a
// game's last word, so that adapters can keep their messages alive.
func TestRepliesForLivingMessages(t *testing.T) {
	h := bottest.New(t)
	ch := h.Ok("alice", "challenge variant:gothic opponent:bob")
	if ch.Topic != "challenge/1" || ch.Update {
		t.Errorf("challenge: topic %q, update %v", ch.Topic, ch.Update)
	}
	for _, a := range ch.Actions {
		if !a.Answers {
			t.Errorf("challenge button %q does not answer its message", a.Label)
		}
	}
	if r := h.Refused("carol", "accept challenge:1", "not to you"); r.Update {
		t.Error("a refusal is marked as an update")
	}
	dec := h.Ok("bob", "decline challenge:1")
	if dec.Topic != ch.Topic || !dec.Update {
		t.Errorf("decline: topic %q, update %v", dec.Topic, dec.Update)
	}
	id := h.Start("gothic", "")
	offer := h.Ok("alice", "draw game:"+id+" action:offer")
	if offer.Topic != "draw/"+id || offer.Update || len(offer.Actions) != 2 || !offer.Actions[0].Answers {
		t.Errorf("draw offer: topic %q, update %v, actions %+v", offer.Topic, offer.Update, offer.Actions)
	}
	if offer.Final {
		t.Error("a game in progress marked final")
	}
	acc := h.Ok("bob", "draw game:"+id+" action:accept")
	if acc.Topic != offer.Topic || !acc.Update || !acc.Final {
		t.Errorf("accepted draw: topic %q, update %v, final %v", acc.Topic, acc.Update, acc.Final)
	}
}
