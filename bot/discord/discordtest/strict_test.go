package discordtest

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
)

// strictGuild is the default world with a forum and a media channel, and a bot role
// without Manage Threads (so locked threads refuse it, as they refuse most bots).
func strictGuild() Guild {
	g := DefaultGuild()
	for i := range g.Roles {
		if g.Roles[i].Managed {
			g.Roles[i].Permissions &^= discordgo.PermissionManageThreads
		}
	}
	g.Channels = append(g.Channels,
		Channel{Name: "forum", Type: discordgo.ChannelTypeGuildForum, ParentID: "Text Channels"},
		Channel{Name: "media", Type: discordgo.ChannelTypeGuildMedia, ParentID: "Text Channels"})
	return g
}

func TestRateLimitBuckets(t *testing.T) {
	t.Parallel()
	rec := &recorder{TB: t}
	srv := New(rec, Config{Guilds: []Guild{strictGuild()}})
	ds := open(t, srv)
	general, games := srv.Channel("general").ID, srv.Channel("games").ID
	const route = "POST /channels/{channel_id}/messages"
	srv.SetRateLimit(route, RateLimit{Limit: 2, Window: 300 * time.Millisecond})

	// A raw request sees the headers: two allowed, then 429 with retry_after.
	post := func(channel string) *http.Response {
		req, _ := http.NewRequest("POST", "https://discord.com/api/v10/channels/"+channel+"/messages", strings.NewReader(`{"content":"x"}`))
		req.Header.Set("Authorization", "Bot "+srv.Token())
		req.Header.Set("Content-Type", "application/json")
		res, err := srv.HTTPClient().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res
	}
	if r := post(general); r.StatusCode != 200 || r.Header.Get("X-RateLimit-Remaining") != "1" || r.Header.Get("X-RateLimit-Limit") != "2" {
		t.Errorf("first post: %d, headers %v", r.StatusCode, r.Header)
	}
	post(general)
	r := post(general)
	if r.StatusCode != http.StatusTooManyRequests || r.Header.Get("Retry-After") != "1" || r.Header.Get("X-RateLimit-Scope") != "user" ||
		r.Header.Get("X-RateLimit-Remaining") != "0" || r.Header.Get("X-RateLimit-Bucket") == "" {
		t.Errorf("third post: %d, headers %v", r.StatusCode, r.Header)
	}
	// Another channel is another bucket.
	if r := post(games); r.StatusCode != 200 {
		t.Errorf("post in another channel: %d", r.StatusCode)
	}
	if srv.RateLimited() != 1 {
		t.Errorf("RateLimited = %d, want 1", srv.RateLimited())
	}

	// discordgo honours the headers and retry_after: all of a burst arrives, paced.
	start := time.Now()
	for i := range 5 {
		if _, err := ds.ChannelMessageSend(games, "burst"); err != nil {
			t.Fatalf("send %d: %v", i, err)
		}
	}
	if d := time.Since(start); d < 300*time.Millisecond {
		t.Errorf("5 sends at 2 per 300ms took %v", d)
	}

	// Thread creation shares one limit per server across both routes.
	srv.SetThreadCreateLimit(RateLimit{Limit: 1, Window: time.Hour})
	if _, err := ds.ThreadStart(general, "one", discordgo.ChannelTypeGuildPublicThread, 60); err != nil {
		t.Fatal(err)
	}
	before := srv.RateLimited()
	m, _ := ds.ChannelMessageSend(games, "start")
	_, err := ds.MessageThreadStartComplex(games, m.ID, &discordgo.ThreadStart{Name: "two", AutoArchiveDuration: 60},
		discordgo.WithRetryOnRatelimit(false))
	if err == nil || srv.RateLimited() != before+1 {
		t.Errorf("second thread in the server within the hour = %v, 429s %d", err, srv.RateLimited()-before)
	}
	if len(rec.reported()) != 0 {
		t.Errorf("rate limits were reported as bot errors: %q", rec.reported())
	}
}

func TestThreadStates(t *testing.T) {
	t.Parallel()
	srv := New(t, Config{Guilds: []Guild{strictGuild()}})
	updates := make(chan *discordgo.ThreadUpdate, 8)
	deleted := make(chan *discordgo.ThreadDelete, 2)
	ds := open(t, srv,
		func(_ *discordgo.Session, u *discordgo.ThreadUpdate) { updates <- u },
		func(_ *discordgo.Session, d *discordgo.ThreadDelete) { deleted <- d })
	general := srv.Channel("general").ID
	th, err := ds.ThreadStart(general, "game", discordgo.ChannelTypeGuildPublicThread, 60)
	if err != nil {
		t.Fatal(err)
	}

	// Archived: a post unarchives it.
	srv.ArchiveThread(th.ID, false)
	if u := receive(t, updates, "THREAD_UPDATE"); !u.ThreadMetadata.Archived {
		t.Errorf("archive update %+v", u.ThreadMetadata)
	}
	if _, err := ds.ChannelMessageSend(th.ID, "your move"); err != nil {
		t.Fatalf("post in an archived thread: %v", err)
	}
	if u := receive(t, updates, "THREAD_UPDATE"); u.ThreadMetadata.Archived {
		t.Errorf("posting left the thread archived: %+v", u.ThreadMetadata)
	}

	// Locked: 160005 for a bot without Manage Threads.
	srv.ArchiveThread(th.ID, true)
	receive(t, updates, "THREAD_UPDATE")
	if _, err := ds.ChannelMessageSend(th.ID, "your move"); restCode(err) != discordgo.ErrCodeThreadIsLocked {
		t.Errorf("post in a locked thread = %v, want 160005", err)
	}

	// Deleted: 10003, and THREAD_DELETE.
	srv.DeleteChannel(th.ID)
	if d := receive(t, deleted, "THREAD_DELETE"); d.ID != th.ID {
		t.Errorf("THREAD_DELETE %+v", d.Channel)
	}
	if _, err := ds.ChannelMessageSend(th.ID, "your move"); restCode(err) != discordgo.ErrCodeUnknownChannel {
		t.Errorf("post in a deleted thread = %v, want 10003", err)
	}
	if len(srv.Threads(general)) != 0 {
		t.Errorf("deleted thread still listed: %+v", srv.Threads(general))
	}
}

func TestActiveThreadCap(t *testing.T) {
	t.Parallel()
	srv := New(t, Config{})
	ds := open(t, srv)
	general := srv.Channel("general").ID
	srv.SetMaxActiveThreads(2)
	for i := range 2 {
		if _, err := ds.ThreadStart(general, "t", discordgo.ChannelTypeGuildPublicThread, 60); err != nil {
			t.Fatalf("thread %d: %v", i, err)
		}
	}
	_, err := ds.ThreadStart(general, "t", discordgo.ChannelTypeGuildPublicThread, 60)
	if restCode(err) != discordgo.ErrCodeMaximumNumberOfActiveThreadsReached {
		t.Fatalf("third thread = %v, want 160006", err)
	}
	// An archived thread is no longer active.
	srv.ArchiveThread(srv.Threads(general)[0].ID, false)
	if _, err := ds.ThreadStart(general, "t", discordgo.ChannelTypeGuildPublicThread, 60); err != nil {
		t.Errorf("thread after one was archived: %v", err)
	}
}

func TestForumChannels(t *testing.T) {
	t.Parallel()
	rec := &recorder{TB: t}
	srv := New(rec, Config{Guilds: []Guild{strictGuild()}})
	ds := open(t, srv)
	for _, name := range []string{"forum", "media"} {
		forum := srv.Channel(name).ID
		if _, err := ds.ChannelMessageSend(forum, "hello"); restCode(err) != codeForumMessage {
			t.Errorf("message in #%s = %v, want 40058", name, err)
		}
		if _, err := ds.ThreadStart(forum, "no message", discordgo.ChannelTypeGuildPublicThread, 60); restCode(err) != discordgo.ErrCodeInvalidFormBody {
			t.Errorf("thread without a message in #%s = %v, want 50035", name, err)
		}
		th, err := ds.ForumThreadStartComplex(forum, &discordgo.ThreadStart{Name: "Gothic: alice vs bob", AutoArchiveDuration: 1440},
			&discordgo.MessageSend{Content: "the board"})
		if err != nil {
			t.Fatalf("post in #%s: %v", name, err)
		}
		msgs := srv.Messages(th.ID)
		if th.ParentID != forum || th.Type != discordgo.ChannelTypeGuildPublicThread || len(msgs) != 1 || msgs[0].ID != th.ID || msgs[0].Content != "the board" {
			t.Errorf("post %+v, messages %+v", th, msgs)
		}
		if _, err := ds.ChannelMessageSend(th.ID, "in the post"); err != nil {
			t.Errorf("message in a post: %v", err)
		}
	}
	if !rec.mentions("40058") || !rec.mentions("message is required") {
		t.Errorf("forum misuse not reported: %q", rec.reported())
	}
}

func TestMessageLimits(t *testing.T) {
	t.Parallel()
	rec := &recorder{TB: t}
	srv := New(rec, Config{})
	ds := open(t, srv)
	general := srv.Channel("general").ID
	long := strings.Repeat("x", 4000)
	_, err := ds.ChannelMessageSendComplex(general, &discordgo.MessageSend{Embeds: []*discordgo.MessageEmbed{
		{Description: long}, {Description: long}}})
	if restCode(err) != discordgo.ErrCodeInvalidFormBody || !rec.mentions("8000 characters") {
		t.Errorf("8,000 characters of embeds = %v; reported %q", err, rec.reported())
	}
	var rows []discordgo.MessageComponent
	for i := range 6 {
		rows = append(rows, discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: "b", Style: discordgo.PrimaryButton, CustomID: strings.Repeat("b", i+1)}}})
	}
	_, err = ds.ChannelMessageSendComplex(general, &discordgo.MessageSend{Content: "rows", Components: rows})
	if restCode(err) != discordgo.ErrCodeInvalidFormBody || !rec.mentions("6 action rows") {
		t.Errorf("six action rows = %v; reported %q", err, rec.reported())
	}
	if _, err := ds.ChannelMessageSendComplex(general, &discordgo.MessageSend{Content: "rows", Components: rows[:5],
		Embeds: []*discordgo.MessageEmbed{{Description: long}, {Description: long[:2000]}}}); err != nil {
		t.Errorf("five rows and 6,000 characters: %v", err)
	}
}

func TestFailureBurstsAndDrops(t *testing.T) {
	t.Parallel()
	rec := &recorder{TB: t}
	srv := New(rec, Config{})
	ds := open(t, srv)
	general := srv.Channel("general").ID
	const route = "POST /channels/{channel_id}/messages"
	srv.FailNextN(route, 2, Failure{Status: 503, Message: "503: Service Unavailable"})
	for range 2 {
		if _, err := ds.ChannelMessageSend(general, "x"); restCode(err) != 0 {
			t.Errorf("planted 503 = %v", err)
		}
	}
	srv.FailNext(route, Failure{Drop: true})
	_, err := ds.ChannelMessageSend(general, "x")
	var re *discordgo.RESTError
	if err == nil || restCode(err) != -1 || errors.As(err, &re) {
		t.Errorf("dropped connection = %v, want a network error", err)
	}
	if _, err := ds.ChannelMessageSend(general, "after"); err != nil {
		t.Errorf("send after the failures: %v", err)
	}
	if len(rec.reported()) != 0 {
		t.Errorf("planted failures were reported as bot errors: %q", rec.reported())
	}
}

func TestInteractionTokenExpires(t *testing.T) {
	t.Parallel()
	srv := New(t, Config{})
	calls := make(chan *discordgo.InteractionCreate, 2)
	ds := open(t, srv, func(_ *discordgo.Session, i *discordgo.InteractionCreate) { calls <- i })
	register(t, srv, ds)
	in := srv.Command("alice", "general", "move", Opt{"move", "e2e4"})
	i := receive(t, calls, "/move")
	if err := ds.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource}); err != nil {
		t.Fatal(err)
	}
	srv.ExpireInteraction(in)
	text := "late"
	if _, err := ds.InteractionResponseEdit(i.Interaction, &discordgo.WebhookEdit{Content: &text}); restCode(err) != discordgo.ErrCodeInvalidWebhookTokenProvided {
		t.Errorf("edit after 15 minutes = %v, want 50027", err)
	}
	if _, err := ds.FollowupMessageCreate(i.Interaction, true, &discordgo.WebhookParams{Content: text}); restCode(err) != discordgo.ErrCodeInvalidWebhookTokenProvided {
		t.Errorf("followup after 15 minutes = %v, want 50027", err)
	}
}

func TestEnforceNonce(t *testing.T) {
	t.Parallel()
	rec := &recorder{TB: t}
	srv := New(rec, Config{Guilds: []Guild{strictGuild()}})
	ds := open(t, srv)
	general, games := srv.Channel("general").ID, srv.Channel("games").ID
	post := func(channel, body string, files []*discordgo.File) *discordgo.Message {
		t.Helper()
		endpoint := discordgo.EndpointChannelMessages(channel)
		contentType, data := "application/json", []byte(body)
		if files != nil {
			var payload map[string]any
			if err := json.Unmarshal([]byte(body), &payload); err != nil {
				t.Fatal(err)
			}
			var err error
			if contentType, data, err = discordgo.MultipartBodyWithJSON(payload, files); err != nil {
				t.Fatal(err)
			}
		}
		// discordgo v0.28.1 has no RequestRaw (v0.29's): lock the route's bucket and
		// send through the exported RequestWithLockedBucket, as RequestRaw does.
		resp, err := ds.RequestWithLockedBucket("POST", endpoint, contentType, data, ds.Ratelimiter.LockBucket(endpoint), 0)
		if err != nil {
			t.Fatalf("post %s: %v", body, err)
		}
		var m discordgo.Message
		if err := json.Unmarshal(resp, &m); err != nil {
			t.Fatal(err)
		}
		return &m
	}

	// The same nonce with enforce_nonce returns the first message and creates nothing,
	// in JSON and in multipart payload_json alike, in any channel.
	first := post(general, `{"content":"your move","nonce":"n1c","enforce_nonce":true}`, nil)
	again := post(general, `{"content":"your move","nonce":"n1c","enforce_nonce":true}`, nil)
	png := []*discordgo.File{{Name: "board.png", ContentType: "image/png", Reader: strings.NewReader("not really a png")}}
	multi := post(general, `{"content":"your move","nonce":"n1c","enforce_nonce":true}`, png)
	elsewhere := post(games, `{"content":"your move","nonce":"n1c","enforce_nonce":true}`, nil)
	for _, m := range []*discordgo.Message{again, multi, elsewhere} {
		if m.ID != first.ID || m.ChannelID != general {
			t.Errorf("a repeated nonce returned message %s in %s, want %s in %s", m.ID, m.ChannelID, first.ID, general)
		}
	}
	if n := len(srv.Messages("general")); n != 1 {
		t.Errorf("general has %d messages after four posts with one nonce, want 1", n)
	}
	if n := len(srv.Messages("games")); n != 0 {
		t.Errorf("games has %d messages, want 0", n)
	}
	if m, _ := srv.Message(first.ID); m.Nonce != "n1c" {
		t.Errorf("message nonce = %q, want n1c", m.Nonce)
	}

	// A multipart post starts its own nonce, and its repeat is deduplicated too.
	withFile := post(general, `{"content":"board","nonce":"n2c","enforce_nonce":true}`, png)
	if again := post(general, `{"content":"board","nonce":"n2c","enforce_nonce":true}`, png); again.ID != withFile.ID {
		t.Errorf("a repeated multipart nonce made message %s, want %s", again.ID, withFile.ID)
	}

	// Without enforce_nonce a nonce is only echoed, and a repeat posts again.
	a := post(games, `{"content":"hello","nonce":"n3c"}`, nil)
	b := post(games, `{"content":"hello","nonce":"n3c"}`, nil)
	if a.ID == b.ID || len(srv.Messages("games")) != 2 {
		t.Errorf("without enforce_nonce: ids %s and %s, %d messages; want two messages", a.ID, b.ID, len(srv.Messages("games")))
	}

	// Only the past few minutes count: an old nonce posts again.
	srv.SetNonceWindow(time.Millisecond)
	time.Sleep(5 * time.Millisecond)
	if late := post(general, `{"content":"your move","nonce":"n1c","enforce_nonce":true}`, nil); late.ID == first.ID {
		t.Errorf("a nonce older than the window returned the old message")
	}
	if got := srv.NonceHits(); got != 4 {
		t.Errorf("NonceHits = %d, want 4", got)
	}
}
