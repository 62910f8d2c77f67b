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
		Tick:    f.expireChallenges,
		Buttons: rematchButton,
	}
}

// challengeCommand is /challenge.
func (f *feature) challengeCommand() bot.Command {
	return bot.Command{Handle: f.cmdChallenge, Complete: map[string]bot.Completer{"engine": f.svc.CompleteEngine, "bank": bot.CompleteBank},
		Spec: bot.CommandSpec{Name: CmdChallenge, Description: "Challenge a player, anyone, or the engine to a correspondence game", Options: []bot.OptionSpec{
			{Name: "variant", Description: "The game to play", Type: bot.OptString, Required: true, Choices: f.svc.VariantChoices()},
			{Name: "opponent", Description: "Whom to challenge (leave out to challenge anyone here)", Type: bot.OptUser},
			{Name: "engine", Description: "Play the engine instead: builtin, or a configured engine's name", Type: bot.OptString, Autocomplete: true, MaxLength: bot.MaxNameLen},
			bot.LevelOption("level", "The engine's strength, 1 (weakest) to %d"),
			{Name: "color", Description: "Your colour", Type: bot.OptString, Choices: []bot.OptionChoice{{Name: "White", Value: "white"}, {Name: "Black", Value: "black"}, {Name: "Random", Value: "random"}}},
			bot.DaysOption(),
			bot.BankOption(),
			{Name: "rated", Description: "Rated game (default: casual)", Type: bot.OptBoolean},
			{Name: "fen", Description: "Start from this position (FEN, or Gess position text); such games are casual", Type: bot.OptString, MaxLength: 1000},
		}}}
}

// challengeOption is the option that names the challenge to answer.
func challengeOption() bot.OptionSpec {
	return bot.OptionSpec{Name: "challenge", Description: "The challenge's number (needed only when there are several)", Type: bot.OptString, Autocomplete: true, MaxLength: 20}
}

// acceptCommand is /accept, also reached through a challenge's buttons.
func (f *feature) acceptCommand() bot.Command {
	return bot.Command{Handle: f.cmdAccept, Complete: map[string]bot.Completer{"challenge": f.completeChallenge},
		Spec: bot.CommandSpec{Name: CmdAccept, Description: "Accept a challenge made to you or to anyone here", Options: []bot.OptionSpec{challengeOption()}}}
}

// declineCommand is /decline, also reached through a challenge's buttons.
func (f *feature) declineCommand() bot.Command {
	return bot.Command{Handle: f.cmdDecline, Complete: map[string]bot.Completer{"challenge": f.completeChallenge},
		Spec: bot.CommandSpec{Name: CmdDecline, Description: "Decline a challenge made to you", Options: []bot.OptionSpec{challengeOption()}}}
}

// cancelCommand is /cancel, also reached through a challenge's buttons.
func (f *feature) cancelCommand() bot.Command {
	return bot.Command{Handle: f.cmdCancel, Complete: map[string]bot.Completer{"challenge": f.completeChallenge},
		Spec: bot.CommandSpec{Name: CmdCancel, Description: "Withdraw a challenge you made", Options: []bot.OptionSpec{challengeOption()}}}
}

// challengesCommand is /challenges; its answer is private.
func (f *feature) challengesCommand() bot.Command {
	return bot.Command{Handle: f.cmdChallenges, Spec: bot.CommandSpec{Name: CmdChallenges, Description: "List the open challenges here and those made to you", Private: true}}
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
	for _, c := range list {
		if seen[c.ID] || !answers(c) || (!c.ExpiresAt.IsZero() && !now.Before(c.ExpiresAt)) {
			continue
		}
		seen[c.ID] = true
		if !add("#"+c.ID+" "+f.svc.VariantName(c.Variant)+" by "+words.Seat(c.Challenger), c.ID) {
			break
		}
	}
}

// cmdChallenge makes a challenge, or starts a game against the engine at once.
func (f *feature) cmdChallenge(ctx context.Context, req bot.Request) bot.Reply {
	v, err := f.svc.Registry().Lookup(req.Args.Get("variant"))
	if err != nil {
		return bot.Refusal(fmt.Sprintf("Which game? Say variant:<%s>.", strings.Join(f.svc.Registry().Keys(), "|")))
	}
	days, bank, err := bot.ClockArgs(req, clock.DefaultDays)
	if err != nil {
		msg, _ := bot.UserText(err)
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
		return bot.Refusal(fmt.Sprintf("Colour must be white, black or random, not %s.", rules.Echo(c)))
	}
	rated, ok := bot.ParseBool(req.Args.Get("rated"))
	if !ok {
		return bot.Refusal(fmt.Sprintf("Rated must be true or false, not %s.", rules.Echo(req.Args.Get("rated"))))
	}
	start := ""
	if fen := unquote(req.Args.Get("fen")); fen != "" {
		pos, err := v.ParsePosition(fen)
		if err != nil {
			msg, _ := bot.UserText(err)
			if !strings.HasSuffix(msg, ".") {
				msg += "." // one sentence ends before the next begins
			}
			return bot.Refusal(fmt.Sprintf("%s The fen option takes a %s position written as /pgn writes it in its FEN tag, like the starting position: `fen:%q`.",
				msg, v.Name(), v.Start(0).String()))
		}
		if pos.Outcome().IsOver() {
			return bot.Refusal(fmt.Sprintf("That position is already decided (%s); choose one where the game goes on.", pos.Outcome()))
		}
		start, rated = pos.String(), false
	} else if err := bot.Playable(v.Start(f.svc.Rand())); err != nil {
		msg, _ := bot.UserText(err)
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
		return bot.Refusal("Challenge either a player (opponent) or the engine (engine), not both.")
	}
	if msg := words.NameTooLong("A player's name", opp, bot.MaxNameLen); msg != "" {
		return bot.Refusal(msg)
	}
	if strings.ContainsFunc(opp, unicode.IsControl) {
		return bot.Refusal(fmt.Sprintf("A player's name holds no control characters; %s does.", rules.Echo(opp)))
	}
	if opp == req.User.ID {
		return bot.Refusal("You cannot challenge yourself. Challenge someone else, anyone here (leave out opponent), or the engine (engine:builtin).")
	}
	if engineName != "" {
		return f.engineChallenge(ctx, req, v, engineName, days, bank, color, start)
	}
	if req.Args.Has("level") {
		return bot.Refusal("A level is the engine's strength; a player is challenged without one. To play the engine, name it: engine:builtin level:N.")
	}
	if opp == "" && !req.Local() && req.Place.Guild == "" {
		return bot.Refusal("A challenge to anyone is made in a server, where its members can accept it; here, name your opponent (opponent) or play the engine (engine:builtin).")
	}
	return f.svc.Mutate(ctx, req, func(tx *bot.Tx) error {
		if err := f.checkLimits(tx.Tx, req.User, true); err != nil {
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
				return bot.Refuse(bot.ErrRefused, "To play the engine, say engine:builtin (or opponent:engine).")
			}
		}
		if err := f.offerChallenge(tx, c, ""); err != nil {
			return err
		}
		// In the console a player is any name, so one that is also an engine's
		// stays a player's; the challenger learns how the engine is played.
		if f.svc.Engine() != nil && opp != "" {
			if _, err := f.svc.Engine().Opponent(opp, 0, v.Key()); err == nil {
				tx.Reply().Text += fmt.Sprintf("\n%s is also the name of an engine: this challenge waits for a player called %s. To play the engine instead, withdraw it with /cancel challenge:%s and say /challenge variant:%s engine:%s.", opp, opp, c.ID, v.Key(), opp)
			}
		}
		return nil
	})
}

// offerChallenge stores the new challenge c, answers with its buttons and tells its
// opponent; what, when not empty, names it ("a rematch of game 7").
func (f *feature) offerChallenge(tx *bot.Tx, c *storage.Challenge, what string) error {
	if err := tx.PutChallenge(c); err != nil {
		return err
	}
	to := "anyone here"
	if c.Opponent.ID != "" {
		to = words.Seat(c.Opponent)
	}
	name := f.svc.VariantName(c.Variant)
	if what != "" {
		what = ", " + what
	}
	*tx.Reply() = bot.Reply{
		Topic: challengeTopic(c),
		Title: fmt.Sprintf("Challenge #%s · %s", c.ID, name),
		Text: fmt.Sprintf("%s challenges %s to %s%s: %s. It stays open until %s.",
			words.Seat(c.Challenger), to, name, what, bot.ChallengeTerms(c), words.Time(c.ExpiresAt)),
		Actions: challengeActions(c.ID, "", true, true, true),
	}
	if c.Opponent.ID != "" {
		r := tx.Reply()
		return tx.TellUser(bot.Notice{To: c.Opponent, Kind: bot.NoticeChallenge, Title: r.Title, Text: r.Text + " Accept with /accept challenge:" + c.ID + ".",
			Key: "challenge/" + c.ID, InPlace: true, Place: bot.Place{Guild: c.Guild, Channel: c.Channel}, Actions: challengeActions(c.ID, "", true, true, false)})
	}
	return nil
}

// challengeActions are the buttons that answer challenge id: accept, decline and
// cancel, those asked for; tag follows each label (such as " #3" in a list).
func challengeActions(id, tag string, accept, decline, cancel bool) []bot.Action {
	var out []bot.Action
	if accept {
		out = append(out, bot.Action{Label: "Accept" + tag, Style: bot.StyleSuccess, Command: CmdAccept, Args: bot.Args{"challenge": id}, Answers: true})
	}
	if decline {
		out = append(out, bot.Action{Label: "Decline" + tag, Style: bot.StyleSecondary, Command: CmdDecline, Args: bot.Args{"challenge": id}, Answers: true})
	}
	if cancel {
		out = append(out, bot.Action{Label: "Cancel" + tag, Style: bot.StyleDanger, Command: CmdCancel, Args: bot.Args{"challenge": id}, Answers: true})
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
func (f *feature) engineChallenge(ctx context.Context, req bot.Request, v rules.Variant, name string, days int, bank *storage.TimeBank, color storage.ColorChoice, start string) bot.Reply {
	if f.svc.Engine() == nil {
		return bot.Refusal("No engine is available here, so the engine cannot be challenged.")
	}
	level, err := bot.LevelArg(req, "level")
	var seat storage.Seat
	if err == nil {
		seat, err = f.svc.Engine().Opponent(name, level, v.Key())
	}
	if err != nil {
		if msg, ok := bot.UserText(err); ok {
			return bot.Refusal(msg)
		}
		return f.svc.Fail(req, err)
	}
	return f.svc.Mutate(ctx, req, func(tx *bot.Tx) error {
		if err := f.checkLimits(tx.Tx, req.User, false); err != nil {
			return err
		}
		me := storage.Seat{ID: req.User.ID, Name: req.User.Name}
		players := f.seats(me, seat, color)
		if _, err := tx.CreateGame(bot.NewGame{Variant: v.Key(), White: players[rules.White], Black: players[rules.Black],
			Place: req.Place, DaysPerMove: days, Bank: bank, Start: start}, req.User.ID, &req.Place); err != nil {
			return err
		}
		if rated, _ := bot.ParseBool(req.Args.Get("rated")); rated {
			tx.Reply().Text += "\nGames against the engine are always casual."
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
// when challenging is set.
func (f *feature) checkLimits(tx *storage.Tx, u bot.User, challenging bool) error {
	games, err := tx.PlayerActiveGames(u.ID)
	if err != nil {
		return err
	}
	if len(games) >= f.svc.Limits().ActiveGames {
		return bot.Refuse(bot.ErrLimit, "%s already plays %s, the most allowed at once; finish one first.", u.Name, words.Plural(len(games), "game"))
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
		return bot.Refuse(bot.ErrLimit, "You already have %d open challenges, the most allowed; cancel one with /cancel or wait for answers.", mine)
	}
	return nil
}

// findChallenge returns the open challenge a request is about: the one named, or the
// only one the user may act on (pick says which ones).
func (f *feature) findChallenge(tx *storage.Tx, req bot.Request, pick func(*storage.Challenge) bool) (*storage.Challenge, error) {
	if id := strings.TrimPrefix(req.Args.Get("challenge"), "#"); id != "" {
		c, err := tx.Challenge(id)
		if errors.Is(err, storage.ErrNotFound) || (err == nil && !challengeVisible(c, req)) {
			return nil, bot.Refuse(bot.ErrRefused, "There is no challenge #%s here; /challenges lists the open ones.", words.ShownID(id))
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
		return nil, bot.Refuse(bot.ErrRefused, "There is no open challenge for you to answer here; /challenges lists them.")
	case 1:
		return fit[0], nil
	}
	ch := &bot.Choice{Placeholder: "Choose the challenge", Command: req.Command, Arg: "challenge", Args: req.Args}
	var ids []string
	for _, c := range fit {
		if len(ch.Options) < 25 {
			ch.Options = append(ch.Options, bot.ChoiceOption{Label: "#" + c.ID + " " + f.svc.VariantName(c.Variant), Value: c.ID,
				Description: c.Challenger.Name + ", " + bot.ChallengeTerms(c)})
		}
		ids = append(ids, "#"+c.ID)
	}
	return nil, bot.RefuseWithChoice(bot.ErrRefused,
		fmt.Sprintf("There are several challenges (%s); say which with challenge:<number>.", strings.Join(ids, ", ")), ch)
}

// openCheck refuses a challenge that is no longer open.
func (f *feature) openCheck(c *storage.Challenge) error {
	switch {
	case c.Status == storage.ChallengeExpired || (c.Status == storage.ChallengeOpen && !c.ExpiresAt.IsZero() && !f.svc.Now().Before(c.ExpiresAt)):
		return bot.Refuse(bot.ErrExpired, "Challenge #%s expired on %s; ask for a new game with /challenge.", c.ID, words.Time(c.ExpiresAt))
	case c.Status == storage.ChallengeAccepted:
		return bot.Refuse(bot.ErrRefused, "Challenge #%s was already accepted: it became game %s.", c.ID, c.Game)
	case c.Status != storage.ChallengeOpen:
		return bot.Refuse(bot.ErrRefused, "Challenge #%s was %s.", c.ID, c.Status)
	}
	return nil
}

// cmdAccept accepts a challenge and starts the game.
func (f *feature) cmdAccept(ctx context.Context, req bot.Request) bot.Reply {
	return f.svc.Mutate(ctx, req, func(tx *bot.Tx) error {
		c, err := f.findChallenge(tx.Tx, req, func(c *storage.Challenge) bool {
			return c.Challenger.ID != req.User.ID && (c.Opponent.ID == "" || c.Opponent.ID == req.User.ID)
		})
		if err != nil {
			return err
		}
		if err := f.openCheck(c); err != nil {
			return err
		}
		switch {
		case c.Challenger.ID == req.User.ID:
			return bot.Refuse(bot.ErrRefused, "You cannot accept your own challenge; to withdraw it, use /cancel challenge:%s.", c.ID)
		case c.Opponent.ID != "" && c.Opponent.ID != req.User.ID:
			return bot.Refuse(bot.ErrRefused, "Challenge #%s was made to %s, not to you.", c.ID, words.Seat(c.Opponent))
		case c.Opponent.ID == "" && !openHere(c, req):
			return bot.Refuse(bot.ErrRefused, "Challenge #%s is open only where it was made.", c.ID)
		}
		if err := f.checkLimits(tx.Tx, req.User, false); err != nil {
			return err
		}
		if err := f.checkLimits(tx.Tx, bot.User{ID: c.Challenger.ID, Name: c.Challenger.Name}, false); err != nil {
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
		tx.Reply().Text = fmt.Sprintf("%s accepted %s's challenge #%s.\n", req.User.Name, c.Challenger.Name, c.ID) + tx.Reply().Text
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
		c, err := f.findChallenge(tx.Tx, req, mine)
		if err != nil {
			return err
		}
		if err := f.openCheck(c); err != nil {
			return err
		}
		if !mine(c) {
			switch {
			case status == storage.ChallengeCancelled:
				return bot.Refuse(bot.ErrRefused, "Only %s, who made challenge #%s, can cancel it.", words.Seat(c.Challenger), c.ID)
			case c.Opponent.ID == "":
				return bot.Refuse(bot.ErrRefused, "Challenge #%s is open to anyone: there is nothing to decline, just leave it.", c.ID)
			case c.Challenger.ID == req.User.ID:
				return bot.Refuse(bot.ErrRefused, "You made challenge #%s; to withdraw it, use /cancel challenge:%s.", c.ID, c.ID)
			default:
				return bot.Refuse(bot.ErrRefused, "Challenge #%s was made to %s, not to you.", c.ID, words.Seat(c.Opponent))
			}
		}
		c.Status = status
		if err := tx.PutChallenge(c); err != nil {
			return err
		}
		title := fmt.Sprintf("Challenge #%s · %s", c.ID, f.svc.VariantName(c.Variant))
		place := bot.Place{Guild: c.Guild, Channel: c.Channel}
		inPlace := req.Place == place
		if status == storage.ChallengeCancelled {
			*tx.Reply() = bot.Reply{Title: title, Text: fmt.Sprintf("%s withdrew challenge #%s.", req.User.Name, c.ID), Topic: challengeTopic(c), Update: true}
			return tx.TellUser(bot.Notice{To: c.Opponent, Kind: bot.NoticeChallenge, Title: title, Text: tx.Reply().Text, Key: "cancelled/" + c.ID, InPlace: inPlace, Place: place})
		}
		*tx.Reply() = bot.Reply{Title: title, Text: fmt.Sprintf("%s declined %s's challenge #%s.", req.User.Name, words.Seat(c.Challenger), c.ID), Topic: challengeTopic(c), Update: true}
		return tx.TellUser(bot.Notice{To: c.Challenger, Kind: bot.NoticeChallenge, Title: title, Text: tx.Reply().Text, Key: "declined/" + c.ID, InPlace: inPlace, Place: place})
	})
}

// challengeTopic is the Reply.Topic of challenge c's messages.
func challengeTopic(c *storage.Challenge) string { return "challenge/" + c.ID }

// cmdChallenges lists the open challenges here and those made to or by the user.
func (f *feature) cmdChallenges(ctx context.Context, req bot.Request) bot.Reply {
	return f.svc.View(ctx, req, func(tx *bot.Tx) error {
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
			lines = append(lines, f.svc.ChallengeLine(c))
			// Discord shows 5 rows of 5 buttons; the rest are answered by command.
			if buttons := challengeActions(c.ID, " #"+c.ID, !made, mineToAnswer, made); len(actions)+len(buttons) <= bot.MaxActions {
				actions = append(actions, buttons...)
			}
		}
		if len(lines) == 0 {
			lines = []string{"There are no open challenges. Make one with /challenge."}
		}
		*tx.Reply() = bot.Reply{Private: true, Title: "Open challenges", Text: strings.Join(lines, "\n"), Actions: actions}
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
