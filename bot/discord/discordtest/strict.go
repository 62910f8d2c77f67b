package discordtest

import (
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
)

// Discord's rules the fake enforces beyond its API description, with the codes it
// answers. Each is cited where it is enforced.
const (
	// codeForumMessage is 40058, "Cannot send messages in a forum channel":
	// https://discord.com/developers/docs/topics/opcodes-and-status-codes#json-json-error-codes
	codeForumMessage = 40058
	// DefaultMaxActiveThreads is a server's cap on active threads (1,000), beyond which
	// Discord answers 160006 "Maximum number of active threads reached":
	// https://discord.com/developers/docs/topics/opcodes-and-status-codes#json-json-error-codes
	// and https://discord.com/developers/docs/topics/threads (Active & Archived Threads).
	DefaultMaxActiveThreads = 1000
	// DefaultInteractionTokenLifetime is how long an interaction's token works for
	// followups and edits: "Interaction tokens are valid for 15 minutes",
	// https://discord.com/developers/docs/interactions/receiving-and-responding#followup-messages
	DefaultInteractionTokenLifetime = 15 * time.Minute
	// maxEmbedTotal is the 6,000-character total of a message's embeds, and maxActionRows
	// the five action rows of a message without the IS_COMPONENTS_V2 flag:
	// https://discord.com/developers/docs/resources/message#embed-object-embed-limits and
	// https://discord.com/developers/docs/components/reference#action-row
	maxEmbedTotal  = 6000
	maxActionRows  = 5
	componentsV2   = discordgo.MessageFlags(1 << 15)
	rateLimitScope = "user"
)

// RateLimit is a rate-limit bucket: at most Limit requests per Window.
type RateLimit struct {
	Limit  int
	Window time.Duration
}

// bucketState counts one bucket's requests in its current window.
type bucketState struct {
	used  int
	reset time.Time
}

// The rate limits a fake Discord applies by default (Config.Unlimited turns them off).
// Discord publishes only the global one and asks bots to follow its headers rather than
// hard-code limits ("rate limits should not be hard coded into your app":
// https://discord.com/developers/docs/topics/rate-limits); the others are the shapes its
// headers show:
//   - DefaultGlobalLimit: "All bots can make up to 50 requests per second to our API
//     ... Interaction endpoints are not bound to the bot's Global Rate Limit"
//     (https://discord.com/developers/docs/topics/rate-limits#global-rate-limit);
//   - DefaultMessageLimit: Create Message per channel, 5 per 5 seconds as Discord's
//     X-RateLimit-Limit and -Reset-After headers show for it (per-route limits are kept
//     per top-level resource, the channel here:
//     https://discord.com/developers/docs/topics/rate-limits);
//   - DefaultThreadCreateLimit: thread creation per server, shared by both thread
//     routes (see SetThreadCreateLimit), 10 per 10 seconds: Discord does not publish
//     it; bots report a "shared"-scope 429 after bursts of about ten.
var (
	DefaultGlobalLimit       = RateLimit{Limit: 50, Window: time.Second}
	DefaultMessageLimit      = RateLimit{Limit: 5, Window: 5 * time.Second}
	DefaultThreadCreateLimit = RateLimit{Limit: 10, Window: 10 * time.Second}
)

// messageRoute is Create Message, limited by default.
const messageRoute = "POST /channels/{channel_id}/messages"

// rateLimits are the fake's rate-limit rules and buckets (guarded by Server.mu).
type rateLimits struct {
	global   RateLimit            // every authenticated request but the interaction endpoints
	routes   map[string]RateLimit // by route, e.g. "POST /channels/{channel_id}/messages"
	threads  RateLimit            // thread creation, shared per server
	buckets  map[string]*bucketState
	limited  int // 429s answered
	maxTotal int // active-thread cap; 0 for DefaultMaxActiveThreads
}

// SetRateLimit limits a route (e.g. "POST /channels/{channel_id}/messages") to l.Limit
// requests per l.Window for each value of its major parameter (channel, guild or
// webhook), answering 429 with retry_after beyond it; a zero l removes the limit. As on
// Discord, every answer of a limited route carries X-RateLimit-Limit, -Remaining,
// -Reset, -Reset-After and -Bucket, and a 429 also Retry-After and X-RateLimit-Scope:
// https://discord.com/developers/docs/topics/rate-limits#header-format and
// https://discord.com/developers/docs/topics/rate-limits#exceeding-a-rate-limit
func (s *Server) SetRateLimit(route string, l RateLimit) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.resetBucketsLocked(route + ":")
	if l.Limit <= 0 {
		delete(s.rl.routes, route)
		return
	}
	s.rl.routes[route] = l
}

// SetGlobalRateLimit sets the limit on all of the bot's requests but those to the
// interaction endpoints (DefaultGlobalLimit unless Config.Unlimited); a zero l removes it.
func (s *Server) SetGlobalRateLimit(l RateLimit) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rl.global = l
	s.resetBucketsLocked("global")
}

// SetThreadCreateLimit limits thread creation in each server, through both thread
// routes together, to l.Limit per l.Window. Discord applies such a shared limit to
// thread creation that its documentation does not quantify (bots report waits of
// minutes); per-route buckets "may be shared across similar endpoints":
// https://discord.com/developers/docs/topics/rate-limits#rate-limits
func (s *Server) SetThreadCreateLimit(l RateLimit) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rl.threads = l
	s.resetBucketsLocked("threads:")
}

// resetBucketsLocked forgets the buckets whose key starts with prefix, so that a limit
// set anew starts with fresh windows; s.mu is held.
func (s *Server) resetBucketsLocked(prefix string) {
	for k := range s.rl.buckets {
		if strings.HasPrefix(k, prefix) {
			delete(s.rl.buckets, k)
		}
	}
}

// SetMaxActiveThreads sets the server-wide cap on active (unarchived) threads, beyond
// which creating one fails with 160006; 0 restores Discord's 1,000.
func (s *Server) SetMaxActiveThreads(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rl.maxTotal = n
}

// RateLimited returns how many 429s the fake has answered.
func (s *Server) RateLimited() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.rl.limited
}

// rateLimitLocked applies the rate limits to a request matched to route; it returns the
// headers to send and, when the request is over a limit, the 429 to answer. s.mu is held.
func (s *Server) rateLimitLocked(route string, params map[string]string, now time.Time) (map[string]string, *reply) {
	var hdr map[string]string
	check := func(key string, l RateLimit, scope string) *reply {
		b := s.rl.buckets[key]
		if b == nil || !now.Before(b.reset) {
			b = &bucketState{reset: now.Add(l.Window)}
			s.rl.buckets[key] = b
		}
		after := b.reset.Sub(now)
		if b.used >= l.Limit {
			s.rl.limited++
			hdr = limitHeaders(key, l.Limit, 0, b.reset, after)
			hdr["Retry-After"] = strconv.Itoa(int(math.Ceil(after.Seconds())))
			hdr["X-RateLimit-Scope"] = scope
			return &reply{status: http.StatusTooManyRequests, quiet: true, body: map[string]any{
				"message": "You are being rate limited.", "retry_after": math.Ceil(after.Seconds()*1000) / 1000, "global": false}}
		}
		b.used++
		if hdr == nil {
			hdr = limitHeaders(key, l.Limit, l.Limit-b.used, b.reset, after)
		}
		return nil
	}
	if s.rl.global.Limit > 0 && !interactionRoute(route) {
		if r := check("global", s.rl.global, "global"); r != nil {
			// "X-RateLimit-Global - Returned only on HTTP 429 responses if the rate limit
			// encountered is the global rate limit": Header Format, above.
			hdr["X-RateLimit-Global"] = "true"
			r.body.(map[string]any)["global"] = true
			return hdr, r
		}
		hdr = nil // the route's own headers follow
	}
	if l, ok := s.rl.routes[route]; ok {
		major := params["channel_id"] + params["guild_id"] + params["webhook_id"] + params["webhook_token"] + params["interaction_id"]
		if r := check(route+":"+major, l, rateLimitScope); r != nil {
			return hdr, r
		}
	}
	if s.rl.threads.Limit > 0 && isThreadCreation(route) {
		guild := ""
		if ch := s.channels[params["channel_id"]]; ch != nil {
			guild = ch.GuildID
		}
		if r := check("threads:"+guild, s.rl.threads, "shared"); r != nil {
			return hdr, r
		}
	}
	return hdr, nil
}

// interactionRoute reports whether route is an interaction endpoint: a callback, or the
// webhook routes of followups and original responses, which the global limit spares
// (https://discord.com/developers/docs/interactions/receiving-and-responding#endpoints).
func interactionRoute(route string) bool {
	return strings.Contains(route, "/interactions/") || strings.Contains(route, "/webhooks/")
}

func isThreadCreation(route string) bool {
	return route == "POST /channels/{channel_id}/threads" || route == "POST /channels/{channel_id}/messages/{message_id}/threads"
}

func limitHeaders(key string, limit, remaining int, reset time.Time, after time.Duration) map[string]string {
	return map[string]string{
		"X-RateLimit-Limit":       strconv.Itoa(limit),
		"X-RateLimit-Remaining":   strconv.Itoa(remaining),
		"X-RateLimit-Reset":       strconv.FormatFloat(float64(reset.UnixMilli())/1000, 'f', 3, 64),
		"X-RateLimit-Reset-After": strconv.FormatFloat(after.Seconds(), 'f', 3, 64),
		"X-RateLimit-Bucket":      fmt.Sprintf("%08x", hash(key)),
	}
}

// activeThreadsLocked counts a server's active threads; s.mu is held.
func (s *Server) activeThreadsLocked(guild string) int {
	n := 0
	for _, c := range s.channels {
		if c.GuildID == guild && c.isThread() && !c.archived && !c.deleted {
			n++
		}
	}
	return n
}

// threadCapLocked answers 160006 when the server has as many active threads as it may;
// s.mu is held.
func (s *Server) threadCapLocked(guild string) *reply {
	max := s.rl.maxTotal
	if max <= 0 {
		max = DefaultMaxActiveThreads
	}
	if s.activeThreadsLocked(guild) >= max {
		r := apiError(http.StatusBadRequest, discordgo.ErrCodeMaximumNumberOfActiveThreadsReached, "Maximum number of active threads reached").expected()
		return &r
	}
	return nil
}

// checkMessageLimits applies the limits Discord puts on a whole message that its API
// description cannot express: the 6,000-character total of all embeds' titles,
// descriptions, field names and values, footer texts and author names
// (https://discord.com/developers/docs/resources/message#embed-object-embed-limits), and at
// most five action rows at the top level of a message without IS_COMPONENTS_V2
// (https://discord.com/developers/docs/components/reference#action-row).
func checkMessageLimits(c *content) error {
	total := 0
	for _, e := range c.Embeds {
		total += EmbedLength(e)
	}
	if total > maxEmbedTotal {
		return fmt.Errorf("embeds: %d characters in all; Discord allows %d", total, maxEmbedTotal)
	}
	if c.Flags&componentsV2 == 0 && len(c.Components) > maxActionRows {
		return fmt.Errorf("components: %d action rows; Discord allows %d", len(c.Components), maxActionRows)
	}
	return nil
}

// EmbedLength is the length of e as Discord counts it toward the 6,000-character total:
// title, description, field names and values, footer text and author name, in characters.
func EmbedLength(e Embed) int {
	n := runes(e.Title) + runes(e.Description)
	for _, f := range e.Fields {
		n += runes(f.Name) + runes(f.Value)
	}
	if e.Footer != nil {
		n += runes(e.Footer.Text)
	}
	if e.Author != nil {
		n += runes(e.Author.Name)
	}
	return n
}

func runes(s string) int { return len([]rune(s)) }

// ArchiveThread archives a thread (name or id), and locks it too when locked is true,
// telling the bot with THREAD_UPDATE as Discord does. A bot that posts in an archived
// thread unarchives it, unless the thread is locked and the bot lacks Manage Threads,
// which gets 160005 "Thread is locked":
// https://discord.com/developers/docs/topics/threads (Archiving & Unarchiving; locked
// threads "can only be unarchived by a user with MANAGE_THREADS") and
// https://discord.com/developers/docs/topics/opcodes-and-status-codes#json-json-error-codes
func (s *Server) ArchiveThread(thread string, locked bool) {
	s.mu.Lock()
	c := s.channelLocked(thread)
	if c == nil || !c.isThread() {
		s.mu.Unlock()
		panic(fmt.Sprintf("discordtest: no thread %q", thread))
	}
	c.archived, c.locked = true, locked
	s.changedLocked()
	ev := s.channelJSON(c)
	s.notifyLocked()
	s.mu.Unlock()
	s.Dispatch("THREAD_UPDATE", ev)
}

// DeleteChannel deletes a channel or thread (name or id): every later request about it
// gets 404 Unknown Channel (10003), and the bot is told with CHANNEL_DELETE or
// THREAD_DELETE (https://discord.com/developers/docs/events/gateway-events#thread-delete).
// Its messages stay readable through Messages.
func (s *Server) DeleteChannel(channel string) {
	s.mu.Lock()
	c := s.channelLocked(channel)
	if c == nil {
		s.mu.Unlock()
		panic(fmt.Sprintf("discordtest: no channel %q", channel))
	}
	c.deleted = true
	s.changedLocked()
	ev, typ := s.channelJSON(c), "CHANNEL_DELETE"
	if c.isThread() {
		typ = "THREAD_DELETE"
		ev = map[string]any{"id": c.ID, "guild_id": c.GuildID, "parent_id": c.ParentID, "type": int(c.Type)}
	}
	s.notifyLocked()
	s.mu.Unlock()
	s.Dispatch(typ, ev)
}

// FailNextN makes the next n requests to route fail with f: a burst of 5xx answers, or
// of dropped connections with Failure.Drop.
func (s *Server) FailNextN(route string, n int, f Failure) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for range n {
		s.faults = append(s.faults, fault{route, f})
	}
}

// ExpireInteraction makes an interaction's token expire now, as it does 15 minutes after
// the interaction was sent: its followups and edits get 401 Invalid Webhook Token (50027).
func (s *Server) ExpireInteraction(in *Interaction) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if st := s.interactions[in.ID]; st != nil {
		st.expired = true
	}
}

// DefaultNonceWindow is how long the fake remembers a message's nonce for enforce_nonce.
// Discord says only "the past few minutes" (Create Message, below); five is the fake's
// reading of it.
const DefaultNonceWindow = 5 * time.Minute

// maxNonce is the longest nonce Discord accepts: "nonce? integer or string … (up to
// 25 characters)", https://discord.com/developers/docs/resources/message#create-message
const maxNonce = 25

// nonceState is the message a nonce created and when.
type nonceState struct {
	message string
	at      time.Time
}

// SetNonceWindow sets how long a nonce stays checked for enforce_nonce; 0 restores
// DefaultNonceWindow.
func (s *Server) SetNonceWindow(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if d <= 0 {
		d = DefaultNonceWindow
	}
	s.nonceWindow = d
}

// NonceHits returns how many message creations the fake answered with an earlier
// message because of enforce_nonce: each is a post a player would otherwise have seen
// twice.
func (s *Server) NonceHits() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.nonceHits
}

// messageNonce reads the nonce of a create-message body (a string or an integer, at most
// 25 characters), or says why Discord would refuse it.
func messageNonce(body map[string]any) (string, *reply) {
	var n string
	switch v := body["nonce"].(type) {
	case nil:
		return "", nil
	case string:
		n = v
	case float64:
		n = strconv.FormatFloat(v, 'f', 0, 64)
	default:
		r := apiError(http.StatusBadRequest, discordgo.ErrCodeInvalidFormBody, "Invalid Form Body: nonce must be a string or an integer")
		return "", &r
	}
	if len(n) > maxNonce {
		r := apiError(http.StatusBadRequest, discordgo.ErrCodeInvalidFormBody, fmt.Sprintf("Invalid Form Body: nonce is %d characters; at most %d", len(n), maxNonce))
		return "", &r
	}
	return n, nil
}

// nonceMessageLocked applies enforce_nonce to a message the bot is creating with nonce:
// "enforce_nonce? boolean: If true and nonce is present, it will be checked for
// uniqueness in the past few minutes. If another message was created by the same author
// with the same nonce, that message will be returned and no new message will be
// created." (Create Message, https://discord.com/developers/docs/resources/message#create-message).
// It returns that earlier message, or nil when the post is to create one. The check
// spans every channel, as the author's nonce does; a deleted message is not returned.
// s.mu is held.
func (s *Server) nonceMessageLocked(nonce string, body map[string]any, now time.Time) *messageState {
	if enforce, _ := body["enforce_nonce"].(bool); !enforce || nonce == "" {
		return nil
	}
	st, ok := s.nonces[s.bot.ID+":"+nonce]
	if !ok || now.Sub(st.at) > s.nonceWindow {
		return nil
	}
	m := s.messages[st.message]
	if m == nil || m.Deleted {
		return nil
	}
	s.nonceHits++
	return m
}
