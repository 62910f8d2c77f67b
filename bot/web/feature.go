package web

import (
	"context"
	"fmt"
	"time"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/storage"
)

// CmdWeb is the command that hands out a game's web links.
const CmdWeb = "web"

// Feature plugs the web pages into the service (bot.Config.Features): a link
// button to its page under every game's board, the live updates of the pages
// open on a game each time it is stored, and /web, which sends the asker their
// links privately (a player's own link, which moves and keeps their analysis)
// and revokes them.
func (w *Server) Feature(s *bot.Service) bot.Feature {
	return bot.Feature{
		Commands: []bot.Command{s.OnGame(bot.Command{Handle: func(ctx context.Context, req bot.Request) bot.Reply { return w.cmdWeb(ctx, s, req) },
			Spec: bot.CommandSpec{Name: CmdWeb, Description: "Your links to a game's web page: board, moves by click, your private analysis", Private: true,
				Options: []bot.OptionSpec{{Name: "revoke", Description: "Make old links stop working", Type: bot.OptString,
					Choices: []bot.OptionChoice{{Name: "My own link", Value: "mine"}, {Name: "The viewers' link (players only)", Value: "view"}}}}}})},
		Buttons: w.button,
		Saving: func(tx *bot.Tx, g *storage.Game, _ time.Time) error {
			id := g.ID
			tx.After(func(context.Context) { w.hub.publish(id) })
			return nil
		},
	}
}

// button adds the link to g's page under its board.
func (w *Server) button(g *storage.Game, actions []bot.Action) []bot.Action {
	url := w.ViewLink(g.ID)
	if url == "" || len(actions) >= bot.MaxActions {
		return actions
	}
	return append(actions, bot.Action{Label: "Web page", URL: url})
}

// cmdWeb is /web: the asker's links to a game's page, privately; revoke:mine
// makes the asker's own old links stop working, revoke:view the viewers' links.
func (w *Server) cmdWeb(ctx context.Context, s *bot.Service, req bot.Request) bot.Reply {
	if _, _, ok := w.state(); !ok {
		return bot.Refusal("The web pages are not running right now; try again in a moment.")
	}
	revoke := req.Args.Get("revoke")
	if revoke != "" && revoke != "mine" && revoke != "view" {
		return bot.Refusal(fmt.Sprintf("Revoke must be mine or view, not %s.", revoke))
	}
	op := func(tx *bot.Tx) error {
		g, err := s.FindGame(tx.Tx, req, bot.AnyGame)
		if err != nil {
			return err
		}
		_, plays := g.SideOf(req.User.ID)
		said := ""
		if revoke != "" {
			if !plays {
				return bot.Refuse(bot.ErrNotPlayer, "Only the players of game %s can revoke its links.", g.ID)
			}
			k := genKey{g.ID, req.User.ID}
			said = "Your old links to this game no longer open it. "
			if revoke == "view" {
				k.player = ""
				said = "The old viewers' links to this game no longer open it (new boards carry the new one). "
			}
			n, err := tx.RevokeTokens(k.game, k.player)
			if err != nil {
				return err
			}
			w.setGen(k, n) // before the reply below signs the new links
			tx.After(func(context.Context) { w.hub.publish(k.game) })
		}
		r := bot.Reply{Private: true, Title: s.GameTitle(g), Game: bot.RefOf(g)}
		view := w.ViewLink(g.ID)
		if plays {
			own := w.PlayerLink(g.ID, req.User.ID)
			r.Text = said + "Your own page for game " + g.ID + ": keep it to yourself, it moves for you and keeps your private analysis.\n" + own +
				"\nThe page for viewers (anyone you share it with): " + view
			r.Actions = []bot.Action{{Label: "My page", URL: own}, {Label: "Viewers' page", URL: view}}
		} else {
			r.Text = "The page of game " + g.ID + ": " + view
			r.Actions = []bot.Action{{Label: "Web page", URL: view}}
		}
		*tx.Reply() = r
		return nil
	}
	if revoke != "" {
		return s.Mutate(ctx, req, op)
	}
	return s.View(ctx, req, op)
}
