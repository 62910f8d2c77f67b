package discordtest

import (
	"bytes"
	"compress/zlib"
	"encoding/json"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
)

func TestSessionOpens(t *testing.T) {
	t.Parallel()
	srv := New(t, Config{})
	ready := make(chan *discordgo.Ready, 1)
	guilds := make(chan *discordgo.GuildCreate, 1)
	ds := open(t, srv,
		func(_ *discordgo.Session, r *discordgo.Ready) { ready <- r },
		func(_ *discordgo.Session, g *discordgo.GuildCreate) { guilds <- g },
	)

	r := receive(t, ready, "READY")
	if r.User.ID != srv.Bot().ID || !r.User.Bot || r.SessionID == "" || len(r.Guilds) != 1 {
		t.Errorf("READY = user %+v session %q guilds %d", r.User, r.SessionID, len(r.Guilds))
	}
	if r.Application == nil || r.Application.ID != srv.ApplicationID() {
		t.Errorf("READY application = %+v, want id %s", r.Application, srv.ApplicationID())
	}
	g := receive(t, guilds, "GUILD_CREATE")
	want := srv.Guild()
	if g.ID != want.ID || g.Name != "Missive Test" || g.OwnerID != srv.User("carol").ID {
		t.Errorf("GUILD_CREATE = %s %q owner %s", g.ID, g.Name, g.OwnerID)
	}
	names := map[string]bool{}
	for _, c := range g.Channels {
		names[c.Name] = true
	}
	for _, n := range []string{"general", "games", "no-threads"} {
		if !names[n] {
			t.Errorf("GUILD_CREATE has no #%s: %v", n, names)
		}
	}
	if len(g.Roles) != 3 {
		t.Errorf("GUILD_CREATE roles = %d, want 3", len(g.Roles))
	}
	// Without the Guild Members intent Discord sends only the bot's own member.
	if len(g.Members) != 1 || g.Members[0].User.ID != srv.Bot().ID || g.MemberCount != 5 {
		t.Errorf("GUILD_CREATE members = %d (count %d), want just the bot of 5", len(g.Members), g.MemberCount)
	}
	if _, err := ds.State.Channel(srv.Channel("general").ID); err != nil {
		t.Errorf("state has no #general: %v", err)
	}

	ids := srv.Identifies()
	if len(ids) != 1 {
		t.Fatalf("%d IDENTIFYs, want 1", len(ids))
	}
	id := ids[0]
	if id.Intents != discordgo.IntentsGuilds {
		t.Errorf("intents = %d, want Guilds only (%d)", id.Intents, discordgo.IntentsGuilds)
	}
	if id.Token != "Bot "+srv.Token() || !id.Compress || id.Encoding != "json" || id.Version != discordgo.APIVersion {
		t.Errorf("IDENTIFY = %+v", id)
	}
	if got := srv.SessionEvents(); len(got) != 2 || got[0] != "1 READY" || got[1] != "2 GUILD_CREATE" {
		t.Errorf("session events = %v", got)
	}
	if n := len(srv.RequestsTo("GET /gateway")); n != 1 {
		t.Errorf("GET /gateway requested %d times", n)
	}
}

func TestHeartbeat(t *testing.T) {
	t.Parallel()
	srv := New(t, Config{})
	ds := open(t, srv)
	ctx := timeout(t)
	// discordgo sends its first heartbeat at once, and another when asked (opcode 1).
	if err := srv.Wait(ctx, func() bool { return srv.Heartbeats() >= 1 }); err != nil {
		t.Fatal(err)
	}
	ds.RLock()
	before := ds.LastHeartbeatAck
	ds.RUnlock()
	time.Sleep(5 * time.Millisecond)
	n := srv.Heartbeats()
	srv.RequestHeartbeat()
	if err := srv.Wait(ctx, func() bool { return srv.Heartbeats() > n }); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		ds.RLock()
		after := ds.LastHeartbeatAck
		ds.RUnlock()
		if after.After(before) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the heartbeat ACK never reached discordgo")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestIdentifyRefused(t *testing.T) {
	t.Parallel()
	srv := New(t, Config{})
	ds := srv.NewSession()
	ds.Identify.Token = "Bot wrong"
	ds.Token = "Bot " + srv.Token() // REST works; the gateway refuses the token
	if err := ds.Open(); err == nil || !strings.Contains(err.Error(), "4004") {
		t.Errorf("Open with a bad token = %v, want close 4004", err)
	}
	ds = srv.NewSession()
	ds.Identify.Intents = discordgo.IntentsGuilds | discordgo.IntentMessageContent
	if err := ds.Open(); err == nil || !strings.Contains(err.Error(), "4014") {
		t.Errorf("Open with a privileged intent = %v, want close 4014", err)
	}
}

func TestResumeReplaysMissedEvents(t *testing.T) {
	t.Parallel()
	srv := New(t, Config{AnyResumeURL: true}) // a bare discordgo session resumes where it connected
	got := make(chan *discordgo.InteractionCreate, 4)
	resumed := make(chan struct{}, 1)
	ds := open(t, srv,
		func(_ *discordgo.Session, i *discordgo.InteractionCreate) { got <- i },
		func(_ *discordgo.Session, _ *discordgo.Resumed) { resumed <- struct{}{} },
	)
	register(t, srv, ds)
	ctx := timeout(t)

	before := srv.Command("alice", "general", "move", Opt{"move", "e2e4"})
	if i := receive(t, got, "the first interaction"); i.ID != before.ID {
		t.Fatalf("got interaction %s, want %s", i.ID, before.ID)
	}
	if n := srv.Disconnect(); n != 1 {
		t.Fatalf("Disconnect dropped %d connections", n)
	}
	// Sent while the bot is away: kept in the session and replayed on RESUME.
	missed := srv.Command("bob", "general", "move", Opt{"move", "e7e5"})
	if i := receive(t, got, "the missed interaction"); i.ID != missed.ID || i.Member.User.ID != srv.User("bob").ID {
		t.Errorf("after resume got %s from %v, want %s from bob", i.ID, i.Member.User, missed.ID)
	}
	receive(t, resumed, "RESUMED")
	if srv.Resumes() != 1 || len(srv.Identifies()) != 1 {
		t.Errorf("resumes %d, identifies %d; want 1 and 1", srv.Resumes(), len(srv.Identifies()))
	}
	if err := srv.WaitConnected(ctx, 1); err != nil {
		t.Fatal(err)
	}
	after := srv.Command("alice", "general", "move", Opt{"move", "g1f3"})
	if i := receive(t, got, "an interaction after resuming"); i.ID != after.ID {
		t.Errorf("got %s, want %s", i.ID, after.ID)
	}
	select {
	case i := <-got:
		t.Errorf("interaction %s delivered twice", i.ID)
	default:
	}
}

func TestReconnectOpcode(t *testing.T) {
	t.Parallel()
	srv := New(t, Config{AnyResumeURL: true}) // a bare discordgo session resumes where it connected
	got := make(chan *discordgo.InteractionCreate, 4)
	ds := open(t, srv, func(_ *discordgo.Session, i *discordgo.InteractionCreate) { got <- i })
	register(t, srv, ds)
	ctx := timeout(t)
	srv.Reconnect()
	if err := srv.Wait(ctx, func() bool { return srv.Resumes() == 1 && srv.Connected() == 1 }); err != nil {
		t.Fatal(err)
	}
	in := srv.Command("carol", "games", "move", Opt{"move", "d2d4"})
	if i := receive(t, got, "an interaction after opcode 7"); i.ID != in.ID {
		t.Errorf("got %s, want %s", i.ID, in.ID)
	}
	if len(srv.Identifies()) != 1 {
		t.Errorf("the session was not resumed: %d IDENTIFYs", len(srv.Identifies()))
	}
}

func TestInvalidSessionReidentifies(t *testing.T) {
	t.Parallel()
	srv := New(t, Config{})
	ready := make(chan *discordgo.Ready, 2)
	open(t, srv, func(_ *discordgo.Session, r *discordgo.Ready) { ready <- r })
	first := receive(t, ready, "READY")
	srv.InvalidateSession(false)
	second := receive(t, ready, "a second READY")
	if first.SessionID == second.SessionID || len(srv.Identifies()) != 2 {
		t.Errorf("sessions %s then %s, %d IDENTIFYs", first.SessionID, second.SessionID, len(srv.Identifies()))
	}
}

func TestShardsGetTheirGuilds(t *testing.T) {
	t.Parallel()
	g1, g2 := DefaultGuild(), DefaultGuild()
	g1.Name, g2.Name = "One", "Two"
	// Snowflakes whose (id >> 22) % 2 differ put the guilds on different shards.
	g1.ID, g2.ID = "1000000000000000000", "1000000000004194304"
	srv := New(t, Config{Guilds: []Guild{g1, g2}, AnyResumeURL: true}) // bare discordgo sessions resume where they connected
	for shard := 0; shard < 2; shard++ {
		got := make(chan *discordgo.GuildCreate, 4)
		ds := srv.NewSession()
		ds.ShardID, ds.ShardCount = shard, 2
		ds.AddHandler(func(_ *discordgo.Session, g *discordgo.GuildCreate) { got <- g })
		if err := ds.Open(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ds.Close() })
		g := receive(t, got, "GUILD_CREATE")
		if shardOf(g.ID, 2) != shard {
			t.Errorf("shard %d got guild %s of shard %d", shard, g.Name, shardOf(g.ID, 2))
		}
	}
	if a, b := shardOf(g1.ID, 2), shardOf(g2.ID, 2); a == b {
		t.Fatalf("test guilds on the same shard %d", a)
	}
}

// TestZlibStream checks transport compression with a raw client, since discordgo does
// not ask for it.
func TestZlibStream(t *testing.T) {
	t.Parallel()
	srv := New(t, Config{})
	ws, _, err := srv.Dialer().Dial(srv.GatewayURL()+"/?v=10&encoding=json&compress=zlib-stream", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	pr, pw := io.Pipe()
	go func() {
		for {
			mt, msg, err := ws.ReadMessage()
			if err != nil || mt != websocket.BinaryMessage || !bytes.HasSuffix(msg, []byte{0, 0, 0xff, 0xff}) {
				pw.CloseWithError(io.ErrUnexpectedEOF)
				return
			}
			pw.Write(msg)
		}
	}()
	zr, err := zlib.NewReader(pr)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(zr)
	var p payload
	if err := dec.Decode(&p); err != nil || p.Op != opHello {
		t.Fatalf("first message %+v, %v; want HELLO", p, err)
	}
	ws.WriteJSON(map[string]any{"op": opIdentify, "d": map[string]any{"token": srv.Token(), "intents": 1, "properties": map[string]string{"os": "linux"}}})
	for _, want := range []string{"READY", "GUILD_CREATE"} {
		p = payload{}
		if err := dec.Decode(&p); err != nil || p.T == nil || *p.T != want {
			t.Fatalf("got %+v, %v; want %s", p, err, want)
		}
	}
	if ids := srv.Identifies(); len(ids) != 1 || ids[0].Transport != "zlib-stream" || ids[0].Version != "10" {
		t.Errorf("identifies = %+v", ids)
	}
}

// A RESUME on the connect address rather than READY's resume_gateway_url, which
// differs from it, is reported (discordgo v0.28.1 resumes where it first connected).
func TestResumeOnConnectAddressReported(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var reports []string
	srv, err := Start(Config{Report: func(msg string) { mu.Lock(); reports = append(reports, msg); mu.Unlock() }})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	if srv.ResumeGatewayURL() == srv.GatewayURL() {
		t.Fatalf("resume address %s is the connect address", srv.ResumeGatewayURL())
	}
	resumed := make(chan struct{}, 1)
	open(t, srv, func(_ *discordgo.Session, _ *discordgo.Resumed) { resumed <- struct{}{} })
	srv.Disconnect()
	receive(t, resumed, "RESUMED")
	mu.Lock()
	defer mu.Unlock()
	if len(reports) != 1 || !strings.Contains(reports[0], "resume_gateway_url") {
		t.Errorf("reports %q, want one about resume_gateway_url", reports)
	}
}
