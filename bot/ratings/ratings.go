package ratings

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/bot/rating"
	"github.com/missivechess/missive/bot/words"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/storage"
)

// The commands of the feature.
const (
	CmdLeaderboard = "leaderboard"
	CmdProfile     = "profile"
)

// leaderboardSize is how many players /leaderboard lists unless asked (at most
// leaderboardMax).
const (
	leaderboardSize = 20
	leaderboardMax  = 50
)

//go:embed locales/*.yaml
var localeFiles embed.FS

// Catalogue holds the ratings' messages in every language Missive speaks:
// /leaderboard's and /profile's names, descriptions, replies and refusals.
var Catalogue = i18n.MustLoad("ratings", localeFiles)

// ratingConfig is the Glicko-2 configuration of every rated game.
var ratingConfig = rating.DefaultConfig()

// feature is the ratings feature of one service.
type feature struct{ svc *bot.Service }

// New returns the ratings feature of s: /leaderboard, /profile, and a rated
// game's end changing both players' ratings.
func New(s *bot.Service) bot.Feature {
	f := &feature{svc: s}
	return bot.Feature{Commands: []bot.Command{f.leaderboardCommand(), f.profileCommand()}, GameEnded: rateGame}
}

// rateGame updates both players' ratings in the game's variant on its server when
// a rated game ends (an aborted game has no result and changes nothing). It runs
// inside the transaction that ends the game, which happens once per game.
func rateGame(end bot.GameEnd) error {
	tx, g := end.Tx, end.Game
	if !g.Rated || !g.Outcome.IsOver() || g.Outcome.Reason == rules.Aborted {
		return nil
	}
	scoreWhite := 0.5
	if g.Outcome.Status == rules.Won {
		scoreWhite = 1
		if g.Outcome.Winner == rules.Black {
			scoreWhite = 0
		}
	}
	var recs [2]*storage.Rating
	var rs [2]rating.Rating
	for i, seat := range g.Players {
		r, err := tx.Rating(g.Guild, g.Variant, seat.ID)
		if errors.Is(err, storage.ErrNotFound) {
			nr := rating.New()
			r, err = &storage.Rating{Guild: g.Guild, Variant: g.Variant, Player: seat.ID,
				Rating: nr.Value, RD: nr.RD, Volatility: nr.Volatility}, nil
		}
		if err != nil {
			return err
		}
		recs[i] = r
		rs[i] = rating.Rating{Value: r.Rating, RD: r.RD, Volatility: r.Volatility, Games: r.Games, Last: r.Last}
	}
	at := g.EndedAt
	if at.IsZero() {
		at = g.Clock.Deadline
	}
	w, b, err := ratingConfig.Game(rs[0], rs[1], scoreWhite, at)
	if err != nil {
		return fmt.Errorf("ratings: rating game %s: %w", g.ID, err)
	}
	for i, nr := range [2]rating.Rating{w, b} {
		r := recs[i]
		r.Rating, r.RD, r.Volatility, r.Games, r.Last = nr.Value, nr.RD, nr.Volatility, nr.Games, nr.Last
		score := scoreWhite
		if i == 1 {
			score = 1 - scoreWhite
		}
		switch score {
		case 1:
			r.Wins++
		case 0:
			r.Losses++
		default:
			r.Draws++
		}
		if err := tx.PutRating(r); err != nil {
			return err
		}
		if err := rememberName(tx.Tx, g.Players[i]); err != nil {
			return err
		}
	}
	return nil
}

// rememberName keeps a rated player's latest display name with their settings, for
// leaderboards.
func rememberName(tx *storage.Tx, seat storage.Seat) error {
	p, err := bot.Settings(tx, seat.ID)
	if err != nil || seat.Name == "" || p.Name == seat.Name {
		return err
	}
	p.Name = seat.Name
	return tx.PutPlayer(p)
}

// shownRating is r as it stands now (RD grown while idle), with "?" when provisional.
func (f *feature) shownRating(r *storage.Rating) string {
	cur := ratingConfig.At(rating.Rating{Value: r.Rating, RD: r.RD, Volatility: r.Volatility, Games: r.Games, Last: r.Last}, f.svc.Now())
	text := strconv.Itoa(int(cur.Value + 0.5))
	if ratingConfig.Provisional(cur) {
		text += "?"
	}
	return text
}

// leaderboardCommand is /leaderboard.
func (f *feature) leaderboardCommand() bot.Command {
	return bot.Command{Handle: f.cmdLeaderboard, Spec: bot.CommandSpec{Name: CmdLeaderboard, Description: "The best rated players of a game here", Options: []bot.OptionSpec{
		{Name: "variant", Description: "The game", Type: bot.OptString, Required: true, Choices: f.svc.VariantChoices()},
		{Name: "top", Description: "How many players to list (default 20)", Type: bot.OptInteger, Min: 1, Max: leaderboardMax}}}.Localize(Catalogue)}
}

// profileCommand is /profile.
func (f *feature) profileCommand() bot.Command {
	return bot.Command{Handle: f.cmdProfile, Spec: bot.CommandSpec{Name: CmdProfile, Description: "A player's ratings, games, wins, draws and losses per game", Options: []bot.OptionSpec{
		{Name: "player", Description: "Whose card (default: yours)", Type: bot.OptUser}}}.Localize(Catalogue)}
}

// cmdLeaderboard lists the best rated players of a variant on this server.
func (f *feature) cmdLeaderboard(ctx context.Context, req bot.Request) bot.Reply {
	v, err := f.svc.Registry().Lookup(req.Args.Get("variant"))
	if err != nil {
		loc := f.svc.AskerLocalizer(ctx, Catalogue, req)
		return bot.Refusal(loc.T("leaderboard.variant", i18n.Data{"Keys": strings.Join(f.svc.Registry().Keys(), ", ")}))
	}
	top, err := bot.IntArg(req, "top", leaderboardSize)
	if err != nil || top < 1 || top > leaderboardMax {
		loc := f.svc.AskerLocalizer(ctx, Catalogue, req)
		return bot.Refusal(loc.T("leaderboard.top", i18n.Data{"Most": leaderboardMax}))
	}
	return f.svc.View(ctx, req, func(tx *bot.Tx) error {
		lang, err := bot.AskerLang(tx.Tx, req)
		if err != nil {
			return err
		}
		loc, game := Catalogue.For(lang), f.svc.VariantNameIn(lang, v.Key())
		rs, err := tx.Ratings(req.Place.Guild, v.Key())
		if err != nil {
			return err
		}
		*tx.Reply() = bot.Reply{Title: loc.T("leaderboard.title", i18n.Data{"Variant": game})}
		if len(rs) == 0 {
			tx.Reply().Text = loc.T("leaderboard.nobody", i18n.Data{"Variant": game})
			return nil
		}
		h := func(id string) string { return loc.T("leaderboard."+id, nil) }
		tbl := bot.Table{Columns: []bot.Column{{Header: h("rank"), Right: true}, {Header: h("player"), Max: 26}, {Header: h("rating"), Right: true},
			{Header: h("games"), Right: true}, {Header: h("wins"), Right: true}, {Header: h("draws"), Right: true}, {Header: h("losses"), Right: true}}}
		for i, r := range rs[:min(len(rs), top)] {
			tbl.Rows = append(tbl.Rows, bot.TableRow{Cells: []string{strconv.Itoa(i + 1), playerName(tx.Tx, r.Player), f.shownRating(r),
				strconv.Itoa(r.Games), strconv.Itoa(r.Wins), strconv.Itoa(r.Draws), strconv.Itoa(r.Losses)}})
		}
		tx.Reply().Text = "```\n" + tbl.Text(0) + "```\n" + loc.T("leaderboard.note", nil)
		return nil
	})
}

// cmdProfile shows a player's rating, games and results in every variant.
func (f *feature) cmdProfile(ctx context.Context, req bot.Request) bot.Reply {
	who := req.Args.Get("player")
	if who == "" {
		who = req.User.ID
	}
	if len([]rune(who)) > bot.MaxNameLen {
		loc := f.svc.AskerLocalizer(ctx, Catalogue, req)
		return bot.Refusal(words.In(loc.Lang()).NameTooLong(loc.T("profile.namewhat", nil), who, bot.MaxNameLen))
	}
	return f.svc.View(ctx, req, func(tx *bot.Tx) error {
		lang, err := bot.AskerLang(tx.Tx, req)
		if err != nil {
			return err
		}
		loc := Catalogue.For(lang)
		name := playerName(tx.Tx, who)
		if n, ok := req.Names[who]; ok && n != "" {
			name = n
		} else if who == req.User.ID {
			name = req.User.Name
		}
		*tx.Reply() = bot.Reply{Title: name}
		for _, v := range f.svc.Registry().Variants() {
			r, err := tx.Rating(req.Place.Guild, v.Key(), who)
			if errors.Is(err, storage.ErrNotFound) {
				continue
			}
			if err != nil {
				return err
			}
			tx.Reply().Fields = append(tx.Reply().Fields, bot.Field{Name: f.svc.VariantNameIn(lang, v.Key()), Inline: true,
				Value: loc.N("profile.line", r.Games, i18n.Data{"Rating": f.shownRating(r), "Wins": r.Wins, "Draws": r.Draws, "Losses": r.Losses})})
		}
		if len(tx.Reply().Fields) == 0 {
			tx.Reply().Text = loc.T("profile.none", i18n.Data{"Player": name})
		} else {
			tx.Reply().Text = loc.T("profile.note", nil)
		}
		return nil
	})
}

// playerName is the name a player last had in a game, or their id.
func playerName(tx *storage.Tx, id string) string {
	if p, err := tx.Player(id); err == nil && p.Name != "" {
		return p.Name
	}
	return id
}
