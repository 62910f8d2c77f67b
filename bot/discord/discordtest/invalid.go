package discordtest

import (
	"fmt"
	"net/http"
	"time"
)

// Discord's invalid-request limit: "IP addresses that make too many invalid HTTP
// requests are automatically and temporarily restricted from accessing the Discord
// API. Currently, this limit is 10,000 per 10 minutes. An invalid request is one that
// results in 401, 403, or 429 statuses. ... 429 errors returned with
// X-RateLimit-Scope: shared are not counted against you."
// https://discord.com/developers/docs/topics/rate-limits#invalid-request-limit-aka-cloudflare-bans
const (
	InvalidRequestLimit  = 10000
	InvalidRequestWindow = 10 * time.Minute
)

// invalidState counts the invalid requests the bot made (guarded by Server.mu).
type invalidState struct {
	total int
	// repeats counts the invalid requests a correct bot would not have made: the same
	// request refused the same way before, with nothing changed in the world since.
	repeats int
	// seen maps a refused request (route, major parameter, status and code) to the
	// world's epoch when it was refused.
	seen map[string]uint64
	// epoch counts the changes a test made to the world (permissions, archiving,
	// locking, deleting): after one, a request refused before may succeed.
	epoch uint64
	// allowRepeats turns the repeat check off (AllowRepeatedInvalid).
	allowRepeats bool
}

// InvalidRequests returns how many of the bot's requests Discord would count toward its
// invalid-request limit (401, 403 and 429 answers, except 429s of a shared scope).
func (s *Server) InvalidRequests() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.inv.total
}

// AvoidableInvalidRequests returns how many 401 and 403 answers repeated one given
// before to the same request with nothing changed since: requests Discord asks a bot
// not to make ("403 responses are avoided by inspecting role or channel permissions
// and by not making requests that are restricted by such permissions"; "401 responses
// are avoided by ... stopping further requests after a token becomes invalid"). Each
// fails the test too, unless AllowRepeatedInvalid.
func (s *Server) AvoidableInvalidRequests() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.inv.repeats
}

// AllowRepeatedInvalid stops failing the test for repeated invalid requests (they are
// still counted): for tests that measure how a bot without the fix behaves.
func (s *Server) AllowRepeatedInvalid() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.inv.allowRepeats = true
}

// changedLocked records a change to the world that may make a refused request succeed;
// s.mu is held.
func (s *Server) changedLocked() { s.inv.epoch++ }

// countInvalid counts rec's answer rep toward Discord's invalid-request limit and
// reports a repeat (see AvoidableInvalidRequests). Planted failures are counted but
// never called repeats: the test chose them.
func (s *Server) countInvalid(rec *Request, rep reply) {
	switch rep.status {
	case http.StatusUnauthorized, http.StatusForbidden, http.StatusTooManyRequests:
	default:
		return
	}
	if rep.status == http.StatusTooManyRequests && rep.headers["X-RateLimit-Scope"] == "shared" {
		return
	}
	code := 0
	if m, ok := rep.body.(map[string]any); ok {
		code, _ = m["code"].(int)
	}
	p := rec.Params
	key := fmt.Sprintf("%s:%s%s%s:%d:%d", rec.Route, p["channel_id"], p["guild_id"], p["webhook_id"], rep.status, code)
	s.mu.Lock()
	s.inv.total++
	if s.inv.seen == nil {
		s.inv.seen = map[string]uint64{}
	}
	epoch, before := s.inv.seen[key]
	repeat := before && epoch == s.inv.epoch && !rep.planted
	if rep.status == http.StatusTooManyRequests {
		// Counted, never called a repeat: a request that reaches the fake after it
		// answered a 429 may have been sent before the bot read that answer (several
		// workers share a bucket), and the fake cannot tell the two apart. Tests
		// compare RateLimited or InvalidRequests with what the bot should need.
		repeat = false
	}
	s.inv.seen[key] = s.inv.epoch
	if repeat {
		s.inv.repeats++
	}
	allow := s.inv.allowRepeats
	s.mu.Unlock()
	if repeat && !allow {
		s.fail("discordtest: %s %s: refused again with %d (code %d) with nothing changed since the last refusal; "+
			"Discord counts each such request toward the %d invalid requests per 10 minutes that get a bot's address banned "+
			"(https://discord.com/developers/docs/topics/rate-limits#invalid-request-limit-aka-cloudflare-bans)",
			rec.Method, rec.Path, rep.status, code, InvalidRequestLimit)
	}
}

// SetBotPermissions sets the permission overwrite of the bot's role on a channel (name
// or id) to allow and deny, as an admin does in the channel's settings, and tells the
// bot with CHANNEL_UPDATE, as Discord does
// (https://discord.com/developers/docs/events/gateway-events#channel-update). A thread
// takes its parent's overwrites: denying discordgo.PermissionSendMessagesInThreads on
// a channel makes every post in its threads fail with 403 Missing Permissions (50013)
// (https://discord.com/developers/docs/topics/permissions#permissions-for-public-threads).
// Zero allow and deny remove the overwrite.
func (s *Server) SetBotPermissions(channel string, allow, deny int64) {
	s.mu.Lock()
	c := s.channelLocked(channel)
	if c == nil {
		s.mu.Unlock()
		panic(fmt.Sprintf("discordtest: no channel %q", channel))
	}
	if c.isThread() {
		s.mu.Unlock()
		panic(fmt.Sprintf("discordtest: %q is a thread; threads take their channel's permissions", channel))
	}
	ow := s.threadDenial(s.botRoleLocked(c.GuildID))
	ow.Allow, ow.Deny = allow, deny
	var kept []overwrite
	for _, o := range c.overwrites {
		if o.ID != ow.ID {
			kept = append(kept, o)
		}
	}
	if allow != 0 || deny != 0 {
		kept = append(kept, ow)
	}
	c.overwrites = kept
	c.DenyThreads = deny&threadPerms != 0
	s.changedLocked()
	ev := s.channelJSON(c)
	s.notifyLocked()
	s.mu.Unlock()
	s.Dispatch("CHANNEL_UPDATE", ev)
}

// botRoleLocked is the id of the bot's managed role in a guild, or ""; s.mu is held.
func (s *Server) botRoleLocked(guild string) string {
	g := s.guild(guild)
	if g == nil {
		return ""
	}
	if m := g.member(s.bot.ID); m != nil {
		for _, r := range m.Roles {
			if role := g.role(r); role != nil && role.Managed {
				return r
			}
		}
	}
	return ""
}

// BotPermissions returns the bot's permissions in a channel or thread (name or id).
func (s *Server) BotPermissions(channel string) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.channelLocked(channel)
	if c == nil {
		panic(fmt.Sprintf("discordtest: no channel %q", channel))
	}
	return s.botPerms(c)
}
