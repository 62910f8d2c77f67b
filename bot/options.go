package bot

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/missivechess/missive/bot/clock"
	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/bot/words"
	"github.com/missivechess/missive/engine"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/storage"
)

// The options several commands share: their specs and the parsers of their values.

// VariantChoices are the variants the service plays, as an option's choices.
func (s *Service) VariantChoices() []OptionChoice {
	out := make([]OptionChoice, 0, len(s.reg.Keys()))
	for _, v := range s.reg.Variants() {
		out = append(out, OptionChoice{Name: v.Name(), Value: v.Key()})
	}
	return out
}

// DaysChoices are the days per move a clock may have, as an option's choices.
func DaysChoices() []OptionChoice {
	out := make([]OptionChoice, len(clock.DaysChoices))
	for i, d := range clock.DaysChoices {
		out[i] = OptionChoice{Name: words.Plural(d, "day") + " per move", Value: strconv.Itoa(d)}
	}
	return out
}

// GameOption is the option that names the game a command acts on (see findGame
// and onGame).
func GameOption() OptionSpec {
	return OptionSpec{Name: "game", Description: "The game (needed only when you play several and are not in its thread)", Type: OptString, Autocomplete: true, MaxLength: 20}
}

// LevelArg reads the optional engine level option name: 0 when it is not given
// (the engine's default), else a level from 1 to engine.MaxLevel, or a refusal.
func LevelArg(req Request, name string) (int, error) {
	t := req.Args.Get(name)
	if t == "" {
		return 0, nil
	}
	level, err := engine.ParseLevel(t)
	if le, ok := errors.AsType[*engine.LevelError](err); ok {
		return 0, refusal(ErrRefused, "refusal.levelarg", func(words.W) i18n.Data { return i18n.Data{"Max": engine.MaxLevel, "Text": rules.Echo(le.Text)} })
	}
	return level, err
}

// IntArg reads an optional whole-number option.
func IntArg(req Request, name string, def int) (int, error) {
	t := req.Args.Get(name)
	if t == "" {
		return def, nil
	}
	n, err := strconv.Atoi(t)
	if err != nil || n < 0 {
		return 0, RefuseIn(ErrRefused, func(l i18n.Lang) string {
			return catalogue.For(l).T("refusal.whole", i18n.Data{"Name": OptionNameIn(l, req, name), "Value": rules.Echo(t)})
		})
	}
	return n, nil
}

// BoundedArg reads an optional whole-number option within lo..hi.
func BoundedArg(req Request, name string, def, lo, hi int) (int, error) {
	n, err := IntArg(req, name, def)
	if err != nil {
		return 0, err
	}
	if n < lo || n > hi {
		return 0, RefuseIn(ErrRefused, func(l i18n.Lang) string {
			return catalogue.For(l).T("refusal.bounded", i18n.Data{"Name": OptionNameIn(l, req, name), "Lo": lo, "Hi": hi, "Value": n})
		})
	}
	return n, nil
}

// OptionNameIn returns option name of req's command (and subcommand) as a
// reader of language l sees it in their client, from the command names of the
// catalogues (i18n.Commands): "runden" for the rounds option of /tournament
// create in German; name itself in English or when no catalogue translates it.
func OptionNameIn(l i18n.Lang, req Request, name string) string {
	if l == i18n.English || req.Command == "" {
		return name
	}
	mention := "/" + strings.ToLower(req.Command)
	if sub := strings.ToLower(req.Args.Get(SubcommandArg)); sub != "" && !strings.ContainsAny(sub, " :") {
		mention += " " + sub
	}
	text := i18n.Commands(l, mention+" "+name+":")
	if i := strings.LastIndexByte(text, ' '); i >= 0 && strings.HasSuffix(text, ":") {
		return text[i+1 : len(text)-1]
	}
	return name
}

// ParseBool reads an optional yes/no option; empty is false.
func ParseBool(t string) (bool, bool) {
	switch strings.ToLower(t) {
	case "", "false", "no", "n", "0", "off", "casual":
		return false, true
	case "true", "yes", "y", "1", "on", "rated":
		return true, true
	}
	return false, false
}

// ParseHours reads reminder hours such as "24,2", "24 2 1" or "none".
func ParseHours(t string) ([]int, error) {
	switch strings.ToLower(strings.TrimSpace(t)) {
	case "none", "off", "no", "0":
		return []int{}, nil
	case "default":
		return nil, nil
	}
	var out []int
	for _, f := range strings.FieldsFunc(t, func(r rune) bool { return r == ',' || r == ' ' || r == ';' }) {
		h, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(strings.ToLower(f)), "h"))
		if err != nil || h < 1 || h > storage.MaxReminderHours {
			return nil, refusal(ErrRefused, "refusal.reminders", func(words.W) i18n.Data { return i18n.Data{"Most": storage.MaxReminderHours, "Value": rules.Echo(f)} })
		}
		if !slices.Contains(out, h) {
			out = append(out, h)
		}
	}
	if len(out) > 5 {
		return nil, refusal(ErrRefused, "refusal.fivereminders", nil)
	}
	return out, nil
}

// LevelOption is an option named name that asks for an engine's level, bounded by
// the built-in engine's range; description says it with %d for the highest level.
func LevelOption(name, description string) OptionSpec {
	return OptionSpec{Name: name, Description: fmt.Sprintf(description, engine.MaxLevel), Type: OptInteger, Min: 1, Max: engine.MaxLevel}
}

// DaysOption is the option that asks for days per move, among the allowed ones
// (clock.DefaultDays when it is not given).
func DaysOption() OptionSpec {
	return OptionSpec{Name: "days", Description: fmt.Sprintf("Days per move (default %d)", clock.DefaultDays), Type: OptInteger, Choices: DaysChoices()}
}
