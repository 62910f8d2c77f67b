package bot

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/missivechess/missive/bot/words"
	"github.com/missivechess/missive/storage"
)

// CmdNext is the command that shows the most urgent game waiting for the user.
const CmdNext = "next"

// nextCommand is /next.
func (s *Service) nextCommand() Command {
	return Command{Handle: s.cmdNext, Spec: CommandSpec{Name: CmdNext, Description: "The board of your most urgent game: your move, least time left"}}
}

// awaitsUser reports whether g waits for user's move (or placement choice).
func awaitsUser(g *storage.GameSummary, user string) bool {
	side, ok := g.SideOf(user)
	return ok && slices.Contains(g.ToMove, side)
}

// sortByUrgency orders user's games by urgency: those waiting for the user's move
// first, then each group by time left, least first (games without a clock last).
func sortByUrgency(games []*storage.GameSummary, user string) {
	slices.SortStableFunc(games, func(a, b *storage.GameSummary) int {
		if ma, mb := awaitsUser(a, user), awaitsUser(b, user); ma != mb {
			if ma {
				return -1
			}
			return 1
		}
		return cmp.Compare(DeadlineKey(a), DeadlineKey(b))
	})
}

// cmdNext shows the board of the user's most urgent game waiting for the user.
func (s *Service) cmdNext(ctx context.Context, req Request) Reply {
	var id string
	waiting := 0
	if err := s.store.View(ctx, func(tx *storage.Tx) error {
		games, err := tx.PlayerActiveGames(req.User.ID)
		if err != nil {
			return err
		}
		sortByUrgency(games, req.User.ID)
		for _, g := range games {
			if awaitsUser(g, req.User.ID) {
				waiting++
			}
		}
		if waiting > 0 {
			id = games[0].ID
		}
		return nil
	}); err != nil {
		return s.fail(req, err)
	}
	if id == "" {
		return Reply{Private: true, Title: "Your next game",
			Text: "No game is waiting for your move. /games lists your games; /challenge starts a new one."}
	}
	board := req
	board.Command, board.Args = CmdBoard, Args{"game": id}
	r := s.cmdBoard(ctx, board)
	if !r.Refused && waiting > 1 {
		r.Text += fmt.Sprintf("\n%s more waiting for your move (/games lists them).", words.Plural(waiting-1, "game"))
	}
	return r
}
