package discordtest

import (
	"net/http"
	"strconv"

	"github.com/bwmarrin/discordgo"
)

// listMessages is Get Channel Messages: "Returns an array of message objects from
// newest to oldest", limit 1-100 (50 by default), at most one of before, after and
// around, and "If the current user is missing the READ_MESSAGE_HISTORY permission in
// the channel, then no messages will be returned"
// (https://discord.com/developers/docs/resources/message#get-channel-messages). around
// is not modelled. A listed message carries no nonce: Discord checks a nonce only "in
// the past few minutes" (Create Message) and promises it nowhere else, so a bot must
// not count on finding it later.
func (s *Server) listMessages(c *call) reply {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch, r := s.visibleChannel(c.params["channel_id"])
	if r != nil {
		return *r
	}
	q := c.query
	set := 0
	for _, k := range []string{"before", "after", "around"} {
		if q.Get(k) != "" {
			set++
		}
	}
	if set > 1 {
		return apiError(http.StatusBadRequest, discordgo.ErrCodeInvalidFormBody, "Invalid Form Body: before, after and around are mutually exclusive")
	}
	if q.Get("around") != "" {
		s.fail("discordtest: GET /channels/%s/messages?around= is not modelled; extend discordtest", ch.ID)
		return apiError(http.StatusNotImplemented, 0, "not modelled").expected()
	}
	limit := 50
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 100 {
			return apiError(http.StatusBadRequest, discordgo.ErrCodeInvalidFormBody, "Invalid Form Body: limit must be 1 to 100")
		}
		limit = n
	}
	out := []any{}
	if ch.GuildID != "" && s.botPerms(ch)&discordgo.PermissionReadMessageHistory == 0 {
		return okJSON(out)
	}
	before, after := snowflakeOf(q.Get("before")), snowflakeOf(q.Get("after"))
	for i := len(ch.messages) - 1; i >= 0 && len(out) < limit; i-- {
		m := ch.messages[i]
		id := snowflakeOf(m.ID)
		if m.Deleted || before != 0 && id >= before || after != 0 && id <= after {
			continue
		}
		j := s.messageJSON(m)
		delete(j, "nonce")
		out = append(out, j)
	}
	return okJSON(out)
}

// snowflakeOf reads a snowflake, 0 when absent or malformed.
func snowflakeOf(s string) uint64 {
	n, _ := strconv.ParseUint(s, 10, 64)
	return n
}
