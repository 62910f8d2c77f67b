package views

import (
	"cmp"
	"context"
	"slices"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/storage"
)

// nextCommand is /next.
func (f *feature) nextCommand() bot.Command {
	return bot.Command{Handle: f.cmdNext, Spec: bot.CommandSpec{Name: CmdNext, Description: "The board of your most urgent game: your move, least time left"}}
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
		return cmp.Compare(bot.DeadlineKey(a), bot.DeadlineKey(b))
	})
}

// cmdNext shows the board of the user's most urgent game waiting for the user.
func (f *feature) cmdNext(ctx context.Context, req bot.Request) bot.Reply {
	var id string
	waiting := 0
	if err := f.svc.Read(ctx, func(tx *storage.Tx) error {
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
		return f.svc.Fail(req, err)
	}
	if id == "" {
		loc := f.svc.AskerLocalizer(ctx, Catalogue, req)
		return bot.Reply{Private: true, Title: loc.T("views.next.title", nil), Text: loc.T("views.next.none", nil)}
	}
	board := req
	board.Command, board.Args = CmdBoard, bot.Args{"game": id}
	r := f.cmdBoard(ctx, board)
	if !r.Refused && waiting > 1 {
		r.Text += "\n" + f.svc.AskerLocalizer(ctx, Catalogue, req).N("views.next.more", waiting-1, nil)
	}
	return r
}
