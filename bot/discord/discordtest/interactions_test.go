package discordtest

import (
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
)

// miniBot answers interactions the way the adapter will, exercising every response type.
func miniBot(t *testing.T, seen chan<- *discordgo.InteractionCreate) func(*discordgo.Session, *discordgo.InteractionCreate) {
	respond := func(s *discordgo.Session, i *discordgo.InteractionCreate, r *discordgo.InteractionResponse) {
		if err := s.InteractionRespond(i.Interaction, r); err != nil {
			t.Errorf("InteractionRespond: %v", err)
		}
	}
	message := func(content string, flags discordgo.MessageFlags, comps ...discordgo.MessageComponent) *discordgo.InteractionResponse {
		return &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Content: content, Flags: flags, Components: comps}}
	}
	return func(s *discordgo.Session, i *discordgo.InteractionCreate) {
		seen <- i
		switch i.Type {
		case discordgo.InteractionApplicationCommand:
			d := i.ApplicationCommandData()
			switch d.Name {
			case "challenge":
				opp := d.Options[0].UserValue(nil)
				respond(s, i, message(fmt.Sprintf("<@%s> challenges <@%s> to %s", i.Member.User.ID, opp.ID, d.Options[1].StringValue()), 0,
					discordgo.ActionsRow{Components: []discordgo.MessageComponent{
						discordgo.Button{CustomID: "accept", Label: "Accept", Style: discordgo.SuccessButton},
						discordgo.Button{CustomID: "decline", Label: "Decline", Style: discordgo.DangerButton},
						discordgo.Button{CustomID: "move", Label: "Move", Style: discordgo.PrimaryButton},
					}},
					discordgo.ActionsRow{Components: []discordgo.MessageComponent{
						discordgo.SelectMenu{CustomID: "promo", Placeholder: "Promote to", Options: []discordgo.SelectMenuOption{
							{Label: "Queen", Value: "q"}, {Label: "Rook", Value: "r"}, {Label: "Bishop", Value: "b"}, {Label: "Knight", Value: "n"},
						}},
					}},
				))
			case "move":
				// Slow work: defer, then complete the response and add an ephemeral followup.
				respond(s, i, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource})
				if _, err := s.InteractionResponseEdit(i.Interaction, &discordgo.WebhookEdit{Content: ptr("played " + d.Options[0].StringValue())}); err != nil {
					t.Errorf("InteractionResponseEdit: %v", err)
				}
				if _, err := s.FollowupMessageCreate(i.Interaction, true, &discordgo.WebhookParams{Content: "your clock: 2 days", Flags: discordgo.MessageFlagsEphemeral}); err != nil {
					t.Errorf("FollowupMessageCreate: %v", err)
				}
			case "settings":
				respond(s, i, message("games go to <#"+d.Options[0].Options[0].ChannelValue(nil).ID+">", discordgo.MessageFlagsEphemeral))
			}
		case discordgo.InteractionApplicationCommandAutocomplete:
			typed := i.ApplicationCommandData().Options[0].StringValue()
			var choices []*discordgo.ApplicationCommandOptionChoice
			for _, m := range []string{"e2e4", "e2e3", "d2d4"} {
				if strings.HasPrefix(m, typed) {
					choices = append(choices, &discordgo.ApplicationCommandOptionChoice{Name: m, Value: m})
				}
			}
			respond(s, i, &discordgo.InteractionResponse{Type: discordgo.InteractionApplicationCommandAutocompleteResult,
				Data: &discordgo.InteractionResponseData{Choices: choices}})
		case discordgo.InteractionMessageComponent:
			d := i.MessageComponentData()
			switch d.CustomID {
			case "accept":
				respond(s, i, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage,
					Data: &discordgo.InteractionResponseData{Content: "accepted by <@" + i.Member.User.ID + ">", Components: []discordgo.MessageComponent{}}})
			case "promo":
				respond(s, i, message("promote to "+d.Values[0], discordgo.MessageFlagsEphemeral))
			case "move":
				respond(s, i, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseModal,
					Data: &discordgo.InteractionResponseData{CustomID: "move-modal", Title: "Your move",
						Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
							discordgo.TextInput{CustomID: "mv", Label: "Move", Style: discordgo.TextInputShort, Required: true, MaxLength: 10},
						}}}}})
			}
		case discordgo.InteractionModalSubmit:
			d := i.ModalSubmitData()
			v := d.Components[0].(*discordgo.ActionsRow).Components[0].(*discordgo.TextInput).Value
			respond(s, i, message("modal "+d.CustomID+" "+v, 0))
		}
	}
}

func ptr[T any](v T) *T { return &v }

func TestInteractions(t *testing.T) {
	t.Parallel()
	srv := New(t, Config{})
	seen := make(chan *discordgo.InteractionCreate, 16)
	ds := open(t, srv, miniBot(t, seen))
	cmds := register(t, srv, ds)
	ctx := timeout(t)
	alice, bob := srv.User("alice"), srv.User("bob")

	if len(cmds) != 3 || cmds[0].ID == "" || cmds[0].Version == "" || cmds[0].ApplicationID != srv.ApplicationID() {
		t.Fatalf("registered %+v", cmds[0])
	}
	reg := srv.Commands("Missive Test")
	if len(reg) != 3 || reg[2].Name != "settings" || reg[2].DefaultMemberPermissions == nil || *reg[2].DefaultMemberPermissions != discordgo.PermissionManageServer {
		t.Errorf("fake's commands = %+v", reg)
	}
	// Overwriting again keeps each command's id.
	again := register(t, srv, ds)
	if again[0].ID != cmds[0].ID || again[0].Version == cmds[0].Version {
		t.Errorf("re-registered /move: id %s version %s, was %s %s", again[0].ID, again[0].Version, cmds[0].ID, cmds[0].Version)
	}

	// A slash command with a user option and a choice.
	in := srv.Command("alice", "general", "challenge", Opt{"opponent", "bob"}, Opt{"variant", "gothic"})
	i := receive(t, seen, "/challenge")
	if i.ID != in.ID || i.Version != 1 || i.Token != in.Token || i.GuildID != srv.Guild().ID || i.ChannelID != srv.Channel("general").ID ||
		i.Member == nil || i.Member.User.ID != alice.ID || i.Member.Permissions == 0 || i.AppPermissions == 0 || i.Locale != discordgo.EnglishUS {
		t.Errorf("delivered interaction %+v", i.Interaction)
	}
	if u := i.ApplicationCommandData().Resolved.Users[bob.ID]; u == nil || u.Username != "bob" {
		t.Errorf("resolved users = %v", i.ApplicationCommandData().Resolved.Users)
	}
	cb, err := srv.WaitCallback(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	if cb.Type != discordgo.InteractionResponseChannelMessageWithSource || cb.Ephemeral || cb.After <= 0 || cb.After > DefaultInteractionTimeout || cb.Status != 204 {
		t.Errorf("callback %+v", cb)
	}
	challenge, ok := srv.Original(in)
	if !ok || challenge.Content != fmt.Sprintf("<@%s> challenges <@%s> to gothic", alice.ID, bob.ID) || challenge.Component("accept") == nil {
		t.Fatalf("original response %+v", challenge)
	}
	if len(challenge.Mentions) != 2 {
		t.Errorf("mentions = %v", challenge.Mentions)
	}
	if msgs := srv.Messages("general"); len(msgs) != 1 || msgs[0].ID != challenge.ID || msgs[0].InteractionID != in.ID {
		t.Errorf("#general = %+v", msgs)
	}

	// Autocomplete.
	ac := srv.Autocomplete("alice", "general", "move", Opt{"move", "e2"})
	receive(t, seen, "autocomplete")
	cb, err = srv.WaitCallback(ctx, ac)
	if err != nil {
		t.Fatal(err)
	}
	if cb.Type != discordgo.InteractionApplicationCommandAutocompleteResult || len(cb.Choices) != 2 || cb.Choices[0].Value != "e2e4" {
		t.Errorf("autocomplete callback %+v", cb)
	}

	// Deferred, edited, and followed up.
	mv := srv.Command("alice", "general", "move", Opt{"move", "e2e4"}, Opt{"game", 3})
	mvi := receive(t, seen, "/move")
	if mvi.ApplicationCommandData().Options[1].IntValue() != 3 {
		t.Errorf("game option = %v", mvi.ApplicationCommandData().Options[1].Value)
	}
	orig, err := srv.WaitOriginal(ctx, mv, nil)
	if err != nil {
		t.Fatal(err)
	}
	if orig.Content != "played e2e4" || orig.Ephemeral || orig.Flags&discordgo.MessageFlagsLoading != 0 {
		t.Errorf("completed deferred response %+v", orig)
	}
	if err := srv.Wait(ctx, func() bool { return len(srv.Followups(mv)) == 1 }); err != nil {
		t.Fatal(err)
	}
	f := srv.Followups(mv)[0]
	if !f.Ephemeral || f.VisibleTo != alice.ID || f.Content != "your clock: 2 days" {
		t.Errorf("followup %+v", f)
	}
	// Reading, editing and deleting the original response and the followup.
	if got, err := ds.InteractionResponse(mvi.Interaction); err != nil || got.ID != orig.ID || got.Content != "played e2e4" {
		t.Errorf("GET @original = %+v, %v", got, err)
	}
	if _, err := ds.FollowupMessageEdit(mvi.Interaction, f.ID, &discordgo.WebhookEdit{Content: ptr("your clock: 1 day")}); err != nil {
		t.Error(err)
	}
	if err := ds.FollowupMessageDelete(mvi.Interaction, f.ID); err != nil {
		t.Error(err)
	}
	if err := ds.InteractionResponseDelete(mvi.Interaction); err != nil {
		t.Error(err)
	}
	if f, _ := srv.Message(f.ID); f.Content != "your clock: 1 day" || f.Edits != 1 || !f.Deleted {
		t.Errorf("followup after edit and delete %+v", f)
	}
	if o, _ := srv.Original(mv); !o.Deleted {
		t.Errorf("original after delete %+v", o)
	}

	// A button that updates its message.
	acc := srv.Click("bob", challenge.ID, "accept")
	if i := receive(t, seen, "Accept"); i.Message == nil || i.Message.ID != challenge.ID || i.MessageComponentData().ComponentType != discordgo.ButtonComponent {
		t.Errorf("component interaction message %+v", i.Message)
	}
	updated, err := srv.WaitOriginal(ctx, acc, func(m *Message) bool { return m.Edits == 1 })
	if err != nil {
		t.Fatal(err)
	}
	if updated.ID != challenge.ID || updated.Content != "accepted by <@"+bob.ID+">" || len(updated.Components) != 0 {
		t.Errorf("updated challenge %+v", updated)
	}

	// A select menu, and a modal opened from a button. The components were removed by
	// the update, so use a fresh challenge.
	in2 := srv.Command("bob", "games", "challenge", Opt{"opponent", "alice"}, Opt{"variant", "gess"})
	receive(t, seen, "second /challenge")
	ch2, err := srv.WaitOriginal(ctx, in2, nil)
	if err != nil {
		t.Fatal(err)
	}
	sel := srv.Select("alice", ch2.ID, "promo", "q")
	if i := receive(t, seen, "select"); len(i.MessageComponentData().Values) != 1 || i.MessageComponentData().Values[0] != "q" {
		t.Errorf("select values %v", i.MessageComponentData().Values)
	}
	if m, err := srv.WaitOriginal(ctx, sel, nil); err != nil || m.Content != "promote to q" || !m.Ephemeral {
		t.Errorf("select answer %+v, %v", m, err)
	}
	open := srv.Click("alice", ch2.ID, "move")
	receive(t, seen, "Move button")
	if cb, err := srv.WaitCallback(ctx, open); err != nil || cb.Type != discordgo.InteractionResponseModal || cb.CustomID != "move-modal" {
		t.Fatalf("modal callback %+v, %v", cb, err)
	}
	sub := srv.SubmitModal("alice", open, map[string]string{"mv": "e7e8q"})
	if i := receive(t, seen, "modal submit"); i.Message == nil || i.Message.ID != ch2.ID {
		t.Errorf("modal submit message %+v", i.Message)
	}
	if m, err := srv.WaitOriginal(ctx, sub, nil); err != nil || m.Content != "modal move-modal e7e8q" {
		t.Errorf("modal answer %+v, %v", m, err)
	}

	// A subcommand with a channel option, answered ephemerally.
	st := srv.Command("carol", "general", "settings channel", Opt{"channel", "games"})
	receive(t, seen, "/settings channel")
	if m, err := srv.WaitOriginal(ctx, st, nil); err != nil || !m.Ephemeral || m.VisibleTo != srv.User("carol").ID {
		t.Errorf("settings answer %+v, %v", m, err)
	}

	for _, r := range srv.Requests() {
		if len(r.Violations) > 0 || r.Status >= 400 {
			t.Errorf("%s -> %d %v", r.Route, r.Status, r.Violations)
		}
	}
}

// TestScenarioMistakes checks that the fake refuses interactions Discord would not send.
func TestScenarioMistakes(t *testing.T) {
	t.Parallel()
	rec := &recorder{TB: t}
	srv := New(rec, Config{})
	seen := make(chan *discordgo.InteractionCreate, 16)
	ds := open(t, srv, miniBot(t, seen))
	register(t, srv, ds)

	cases := []struct {
		in   func() *Interaction
		want string
	}{
		{func() *Interaction { return srv.Command("alice", "general", "resign") }, "has not registered"},
		{func() *Interaction { return srv.Command("alice", "general", "challenge", Opt{"opponent", "bob"}) }, `required option "variant"`},
		{func() *Interaction {
			return srv.Command("alice", "general", "challenge", Opt{"opponent", "bob"}, Opt{"variant", "shogi"})
		}, "not one of the option's choices"},
		{func() *Interaction {
			return srv.Command("alice", "general", "move", Opt{"move", "e4"}, Opt{"game", -1})
		}, "out of the option's bounds"},
		{func() *Interaction { return srv.Autocomplete("alice", "general", "move", Opt{"game", "1"}) }, "does not have autocomplete"},
		{func() *Interaction {
			return srv.Command("carol", "general", "settings channel", Opt{"channel", "Text Channels"})
		}, "channel type 4 is not allowed"},
		{func() *Interaction { return srv.Click("alice", "1", "accept") }, "no such message"},
		{func() *Interaction { return srv.SubmitModal("alice", &Interaction{ID: "1"}, nil) }, "did not open a modal"},
	}
	for _, c := range cases {
		if in := c.in(); in != nil {
			t.Errorf("delivered %s, want refusal %q", in.ID, c.want)
		}
		if !rec.mentions(c.want) {
			t.Errorf("no failure mentions %q; got %q", c.want, rec.reported())
		}
	}
	select {
	case i := <-seen:
		t.Errorf("interaction %s reached the bot", i.ID)
	default:
	}
}

func TestDuplicateDeliveryAndLateAnswers(t *testing.T) {
	t.Parallel()
	rec := &recorder{TB: t}
	srv := New(rec, Config{InteractionTimeout: time.Second})
	errs := make(chan error, 4)
	var slow atomic.Bool
	ds := open(t, srv, func(s *discordgo.Session, i *discordgo.InteractionCreate) {
		if slow.Load() {
			time.Sleep(1500 * time.Millisecond)
		}
		errs <- s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Content: "ok"}})
	})
	register(t, srv, ds)

	// A bot that answers a redelivered interaction again gets 40060 and fails the test.
	in := srv.Command("alice", "general", "move", Opt{"move", "e2e4"})
	if err := receive(t, errs, "first answer"); err != nil {
		t.Fatalf("first answer: %v", err)
	}
	srv.Redeliver(in)
	if err := receive(t, errs, "second answer"); restCode(err) != discordgo.ErrCodeInteractionHasAlreadyBeenAcknowledged {
		t.Errorf("second answer = %v, want 40060", err)
	}
	if !rec.mentions("40060") {
		t.Errorf("double acknowledgement not reported: %q", rec.reported())
	}
	if n := len(srv.Callbacks(in)); n != 2 {
		t.Errorf("%d callbacks recorded, want 2", n)
	}

	// Too late: Unknown interaction, and a failure that says why.
	slow.Store(true)
	late := srv.Command("bob", "general", "move", Opt{"move", "e7e5"})
	if err := receive(t, errs, "late answer"); restCode(err) != discordgo.ErrCodeUnknownInteraction {
		t.Errorf("late answer = %v, want 10062", err)
	}
	if !rec.mentions("answered after", "Discord allows 1s") {
		t.Errorf("late answer not reported: %q", rec.reported())
	}
	if cbs := srv.Callbacks(late); len(cbs) != 1 || cbs[0].Status != 404 {
		t.Errorf("late callbacks %+v", cbs)
	}
}
