package bot

import (
	"github.com/missivechess/missive/rules/record"
	"github.com/missivechess/missive/storage"
)

// publicHistory returns g's history as everyone may see it (record.History.Public):
// every ordinary move and the choices of revealed rounds, never a pending choice.
// It replays g's record at most once (storage reuses the replay that loaded it).
func (s *Service) publicHistory(g *storage.Game) (*record.History, error) {
	h, err := g.History(s.reg)
	if err != nil {
		return nil, err
	}
	return h.Public(), nil
}
