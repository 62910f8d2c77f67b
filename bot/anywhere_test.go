package bot

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// Places for the tests of play outside a server.
var (
	server  = Place{Guild: "g1", Channel: "c1"}
	server2 = Place{Guild: "g2", Channel: "c2"}
	aliceDM = Place{Channel: "dm-alice"}
	bobDM   = Place{Channel: "dm-bob"}
	carolDM = Place{Channel: "dm-carol"}
	group   = Place{Channel: "group-1"}
)

// where runs a command line as user from place (in context where, "" to let the
// place decide), as a server admin when admin is set.
func (h *harness) where(user string, place Place, where Context, admin bool, line string) Reply {
	h.t.Helper()
	h.seq++
	return h.run(Request{ID: fmt.Sprintf("req-%d", h.seq), User: User{ID: user, Name: user}, Place: place, Context: where, Admin: admin}, line)
}

// Server-only commands are refused outside a server, whoever asks, and admin
// actions are refused in a direct message (where there is no permission to check).
func TestServerOnlyCommandsOutsideServers(t *testing.T) {
	h := newHarness(t)
	for _, p := range []struct {
		place Place
		where Context
	}{{aliceDM, ""}, {aliceDM, ContextBotDM}, {group, ContextPrivateChannel}} {
		for _, line := range []string{"tournament action:create name:Mine variant:gothic rated:true", "tournament action:join", "match action:start variant:gothic first:builtin"} {
			r := h.where("alice", p.place, p.where, true, line)
			if !r.Refused || !strings.Contains(r.Text, "works only in a server") {
				t.Fatalf("%s in %+v/%q: %s", line, p.place, p.where, r.PlainText())
			}
		}
	}
	// Defence in depth: the admin check itself refuses outside a server.
	if err := mustAdmin(Request{Place: aliceDM, Admin: true}, "create a tournament"); err == nil {
		t.Fatal("mustAdmin passed in a direct message")
	}
	if err := mustAdmin(Request{Place: server}, "create a tournament"); err == nil {
		t.Fatal("mustAdmin passed a member without the permission")
	}
	if err := mustAdmin(Request{Place: server, Admin: true}, "create a tournament"); err != nil {
		t.Fatal(err)
	}
	if err := mustAdmin(Request{}, "create a tournament"); err != nil {
		t.Fatalf("local play: %v", err)
	}
	// In a server an admin may; a member may not create.
	h.where("carol", server, ContextGuild, false, "tournament action:create name:Spring variant:gothic")
	if r := h.where("carol", server, ContextGuild, false, "tournament action:create name:Spring variant:gothic"); !r.Refused || !strings.Contains(r.Text, "Only members who may manage") {
		t.Fatalf("member created a tournament: %s", r.PlainText())
	}
	h.where("alice", server, ContextGuild, true, "tournament action:create name:Spring variant:gothic")
	// Moves, boards and challenges are offered everywhere.
	for _, c := range []string{CmdMove, CmdBoard, CmdChallenge, CmdAccept, CmdChallenges, CmdGames} {
		spec, _ := h.svc.Spec(c)
		for _, w := range AllContexts {
			if !spec.OfferedIn(w) {
				t.Fatalf("/%s is not offered in %s", c, w)
			}
		}
	}
	for _, c := range []string{CmdTournament, CmdMatch} {
		spec, _ := h.svc.Spec(c)
		if spec.OfferedIn(ContextBotDM) || spec.OfferedIn(ContextPrivateChannel) || !spec.OfferedIn(ContextGuild) || !spec.OfferedIn("") {
			t.Fatalf("/%s contexts %v", c, spec.Where())
		}
	}
}

// A challenge made in a direct message reaches the opponent directly, with buttons,
// and the game is then played in each player's own direct messages, every notice
// going to the right person.
func TestChallengeInDirectMessages(t *testing.T) {
	h := newHarness(t)
	r := h.where("alice", aliceDM, ContextBotDM, false, "challenge variant:gothic opponent:bob")
	if r.Refused {
		t.Fatal(r.Text)
	}
	if len(r.Mentions) != 0 {
		t.Fatalf("the challenge mentions %v in alice's own direct messages", r.Mentions)
	}
	ns := h.notes.take()
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
	acc := h.where("bob", bobDM, ContextBotDM, false, "accept challenge:1")
	if acc.Refused || acc.Started == nil {
		t.Fatal(acc.PlainText())
	}
	id := acc.Started.ID
	for _, n := range h.notes.take() {
		if n.To.ID != "alice" || !n.Direct || n.Channel {
			t.Fatalf("after the accept: %+v", n)
		}
	}
	// Alice moves in her DM; bob hears of it directly, alice is not mentioned.
	mv := h.where("alice", aliceDM, ContextBotDM, false, "move game:"+id+" move:e2e4")
	if mv.Refused || len(mv.Mentions) != 0 {
		t.Fatalf("move: %s (mentions %v)", mv.PlainText(), mv.Mentions)
	}
	ns = h.notes.take()
	if len(ns) != 1 || ns[0].To.ID != "bob" || !ns[0].Direct || ns[0].Channel || ns[0].Kind != NoticeTurn {
		t.Fatalf("after alice's move: %+v", ns)
	}
	// Bob resigns from his DM: alice is told directly.
	h.where("bob", bobDM, ContextBotDM, false, "resign game:"+id)
	for _, n := range h.notes.take() {
		if n.To.ID == "bob" || !n.Direct || n.Channel {
			t.Fatalf("after bob resigned: %+v", n)
		}
	}
	if h.game(id).Active() {
		t.Fatal("bob's resignation did not end the game")
	}
	// Even a player who asked for mentions only gets notices of such games directly.
	h.where("carol", carolDM, ContextBotDM, false, "settings notify:mention")
	h.where("alice", aliceDM, ContextBotDM, false, "challenge variant:gothic opponent:carol")
	ns = h.notes.take()
	if len(ns) != 1 || ns[0].To.ID != "carol" || !ns[0].Direct || ns[0].Channel {
		t.Fatalf("carol's notice %+v", ns)
	}
}

// A challenge to anyone is refused outside a server; one made in a server is
// answered only in that server.
func TestOpenChallengesStayWhereMade(t *testing.T) {
	h := newHarness(t)
	for _, p := range []struct {
		place Place
		where Context
	}{{aliceDM, ContextBotDM}, {group, ContextPrivateChannel}, {aliceDM, ""}} {
		r := h.where("alice", p.place, p.where, false, "challenge variant:gothic")
		if !r.Refused || !strings.Contains(r.Text, "A challenge to anyone is made in a server") {
			t.Fatalf("open challenge in %+v: %s", p.place, r.PlainText())
		}
	}
	h.where("alice", server, ContextGuild, false, "challenge variant:gothic")
	for _, p := range []Place{bobDM, server2} {
		if r := h.where("bob", p, "", false, "accept challenge:1"); !r.Refused || !strings.Contains(r.Text, "There is no challenge #1 here") {
			t.Fatalf("accepted from %+v: %s", p, r.PlainText())
		}
		if r := h.where("bob", p, "", false, "accept"); !r.Refused {
			t.Fatalf("accepted from %+v without a number: %s", p, r.PlainText())
		}
		if r := h.where("bob", p, "", false, "challenges"); strings.Contains(r.Text, "#1") {
			t.Fatalf("/challenges in %+v lists another server's challenge: %s", p, r.Text)
		}
	}
	if r := h.where("bob", server, ContextGuild, false, "accept"); r.Refused || r.Started == nil {
		t.Fatalf("in its server: %s", r.PlainText())
	}
}

// A game is shown to its players anywhere and to others only where it is played,
// and the refusal does not tell that it exists.
func TestGamesShownOnlyWhereTheyArePlayed(t *testing.T) {
	h := newHarness(t)
	h.where("alice", server, ContextGuild, false, "challenge variant:gothic opponent:bob")
	id := h.where("bob", server, ContextGuild, false, "accept").Started.ID
	h.where("alice", server, ContextGuild, false, "move game:"+id+" move:e2e4")
	h.where("alice", aliceDM, ContextBotDM, false, "challenge variant:keltic opponent:bob")
	dm := h.where("bob", bobDM, ContextBotDM, false, "accept").Started.ID

	for _, cmd := range []string{"board", "history", "pgn", "gif"} {
		for _, who := range []string{"alice", "bob"} {
			for _, p := range []Place{server, server2, aliceDM, bobDM} {
				if r := h.where(who, p, "", false, cmd+" game:"+id); r.Refused {
					t.Fatalf("%s, a player, in %+v: /%s: %s", who, p, cmd, r.Text)
				}
			}
		}
		if r := h.where("carol", server, ContextGuild, false, cmd+" game:"+id); r.Refused {
			t.Fatalf("carol in the game's server: /%s: %s", cmd, r.Text)
		}
		for _, p := range []Place{server2, carolDM} {
			r := h.where("carol", p, "", false, cmd+" game:"+id)
			if !r.Refused || r.Text != "There is no game "+id+" here. Your games are listed by /games." {
				t.Fatalf("carol in %+v: /%s: %s", p, cmd, r.PlainText())
			}
			// The same words as for a game that does not exist.
			if none := h.where("carol", p, "", false, cmd+" game:99"); none.Text != strings.ReplaceAll(r.Text, id, "99") {
				t.Fatalf("%q vs %q", none.Text, r.Text)
			}
		}
		// A game in direct messages is for its players (no one else is there).
		for _, p := range []Place{server, group, carolDM} {
			if r := h.where("carol", p, "", false, cmd+" game:"+dm); !r.Refused || !strings.Contains(r.Text, "There is no game "+dm+" here.") {
				t.Fatalf("carol in %+v: /%s of the DM game: %s", p, cmd, r.PlainText())
			}
		}
	}
	// Acting on someone else's game from elsewhere does not tell that it exists either.
	if r := h.where("carol", server2, ContextGuild, false, "resign game:"+id); !r.Refused || strings.Contains(r.Text, "alice") {
		t.Fatalf("resign from elsewhere: %s", r.Text)
	}
}

// Every command and option reads well in Discord's client: descriptions of 1 to
// 100 characters, a command with subcommands has no options of its own, and the
// options that take a bounded number or text say so.
func TestCommandSpecsFitDiscord(t *testing.T) {
	h := newHarness(t)
	check := func(where, desc string) {
		if n := len([]rune(desc)); n < 1 || n > 100 {
			t.Errorf("%s: description of %d characters: %q", where, n, desc)
		}
	}
	for _, c := range h.svc.Commands() {
		check("/"+c.Name, c.Description)
		if len(c.Subcommands) > 0 && len(c.Options) > 0 {
			t.Errorf("/%s mixes subcommands and options", c.Name)
		}
		for _, sc := range append([]CommandSpec{c}, c.Subcommands...) {
			if sc.Name != c.Name {
				check("/"+c.Name+" "+sc.Name, sc.Description)
			}
			for _, o := range sc.Options {
				check("/"+c.Name+" "+sc.Name+" "+o.Name, o.Description)
				if o.Type == OptInteger && len(o.Choices) == 0 && !o.Bounded() {
					t.Errorf("/%s %s: integer option %s has no bounds", c.Name, sc.Name, o.Name)
				}
				if o.Type == OptString && len(o.Choices) == 0 && o.MaxLength == 0 && !o.Autocomplete {
					t.Errorf("/%s %s: text option %s has no max_length", c.Name, sc.Name, o.Name)
				}
			}
		}
	}
	tour, _ := h.svc.Spec(CmdTournament)
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
	h := newHarness(t)
	inServer := h.where("alice", server, ContextGuild, false, "help")
	inDM := h.where("alice", aliceDM, ContextBotDM, false, "help")
	for _, r := range []Reply{inServer, inDM} {
		if r.Refused || !r.Private || !strings.Contains(r.Text, "/move: ") || !strings.Contains(r.Text, "How to play") {
			t.Fatalf("help: %s", r.PlainText())
		}
	}
	if !strings.Contains(inServer.Text, "/tournament: ") || strings.Contains(inDM.Text, "/tournament: ") {
		t.Errorf("/tournament listed in the wrong places:\n%s\n---\n%s", inServer.Text, inDM.Text)
	}
	one := h.ok("alice", "help command:tournament")
	for _, want := range []string{"/tournament create|join|leave|start|standings|info", "/tournament create variant:", "/tournament join [tournament:<string>]", "variant:   The game (required)"} {
		if !strings.Contains(one.Text, want) {
			t.Errorf("/help command:tournament lacks %q:\n%s", want, one.Text)
		}
	}
	h.refused("alice", "help command:frobnicate", `There is no command "frobnicate"`)
	if got := h.svc.Complete(context.Background(), Request{User: User{ID: "alice"}, Place: aliceDM}, "command", "tour"); len(got) != 0 {
		t.Errorf("/help suggests %v in a DM", got)
	}
}

// A challenge between two players is not shown to others elsewhere, by number.
func TestChallengesShownOnlyWhereMade(t *testing.T) {
	h := newHarness(t)
	h.where("alice", server, ContextGuild, false, "challenge variant:gothic opponent:bob")
	for _, cmd := range []string{"accept", "decline", "cancel"} {
		r := h.where("carol", server2, ContextGuild, false, cmd+" challenge:1")
		if !r.Refused || r.Text != "There is no challenge #1 here; /challenges lists the open ones." {
			t.Fatalf("carol elsewhere: /%s: %s", cmd, r.Text)
		}
		if r := h.where("carol", server, ContextGuild, false, cmd+" challenge:1"); !r.Refused || strings.Contains(r.Text, "There is no challenge") {
			t.Fatalf("carol where it was made: /%s: %s", cmd, r.Text)
		}
	}
	if r := h.where("bob", bobDM, ContextBotDM, false, "accept challenge:1"); r.Refused {
		t.Fatalf("bob, its opponent, from his DMs: %s", r.Text)
	}
}

// /challenges offers a button for each answer the user can give, within Discord's
// 25 buttons, and /accept, /decline and /cancel suggest the challenges each answers.
func TestChallengesButtonsAndSuggestions(t *testing.T) {
	h := newHarness(t)
	h.ok("alice", "challenge variant:gothic opponent:bob") // #1: bob may accept or decline, alice cancel
	h.ok("bob", "challenge variant:keltic opponent:alice") // #2: the other way round
	labels := func(r Reply) string {
		var out []string
		for _, a := range r.Actions {
			out = append(out, a.Label+"="+a.Command+":"+a.Args["challenge"])
		}
		return strings.Join(out, " ")
	}
	if got := labels(h.ok("bob", "challenges")); got != "Accept #1=accept:1 Decline #1=decline:1 Cancel #2=cancel:2" {
		t.Errorf("bob's buttons: %s", got)
	}
	suggest := func(user, cmd string) string {
		var out []string
		for _, c := range h.svc.Complete(context.Background(), Request{User: User{ID: user}, Command: cmd}, "challenge", "") {
			out = append(out, c.Value)
		}
		return strings.Join(out, " ")
	}
	for cmd, want := range map[string]string{CmdAccept: "1", CmdDecline: "1", CmdCancel: "2"} {
		if got := suggest("bob", cmd); got != want {
			t.Errorf("/%s suggests %q to bob, want %q", cmd, got, want)
		}
	}
	for i := 0; i < 8; i++ {
		h.ok("carol", "challenge variant:gess opponent:bob")
		if i < 4 {
			h.ok("dave", "challenge variant:gess opponent:bob")
		}
	}
	// 14 challenges want 27 buttons: those that fit are offered, every line is listed.
	if r := h.ok("bob", "challenges"); len(r.Actions) != MaxActions || strings.Count(r.Text, "\n") != 13 {
		t.Errorf("%d buttons for %d lines", len(r.Actions), strings.Count(r.Text, "\n")+1)
	}
}
