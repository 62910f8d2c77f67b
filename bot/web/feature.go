package web

import (
	"context"
	"time"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/i18n"
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
	cmd := s.OnGame(bot.Command{Handle: func(ctx context.Context, req bot.Request) bot.Reply { return w.cmdWeb(ctx, s, req) },
		Spec: bot.CommandSpec{Name: CmdWeb, Description: "Your links to a game's web page: board, moves by click, your private analysis", Private: true,
			Options: []bot.OptionSpec{{Name: "revoke", Description: "Make old links stop working", Type: bot.OptString,
				Choices: []bot.OptionChoice{{Name: "My own link", Value: "mine"}, {Name: "The viewers' link (players only)", Value: "view"}}}}}})
	cmd.Spec = cmd.Spec.Localize(Catalogue)
	return bot.Feature{
		Commands:  []bot.Command{cmd},
		ButtonsIn: w.button,
		Saving: func(tx *bot.Tx, g *storage.Game, _ time.Time) error {
			id := g.ID
			tx.After(func(context.Context) { w.hub.publish(id) })
			return nil
		},
	}
}

// button adds the link to g's page under its board, labelled in language l,
// the reader's.
func (w *Server) button(l i18n.Lang, g *storage.Game, actions []bot.Action) []bot.Action {
	url := w.ViewLink(g.ID)
	if url == "" || len(actions) >= bot.MaxActions {
		return actions
	}
	return append(actions, bot.Action{Label: Catalogue.For(l).T("web.button.page", nil), URL: url})
}

// cmdWeb is /web: the asker's links to a game's page, privately; revoke:mine
// makes the asker's own old links stop working, revoke:view the viewers' links.
func (w *Server) cmdWeb(ctx context.Context, s *bot.Service, req bot.Request) bot.Reply {
	if _, _, ok := w.state(); !ok {
		return bot.Refusal(s.AskerLocalizer(ctx, Catalogue, req).T("web.down", nil))
	}
	revoke := req.Args.Get("revoke")
	if revoke != "" && revoke != "mine" && revoke != "view" {
		return bot.Refusal(s.AskerLocalizer(ctx, Catalogue, req).T("web.revoke", i18n.Data{"Value": revoke}))
	}
	op := func(tx *bot.Tx) error {
		lang, err := bot.AskerLang(tx.Tx, req)
		if err != nil {
			return err
		}
		loc := Catalogue.For(lang)
		g, err := s.FindGame(tx.Tx, req, bot.AnyGame)
		if err != nil {
			return err
		}
		_, plays := g.SideOf(req.User.ID)
		said := ""
		if revoke != "" {
			if !plays {
				return bot.Refuse(bot.ErrNotPlayer, "%s", loc.T("web.notplayer", i18n.Data{"ID": g.ID}))
			}
			k := genKey{g.ID, req.User.ID}
			said = loc.T("web.revoked.mine", nil)
			if revoke == "view" {
				k.player = ""
				said = loc.T("web.revoked.view", nil)
			}
			n, err := tx.RevokeTokens(k.game, k.player)
			if err != nil {
				return err
			}
			w.setGen(k, n) // before the reply below signs the new links
			tx.After(func(context.Context) { w.hub.publish(k.game) })
		}
		r := bot.Reply{Private: true, Title: s.GameTitleIn(lang, g), Game: bot.RefOf(g)}
		view := w.ViewLink(g.ID)
		if plays {
			own := w.PlayerLink(g.ID, req.User.ID)
			r.Text = loc.T("web.own", i18n.Data{"Said": said, "ID": g.ID, "Own": own, "View": view})
			r.Actions = []bot.Action{{Label: loc.T("web.button.mine", nil), URL: own}, {Label: loc.T("web.button.viewers", nil), URL: view}}
		} else {
			r.Text = loc.T("web.view", i18n.Data{"ID": g.ID, "View": view})
			r.Actions = []bot.Action{{Label: loc.T("web.button.page", nil), URL: view}}
		}
		*tx.Reply() = r
		return nil
	}
	if revoke != "" {
		return s.Mutate(ctx, req, op)
	}
	return s.View(ctx, req, op)
}
