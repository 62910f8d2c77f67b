package bot

import (
	"context"
	"sort"
	"strings"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/storage"
)

// maxSuggestions is how many values autocomplete offers (Discord's limit).
const maxSuggestions = 25

// Complete suggests values for option of req's command as the user types typed:
// legal moves for move, eligible cells for cell (the user's own choices only), the
// user's games for game, open challenges for challenge, engines for engine. It returns nil when it has
// nothing to offer.
func (s *Service) Complete(ctx context.Context, req Request, option, typed string) []ChoiceOption {
	defer func() { _ = recover() }()
	if req.Args == nil {
		req.Args = Args{}
	}
	typed = strings.ToLower(strings.TrimSpace(typed))
	var out []ChoiceOption
	add := func(label, value string) bool {
		if typed == "" || strings.Contains(strings.ToLower(label), typed) || strings.HasPrefix(strings.ToLower(value), typed) {
			out = append(out, ChoiceOption{Label: label, Value: value})
		}
		return len(out) < maxSuggestions
	}
	_ = s.store.View(ctx, func(tx *storage.Tx) error {
		switch option {
		case "move", "cell":
			g, err := s.findGame(tx, req, turnGame)
			if err != nil || !g.Active() {
				return nil
			}
			side, _ := g.SideOf(req.User.ID)
			if !g.Awaits(side) {
				return nil
			}
			pos := g.Position
			var moves []rules.Move
			if sim, ok := inRound(pos); ok {
				moves = sim.LegalMovesFor(side)
			} else {
				moves = pos.LegalMoves()
			}
			labels := make([]ChoiceOption, 0, len(moves))
			for _, m := range moves {
				if m.IsDrop() {
					cell := pos.Variant().Dims().Name(m.To)
					labels = append(labels, ChoiceOption{Label: cell, Value: cell})
				} else {
					labels = append(labels, ChoiceOption{Label: pos.SAN(m), Value: pos.UCI(m)})
				}
			}
			sort.SliceStable(labels, func(i, j int) bool { return labels[i].Label < labels[j].Label })
			for _, l := range labels {
				if !add(l.Label, l.Value) {
					break
				}
			}
		case "game":
			games, err := tx.PlayerActiveGames(req.User.ID)
			if err != nil {
				return nil
			}
			for _, g := range games {
				side, _ := g.SideOf(req.User.ID)
				if !add("#"+g.ID+" "+s.variantName(g.Variant)+" vs "+seatName(g.Players[side.Other()]), g.ID) {
					break
				}
			}
		case "engine", "first", "second":
			if n, ok := s.engine.(interface{ Names() []string }); ok {
				for _, name := range n.Names() {
					if !add(name, name) {
						break
					}
				}
			}
		case "challenge":
			list, err := tx.PlayerChallenges(req.User.ID)
			if err != nil {
				return nil
			}
			open, err := tx.OpenChallenges(req.Place.Guild)
			if err == nil {
				list = append(list, open...)
			}
			seen := map[string]bool{}
			for _, c := range list {
				if seen[c.ID] {
					continue
				}
				seen[c.ID] = true
				if !add("#"+c.ID+" "+s.variantName(c.Variant)+" by "+seatName(c.Challenger), c.ID) {
					break
				}
			}
		}
		return nil
	})
	return out
}
