package discordtest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
)

func TestValidatorCatchesMalformedRequests(t *testing.T) {
	t.Parallel()
	rec := &recorder{TB: t}
	srv := New(rec, Config{})
	calls := make(chan *discordgo.InteractionCreate, 4)
	ds := open(t, srv, func(_ *discordgo.Session, i *discordgo.InteractionCreate) { calls <- i })
	app, guild := srv.ApplicationID(), srv.Guild().ID
	const route = "PUT /applications/{application_id}/guilds/{guild_id}/commands"

	// Against Discord's OpenAPI description: a 40-character name.
	_, err := ds.ApplicationCommandBulkOverwrite(app, guild, []*discordgo.ApplicationCommand{
		{Name: strings.Repeat("n", 40), Description: "too long a name"}})
	if restCode(err) != discordgo.ErrCodeInvalidFormBody {
		t.Errorf("overwrite with a long name = %v, want 50035", err)
	}
	if !rec.mentions(route, `"/0/name"`, "maxLength") {
		t.Errorf("long name not reported with route and pointer: %q", rec.reported())
	}
	// Against the rules Discord enforces beyond the description: names are lower case.
	_, err = ds.ApplicationCommandBulkOverwrite(app, guild, []*discordgo.ApplicationCommand{
		{Name: "Move", Description: "upper case"}, {Name: "draw", Description: ""}})
	if restCode(err) != discordgo.ErrCodeInvalidFormBody {
		t.Errorf("overwrite with an upper-case name = %v, want 50035", err)
	}
	if !rec.mentions(`"/0/name"`, "not a valid command") || !rec.mentions(`"/1/description"`, "1 to 100") {
		t.Errorf("command rules not reported: %q", rec.reported())
	}
	if len(srv.Commands(guild)) != 0 {
		t.Errorf("refused commands were registered: %+v", srv.Commands(guild))
	}
	if reqs := srv.RequestsTo(route); len(reqs) != 2 || len(reqs[0].Violations) == 0 || reqs[0].Params["guild_id"] != guild {
		t.Errorf("recorded %+v", reqs)
	}

	register(t, srv, ds)
	before := len(rec.reported())
	srv.Command("alice", "general", "move", Opt{"move", "e2e4"})
	i := receive(t, calls, "/move")
	// An unknown callback type.
	err = ds.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{Type: 42,
		Data: &discordgo.InteractionResponseData{Content: "?"}})
	if restCode(err) != discordgo.ErrCodeInvalidFormBody {
		t.Errorf("callback type 42 = %v, want 50035", err)
	}
	if !rec.mentions("POST /interactions/{interaction_id}/{interaction_token}/callback", `"/type"`, "42") {
		t.Errorf("callback type 42 not reported: %q", rec.reported()[before:])
	}
	// A valid type that cannot answer a command.
	err = ds.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{Type: discordgo.InteractionApplicationCommandAutocompleteResult,
		Data: &discordgo.InteractionResponseData{Choices: []*discordgo.ApplicationCommandOptionChoice{{Name: "a", Value: "a"}}}})
	if restCode(err) != discordgo.ErrCodeInvalidFormBody || !rec.mentions("response type 8 cannot answer an interaction of type 2") {
		t.Errorf("autocomplete result to a command = %v; reported %q", err, rec.reported()[before:])
	}
	// Too long a content.
	err = ds.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Content: strings.Repeat("x", 2001)}})
	if restCode(err) != discordgo.ErrCodeInvalidFormBody || !rec.mentions(`"/data/content"`) {
		t.Errorf("2001-character content = %v; reported %q", err, rec.reported()[before:])
	}
	// Nothing was acknowledged, so a correct answer still works.
	if err := ds.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Content: "ok"}}); err != nil {
		t.Errorf("valid answer after refused ones: %v", err)
	}
}

func TestComponentRules(t *testing.T) {
	t.Parallel()
	rec := &recorder{TB: t}
	srv := New(rec, Config{})
	ds := open(t, srv)
	row := func(cs ...discordgo.MessageComponent) []discordgo.MessageComponent {
		return []discordgo.MessageComponent{discordgo.ActionsRow{Components: cs}}
	}
	sel := discordgo.SelectMenu{CustomID: "s", Options: []discordgo.SelectMenuOption{{Label: "Q", Value: "q"}}}
	for _, c := range []struct {
		comps []discordgo.MessageComponent
		want  string
	}{
		{row(discordgo.Button{Label: "Resign", Style: discordgo.DangerButton}), "needs a custom_id"},
		{row(discordgo.Button{Label: "a", Style: discordgo.PrimaryButton, CustomID: "x"}, discordgo.Button{Label: "b", Style: discordgo.PrimaryButton, CustomID: "x"}), "used twice"},
		{row(discordgo.Button{Label: "Rules", Style: discordgo.LinkButton, CustomID: "r"}), "link button"},
		{row(discordgo.Button{Label: "a", Style: discordgo.PrimaryButton, CustomID: "a"}, sel), "alone in its action row"},
	} {
		_, err := ds.ChannelMessageSendComplex(srv.Channel("general").ID, &discordgo.MessageSend{Content: "x", Components: c.comps})
		if restCode(err) != discordgo.ErrCodeInvalidFormBody || !rec.mentions(c.want) {
			t.Errorf("%s: %v; reported %q", c.want, err, rec.reported())
		}
	}
	if n := len(srv.Messages("general")); n != 0 {
		t.Errorf("%d refused messages stored", n)
	}
}

// testPNG is a 3x2 PNG image.
func testPNG(t *testing.T) []byte {
	img := image.NewRGBA(image.Rect(0, 0, 3, 2))
	img.Set(1, 1, color.RGBA{R: 200, A: 255})
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestMultipartUploads(t *testing.T) {
	t.Parallel()
	srv := New(t, Config{})
	calls := make(chan *discordgo.InteractionCreate, 1)
	ds := open(t, srv, func(_ *discordgo.Session, i *discordgo.InteractionCreate) { calls <- i })
	register(t, srv, ds)
	pic := testPNG(t)
	general := srv.Channel("general").ID

	m, err := ds.ChannelMessageSendComplex(general, &discordgo.MessageSend{
		Content: "the board",
		Embeds:  []*discordgo.MessageEmbed{{Title: "Gothic Chess", Image: &discordgo.MessageEmbedImage{URL: "attachment://board.png"}}},
		Files:   []*discordgo.File{{Name: "board.png", ContentType: "image/png", Reader: bytes.NewReader(pic)}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Attachments) != 1 || m.Attachments[0].Filename != "board.png" || m.Attachments[0].Width != 3 || m.Attachments[0].Height != 2 {
		t.Errorf("returned attachments %+v", m.Attachments)
	}
	got := srv.Messages("general")
	if len(got) != 1 || got[0].Content != "the board" || len(got[0].Attachments) != 1 || !bytes.Equal(got[0].Attachments[0].Data, pic) ||
		got[0].Attachments[0].ContentType != "image/png" || len(got[0].Embeds) != 1 || got[0].Embeds[0].Image.URL != "attachment://board.png" {
		t.Errorf("stored %+v", got)
	}
	reqs := srv.RequestsTo("POST /channels/{channel_id}/messages")
	if len(reqs) != 1 || len(reqs[0].Files) != 1 || reqs[0].Files[0].Field != "files[0]" || !strings.Contains(string(reqs[0].Body), "the board") ||
		!strings.HasPrefix(reqs[0].ContentType, "multipart/form-data") {
		t.Errorf("recorded %+v", reqs)
	}

	// Editing keeps the attachment; an interaction answer can carry files too.
	if _, err := ds.ChannelMessageEditComplex(&discordgo.MessageEdit{ID: m.ID, Channel: general, Content: ptr("the board, move 2")}); err != nil {
		t.Fatal(err)
	}
	if e, _ := srv.Message(m.ID); e.Edits != 1 || len(e.Attachments) != 1 || e.Content != "the board, move 2" {
		t.Errorf("edited %+v", e)
	}
	in := srv.Command("alice", "general", "move", Opt{"move", "e2e4"})
	i := receive(t, calls, "/move")
	err = ds.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Content: "position", Files: []*discordgo.File{{Name: "p.png", ContentType: "image/png", Reader: bytes.NewReader(pic)}}}})
	if err != nil {
		t.Fatal(err)
	}
	if o, ok := srv.Original(in); !ok || len(o.Attachments) != 1 || o.Attachments[0].Filename != "p.png" {
		t.Errorf("interaction answer with a file: %+v", o)
	}
}

func TestDirectMessages(t *testing.T) {
	t.Parallel()
	srv := New(t, Config{})
	ds := open(t, srv)

	dm, err := ds.UserChannelCreate(srv.User("alice").ID)
	if err != nil || dm.Type != discordgo.ChannelTypeDM || dm.Recipients[0].ID != srv.User("alice").ID {
		t.Fatalf("DM channel %+v, %v", dm, err)
	}
	if _, err := ds.ChannelMessageSend(dm.ID, "your move"); err != nil {
		t.Fatal(err)
	}
	if msgs := srv.Messages(srv.DMChannel("alice")); len(msgs) != 1 || msgs[0].Content != "your move" {
		t.Errorf("alice's DMs %+v", msgs)
	}

	// dave blocks DMs: the channel opens, but messages fail with 50007.
	dm, err = ds.UserChannelCreate(srv.User("dave").ID)
	if err != nil {
		t.Fatal(err)
	}
	_, err = ds.ChannelMessageSend(dm.ID, "your move")
	if restCode(err) != discordgo.ErrCodeCannotSendMessagesToThisUser {
		t.Errorf("DM to dave = %v, want RESTError 50007", err)
	}
	srv.BlockDMs("alice", true)
	if _, err := ds.ChannelMessageSend(srv.DMChannel("alice"), "again"); restCode(err) != discordgo.ErrCodeCannotSendMessagesToThisUser {
		t.Errorf("DM to alice after blocking = %v, want 50007", err)
	}
}

func TestThreads(t *testing.T) {
	t.Parallel()
	srv := New(t, Config{})
	created := make(chan *discordgo.ThreadCreate, 4)
	updated := make(chan *discordgo.ChannelUpdate, 4)
	ds := open(t, srv,
		func(_ *discordgo.Session, c *discordgo.ThreadCreate) { created <- c },
		func(_ *discordgo.Session, c *discordgo.ChannelUpdate) { updated <- c },
	)
	general, noThreads := srv.Channel("general").ID, srv.Channel("no-threads").ID

	// Refused where the bot lacks Create Public Threads.
	m, err := ds.ChannelMessageSend(noThreads, "Gothic: alice vs bob")
	if err != nil {
		t.Fatal(err)
	}
	_, err = ds.MessageThreadStartComplex(noThreads, m.ID, &discordgo.ThreadStart{Name: "Gothic: alice vs bob", AutoArchiveDuration: 1440})
	if restCode(err) != discordgo.ErrCodeMissingPermissions {
		t.Errorf("thread in #no-threads = %v, want RESTError 50013", err)
	}

	// From a message: the thread takes the message's id.
	m, err = ds.ChannelMessageSend(general, "Gothic: alice vs bob")
	if err != nil {
		t.Fatal(err)
	}
	th, err := ds.MessageThreadStartComplex(general, m.ID, &discordgo.ThreadStart{Name: "Gothic: alice vs bob", AutoArchiveDuration: 1440})
	if err != nil {
		t.Fatal(err)
	}
	if th.ID != m.ID || th.ParentID != general || th.Type != discordgo.ChannelTypeGuildPublicThread {
		t.Errorf("thread %+v", th)
	}
	if c := receive(t, created, "THREAD_CREATE"); c.ID != th.ID || !c.NewlyCreated {
		t.Errorf("THREAD_CREATE %+v", c.Channel)
	}
	// The denial in #no-threads is a permission overwrite the bot sees in its state
	// (filled from GUILD_CREATE, which discordgo handled before THREAD_CREATE).
	if perms, err := ds.State.UserChannelPermissions(srv.Bot().ID, noThreads); err != nil ||
		perms&discordgo.PermissionCreatePublicThreads != 0 || perms&discordgo.PermissionSendMessages == 0 {
		t.Errorf("state permissions in #no-threads = %d, %v", perms, err)
	}
	if _, err := ds.ChannelMessageSend(th.ID, "<@"+srv.User("alice").ID+"> to move"); err != nil {
		t.Fatal(err)
	}
	if err := ds.ThreadMemberAdd(th.ID, srv.User("bob").ID); err != nil {
		t.Fatal(err)
	}
	if msgs := srv.Messages(th.ID); len(msgs) != 1 || len(msgs[0].Mentions) != 1 {
		t.Errorf("thread messages %+v", msgs)
	}
	if got := srv.ThreadMembers(th.ID); len(got) != 2 {
		t.Errorf("thread members %v", got)
	}
	if m, _ := srv.Message(m.ID); m.ThreadID != th.ID {
		t.Errorf("starter message thread = %q", m.ThreadID)
	}

	// Without a message: a private thread by default, or a public one announced in the channel.
	pt, err := ds.ThreadStart(general, "Keltic: carol vs dave", discordgo.ChannelTypeGuildPublicThread, 60)
	if err != nil {
		t.Fatal(err)
	}
	receive(t, created, "second THREAD_CREATE")
	if ts := srv.Threads("general"); len(ts) != 2 || ts[1].ID != pt.ID {
		t.Errorf("threads of #general %+v", ts)
	}
	if msgs := srv.Messages("general"); msgs[len(msgs)-1].Content != "Keltic: carol vs dave" {
		t.Errorf("no thread announcement in #general: %+v", msgs[len(msgs)-1])
	}

	// Taking the permission away at run time tells the bot and refuses threads.
	srv.DenyThreads("general", true)
	if c := receive(t, updated, "CHANNEL_UPDATE"); c.ID != general || len(c.PermissionOverwrites) != 1 {
		t.Errorf("CHANNEL_UPDATE %+v", c.Channel)
	}
	if _, err := ds.ThreadStart(general, "x", discordgo.ChannelTypeGuildPublicThread, 60); restCode(err) != discordgo.ErrCodeMissingPermissions {
		t.Errorf("thread after DenyThreads = %v, want 50013", err)
	}
}

func TestNoNetwork(t *testing.T) {
	t.Parallel()
	rec := &recorder{TB: t}
	srv := New(rec, Config{})
	if _, err := srv.HTTPClient().Get("https://example.com/"); err == nil {
		t.Error("the client reached example.com")
	}
	if !rec.mentions("https://example.com/", "not Discord's API") {
		t.Errorf("not reported: %q", rec.reported())
	}
	if _, _, err := srv.Dialer().Dial("ws://gateway.discord.gg/?v=10", nil); err == nil {
		t.Error("the dialer reached gateway.discord.gg")
	}
	if !rec.mentions("gateway.discord.gg") {
		t.Errorf("not reported: %q", rec.reported())
	}
}

func TestLatencyAndFailures(t *testing.T) {
	t.Parallel()
	rec := &recorder{TB: t}
	srv := New(rec, Config{})
	ds := open(t, srv)
	general := srv.Channel("general").ID
	const route = "POST /channels/{channel_id}/messages"

	srv.SetLatency(route, 150*time.Millisecond)
	start := time.Now()
	if _, err := ds.ChannelMessageSend(general, "slow"); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d < 150*time.Millisecond {
		t.Errorf("send took %v with 150ms latency", d)
	}
	srv.SetLatency(route, 0)

	srv.FailNext(route, Failure{Status: 500, Code: 0, Message: "500: Internal Server Error"})
	if _, err := ds.ChannelMessageSend(general, "x"); restCode(err) != 0 {
		t.Errorf("planted 500 = %v", err)
	}
	// discordgo waits out a 429 and retries.
	srv.FailNext(route, Failure{RetryAfter: 20 * time.Millisecond})
	if _, err := ds.ChannelMessageSend(general, "after a rate limit"); err != nil {
		t.Errorf("send after 429: %v", err)
	}
	if n := len(srv.RequestsTo(route)); n != 4 {
		t.Errorf("%d requests, want 4", n)
	}
	if len(rec.reported()) != 0 {
		t.Errorf("planted failures were reported as bot errors: %q", rec.reported())
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := srv.WaitMessage(ctx, "general", func(m *Message) bool { return m.Content == "never" }); err == nil {
		t.Error("WaitMessage found a message that was never sent")
	}
}

func TestIdentityRoutes(t *testing.T) {
	t.Parallel()
	srv := New(t, Config{})
	ds := srv.NewSession() // REST only: no gateway needed
	me, err := ds.User("@me")
	if err != nil || me.ID != srv.Bot().ID || !me.Bot {
		t.Errorf("GET /users/@me = %+v, %v", me, err)
	}
	app, err := ds.Application("@me")
	if err != nil || app.ID != srv.ApplicationID() || app.Name != srv.Bot().Username {
		t.Errorf("GET /applications/@me = %+v, %v", app, err)
	}
	gw, err := ds.GatewayBot()
	if err != nil || gw.URL != srv.GatewayURL()+"/" || gw.Shards != 1 {
		t.Errorf("GET /gateway/bot = %+v, %v", gw, err)
	}
	u, err := ds.User(srv.User("dave").ID)
	if err != nil || u.Username != "dave" {
		t.Errorf("GET /users/{user_id} = %+v, %v", u, err)
	}
	ch, err := ds.Channel(srv.Channel("games").ID)
	if err != nil || ch.Name != "games" || ch.GuildID != srv.Guild().ID || ch.ParentID != srv.Channel("Text Channels").ID {
		t.Errorf("GET /channels/{channel_id} = %+v, %v", ch, err)
	}
	// A bare token (without "Bot ") is refused as Discord does.
	bare, _ := discordgo.New(srv.Token())
	srv2 := New(&recorder{TB: t}, Config{})
	srv2.Attach(bare)
	if _, err := bare.User("@me"); err == nil {
		t.Error("a bare token was accepted")
	}
}

func TestApplicationsMe(t *testing.T) {
	t.Parallel()
	srv := New(t, Config{})
	ds := srv.NewSession()
	var app discordgo.Application
	b, err := ds.RequestWithBucketID("GET", discordgo.EndpointApplications+"/@me", nil, "")
	if err == nil {
		err = json.Unmarshal(b, &app)
	}
	if err != nil || app.ID != srv.ApplicationID() {
		t.Errorf("GET /applications/@me = %+v, %v", app, err)
	}
}

// The fake refuses bounds Discord refuses: min_value on a string, max_length on an
// integer, a minimum above its maximum; and unknown contexts (by the OpenAPI
// description).
func TestCommandBoundsAndContexts(t *testing.T) {
	t.Parallel()
	rec := &recorder{TB: t}
	srv := New(rec, Config{})
	ds := open(t, srv, func(*discordgo.Session, *discordgo.InteractionCreate) {})
	app, guild := srv.ApplicationID(), srv.Guild().ID
	lo, hi := 9.0, 3.0
	bad := []int{0, 7}
	_, err := ds.ApplicationCommandBulkOverwrite(app, guild, []*discordgo.ApplicationCommand{
		{Name: "a", Description: "a", Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionString, Name: "s", Description: "s", MinValue: &lo},
			{Type: discordgo.ApplicationCommandOptionInteger, Name: "i", Description: "i", MaxLength: 5},
			{Type: discordgo.ApplicationCommandOptionInteger, Name: "j", Description: "j", MinValue: &lo, MaxValue: hi},
		}},
	})
	if restCode(err) != discordgo.ErrCodeInvalidFormBody {
		t.Fatalf("overwrite with bad bounds = %v, want 50035", err)
	}
	for _, want := range []string{"apply only to integer", "apply only to string", "min_value 9 is above max_value 3"} {
		if !rec.mentions(want) {
			t.Errorf("%q not reported: %q", want, rec.reported())
		}
	}
	err = overwriteCommands(ds, app, guild, []*command{{ApplicationCommand: discordgo.ApplicationCommand{Name: "b", Description: "b"}, Contexts: &bad}})
	if restCode(err) != discordgo.ErrCodeInvalidFormBody || !rec.mentions(`"/0/contexts/1"`) {
		t.Errorf("context 7 = %v; reported %q", err, rec.reported())
	}
	good := []int{0, 1, 2}
	installs := []int{0, 1}
	one := 1.0
	if err := overwriteCommands(ds, app, guild, []*command{
		{ApplicationCommand: discordgo.ApplicationCommand{Name: "c", Description: "c", Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionInteger, Name: "level", Description: "l", MinValue: &one, MaxValue: 8},
			{Type: discordgo.ApplicationCommandOptionString, Name: "name", Description: "n", MaxLength: 80},
		}}, Contexts: &good, IntegrationTypes: &installs}}); err != nil {
		t.Fatal(err)
	}
	if c := srv.Commands(guild); len(c) != 1 || fmt.Sprint(c[0].Contexts, c[0].IntegrationTypes) != "[0 1 2] [0 1]" {
		t.Errorf("registered %+v", c)
	}
}
