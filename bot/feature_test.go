package bot_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/bottest"
	"github.com/missivechess/missive/bot/features"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/storage"
)

// cmdTally is the test-only feature's command.
const cmdTally = "tally"

// tallyFeature is a whole feature in one file: the command /tally, which says how
// many of the user's games have ended (with autocompletion of its option), and an
// end-of-game hook that counts each ended game for both players inside the
// transaction that ends it, and reports the count after the commit.
type tallyFeature struct {
	svc    *bot.Service
	after  []string // "game id: white's count" as the after-commit hook read it
	failOn string   // a game whose end the in-transaction hook refuses
}

func (f *tallyFeature) plug(s *bot.Service) bot.Feature {
	f.svc = s
	return bot.Feature{
		Commands: []bot.Command{{
			Spec: bot.CommandSpec{Name: cmdTally, Description: "How many of your games have ended", Private: true, Options: []bot.OptionSpec{
				{Name: "style", Description: "How to say it", Type: bot.OptString, Autocomplete: true}}},
			Handle: f.handle,
			Complete: map[string]bot.Completer{"style": func(_ *storage.Tx, _ bot.Request, add func(label, value string) bool) {
				for _, v := range []string{"short", "long"} {
					if !add(v, v) {
						return
					}
				}
			}},
		}},
		GameEnded:      f.ended,
		AfterGameEnded: f.afterEnded,
	}
}

// tallyKey is where the count of a player's ended games is kept (a player record
// under a made-up id, so that the test needs no storage of its own).
func tallyKey(player string) string { return "tally:" + player }

// ended counts g for both players in the transaction that ends it.
func (f *tallyFeature) ended(end bot.GameEnd) error {
	if end.Game.ID == f.failOn {
		return errors.New("tally: refused")
	}
	for _, seat := range end.Game.Players {
		p, err := bot.Settings(end.Tx.Tx, tallyKey(seat.ID))
		if err != nil {
			return err
		}
		p.Name += "|"
		if err := end.Tx.PutPlayer(p); err != nil {
			return err
		}
	}
	return nil
}

// count reads a player's count from the store.
func (f *tallyFeature) count(ctx context.Context, player string) int {
	n := -1
	_ = f.svc.Read(ctx, func(tx *storage.Tx) error {
		p, err := bot.Settings(tx, tallyKey(player))
		n = len(p.Name)
		return err
	})
	return n
}

// afterEnded reads the count back once the transaction has committed.
func (f *tallyFeature) afterEnded(ctx context.Context, g *storage.Game) {
	f.after = append(f.after, g.ID+": "+strings.Repeat("|", f.count(ctx, g.Players[rules.White].ID)))
}

func (f *tallyFeature) handle(ctx context.Context, req bot.Request) bot.Reply {
	return bot.Reply{Private: true, Title: "Tally", Text: strings.Repeat("|", f.count(ctx, req.User.ID))}
}

// A feature plugs in with one file: its command is dispatched, listed, completed
// and private as its spec says, and its end-of-game hooks run inside the ending
// transaction (an error undoes the end) and after the commit.
func TestFeaturePlugsIn(t *testing.T) {
	f := &tallyFeature{}
	h := bottest.New(t, f.plug)
	specs := h.Svc.Commands()
	if last := specs[len(specs)-1]; last.Name != cmdTally || !last.Private {
		t.Fatalf("the feature's command is not listed last, or not private: %+v", last)
	}
	if spec, ok := h.Svc.Spec(cmdTally); !ok || spec.Usage() != "/tally [style:<string>]" {
		t.Fatalf("spec %+v %v", spec, ok)
	}
	if got := h.Svc.Complete(t.Context(), bot.Request{User: bot.User{ID: "alice"}, Command: cmdTally}, "style", "lo"); len(got) != 1 || got[0].Value != "long" {
		t.Fatalf("completion %+v", got)
	}
	if r := h.Ok("alice", cmdTally); r.Text != "" {
		t.Fatalf("before any game ended: %q", r.Text)
	}

	id := h.Start("gothic", "")
	f.failOn = id
	if r := h.Do("bob", "resign"); !r.Refused || !h.Game(id).Active() {
		t.Fatalf("a failing in-transaction hook did not undo the resignation: %+v", r)
	}
	if len(f.after) != 0 || f.count(t.Context(), "alice") != 0 {
		t.Fatalf("an undone end ran the after hook or kept the count: %v", f.after)
	}
	f.failOn = ""
	h.Ok("bob", "resign")
	id2 := h.Start("keltic", "")
	h.Ok("alice", "abort")
	if want := []string{id + ": |", id2 + ": ||"}; !slices.Equal(f.after, want) {
		t.Fatalf("after-commit hook saw %v, want %v", f.after, want)
	}
	if r := h.Ok("bob", cmdTally); r.Text != "||" || !r.Private {
		t.Fatalf("tally %+v", r)
	}
}

// New refuses features that would make a command ambiguous or incomplete.
func TestFeatureConflicts(t *testing.T) {
	h := bottest.New(t)
	cfg := features.With(bot.Config{Store: h.Store, Registry: h.Reg, Renderer: h.Render}, h.Options)
	plugged := slices.Clip(cfg.Features)
	for name, f := range map[string]bot.Feature{
		"a name taken":        {Commands: []bot.Command{{Spec: bot.CommandSpec{Name: bot.CmdMove}, Handle: func(context.Context, bot.Request) bot.Reply { return bot.Reply{} }}}},
		"no handler":          {Commands: []bot.Command{{Spec: bot.CommandSpec{Name: "nohandler"}}}},
		"no completer":        {Commands: []bot.Command{{Spec: bot.CommandSpec{Name: "x", Options: []bot.OptionSpec{{Name: "z", Autocomplete: true}}}, Handle: func(context.Context, bot.Request) bot.Reply { return bot.Reply{} }}}},
		"completes no option": {Commands: []bot.Command{{Spec: bot.CommandSpec{Name: "x"}, Handle: func(context.Context, bot.Request) bot.Reply { return bot.Reply{} }, Complete: map[string]bot.Completer{"y": nil}}}},
	} {
		cfg.Features = append(plugged, func(*bot.Service) bot.Feature { return f })
		if s, err := bot.New(cfg); err == nil {
			s.Close()
			t.Errorf("%s: New accepted the feature", name)
		}
	}
}

// The service's own commands are listed in the order they always were, and the
// Discord adapter's early acknowledgement is private exactly for the commands whose
// answers are (/rules among them).
func TestBuiltinCommands(t *testing.T) {
	h := bottest.New(t)
	var names, private []string
	for _, c := range h.Svc.Commands() {
		names = append(names, c.Name)
		if c.Private {
			private = append(private, c.Name)
		}
	}
	want := []string{bot.CmdChallenge, bot.CmdAccept, bot.CmdDecline, bot.CmdCancel, bot.CmdChallenges, bot.CmdMove, bot.CmdPlace, bot.CmdBoard, bot.CmdGames, bot.CmdNext,
		bot.CmdHistory, bot.CmdResign, bot.CmdDraw, bot.CmdTakeback, bot.CmdMoreTime, bot.CmdAbort, bot.CmdPGN, bot.CmdGIF, bot.CmdHint, bot.CmdRules, bot.CmdSettings, bot.CmdLeave,
		bot.CmdLeaderboard, bot.CmdProfile, bot.CmdTournament, bot.CmdMatch, bot.CmdRematch, bot.CmdHelp, bot.CmdConditional, bot.CmdReview}
	if !slices.Equal(names, want) {
		t.Errorf("commands %v\nwant %v", names, want)
	}
	if want := []string{bot.CmdChallenges, bot.CmdPlace, bot.CmdGames, bot.CmdHint, bot.CmdRules, bot.CmdSettings, bot.CmdLeave, bot.CmdHelp, bot.CmdConditional}; !slices.Equal(private, want) {
		t.Errorf("private commands %v, want %v", private, want)
	}
	for _, line := range []string{"rules variant:gothic", "games", "challenges", "settings"} {
		if r := h.Ok("alice", line); !r.Private {
			t.Errorf("/%s answers publicly, but its spec says private", line)
		}
	}
}

// A refusal that carries its sentence (a rules.Error) is shown as it is, not
// trimmed from its error text.
func TestCarriedSentence(t *testing.T) {
	err := rules.Refuse(rules.ErrIllegalMove, "Nf9: there is no square f9 on this board.")
	got, ok := bot.UserText(err)
	if !ok || got != "Nf9: there is no square f9 on this board." {
		t.Errorf("userText = %q, %v", got, ok)
	}
	if _, ok := bot.UserText(fmt.Errorf("gochess: in the placement phase both players choose at once: %w", rules.ErrIllegalMove)); ok {
		t.Error("an error of a rules kind without a sentence was shown to the user")
	}
}
