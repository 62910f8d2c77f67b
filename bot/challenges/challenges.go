package challenges

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/clock"
	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/bot/words"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/storage"
)

// Command names of the feature, for the buttons of its replies and for tests.
const (
	CmdChallenge  = "challenge"
	CmdAccept     = "accept"
	CmdDecline    = "decline"
	CmdCancel     = "cancel"
	CmdChallenges = "challenges"
)

// feature is the challenges feature of one service.
type feature struct {
	svc *bot.Service
}

// New returns the challenges feature of s: /challenge, /accept, /decline,
// /cancel, /challenges and /rematch, the expiry of open challenges at each pass
// of the scheduler, and the Rematch button under a finished game's board.
func New(s *bot.Service) bot.Feature {
	f := &feature{svc: s}
	return bot.Feature{
		Commands: []bot.Command{
			f.challengeCommand(),
			f.acceptCommand(),
			f.declineCommand(),
			f.cancelCommand(),
			f.challengesCommand(),
			f.rematchCommand(),
		},
		Tick:      f.expireChallenges,
		ButtonsIn: rematchButton,
	}
}

// challengeCommand is /challenge.
func (f *feature) challengeCommand() bot.Command {
	return bot.Command{Handle: f.cmdChallenge, Complete: map[string]bot.Completer{"engine": f.svc.CompleteEngine, "bank": bot.CompleteBank},
		Spec: (bot.CommandSpec{Name: CmdChallenge, Description: "Challenge a player, anyone, or the engine to a correspondence game", Options: []bot.OptionSpec{
			{Name: "variant", Description: "The game to play", Type: bot.OptString, Required: true, Choices: f.svc.VariantChoices()},
			{Name: "opponent", Description: "Whom to challenge (leave out to challenge anyone here)", Type: bot.OptUser},
			{Name: "engine", Description: "Play the engine instead: builtin, or a configured engine's name", Type: bot.OptString, Autocomplete: true, MaxLength: bot.MaxNameLen},
			bot.LevelOption("level", "The engine's strength, 1 (weakest) to %d"),
			{Name: "color", Description: "Your colour", Type: bot.OptString, Choices: []bot.OptionChoice{{Name: "White", Value: "white"}, {Name: "Black", Value: "black"}, {Name: "Random", Value: "random"}}},
			bot.DaysOption(),
			bot.BankOption(),
			{Name: "rated", Description: "Rated game (default: casual)", Type: bot.OptBoolean},
			{Name: "fen", Description: "Start from this position (FEN, or Gess position text); such games are casual", Type: bot.OptString, MaxLength: 1000},
		}}).Localize(Catalogue)}
}

// challengeOption is the option that names the challenge to answer.
func challengeOption() bot.OptionSpec {
	return bot.OptionSpec{Name: "challenge", Description: "The challenge's number (needed only when there are several)", Type: bot.OptString, Autocomplete: true, MaxLength: 20}
}

// acceptCommand is /accept, also reached through a challenge's buttons.
func (f *feature) acceptCommand() bot.Command {
	return bot.Command{Handle: f.cmdAccept, Complete: map[string]bot.Completer{"challenge": f.completeChallenge},
		Spec: bot.CommandSpec{Name: CmdAccept, Description: "Accept a challenge made to you or to anyone here", Options: []bot.OptionSpec{challengeOption()}}.Localize(Catalogue)}
}

// declineCommand is /decline, also reached through a challenge's buttons.
func (f *feature) declineCommand() bot.Command {
	return bot.Command{Handle: f.cmdDecline, Complete: map[string]bot.Completer{"challenge": f.completeChallenge},
		Spec: bot.CommandSpec{Name: CmdDecline, Description: "Decline a challenge made to you", Options: []bot.OptionSpec{challengeOption()}}.Localize(Catalogue)}
}

// cancelCommand is /cancel, also reached through a challenge's buttons.
func (f *feature) cancelCommand() bot.Command {
	return bot.Command{Handle: f.cmdCancel, Complete: map[string]bot.Completer{"challenge": f.completeChallenge},
		Spec: bot.CommandSpec{Name: CmdCancel, Description: "Withdraw a challenge you made", Options: []bot.OptionSpec{challengeOption()}}.Localize(Catalogue)}
}

// challengesCommand is /challenges; its answer is private.
func (f *feature) challengesCommand() bot.Command {
	return bot.Command{Handle: f.cmdChallenges, Spec: bot.CommandSpec{Name: CmdChallenges, Description: "List the open challenges here and those made to you", Private: true}.Localize(Catalogue)}
}

// completeChallenge suggests the open challenges the user can answer with the
// request's command: /accept those made to the user or to anyone here, /decline
// those made to the user, /cancel the user's own (any other command: all of them).
func (f *feature) completeChallenge(tx *storage.Tx, req bot.Request, add func(label, value string) bool) {
	list, err := tx.PlayerChallenges(req.User.ID)
	if err != nil {
		return
	}
	open, err := tx.OpenChallenges(req.Place.Guild)
	if err == nil {
		for _, c := range open {
			if openHere(c, req) {
				list = append(list, c)
			}
		}
	}
	answers := func(c *storage.Challenge) bool {
		switch strings.ToLower(req.Command) {
		case CmdAccept:
			return c.Challenger.ID != req.User.ID && (c.Opponent.ID == "" || c.Opponent.ID == req.User.ID)
		case CmdDecline:
			return c.Opponent.ID == req.User.ID
		case CmdCancel:
			return c.Challenger.ID == req.User.ID
		}
		return true
	}
	seen := map[string]bool{}
	now := f.svc.Now()
	loc := askerLoc(tx, req)
	for _, c := range list {
		if seen[c.ID] || !answers(c) || (!c.ExpiresAt.IsZero() && !now.Before(c.ExpiresAt)) {
			continue
		}
		seen[c.ID] = true
		if !add(loc.T("complete.challenge", i18n.Data{"ID": c.ID, "Variant": f.variantName(loc, c.Variant), "Challenger": words.Seat(c.Challenger)}), c.ID) {
			break
		}
	}
}

// cmdChallenge makes a challenge, or starts a game against the engine at once.
func (f *feature) cmdChallenge(ctx context.Context, req bot.Request) bot.Reply {
	loc := f.svc.AskerLocalizer(ctx, Catalogue, req)
	refusal := func(id string, data i18n.Data) bot.Reply { return bot.Refusal(loc.T(id, data)) }
	v, err := f.svc.Registry().Lookup(req.Args.Get("variant"))
	if err != nil {
		return refusal("challenge.variant", i18n.Data{"Keys": strings.Join(f.svc.Registry().Keys(), "|")})
	}
	days, bank, err := bot.ClockArgs(req, clock.DefaultDays)
	if err != nil {
		msg, _ := bot.SentenceIn(loc.Lang(), err)
		return bot.Refusal(msg)
	}
	color := storage.ColorRandom
	switch c := strings.ToLower(req.Args.Get("color")); c {
	case "", "random":
	case "white", "w":
		color = storage.ColorWhite
	case "black", "b":
		color = storage.ColorBlack
	default:
		return refusal("challenge.color", i18n.Data{"Value": rules.Echo(c)})
	}
	rated, ok := bot.ParseBool(req.Args.Get("rated"))
	if !ok {
		return refusal("challenge.rated", i18n.Data{"Value": rules.Echo(req.Args.Get("rated"))})
	}
	start := ""
	if fen := unquote(req.Args.Get("fen")); fen != "" {
		pos, err := v.ParsePosition(fen)
		if err != nil {
			msg, _ := bot.SentenceIn(loc.Lang(), err)
			if !strings.HasSuffix(msg, ".") {
				msg += "." // one sentence ends before the next begins
			}
			return refusal("challenge.fen", i18n.Data{"Problem": msg, "Variant": f.variantName(loc, v.Key()), "Start": fmt.Sprintf("%q", v.Start(0).String())})
		}
		if pos.Outcome().IsOver() {
			return refusal("challenge.decided", i18n.Data{"Outcome": outcomeText(loc, pos.Outcome())})
		}
		start, rated = pos.String(), false
	} else if err := bot.Playable(v.Start(f.svc.Rand())); err != nil {
		msg, _ := bot.SentenceIn(loc.Lang(), err)
		return bot.Refusal(msg)
	}
	opp := req.Args.Get("opponent")
	engineName := req.Args.Get("engine")
	if name, ok := strings.CutPrefix(strings.ToLower(opp), "engine"); ok && (name == "" || name[0] == ':') {
		opp, engineName = "", strings.TrimPrefix(name, ":")
		if engineName == "" {
			engineName = "builtin"
		} else if _, err := strconv.Atoi(engineName); err == nil && !req.Args.Has("level") {
			req.Args = req.Args.With("level", engineName) // opponent:engine:3
			engineName = "builtin"
		}
	}
	opp = strings.TrimPrefix(strings.TrimSuffix(strings.TrimPrefix(opp, "<@"), ">"), "!")
	if opp != "" && engineName != "" {
		return refusal("challenge.both", nil)
	}
	if msg := words.In(loc.Lang()).NameTooLong(loc.T("challenge.name", nil), opp, bot.MaxNameLen); msg != "" {
		return bot.Refusal(msg)
	}
	if strings.ContainsFunc(opp, unicode.IsControl) {
		return refusal("challenge.control", i18n.Data{"Name": rules.Echo(opp)})
	}
	if opp == req.User.ID {
		return refusal("challenge.self", nil)
	}
	if engineName != "" {
		return f.engineChallenge(ctx, req, loc, v, engineName, days, bank, color, start)
	}
	if req.Args.Has("level") {
		return refusal("challenge.level", nil)
	}
	if opp == "" && !req.Local() && req.Place.Guild == "" {
		return refusal("challenge.anyone", nil)
	}
	return f.svc.Mutate(ctx, req, func(tx *bot.Tx) error {
		loc := askerLoc(tx.Tx, req)
		if err := f.checkLimits(tx.Tx, loc, req.User, true); err != nil {
			return err
		}
		c := &storage.Challenge{
			Guild: req.Place.Guild, Channel: req.Place.Channel,
			Challenger: storage.Seat{ID: req.User.ID, Name: req.User.Name},
			Variant:    v.Key(), Color: color, DaysPerMove: days, Bank: bank, Rated: rated, Start: start,
			ExpiresAt: f.svc.Now().Add(f.svc.Limits().ChallengeTTL),
		}
		if opp != "" {
			c.Opponent = storage.Seat{ID: opp, Name: req.Names[opp]}
			if c.Opponent.Name == "" {
				c.Opponent.Name = opp
			}
			if strings.HasPrefix(opp, storage.EnginePrefix) {
				return refuse(bot.ErrRefused, loc, "challenge.engineprefix", nil)
			}
		}
		if err := f.offerChallenge(tx, req, c, ""); err != nil {
			return err
		}
		// In the console a player is any name, so one that is also an engine's
		// stays a player's; the challenger learns how the engine is played.
		if f.svc.Engine() != nil && opp != "" {
			if _, err := f.svc.Engine().Opponent(opp, 0, v.Key()); err == nil {
				tx.Reply().Text += "\n" + postLoc(tx.Tx, req, c).T("challenge.alsoengine", i18n.Data{"Name": opp, "ID": c.ID, "Variant": v.Key()})
			}
		}
		return nil
	})
}

// offerChallenge stores the new challenge c, answers req with its buttons (in the
// post's language) and tells its opponent (in theirs); rematch, when not empty, is
// the game it is a rematch of.
func (f *feature) offerChallenge(tx *bot.Tx, req bot.Request, c *storage.Challenge, rematch string) error {
	if err := tx.PutChallenge(c); err != nil {
		return err
	}
	loc := postLoc(tx.Tx, req, c)
	*tx.Reply() = bot.Reply{
		Topic:   challengeTopic(c),
		Title:   f.challengeTitle(loc, c),
		Text:    f.offerText(loc, c, rematch),
		Actions: challengeActions(loc, c.ID, false, true, true, true),
	}
	if c.Opponent.ID != "" {
		// It goes to the opponent alone (the reply mentions them where it shows), so
		// its text and buttons are in one language, theirs.
		place := bot.Place{Guild: c.Guild, Channel: c.Channel}
		loc := noticeLoc(tx.Tx, c.Opponent.ID, place, tx.Lang())
		return tx.TellUser(bot.Notice{To: c.Opponent, Kind: bot.NoticeChallenge, Title: f.challengeTitle(loc, c),
			Text: f.offerText(loc, c, rematch) + " " + loc.T("challenge.howaccept", i18n.Data{"ID": c.ID}),
			Key:  "challenge/" + c.ID, InPlace: true, Place: place, Actions: challengeActions(loc, c.ID, false, true, true, false)})
	}
	return nil
}

// offerText is the sentence that makes challenge c, in loc's language; rematch,
// when not empty, is the game it is a rematch of.
func (f *feature) offerText(loc *i18n.Localizer, c *storage.Challenge, rematch string) string {
	data := i18n.Data{"Challenger": words.Seat(c.Challenger), "Variant": f.variantName(loc, c.Variant), "Terms": bot.ChallengeTermsIn(loc.Lang(), c),
		"Until": words.In(loc.Lang()).Time(c.ExpiresAt)}
	switch {
	case c.Opponent.ID == "":
		return loc.T("challenge.text.anyone", data)
	case rematch != "":
		data["Opponent"], data["Game"] = words.Seat(c.Opponent), rematch
		return loc.T("challenge.text.rematch", data)
	}
	data["Opponent"] = words.Seat(c.Opponent)
	return loc.T("challenge.text", data)
}

// challengeActions are the buttons that answer challenge id, labelled in loc's
// language: accept, decline and cancel, those asked for; numbered labels carry the
// challenge's number (in a list: "Accept #3").
func challengeActions(loc *i18n.Localizer, id string, numbered, accept, decline, cancel bool) []bot.Action {
	label := func(key string) string {
		if numbered {
			return loc.T(key+".numbered", i18n.Data{"ID": id})
		}
		return loc.T(key, nil)
	}
	var out []bot.Action
	if accept {
		out = append(out, bot.Action{Label: label("button.accept"), Style: bot.StyleSuccess, Command: CmdAccept, Args: bot.Args{"challenge": id}, Answers: true})
	}
	if decline {
		out = append(out, bot.Action{Label: label("button.decline"), Style: bot.StyleSecondary, Command: CmdDecline, Args: bot.Args{"challenge": id}, Answers: true})
	}
	if cancel {
		out = append(out, bot.Action{Label: label("button.cancel"), Style: bot.StyleDanger, Command: CmdCancel, Args: bot.Args{"challenge": id}, Answers: true})
	}
	return out
}

// openHere reports whether c, a challenge to anyone, may be answered where req
// came from: in its server, or (made before such challenges were kept to servers)
// in the channel it was made in.
func openHere(c *storage.Challenge, req bot.Request) bool {
	if c.Guild != "" {
		return c.Guild == req.Place.Guild
	}
	return req.Place.Guild == "" && c.Channel == req.Place.Channel
}

// challengeVisible reports whether req may learn of c: its two players anywhere,
// others only where it was made.
func challengeVisible(c *storage.Challenge, req bot.Request) bool {
	return c.Challenger.ID == req.User.ID || c.Opponent.ID == req.User.ID || openHere(c, req)
}

// engineChallenge starts a game against the engine at once.
func (f *feature) engineChallenge(ctx context.Context, req bot.Request, loc *i18n.Localizer, v rules.Variant, name string, days int, bank *storage.TimeBank, color storage.ColorChoice, start string) bot.Reply {
	if f.svc.Engine() == nil {
		return bot.Refusal(loc.T("challenge.noengine", nil))
	}
	level, err := bot.LevelArg(req, "level")
	var seat storage.Seat
	if err == nil {
		seat, err = f.svc.Engine().Opponent(name, level, v.Key())
	}
	if err != nil {
		if msg, ok := bot.SentenceIn(loc.Lang(), err); ok {
			return bot.Refusal(msg)
		}
		return f.svc.Fail(req, err)
	}
	return f.svc.Mutate(ctx, req, func(tx *bot.Tx) error {
		loc := askerLoc(tx.Tx, req)
		if err := f.checkLimits(tx.Tx, loc, req.User, false); err != nil {
			return err
		}
		me := storage.Seat{ID: req.User.ID, Name: req.User.Name}
		players := f.seats(me, seat, color)
		if _, err := tx.CreateGame(bot.NewGame{Variant: v.Key(), White: players[rules.White], Black: players[rules.Black],
			Place: req.Place, DaysPerMove: days, Bank: bank, Start: start}, req.User.ID, &req.Place); err != nil {
			return err
		}
		if rated, _ := bot.ParseBool(req.Args.Get("rated")); rated {
			tx.Reply().Text += "\n" + loc.T("challenge.casual", nil)
		}
		return nil
	})
}

// seats places challenger and opponent by the challenger's colour choice.
func (f *feature) seats(challenger, opponent storage.Seat, color storage.ColorChoice) [2]storage.Seat {
	white := color == storage.ColorWhite || (color == storage.ColorRandom && f.svc.Rand()&1 == 0)
	if white {
		return [2]storage.Seat{challenger, opponent}
	}
	return [2]storage.Seat{opponent, challenger}
}

// checkLimits refuses a player who has too many games, or too many open challenges
// when challenging is set, in loc's language.
func (f *feature) checkLimits(tx *storage.Tx, loc *i18n.Localizer, u bot.User, challenging bool) error {
	games, err := tx.PlayerActiveGames(u.ID)
	if err != nil {
		return err
	}
	if len(games) >= f.svc.Limits().ActiveGames {
		return bot.Refuse(bot.ErrLimit, "%s", loc.N("limit.games", len(games), i18n.Data{"Player": u.Name}))
	}
	if !challenging {
		return nil
	}
	open, err := tx.PlayerChallenges(u.ID)
	if err != nil {
		return err
	}
	mine := 0
	for _, c := range open {
		if c.Challenger.ID == u.ID {
			mine++
		}
	}
	if mine >= f.svc.Limits().OpenChallenges {
		return refuse(bot.ErrLimit, loc, "limit.challenges", i18n.Data{"Count": mine})
	}
	return nil
}

// findChallenge returns the open challenge a request is about: the one named, or the
// only one the user may act on (pick says which ones).
func (f *feature) findChallenge(tx *storage.Tx, loc *i18n.Localizer, req bot.Request, pick func(*storage.Challenge) bool) (*storage.Challenge, error) {
	if id := strings.TrimPrefix(req.Args.Get("challenge"), "#"); id != "" {
		c, err := tx.Challenge(id)
		if errors.Is(err, storage.ErrNotFound) || (err == nil && !challengeVisible(c, req)) {
			return nil, refuse(bot.ErrRefused, loc, "find.none", i18n.Data{"ID": words.ShownID(id)})
		}
		return c, err
	}
	list, err := tx.PlayerChallenges(req.User.ID)
	if err != nil {
		return nil, err
	}
	if req.Place.Guild != "" || req.Place.Channel != "" || len(list) == 0 {
		open, err := tx.OpenChallenges(req.Place.Guild)
		if err != nil {
			return nil, err
		}
		for _, c := range open {
			if c.Opponent.ID == "" && c.Challenger.ID != req.User.ID && openHere(c, req) {
				list = append(list, c)
			}
		}
	}
	var fit []*storage.Challenge
	now := f.svc.Now()
	for _, c := range list {
		if pick(c) && (c.ExpiresAt.IsZero() || now.Before(c.ExpiresAt)) {
			fit = append(fit, c)
		}
	}
	switch len(fit) {
	case 0:
		return nil, refuse(bot.ErrRefused, loc, "find.nothing", nil)
	case 1:
		return fit[0], nil
	}
	ch := &bot.Choice{Placeholder: loc.T("find.choose", nil), Command: req.Command, Arg: "challenge", Args: req.Args}
	var ids []string
	for _, c := range fit {
		if len(ch.Options) < 25 {
			ch.Options = append(ch.Options, bot.ChoiceOption{Label: loc.T("find.option", i18n.Data{"ID": c.ID, "Variant": f.variantName(loc, c.Variant)}), Value: c.ID,
				Description: loc.T("find.description", i18n.Data{"Challenger": c.Challenger.Name, "Terms": bot.ChallengeTermsIn(loc.Lang(), c)})})
		}
		ids = append(ids, "#"+c.ID)
	}
	return nil, bot.RefuseWithChoice(bot.ErrRefused, loc.T("find.several", i18n.Data{"IDs": strings.Join(ids, ", ")}), ch)
}

// openCheck refuses a challenge that is no longer open, in loc's language.
func (f *feature) openCheck(loc *i18n.Localizer, c *storage.Challenge) error {
	switch {
	case c.Status == storage.ChallengeExpired || (c.Status == storage.ChallengeOpen && !c.ExpiresAt.IsZero() && !f.svc.Now().Before(c.ExpiresAt)):
		return refuse(bot.ErrExpired, loc, "open.expired", i18n.Data{"ID": c.ID, "Time": words.In(loc.Lang()).Time(c.ExpiresAt)})
	case c.Status == storage.ChallengeAccepted:
		return refuse(bot.ErrRefused, loc, "open.accepted", i18n.Data{"ID": c.ID, "Game": c.Game})
	case c.Status == storage.ChallengeDeclined:
		return refuse(bot.ErrRefused, loc, "open.declined", i18n.Data{"ID": c.ID})
	case c.Status != storage.ChallengeOpen:
		return refuse(bot.ErrRefused, loc, "open.cancelled", i18n.Data{"ID": c.ID})
	}
	return nil
}

// cmdAccept accepts a challenge and starts the game.
func (f *feature) cmdAccept(ctx context.Context, req bot.Request) bot.Reply {
	return f.svc.Mutate(ctx, req, func(tx *bot.Tx) error {
		loc := askerLoc(tx.Tx, req)
		c, err := f.findChallenge(tx.Tx, loc, req, func(c *storage.Challenge) bool {
			return c.Challenger.ID != req.User.ID && (c.Opponent.ID == "" || c.Opponent.ID == req.User.ID)
		})
		if err != nil {
			return err
		}
		if err := f.openCheck(loc, c); err != nil {
			return err
		}
		switch {
		case c.Challenger.ID == req.User.ID:
			return refuse(bot.ErrRefused, loc, "accept.own", i18n.Data{"ID": c.ID})
		case c.Opponent.ID != "" && c.Opponent.ID != req.User.ID:
			return refuse(bot.ErrRefused, loc, "accept.notyou", i18n.Data{"ID": c.ID, "Opponent": words.Seat(c.Opponent)})
		case c.Opponent.ID == "" && !openHere(c, req):
			return refuse(bot.ErrRefused, loc, "accept.elsewhere", i18n.Data{"ID": c.ID})
		}
		if err := f.checkLimits(tx.Tx, loc, req.User, false); err != nil {
			return err
		}
		if err := f.checkLimits(tx.Tx, loc, bot.User{ID: c.Challenger.ID, Name: c.Challenger.Name}, false); err != nil {
			return err
		}
		me := storage.Seat{ID: req.User.ID, Name: req.User.Name}
		players := f.seats(c.Challenger, me, c.Color)
		g, err := tx.CreateGame(bot.NewGame{Variant: c.Variant, White: players[rules.White], Black: players[rules.Black],
			Place: bot.Place{Guild: c.Guild, Channel: c.Channel}, DaysPerMove: c.DaysPerMove, Bank: c.Bank, Rated: c.Rated,
			Start: c.Start, Tournament: c.Tournament}, req.User.ID, &req.Place)
		if err != nil {
			return err
		}
		c.Status, c.Game = storage.ChallengeAccepted, g.ID
		if c.Opponent.ID == "" {
			c.Opponent = me
		}
		done := postLoc(tx.Tx, req, c).T("accept.done", i18n.Data{"Player": req.User.Name, "Challenger": c.Challenger.Name, "ID": c.ID})
		tx.Reply().Text = done + "\n" + tx.Reply().Text
		tx.Reply().Topic, tx.Reply().Update = challengeTopic(c), true
		return tx.PutChallenge(c)
	})
}

// cmdDecline declines a challenge made to the user.
func (f *feature) cmdDecline(ctx context.Context, req bot.Request) bot.Reply {
	return f.answerChallenge(ctx, req, storage.ChallengeDeclined, func(c *storage.Challenge) bool { return c.Opponent.ID == req.User.ID })
}

// cmdCancel withdraws a challenge the user made.
func (f *feature) cmdCancel(ctx context.Context, req bot.Request) bot.Reply {
	return f.answerChallenge(ctx, req, storage.ChallengeCancelled, func(c *storage.Challenge) bool { return c.Challenger.ID == req.User.ID })
}

// answerChallenge closes a challenge with status (declined or cancelled) when the
// user may do so (mine says whose it is to close).
func (f *feature) answerChallenge(ctx context.Context, req bot.Request, status storage.ChallengeStatus, mine func(*storage.Challenge) bool) bot.Reply {
	return f.svc.Mutate(ctx, req, func(tx *bot.Tx) error {
		loc := askerLoc(tx.Tx, req)
		c, err := f.findChallenge(tx.Tx, loc, req, mine)
		if err != nil {
			return err
		}
		if err := f.openCheck(loc, c); err != nil {
			return err
		}
		if !mine(c) {
			switch {
			case status == storage.ChallengeCancelled:
				return refuse(bot.ErrRefused, loc, "cancel.notyours", i18n.Data{"Challenger": words.Seat(c.Challenger), "ID": c.ID})
			case c.Opponent.ID == "":
				return refuse(bot.ErrRefused, loc, "decline.anyone", i18n.Data{"ID": c.ID})
			case c.Challenger.ID == req.User.ID:
				return refuse(bot.ErrRefused, loc, "decline.yours", i18n.Data{"ID": c.ID})
			default:
				return refuse(bot.ErrRefused, loc, "accept.notyou", i18n.Data{"ID": c.ID, "Opponent": words.Seat(c.Opponent)})
			}
		}
		c.Status = status
		if err := tx.PutChallenge(c); err != nil {
			return err
		}
		place := bot.Place{Guild: c.Guild, Channel: c.Channel}
		inPlace := req.Place == place
		// The post's update in its language, the notice in its reader's.
		key, to, data := "decline.done", c.Challenger, i18n.Data{"Player": req.User.Name, "Challenger": words.Seat(c.Challenger), "ID": c.ID}
		if status == storage.ChallengeCancelled {
			key, to, data = "cancel.done", c.Opponent, i18n.Data{"Player": req.User.Name, "ID": c.ID}
		}
		post := postLoc(tx.Tx, req, c)
		*tx.Reply() = bot.Reply{Title: f.challengeTitle(post, c), Text: post.T(key, data), Topic: challengeTopic(c), Update: true}
		// The notice in each of its readers' languages: a post in the server's
		// channel in the server's, a direct message in the player's.
		return tx.TellUser(bot.Notice{To: to, Kind: bot.NoticeChallenge, TitleIn: f.titlePhrase(c), TextIn: phrase(key, data),
			Key: map[bool]string{true: "cancelled/", false: "declined/"}[status == storage.ChallengeCancelled] + c.ID, InPlace: inPlace, Place: place})
	})
}

// challengeTopic is the Reply.Topic of challenge c's messages.
func challengeTopic(c *storage.Challenge) string { return "challenge/" + c.ID }

// cmdChallenges lists the open challenges here and those made to or by the user.
func (f *feature) cmdChallenges(ctx context.Context, req bot.Request) bot.Reply {
	return f.svc.View(ctx, req, func(tx *bot.Tx) error {
		loc := askerLoc(tx.Tx, req)
		here, err := tx.OpenChallenges(req.Place.Guild)
		if err != nil {
			return err
		}
		mine, err := tx.PlayerChallenges(req.User.ID)
		if err != nil {
			return err
		}
		seen := map[string]bool{}
		var lines []string
		var actions []bot.Action
		for _, c := range append(mine, here...) {
			if seen[c.ID] || (!c.ExpiresAt.IsZero() && !f.svc.Now().Before(c.ExpiresAt)) {
				continue
			}
			mineToAnswer := c.Opponent.ID == req.User.ID
			made := c.Challenger.ID == req.User.ID
			if !made && !mineToAnswer && (c.Opponent.ID != "" || !openHere(c, req)) {
				continue // between two other players, or open elsewhere
			}
			seen[c.ID] = true
			lines = append(lines, f.svc.ChallengeLineIn(loc.Lang(), c))
			// Discord shows 5 rows of 5 buttons; the rest are answered by command.
			if buttons := challengeActions(loc, c.ID, true, !made, mineToAnswer, made); len(actions)+len(buttons) <= bot.MaxActions {
				actions = append(actions, buttons...)
			}
		}
		if len(lines) == 0 {
			lines = []string{loc.T("list.empty", nil)}
		}
		*tx.Reply() = bot.Reply{Private: true, Title: loc.T("list.title", nil), Text: strings.Join(lines, "\n"), Actions: actions}
		return nil
	})
}

// unquote returns a position text without the double quotes around it that the
// example of a refusal shows (fen:"..."): no position text holds a quote.
func unquote(fen string) string {
	fen = strings.TrimSpace(fen)
	if len(fen) >= 2 && fen[0] == '"' && fen[len(fen)-1] == '"' {
		return strings.TrimSpace(fen[1 : len(fen)-1])
	}
	return fen
}
