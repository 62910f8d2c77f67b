package discordtest

import (
	"bytes"
	"compress/zlib"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
)

// Gateway opcodes.
const (
	opDispatch       = 0
	opHeartbeat      = 1
	opIdentify       = 2
	opPresenceUpdate = 3
	opVoiceState     = 4
	opResume         = 6
	opReconnect      = 7
	opRequestMembers = 8
	opInvalidSession = 9
	opHello          = 10
	opHeartbeatACK   = 11
)

// Gateway close codes.
const (
	closeUnknownOpcode     = 4001
	closeDecodeError       = 4002
	closeNotAuthenticated  = 4003
	closeAuthFailed        = 4004
	closeAlreadyAuthed     = 4005
	closeInvalidShard      = 4010
	closeInvalidAPIVersion = 4012
	closeInvalidIntents    = 4013
	closeDisallowedIntents = 4014
)

const privilegedIntents = discordgo.IntentGuildMembers | discordgo.IntentGuildPresences | discordgo.IntentMessageContent

// gatewayState is the fake gateway's state; Server.mu guards it.
type gatewayState struct {
	sessions   map[string]*gwSession
	current    map[[2]int]*gwSession // the newest session per shard
	conns      map[*gwConn]bool
	identifies []Identify
	resumes    int
	heartbeats int
	pending    []gwEvent // events for shards nobody is connected to yet
	newest     *gwSession
	// resumeUnreachable is set when a client was refused the resume address (the
	// gateway down): it may then resume on the connect address.
	resumeUnreachable bool
	upgrader          websocket.Upgrader
	down              bool // an outage: new connections are refused
}

func (g *gatewayState) init() {
	g.sessions = map[string]*gwSession{}
	g.current = map[[2]int]*gwSession{}
	g.conns = map[*gwConn]bool{}
	g.upgrader = websocket.Upgrader{CheckOrigin: func(*http.Request) bool { return true }}
}

// gwEvent is a dispatched event.
type gwEvent struct {
	seq     int64
	typ     string
	data    json.RawMessage
	guildID string
	intent  discordgo.Intent
}

// gwSession is a gateway session: what RESUME continues.
type gwSession struct {
	id       string
	identify Identify
	seq      int64
	log      []gwEvent
	conn     *gwConn
}

// gwConn is one websocket connection to the fake gateway.
type gwConn struct {
	ws        *websocket.Conn
	transport string // "zlib-stream" or ""
	compress  bool   // payload compression asked in IDENTIFY; Server.mu guards it
	session   *gwSession
	version   string
	encoding  string
	// resumeURL is true when the client dialled the resume address (ResumeGatewayURL).
	resumeURL bool

	qmu      sync.Mutex
	queue    []frame
	draining bool // send what is queued, then close
	wake     chan struct{}
	closed   chan struct{}
	once     sync.Once

	zbuf bytes.Buffer
	zw   *zlib.Writer
}

// frame is a queued outgoing message.
type frame struct {
	data      []byte
	compress  bool // payload compression of a dispatch
	closeCode int  // a close frame
	reason    string
}

func (c *gwConn) send(f frame) {
	c.qmu.Lock()
	c.queue = append(c.queue, f)
	c.qmu.Unlock()
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

func (c *gwConn) sendJSON(v any) { c.send(frame{data: marshal(v)}) }

// drain closes the connection once the queued frames (a close frame, say) are sent.
func (c *gwConn) drain() {
	c.qmu.Lock()
	c.draining = true
	c.qmu.Unlock()
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

func (c *gwConn) shutdown() {
	c.once.Do(func() {
		close(c.closed)
		c.ws.Close()
	})
}

// writer sends queued frames in order, compressing as the client asked.
func (c *gwConn) writer() {
	for {
		select {
		case <-c.closed:
			return
		case <-c.wake:
		}
		c.qmu.Lock()
		q, draining := c.queue, c.draining
		c.queue = nil
		c.qmu.Unlock()
		for _, f := range q {
			if err := c.write(f); err != nil {
				c.shutdown()
				return
			}
		}
		if draining {
			c.shutdown()
			return
		}
	}
}

func (c *gwConn) write(f frame) error {
	c.ws.SetWriteDeadline(time.Now().Add(10 * time.Second))
	if f.closeCode != 0 {
		c.ws.WriteMessage(websocket.CloseMessage, websocket.FormatCloseMessage(f.closeCode, f.reason))
		c.shutdown()
		return nil
	}
	switch {
	case c.transport == "zlib-stream":
		// One zlib context for the whole connection, flushed after each message.
		c.zbuf.Reset()
		if c.zw == nil {
			c.zw = zlib.NewWriter(&c.zbuf)
		}
		c.zw.Write(f.data)
		c.zw.Flush()
		return c.ws.WriteMessage(websocket.BinaryMessage, c.zbuf.Bytes())
	case f.compress:
		// Payload compression: each dispatch is a complete zlib stream in a binary frame.
		var b bytes.Buffer
		w := zlib.NewWriter(&b)
		w.Write(f.data)
		w.Close()
		return c.ws.WriteMessage(websocket.BinaryMessage, b.Bytes())
	}
	return c.ws.WriteMessage(websocket.TextMessage, f.data)
}

// payload is a gateway message.
type payload struct {
	Op int             `json:"op"`
	D  json.RawMessage `json:"d"`
	S  *int64          `json:"s"`
	T  *string         `json:"t"`
}

func (s *Server) serveGateway(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	down := s.gw.down
	if down && strings.HasPrefix(r.Host, resumeHost+":") {
		s.gw.resumeUnreachable = true
	}
	s.mu.Unlock()
	if down {
		http.Error(w, "gateway unavailable", http.StatusServiceUnavailable)
		return
	}
	q := r.URL.Query()
	ws, err := s.gw.upgrader.Upgrade(w, r, nil)
	if err != nil {
		s.fail("discordtest: gateway upgrade: %v", err)
		return
	}
	c := &gwConn{ws: ws, transport: q.Get("compress"), version: q.Get("v"), encoding: q.Get("encoding"),
		wake: make(chan struct{}, 1), closed: make(chan struct{}), resumeURL: strings.HasPrefix(r.Host, resumeHost+":")}
	ws.SetReadLimit(4096 * 1024)
	go c.writer()
	s.mu.Lock()
	s.gw.conns[c] = true
	s.notifyLocked()
	s.mu.Unlock()
	defer s.dropConn(c)

	if v, err := strconv.Atoi(c.version); c.version != "" && (err != nil || v < 6 || v > 10) {
		c.send(frame{closeCode: closeInvalidAPIVersion, reason: "Invalid API version."})
		return
	}
	if c.encoding != "" && c.encoding != "json" {
		s.fail("discordtest: the gateway was asked for encoding=%s; discordtest speaks JSON only", c.encoding)
		c.send(frame{closeCode: closeDecodeError, reason: "Error while decoding payload."})
		return
	}
	if c.transport != "" && c.transport != "zlib-stream" {
		s.fail("discordtest: the gateway was asked for compress=%s; discordtest supports zlib-stream only", c.transport)
		c.send(frame{closeCode: closeDecodeError, reason: "Error while decoding payload."})
		return
	}
	c.sendJSON(map[string]any{"op": opHello, "s": nil, "t": nil, "d": map[string]any{
		"heartbeat_interval": s.cfg.HeartbeatInterval.Milliseconds(), "_trace": []string{`["gateway-prd-fake-1",{"micros":0}]`}}})

	for {
		mt, msg, err := ws.ReadMessage()
		if err != nil {
			return
		}
		if mt != websocket.TextMessage {
			c.send(frame{closeCode: closeDecodeError, reason: "Error while decoding payload."})
			return
		}
		var p payload
		if err := json.Unmarshal(msg, &p); err != nil {
			c.send(frame{closeCode: closeDecodeError, reason: "Error while decoding payload."})
			return
		}
		if !s.gatewayOp(c, p) {
			return
		}
	}
}

// dropConn forgets a closed connection.
func (s *Server) dropConn(c *gwConn) {
	c.drain()
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.gw.conns, c)
	if c.session != nil && c.session.conn == c {
		c.session.conn = nil
	}
	s.notifyLocked()
}

// gatewayOp handles one client message; false ends the connection.
func (s *Server) gatewayOp(c *gwConn, p payload) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	defer s.notifyLocked()
	switch p.Op {
	case opHeartbeat:
		s.gw.heartbeats++
		c.sendJSON(map[string]any{"op": opHeartbeatACK, "s": nil, "t": nil, "d": nil})
		return true
	case opIdentify:
		if c.session != nil {
			c.send(frame{closeCode: closeAlreadyAuthed, reason: "You sent more than one identify payload."})
			return false
		}
		return s.identifyLocked(c, p.D)
	case opResume:
		if c.session != nil {
			c.send(frame{closeCode: closeAlreadyAuthed, reason: "Already authenticated."})
			return false
		}
		return s.resumeLocked(c, p.D)
	}
	if c.session == nil {
		c.send(frame{closeCode: closeNotAuthenticated, reason: "Not authenticated."})
		return false
	}
	switch p.Op {
	case opPresenceUpdate, opVoiceState, opRequestMembers:
		return true
	}
	c.send(frame{closeCode: closeUnknownOpcode, reason: "Unknown opcode."})
	return false
}

func (s *Server) identifyLocked(c *gwConn, d json.RawMessage) bool {
	var id struct {
		Token          string            `json:"token"`
		Properties     map[string]string `json:"properties"`
		Compress       bool              `json:"compress"`
		LargeThreshold int               `json:"large_threshold"`
		Shard          *[2]int           `json:"shard"`
		Intents        *int64            `json:"intents"`
	}
	if err := json.Unmarshal(d, &id); err != nil {
		c.send(frame{closeCode: closeDecodeError, reason: "Error while decoding payload."})
		return false
	}
	rec := Identify{Token: id.Token, Compress: id.Compress, LargeThreshold: id.LargeThreshold, Properties: id.Properties,
		Version: c.version, Encoding: c.encoding, Transport: c.transport, Shard: [2]int{0, 1}}
	if id.Shard != nil {
		rec.Shard = *id.Shard
	}
	if id.Intents != nil {
		rec.Intents = discordgo.Intent(*id.Intents)
	}
	s.gw.identifies = append(s.gw.identifies, rec)
	switch {
	case strings.TrimPrefix(id.Token, "Bot ") != s.token:
		c.send(frame{closeCode: closeAuthFailed, reason: "Authentication failed."})
		return false
	case id.Intents == nil || *id.Intents < 0 || *id.Intents >= 1<<26:
		c.send(frame{closeCode: closeInvalidIntents, reason: "Invalid intent(s)."})
		return false
	case rec.Intents&privilegedIntents&^s.cfg.PrivilegedIntents != 0:
		c.send(frame{closeCode: closeDisallowedIntents, reason: "Disallowed intent(s)."})
		return false
	case rec.Shard[1] < 1 || rec.Shard[0] < 0 || rec.Shard[0] >= rec.Shard[1]:
		c.send(frame{closeCode: closeInvalidShard, reason: "Invalid shard."})
		return false
	}
	if id.LargeThreshold != 0 && (id.LargeThreshold < 50 || id.LargeThreshold > 250) {
		s.fail("discordtest: IDENTIFY large_threshold %d is outside Discord's 50-250", id.LargeThreshold)
	}
	sess := &gwSession{id: randomHex(16), identify: rec, conn: c}
	s.gw.sessions[sess.id] = sess
	s.gw.current[rec.Shard] = sess
	s.gw.newest = sess
	c.session, c.compress = sess, rec.Compress
	s.logf("gateway: IDENTIFY shard %v intents %d -> session %s", rec.Shard, rec.Intents, sess.id)

	var unavailable []any
	var mine []*guildState
	for _, g := range s.guilds {
		if shardOf(g.ID, rec.Shard[1]) == rec.Shard[0] && !s.botAbsent(g) {
			unavailable = append(unavailable, map[string]any{"id": g.ID, "unavailable": true})
			mine = append(mine, g)
		}
	}
	me := userJSON(s.bot)
	me["verified"], me["mfa_enabled"], me["email"] = true, false, nil
	ver, _ := strconv.Atoi(c.version)
	ready := map[string]any{
		"v": ver, "user": me, "guilds": orEmpty(unavailable), "session_id": sess.id,
		"resume_gateway_url": s.ResumeGatewayURL(), "shard": rec.Shard, "session_type": "normal",
		"application": map[string]any{"id": s.appID, "flags": 0}, "private_channels": []any{},
		"relationships": []any{}, "presences": []any{}, "guild_join_requests": []any{},
		"user_settings": map[string]any{}, "auth": map[string]any{}, "geo_ordered_rtc_regions": []string{"fake"},
		"_trace": []string{`["gateway-prd-fake-1",{"micros":0}]`},
	}
	s.sendLocked(sess, "READY", marshal(ready), "")
	if rec.Intents&discordgo.IntentGuilds != 0 {
		for _, g := range mine {
			s.sendLocked(sess, "GUILD_CREATE", marshal(s.guildCreateJSON(g, rec.Intents)), g.ID)
		}
	}
	// Deliver what was dispatched before anyone was connected for this shard.
	var keep []gwEvent
	for _, ev := range s.gw.pending {
		if shardOf(ev.guildID, rec.Shard[1]) != rec.Shard[0] {
			keep = append(keep, ev)
			continue
		}
		if ev.intent == 0 || rec.Intents&ev.intent != 0 {
			s.sendLocked(sess, ev.typ, ev.data, ev.guildID)
		}
	}
	s.gw.pending = keep
	return true
}

func (s *Server) resumeLocked(c *gwConn, d json.RawMessage) bool {
	var r struct {
		Token     string `json:"token"`
		SessionID string `json:"session_id"`
		Seq       int64  `json:"seq"`
	}
	if err := json.Unmarshal(d, &r); err != nil {
		c.send(frame{closeCode: closeDecodeError, reason: "Error while decoding payload."})
		return false
	}
	if strings.TrimPrefix(r.Token, "Bot ") != s.token {
		c.send(frame{closeCode: closeAuthFailed, reason: "Authentication failed."})
		return false
	}
	sess := s.gw.sessions[r.SessionID]
	if sess == nil || r.Seq > sess.seq {
		// Not resumable: the client must identify anew on this connection.
		c.sendJSON(map[string]any{"op": opInvalidSession, "d": false, "s": nil, "t": nil})
		return true
	}
	if !c.resumeURL && !s.cfg.AnyResumeURL && !s.gw.resumeUnreachable {
		// "After the connection is closed, your app should open a new connection using
		// resume_gateway_url rather than the URL used to initially connect ... If your
		// app doesn't use the resume_gateway_url when reconnecting, it will experience
		// disconnects at a higher rate than normal."
		// https://discord.com/developers/docs/events/gateway#resuming
		// A bot that could not reach the resume address may fall back to this one.
		s.fail("discordtest: RESUME of session %s on the connect address, not READY's resume_gateway_url %s", sess.id, s.ResumeGatewayURL())
	}
	s.gw.resumeUnreachable = false
	if old := sess.conn; old != nil && old != c {
		old.shutdown()
	}
	sess.conn, c.session, c.compress = c, sess, sess.identify.Compress
	s.gw.resumes++
	s.logf("gateway: RESUME session %s from seq %d (now %d)", sess.id, r.Seq, sess.seq)
	for _, ev := range sess.log {
		if ev.seq > r.Seq {
			c.send(c.dispatchFrame(ev))
		}
	}
	sess.seq++
	c.send(c.dispatchFrame(gwEvent{seq: sess.seq, typ: "RESUMED", data: json.RawMessage(`{"_trace":["[\"gateway-prd-fake-1\",{\"micros\":0}]"]}`)}))
	return true
}

// dispatchFrame encodes an event for c; s.mu is held.
func (c *gwConn) dispatchFrame(ev gwEvent) frame {
	return frame{data: marshal(map[string]any{"op": opDispatch, "s": ev.seq, "t": ev.typ, "d": ev.data}), compress: c.compress}
}

// sendLocked numbers an event in a session, keeps it for RESUME and sends it if the
// session is connected; s.mu is held.
func (s *Server) sendLocked(sess *gwSession, typ string, data json.RawMessage, guildID string) {
	sess.seq++
	ev := gwEvent{seq: sess.seq, typ: typ, data: data, guildID: guildID}
	sess.log = append(sess.log, ev)
	if sess.conn != nil {
		sess.conn.send(sess.conn.dispatchFrame(ev))
	}
	s.notifyLocked()
}

// shardOf is the shard that receives a guild's events: (guild_id >> 22) % num_shards;
// events without a guild, direct messages among them, go to shard 0. This is Discord's
// rule, from its developer documentation, Gateway, "Sharding": "shard_id = (guild_id
// >> 22) % num_shards ... As a consequence, all DM and group DM events will be sent to
// shard 0."
func shardOf(guildID string, count int) int {
	id, err := strconv.ParseUint(guildID, 10, 64)
	if err != nil || count <= 1 {
		return 0
	}
	return int((id >> 22) % uint64(count))
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// eventIntents says which intent an event needs (0: none).
func eventIntent(typ string) discordgo.Intent {
	switch {
	case strings.HasPrefix(typ, "GUILD_MEMBER"):
		return discordgo.IntentGuildMembers
	case strings.HasPrefix(typ, "CHANNEL_"), strings.HasPrefix(typ, "THREAD_"),
		strings.HasPrefix(typ, "GUILD_ROLE_"), typ == "GUILD_CREATE", typ == "GUILD_UPDATE", typ == "GUILD_DELETE":
		return discordgo.IntentGuilds
	}
	return 0
}

// Dispatch sends the event typ (such as "INTERACTION_CREATE") with payload data to the
// session of the shard that owns its guild_id, numbered and kept for RESUME, queued while
// nobody is connected, and dropped when the bot's intents exclude it, as Discord does.
func (s *Server) Dispatch(typ string, data any) {
	s.dispatchIntent(typ, data, eventIntent(typ))
}

func (s *Server) dispatchIntent(typ string, data any, intent discordgo.Intent) {
	raw, ok := data.(json.RawMessage)
	if !ok {
		raw = marshal(data)
	}
	var peek struct {
		GuildID string `json:"guild_id"`
	}
	json.Unmarshal(raw, &peek)
	if peek.GuildID == "" && strings.HasPrefix(typ, "GUILD_") {
		json.Unmarshal(raw, &struct {
			ID *string `json:"id"`
		}{&peek.GuildID})
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var sess *gwSession
	for shard, cur := range s.gw.current {
		if shardOf(peek.GuildID, shard[1]) == shard[0] {
			sess = cur
			break
		}
	}
	if sess == nil {
		s.gw.pending = append(s.gw.pending, gwEvent{typ: typ, data: raw, guildID: peek.GuildID, intent: intent})
		return
	}
	if intent != 0 && sess.identify.Intents&intent == 0 {
		return
	}
	s.sendLocked(sess, typ, raw, peek.GuildID)
}

// Disconnect drops every gateway connection without a close frame, as a network failure
// would, leaving the sessions resumable, and returns how many it dropped.
func (s *Server) Disconnect() int {
	s.mu.Lock()
	var conns []*gwConn
	for c := range s.gw.conns {
		conns = append(conns, c)
		if c.session != nil && c.session.conn == c {
			c.session.conn = nil
		}
	}
	s.notifyLocked()
	s.mu.Unlock()
	for _, c := range conns {
		c.ws.UnderlyingConn().Close()
		c.shutdown()
	}
	return len(conns)
}

// Outage starts (down true) or ends a gateway outage: while it lasts every gateway
// connection is dropped and new ones are refused, so a client's immediate
// reconnect fails as it does while Discord's gateway is unreachable; it returns
// how many connections it dropped.
func (s *Server) Outage(down bool) int {
	s.mu.Lock()
	s.gw.down = down
	s.mu.Unlock()
	if !down {
		return 0
	}
	return s.Disconnect()
}

// CloseGateway closes every gateway connection with a close frame carrying code.
func (s *Server) CloseGateway(code int, reason string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for c := range s.gw.conns {
		c.send(frame{closeCode: code, reason: reason})
	}
}

// Reconnect asks every connected client to reconnect and resume (opcode 7).
func (s *Server) Reconnect() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for c := range s.gw.conns {
		if c.session != nil {
			c.sendJSON(map[string]any{"op": opReconnect, "d": nil, "s": nil, "t": nil})
		}
	}
}

// RequestHeartbeat asks every connected client for an immediate heartbeat (opcode 1).
func (s *Server) RequestHeartbeat() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for c := range s.gw.conns {
		c.sendJSON(map[string]any{"op": opHeartbeat, "d": nil, "s": nil, "t": nil})
	}
}

// InvalidateSession sends opcode 9 to every connected client; when resumable is false
// the sessions are forgotten and the clients must identify again.
func (s *Server) InvalidateSession(resumable bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for c := range s.gw.conns {
		if c.session == nil {
			continue
		}
		if !resumable {
			delete(s.gw.sessions, c.session.id)
			for k, v := range s.gw.current {
				if v == c.session {
					delete(s.gw.current, k)
				}
			}
			c.session.conn = nil
			c.session = nil
		}
		c.sendJSON(map[string]any{"op": opInvalidSession, "d": resumable, "s": nil, "t": nil})
	}
}

// Identifies returns every IDENTIFY received, in order.
func (s *Server) Identifies() []Identify {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Identify(nil), s.gw.identifies...)
}

// Resumes counts the successful RESUMEs.
func (s *Server) Resumes() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.gw.resumes
}

// Heartbeats counts the heartbeats received.
func (s *Server) Heartbeats() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.gw.heartbeats
}

// Connected counts the sessions with a live connection.
func (s *Server) Connected() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, sess := range s.gw.sessions {
		if sess.conn != nil {
			n++
		}
	}
	return n
}

// WaitConnected waits until n sessions have a live connection (identified or resumed).
func (s *Server) WaitConnected(ctx context.Context, n int) error {
	return s.Wait(ctx, func() bool { return s.Connected() >= n })
}

// ShardEvents returns the names of the events sent to the newest session of shard id
// (of however many shards it identified with), in sequence order, for assertions on
// which shard of a sharded bot Discord told.
func (s *Server) ShardEvents(id int) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for shard, sess := range s.gw.current {
		if shard[0] != id {
			continue
		}
		for _, ev := range sess.log {
			out = append(out, fmt.Sprintf("%d %s", ev.seq, ev.typ))
		}
	}
	return out
}

// ShardOf returns the shard of count that Discord sends guildID's events to.
func ShardOf(guildID string, count int) int { return shardOf(guildID, count) }

// SessionEvents returns the names of the events sent in the newest session, in sequence
// order, for assertions on what the bot was told.
func (s *Server) SessionEvents() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	newest := s.gw.newest
	if newest == nil {
		return nil
	}
	var out []string
	for _, ev := range newest.log {
		out = append(out, fmt.Sprintf("%d %s", ev.seq, ev.typ))
	}
	return out
}
