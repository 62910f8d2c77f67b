package bot

import (
	"context"
	"maps"
	"slices"
	"strings"

	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/bot/words"
	"github.com/missivechess/missive/storage"
)

// maxSuggestions is how many values autocomplete offers (Discord's limit).
const maxSuggestions = 25

// Complete suggests values for option of req's command as the user types typed,
// from the completer req's command declares for that option, or else the one the
// commands share for that option's name (legal moves for move, the user's games
// for game, and so on). It returns nil when it has nothing to offer.
func (s *Service) Complete(ctx context.Context, req Request, option, typed string) []ChoiceOption {
	defer func() { _ = recover() }()
	complete, ok := s.completers[option]
	if c, found := s.CommandOf(req.Command); found && c.Complete[option] != nil {
		complete, ok = c.Complete[option], true
	}
	if !ok {
		return nil
	}
	if req.Args == nil {
		req.Args = Args{}
	}
	req.Args = req.Args.With(option, typed) // what a completer of a list builds on
	typed = strings.ToLower(strings.TrimSpace(typed))
	var out []ChoiceOption
	add := func(label, value string) bool {
		if typed == "" || strings.Contains(strings.ToLower(label), typed) || strings.HasPrefix(strings.ToLower(value), typed) {
			out = append(out, ChoiceOption{Label: label, Value: value})
		}
		return len(out) < maxSuggestions
	}
	_ = s.store.View(ctx, func(tx *storage.Tx) error {
		complete(tx, req, add)
		return nil
	})
	return out
}

// CompleteGame suggests the user's games in progress.
func (s *Service) CompleteGame(tx *storage.Tx, req Request, add func(label, value string) bool) {
	games, err := tx.PlayerActiveGames(req.User.ID)
	if err != nil {
		return
	}
	l, _ := AskerLang(tx, req)
	loc := catalogue.For(l)
	for _, g := range games {
		side, _ := g.SideOf(req.User.ID)
		label := loc.T("complete.game", i18n.Data{"Game": g.ID, "Variant": s.VariantNameIn(l, g.Variant), "Opponent": words.Seat(g.Players[side.Other()])})
		if !add(label, g.ID) {
			break
		}
	}
}

// OnGame makes c a command that acts on one game: the game option (see findGame)
// comes last among its options, autocompleted with the user's games.
func (s *Service) OnGame(c Command) Command {
	c.Spec.Options = append(slices.Clip(c.Spec.Options), GameOption())
	c.Complete = maps.Clone(c.Complete)
	if c.Complete == nil {
		c.Complete = map[string]Completer{}
	}
	c.Complete["game"] = s.CompleteGame
	return c
}

// CompleteEngine suggests the engines that can be challenged. Once the command's
// variant is chosen it leaves out those that would be refused in it (an engine not
// configured for that game, or one whose last check or move failed); before, it
// says which games each external engine plays.
func (s *Service) CompleteEngine(tx *storage.Tx, req Request, add func(label, value string) bool) {
	l, _ := AskerLang(tx, req)
	variant := req.Args.Get("variant")
	if _, err := s.reg.Lookup(variant); err != nil {
		variant = ""
	}
	for _, name := range s.EngineNames() {
		label := name
		if variant != "" {
			if _, err := s.engine.Opponent(name, 0, variant); err != nil {
				continue
			}
		} else if name != "builtin" {
			var plays []string
			for _, k := range s.reg.Keys() {
				if _, err := s.engine.Opponent(name, 0, k); err == nil {
					plays = append(plays, s.VariantNameIn(l, k))
				}
			}
			if len(plays) == 0 {
				continue
			}
			label += " (" + strings.Join(plays, ", ") + ")"
		}
		if !add(label, name) {
			break
		}
	}
}

// EngineNames lists the configured engines by name, the built-in one first (none
// when the engine cannot say).
func (s *Service) EngineNames() []string {
	if n, ok := s.engine.(interface{ Names() []string }); ok {
		return n.Names()
	}
	return nil
}
