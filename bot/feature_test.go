package bot_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/bottest"
	"github.com/missivechess/missive/bot/features"
	"github.com/missivechess/missive/rules"
)

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
