package privacy_test

import (
	"context"
	"strings"
	"testing"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/bottest"
	"github.com/missivechess/missive/bot/privacy"
	"github.com/missivechess/missive/rules/record"
	"github.com/missivechess/missive/storage"
)

// names reports whether anything a reply shows (its text, board, files and
// pictures) names who.
func names(r bot.Reply, who string) bool {
	if strings.Contains(strings.ToLower(r.PlainText()), who) {
		return true
	}
	for _, f := range r.Files {
		if strings.Contains(strings.ToLower(string(f.Data)), who) || strings.Contains(strings.ToLower(f.Alt), who) {
			return true
		}
	}
	return false
}

// played sets up what alice leaves behind: a finished rated tournament game
// (a rating, a tournament, standings), a finished casual game in which she
// had prepared a conditional line (gone with the game's end), her settings, a declined challenge, and a notice
// to her not yet delivered (written to the outbox as a notice that Discord has
// not taken yet). It returns the games' ids.
func played(t *testing.T) (*bottest.Harness, string, string) {
	h := bottest.New(t)
	h.Ok("alice", "settings theme:night")
	h.Ok("alice", "tournament action:create variant:gothic format:round-robin days:3")
	h.Ok("alice", "tournament action:join")
	h.Ok("bob", "tournament action:join")
	h.Ok("alice", "tournament action:start")
	_, games := h.Tournament("1")
	rated := games[0].ID
	h.Ok(games[0].Player(games[0].ToMove[0]).ID, "resign game:"+rated)
	casual := h.Start("gothic", "")
	h.Play(casual, "alice", "e4")
	h.Ok("alice", "conditional action:add game:"+casual+" line:e5_Nc3")
	h.Ok("bob", "resign game:"+casual)
	h.Ok("bob", "challenge variant:keltic opponent:alice")
	h.Ok("alice", "decline")
	if err := h.Store.Update(context.Background(), func(tx *storage.Tx) error {
		return tx.PutOutbox(&storage.OutboxEntry{Dest: "dm:alice",
			Body: []byte(`{"key":"digest/alice","kind":"info","to":{"ID":"alice","Name":"alice"},"direct":true,"title":"Your games","text":"alice, it is your move in no game."}`)})
	}); err != nil {
		t.Fatal(err)
	}
	return h, rated, casual
}

// /privacy show gives the player a summary and a file of what is kept.
func TestPrivacyShow(t *testing.T) {
	h, rated, casual := played(t)
	open := h.Start("gothic", "")
	h.Play(open, "alice", "e4")
	h.Ok("alice", "conditional action:add game:"+open+" line:e5_Nc3")
	r := h.Ok("alice", "privacy action:show")
	if !r.Private {
		t.Error("the answer is not private")
	}
	for _, want := range []string{"Ratings: 1.", "Games: 3 (1 in progress), with 1 conditional line", "Tournaments: 1.", "Notices waiting to be delivered: 1 to you"} {
		if !strings.Contains(r.Text, want) {
			t.Errorf("summary lacks %q: %s", want, r.Text)
		}
	}
	if len(r.Files) != 1 {
		t.Fatalf("files %v", r.Files)
	}
	data := string(r.Files[0].Data)
	for _, want := range []string{`"theme": "night"`, `"id": "` + rated + `"`, `"id": "` + casual + `"`, `"conditional_moves"`, `"` + open + `": [`, `"notices_queued"`, `"rating"`} {
		if !strings.Contains(data, want) {
			t.Errorf("the file lacks %s:\n%s", want, data)
		}
	}
	if strings.Contains(strings.ToLower(string(h.Ok("bob", "privacy action:show").Files[0].Data)), "conditional_moves") {
		t.Error("bob's file shows alice's conditional line")
	}
}

// /privacy delete is refused while the player has a game in progress, naming it
// and the way out.
func TestPrivacyDeleteWaitsForGames(t *testing.T) {
	h := bottest.New(t)
	id := h.Start("gothic", "")
	h.Refused("alice", "privacy action:delete", "1 game in progress ("+id+"): finish or resign it (/resign)")
	h.Refused("alice", "privacy action:delete confirm:yes", "cannot be deleted yet")
	if h.Game(id).Players[0].ID != "alice" {
		t.Fatal("a refused deletion changed the game")
	}
}

// After /privacy delete (confirmed with its button) nothing Missive shows
// names the player: the opponent's views, PGN, pictures and standings show "a
// former player"; their settings, ratings, conditional lines and queued notices
// are gone; the opponent's games still load and replay, and the opponent's
// rating stays.
func TestPrivacyDelete(t *testing.T) {
	h, rated, casual := played(t)
	if r := h.Ok("bob", "history game:"+rated); !names(r, "alice") {
		t.Fatalf("before the deletion the history does not name alice: %s", r.PlainText())
	}
	ask := h.Ok("alice", "privacy action:delete")
	if len(ask.Actions) != 1 || ask.Actions[0].Args.Get("confirm") != "yes" || ask.Actions[0].Style != bot.StyleDanger {
		t.Fatalf("no confirmation button: %+v", ask)
	}
	if h.Player("alice").Theme != "night" {
		t.Fatal("asking deleted something")
	}
	a := ask.Actions[0]
	done := h.Ok("alice", a.Command+" action:"+a.Args.Get("action")+" confirm:"+a.Args.Get("confirm"))
	if !strings.Contains(done.Text, "Missive keeps nothing about you now") {
		t.Fatalf("delete answered %q", done.Text)
	}
	h.Notes.Take()

	// What bob (or anyone) sees of the games and the tournament.
	for _, line := range []string{"games", "history game:" + rated, "board game:" + rated, "pgn game:" + rated,
		"gif game:" + rated, "pgn game:" + casual, "history game:" + casual, "tournament action:standings tournament:1",
		"tournament action:standings tournament:1 show:table", "tournament action:info tournament:1", "leaderboard variant:gothic"} {
		r := h.Ok("bob", line)
		if names(r, "alice") {
			t.Errorf("/%s names alice: %s", line, r.PlainText())
		}
	}
	if r := h.Ok("bob", "history game:"+rated); !strings.Contains(r.PlainText(), privacy.FormerPlayer) {
		t.Errorf("the history does not show %q: %s", privacy.FormerPlayer, r.PlainText())
	}
	// The games load, replay and export.
	for _, id := range []string{rated, casual} {
		g := h.Game(id)
		if g.Position == nil || len(g.Moves) == 0 && id == casual {
			t.Fatalf("game %s does not replay", id)
		}
		if len(g.Conditional) != 0 {
			t.Errorf("game %s keeps conditional lines %+v", id, g.Conditional)
		}
		pgn := h.Ok("bob", "pgn game:"+id)
		if _, err := record.ReadPGN(strings.NewReader(string(pgn.Files[0].Data)), h.Reg); err != nil {
			t.Errorf("game %s's PGN does not read back: %v", id, err)
		}
	}
	// Nothing is kept under her id.
	var d *storage.PlayerData
	if err := h.Store.View(context.Background(), func(tx *storage.Tx) (err error) {
		d, err = tx.PlayerData("alice")
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if d.Player != nil || len(d.Ratings)+len(d.Games)+len(d.Challenges)+len(d.Tournaments)+len(d.Notices)+len(d.Reviews) != 0 {
		t.Errorf("still kept about alice: %+v", d)
	}
	if r := h.Rating("gothic", "bob"); r == nil || r.Games != 1 {
		t.Errorf("bob's rating %+v", r)
	}
	if err := h.Store.Verify(context.Background()); err != nil {
		t.Fatal(err)
	}
	// What follows names her no more: a rematch, bob's review of the game.
	h.Svc.Idle()
	for _, n := range h.Notes.Take() {
		if names(n.Reply, "alice") || n.To.ID == "alice" {
			t.Errorf("a notice after the deletion names alice: %+v", n)
		}
	}
	// No rematch can be offered to the seat nobody answers for.
	if r := h.Do("bob", "rematch game:"+casual); !r.Refused || !strings.Contains(r.Text, "deleted what Missive kept about them") {
		t.Errorf("a rematch against the former player answered %+v", r)
	}
	// She may play again, afresh.
	if r := h.Ok("alice", "privacy action:show"); !strings.Contains(r.Text, "Games: 0") {
		t.Errorf("after the deletion: %s", r.Text)
	}
}
