package bot_test

import (
	"context"
	"strings"
	"testing"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/bottest"
	"github.com/missivechess/missive/bot/challenges"
	"github.com/missivechess/missive/bot/matches"
	"github.com/missivechess/missive/bot/play"
	"github.com/missivechess/missive/bot/tournaments"
	"github.com/missivechess/missive/bot/views"
)

// Places for the tests of play outside a server.
var (
	server  = bot.Place{Guild: "g1", Channel: "c1"}
	server2 = bot.Place{Guild: "g2", Channel: "c2"}
	aliceDM = bot.Place{Channel: "dm-alice"}
	bobDM   = bot.Place{Channel: "dm-bob"}
	carolDM = bot.Place{Channel: "dm-carol"}
	group   = bot.Place{Channel: "group-1"}
)

// Server-only commands are refused outside a server, whoever asks, and admin
// actions are refused in a direct message (where there is no permission to check).
func TestServerOnlyCommandsOutsideServers(t *testing.T) {
	h := bottest.New(t)
	for _, p := range []struct {
		place bot.Place
		where bot.Context
	}{{aliceDM, ""}, {aliceDM, bot.ContextBotDM}, {group, bot.ContextPrivateChannel}} {
		for _, line := range []string{"tournament action:create name:Mine variant:gothic rated:true", "tournament action:join", "match action:start variant:gothic first:builtin"} {
			r := h.Where("alice", p.place, p.where, true, line)
			if !r.Refused || !strings.Contains(r.Text, "works only in a server") {
				t.Fatalf("%s in %+v/%q: %s", line, p.place, p.where, r.PlainText())
			}
		}
	}
	// Defence in depth: the admin check itself refuses outside a server.
	if err := bot.MustAdmin(bot.Request{Place: aliceDM, Admin: true}, "create a tournament"); err == nil {
		t.Fatal("mustAdmin passed in a direct message")
	}
	if err := bot.MustAdmin(bot.Request{Place: server}, "create a tournament"); err == nil {
		t.Fatal("mustAdmin passed a member without the permission")
	}
	if err := bot.MustAdmin(bot.Request{Place: server, Admin: true}, "create a tournament"); err != nil {
		t.Fatal(err)
	}
	if err := bot.MustAdmin(bot.Request{}, "create a tournament"); err != nil {
		t.Fatalf("local play: %v", err)
	}
	// In a server an admin may; a member may not create.
	h.Where("carol", server, bot.ContextGuild, false, "tournament action:create name:Spring variant:gothic")
	if r := h.Where("carol", server, bot.ContextGuild, false, "tournament action:create name:Spring variant:gothic"); !r.Refused || !strings.Contains(r.Text, "Only members who may manage") {
		t.Fatalf("member created a tournament: %s", r.PlainText())
	}
	h.Where("alice", server, bot.ContextGuild, true, "tournament action:create name:Spring variant:gothic")
	// Moves, boards and challenges are offered everywhere.
	for _, c := range []string{play.CmdMove, views.CmdBoard, challenges.CmdChallenge, challenges.CmdAccept, challenges.CmdChallenges, views.CmdGames} {
		spec, _ := h.Svc.Spec(c)
		for _, w := range bot.AllContexts {
			if !spec.OfferedIn(w) {
				t.Fatalf("/%s is not offered in %s", c, w)
			}
		}
	}
	for _, c := range []string{tournaments.CmdTournament, matches.CmdMatch} {
		spec, _ := h.Svc.Spec(c)
		if spec.OfferedIn(bot.ContextBotDM) || spec.OfferedIn(bot.ContextPrivateChannel) || !spec.OfferedIn(bot.ContextGuild) || !spec.OfferedIn("") {
			t.Fatalf("/%s contexts %v", c, spec.Where())
		}
	}
}

// A challenge made in a direct message reaches the opponent directly, with buttons,
// and the game is then played in each player's own direct messages, every notice
// going to the right person.
func TestChallengeInDirectMessages(t *testing.T) {
	h := bottest.New(t)
	r := h.Where("alice", aliceDM, bot.ContextBotDM, false, "challenge variant:gothic opponent:bob")
	if r.Refused {
		t.Fatal(r.Text)
	}
	if len(r.Mentions) != 0 {
		t.Fatalf("the challenge mentions %v in alice's own direct messages", r.Mentions)
	}
	ns := h.Notes.Take()
	if len(ns) != 1 || ns[0].To.ID != "bob" || !ns[0].Direct || ns[0].Channel {
		t.Fatalf("notices %+v", ns)
	}
	var labels []string
	for _, a := range ns[0].Reply.Actions {
		labels = append(labels, a.Label+"="+a.Command+":"+a.Args["challenge"])
	}
	if strings.Join(labels, " ") != "Accept=accept:1 Decline=decline:1" {
		t.Fatalf("bob's notice offers %v", labels)
	}
	// Bob answers from his own direct messages, with the notice's button.
	acc := h.Where("bob", bobDM, bot.ContextBotDM, false, "accept challenge:1")
	if acc.Refused || acc.Started == nil {
		t.Fatal(acc.PlainText())
	}
	id := acc.Started.ID
	for _, n := range h.Notes.Take() {
		if n.To.ID != "alice" || !n.Direct || n.Channel {
			t.Fatalf("after the accept: %+v", n)
		}
	}
	// Alice moves in her DM; bob hears of it directly, alice is not mentioned.
	mv := h.Where("alice", aliceDM, bot.ContextBotDM, false, "move game:"+id+" move:e2e4")
	if mv.Refused || len(mv.Mentions) != 0 {
		t.Fatalf("move: %s (mentions %v)", mv.PlainText(), mv.Mentions)
	}
	ns = h.Notes.Take()
	if len(ns) != 1 || ns[0].To.ID != "bob" || !ns[0].Direct || ns[0].Channel || ns[0].Kind != bot.NoticeTurn {
		t.Fatalf("after alice's move: %+v", ns)
	}
	// Bob resigns from his DM: alice is told directly.
	h.Where("bob", bobDM, bot.ContextBotDM, false, "resign game:"+id)
	for _, n := range h.Notes.Take() {
		if n.To.ID == "bob" || !n.Direct || n.Channel {
			t.Fatalf("after bob resigned: %+v", n)
		}
	}
	if h.Game(id).Active() {
		t.Fatal("bob's resignation did not end the game")
	}
	// Even a player who asked for mentions only gets notices of such games directly.
	h.Where("carol", carolDM, bot.ContextBotDM, false, "settings notify:mention")
	h.Where("alice", aliceDM, bot.ContextBotDM, false, "challenge variant:gothic opponent:carol")
	ns = h.Notes.Take()
	if len(ns) != 1 || ns[0].To.ID != "carol" || !ns[0].Direct || ns[0].Channel {
		t.Fatalf("carol's notice %+v", ns)
	}
}

// A challenge to anyone is refused outside a server; one made in a server is
// answered only in that server.
func TestOpenChallengesStayWhereMade(t *testing.T) {
	h := bottest.New(t)
	for _, p := range []struct {
		place bot.Place
		where bot.Context
	}{{aliceDM, bot.ContextBotDM}, {group, bot.ContextPrivateChannel}, {aliceDM, ""}} {
		r := h.Where("alice", p.place, p.where, false, "challenge variant:gothic")
		if !r.Refused || !strings.Contains(r.Text, "A challenge to anyone is made in a server") {
			t.Fatalf("open challenge in %+v: %s", p.place, r.PlainText())
		}
	}
	h.Where("alice", server, bot.ContextGuild, false, "challenge variant:gothic")
	for _, p := range []bot.Place{bobDM, server2} {
		if r := h.Where("bob", p, "", false, "accept challenge:1"); !r.Refused || !strings.Contains(r.Text, "There is no challenge #1 here") {
			t.Fatalf("accepted from %+v: %s", p, r.PlainText())
		}
		if r := h.Where("bob", p, "", false, "accept"); !r.Refused {
			t.Fatalf("accepted from %+v without a number: %s", p, r.PlainText())
		}
		if r := h.Where("bob", p, "", false, "challenges"); strings.Contains(r.Text, "#1") {
			t.Fatalf("/challenges in %+v lists another server's challenge: %s", p, r.Text)
		}
	}
	if r := h.Where("bob", server, bot.ContextGuild, false, "accept"); r.Refused || r.Started == nil {
		t.Fatalf("in its server: %s", r.PlainText())
	}
}

// A game is shown to its players anywhere and to others only where it is played,
// and the refusal does not tell that it exists.
func TestGamesShownOnlyWhereTheyArePlayed(t *testing.T) {
	h := bottest.New(t)
	h.Where("alice", server, bot.ContextGuild, false, "challenge variant:gothic opponent:bob")
	id := h.Where("bob", server, bot.ContextGuild, false, "accept").Started.ID
	h.Where("alice", server, bot.ContextGuild, false, "move game:"+id+" move:e2e4")
	h.Where("alice", aliceDM, bot.ContextBotDM, false, "challenge variant:keltic opponent:bob")
	dm := h.Where("bob", bobDM, bot.ContextBotDM, false, "accept").Started.ID

	for _, cmd := range []string{"board", "history", "pgn", "gif"} {
		for _, who := range []string{"alice", "bob"} {
			for _, p := range []bot.Place{server, server2, aliceDM, bobDM} {
				if r := h.Where(who, p, "", false, cmd+" game:"+id); r.Refused {
					t.Fatalf("%s, a player, in %+v: /%s: %s", who, p, cmd, r.Text)
				}
			}
		}
		if r := h.Where("carol", server, bot.ContextGuild, false, cmd+" game:"+id); r.Refused {
			t.Fatalf("carol in the game's server: /%s: %s", cmd, r.Text)
		}
		for _, p := range []bot.Place{server2, carolDM} {
			r := h.Where("carol", p, "", false, cmd+" game:"+id)
			if !r.Refused || r.Text != "There is no game "+id+" here. Your games are listed by /games." {
				t.Fatalf("carol in %+v: /%s: %s", p, cmd, r.PlainText())
			}
			// The same words as for a game that does not exist.
			if none := h.Where("carol", p, "", false, cmd+" game:99"); none.Text != strings.ReplaceAll(r.Text, id, "99") {
				t.Fatalf("%q vs %q", none.Text, r.Text)
			}
		}
		// A game in direct messages is for its players (no one else is there).
		for _, p := range []bot.Place{server, group, carolDM} {
			if r := h.Where("carol", p, "", false, cmd+" game:"+dm); !r.Refused || !strings.Contains(r.Text, "There is no game "+dm+" here.") {
				t.Fatalf("carol in %+v: /%s of the DM game: %s", p, cmd, r.PlainText())
			}
		}
	}
	// Acting on someone else's game from elsewhere does not tell that it exists either.
	if r := h.Where("carol", server2, bot.ContextGuild, false, "resign game:"+id); !r.Refused || strings.Contains(r.Text, "alice") {
		t.Fatalf("resign from elsewhere: %s", r.Text)
	}
}

// Every command and option reads well in Discord's client: descriptions of 1 to
// 100 characters, a command with subcommands has no options of its own, and the
// options that take a bounded number or text say so.
func TestCommandSpecsFitDiscord(t *testing.T) {
	h := bottest.New(t)
	check := func(where, desc string) {
		if n := len([]rune(desc)); n < 1 || n > 100 {
			t.Errorf("%s: description of %d characters: %q", where, n, desc)
		}
	}
	for _, c := range h.Svc.Commands() {
		check("/"+c.Name, c.Description)
		if len(c.Subcommands) > 0 && len(c.Options) > 0 {
			t.Errorf("/%s mixes subcommands and options", c.Name)
		}
		for _, sc := range append([]bot.CommandSpec{c}, c.Subcommands...) {
			if sc.Name != c.Name {
				check("/"+c.Name+" "+sc.Name, sc.Description)
			}
			for _, o := range sc.Options {
				check("/"+c.Name+" "+sc.Name+" "+o.Name, o.Description)
				if o.Type == bot.OptInteger && len(o.Choices) == 0 && !o.Bounded() {
					t.Errorf("/%s %s: integer option %s has no bounds", c.Name, sc.Name, o.Name)
				}
				if o.Type == bot.OptString && len(o.Choices) == 0 && o.MaxLength == 0 && !o.Autocomplete {
					t.Errorf("/%s %s: text option %s has no max_length", c.Name, sc.Name, o.Name)
				}
			}
		}
	}
	tour, _ := h.Svc.Spec(tournaments.CmdTournament)
	create, ok := tour.Subcommand("create")
	if !ok || !create.Options[0].Required || create.Options[0].Name != "variant" {
		t.Fatalf("/tournament create %+v", create)
	}
	if join, _ := tour.Subcommand("join"); join.Options[2].Name != "level" || join.Options[2].Min != 1 || join.Options[2].Max != 8 {
		t.Fatalf("/tournament join level %+v", join.Options)
	}
}

// /help lists the commands offered where it is asked, with a guide, and explains
// one command, subcommands included.
func TestHelp(t *testing.T) {
	h := bottest.New(t)
	inServer := h.Where("alice", server, bot.ContextGuild, false, "help")
	inDM := h.Where("alice", aliceDM, bot.ContextBotDM, false, "help")
	for _, r := range []bot.Reply{inServer, inDM} {
		if r.Refused || !r.Private || !strings.Contains(r.Text, "/move: ") || !strings.Contains(r.Text, "How to play") {
			t.Fatalf("help: %s", r.PlainText())
		}
	}
	if !strings.Contains(inServer.Text, "/tournament: ") || strings.Contains(inDM.Text, "/tournament: ") {
		t.Errorf("/tournament listed in the wrong places:\n%s\n---\n%s", inServer.Text, inDM.Text)
	}
	one := h.Ok("alice", "help command:tournament")
	for _, want := range []string{"/tournament create|join|leave|start|standings|info", "/tournament create variant:", "/tournament join [tournament:<string>]", "variant:   The game (required)"} {
		if !strings.Contains(one.Text, want) {
			t.Errorf("/help command:tournament lacks %q:\n%s", want, one.Text)
		}
	}
	h.Refused("alice", "help command:frobnicate", `There is no command "frobnicate"`)
	if got := h.Svc.Complete(context.Background(), bot.Request{User: bot.User{ID: "alice"}, Place: aliceDM}, "command", "tour"); len(got) != 0 {
		t.Errorf("/help suggests %v in a DM", got)
	}
}

// A challenge between two players is not shown to others elsewhere, by number.
func TestChallengesShownOnlyWhereMade(t *testing.T) {
	h := bottest.New(t)
	h.Where("alice", server, bot.ContextGuild, false, "challenge variant:gothic opponent:bob")
	for _, cmd := range []string{"accept", "decline", "cancel"} {
		r := h.Where("carol", server2, bot.ContextGuild, false, cmd+" challenge:1")
		if !r.Refused || r.Text != "There is no challenge #1 here; /challenges lists the open ones." {
			t.Fatalf("carol elsewhere: /%s: %s", cmd, r.Text)
		}
		if r := h.Where("carol", server, bot.ContextGuild, false, cmd+" challenge:1"); !r.Refused || strings.Contains(r.Text, "There is no challenge") {
			t.Fatalf("carol where it was made: /%s: %s", cmd, r.Text)
		}
	}
	if r := h.Where("bob", bobDM, bot.ContextBotDM, false, "accept challenge:1"); r.Refused {
		t.Fatalf("bob, its opponent, from his DMs: %s", r.Text)
	}
}

// /challenges offers a button for each answer the user can give, within Discord's
// 25 buttons, and /accept, /decline and /cancel suggest the challenges each answers.
func TestChallengesButtonsAndSuggestions(t *testing.T) {
	h := bottest.New(t)
	h.Ok("alice", "challenge variant:gothic opponent:bob") // #1: bob may accept or decline, alice cancel
	h.Ok("bob", "challenge variant:keltic opponent:alice") // #2: the other way round
	labels := func(r bot.Reply) string {
		var out []string
		for _, a := range r.Actions {
			out = append(out, a.Label+"="+a.Command+":"+a.Args["challenge"])
		}
		return strings.Join(out, " ")
	}
	if got := labels(h.Ok("bob", "challenges")); got != "Accept #1=accept:1 Decline #1=decline:1 Cancel #2=cancel:2" {
		t.Errorf("bob's buttons: %s", got)
	}
	suggest := func(user, cmd string) string {
		var out []string
		for _, c := range h.Svc.Complete(context.Background(), bot.Request{User: bot.User{ID: user}, Command: cmd}, "challenge", "") {
			out = append(out, c.Value)
		}
		return strings.Join(out, " ")
	}
	for cmd, want := range map[string]string{challenges.CmdAccept: "1", challenges.CmdDecline: "1", challenges.CmdCancel: "2"} {
		if got := suggest("bob", cmd); got != want {
			t.Errorf("/%s suggests %q to bob, want %q", cmd, got, want)
		}
	}
	for i := 0; i < 8; i++ {
		h.Ok("carol", "challenge variant:gess opponent:bob")
		if i < 4 {
			h.Ok("dave", "challenge variant:gess opponent:bob")
		}
	}
	// 14 challenges want 27 buttons: those that fit are offered, every line is listed.
	if r := h.Ok("bob", "challenges"); len(r.Actions) != bot.MaxActions || strings.Count(r.Text, "\n") != 13 {
		t.Errorf("%d buttons for %d lines", len(r.Actions), strings.Count(r.Text, "\n")+1)
	}
}
