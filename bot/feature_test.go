package bot_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/bottest"
	"github.com/missivechess/missive/bot/challenges"
	"github.com/missivechess/missive/bot/features"
	"github.com/missivechess/missive/bot/guide"
	"github.com/missivechess/missive/bot/matches"
	"github.com/missivechess/missive/bot/play"
	"github.com/missivechess/missive/bot/privacy"
	"github.com/missivechess/missive/bot/ratings"
	"github.com/missivechess/missive/bot/review"
	"github.com/missivechess/missive/bot/settings"
	"github.com/missivechess/missive/bot/tournaments"
	"github.com/missivechess/missive/bot/views"
	"github.com/missivechess/missive/rules"
)

// New refuses features that would make a command ambiguous or incomplete.
func TestFeatureConflicts(t *testing.T) {
	h := bottest.New(t)
	cfg := features.With(bot.Config{Store: h.Store, Registry: h.Reg, Renderer: h.Render}, h.Options)
	plugged := slices.Clip(cfg.Features)
	for name, f := range map[string]bot.Feature{
		"a name taken":        {Commands: []bot.Command{{Spec: bot.CommandSpec{Name: play.CmdMove}, Handle: func(context.Context, bot.Request) bot.Reply { return bot.Reply{} }}}},
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
	want := []string{challenges.CmdChallenge, challenges.CmdAccept, challenges.CmdDecline, challenges.CmdCancel, challenges.CmdChallenges, play.CmdMove, play.CmdPlace, views.CmdBoard, views.CmdGames, views.CmdNext,
		views.CmdHistory, play.CmdResign, play.CmdDraw, play.CmdTakeback, play.CmdMoreTime, play.CmdAbort, views.CmdPGN, views.CmdGIF, views.CmdHint, guide.CmdRules, settings.CmdSettings, settings.CmdLeave,
		ratings.CmdLeaderboard, ratings.CmdProfile, tournaments.CmdTournament, matches.CmdMatch, challenges.CmdRematch, guide.CmdHelp, play.CmdConditional, review.CmdReview, privacy.CmdPrivacy}
	if !slices.Equal(names, want) {
		t.Errorf("commands %v\nwant %v", names, want)
	}
	if want := []string{challenges.CmdChallenges, play.CmdPlace, views.CmdGames, views.CmdHint, guide.CmdRules, settings.CmdSettings, settings.CmdLeave, guide.CmdHelp, play.CmdConditional, privacy.CmdPrivacy}; !slices.Equal(private, want) {
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
