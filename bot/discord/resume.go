package discord

import (
	"encoding/json"
	"reflect"
	"unsafe"

	"github.com/bwmarrin/discordgo"
)

// Resuming where Discord says. READY carries resume_gateway_url, "a WebSocket URL that
// your app should use when it Resumes after a disconnect ... instead of the URL used
// when connecting", with "the same version and encoding as the initial connection";
// a bot that resumes elsewhere "will experience disconnects at a higher rate than
// normal" (https://discord.com/developers/docs/events/gateway#ready-event and
// #resuming). discordgo v0.28.1 ignores the field: it reconnects, and resumes, on the
// URL it first connected to, kept in the unexported Session.gateway, which it reads
// under the session's lock when it opens a connection and clears when a dial fails
// (so a failed dial falls back to GET /gateway, the connect URL, as Discord asks of
// a bot that cannot resume). setResumeURL is the small patch kept here: on each READY
// it points that field at resume_gateway_url.

// onReady reads resume_gateway_url from a READY's raw payload and makes it the
// session's reconnect address, with the version and encoding discordgo connects with
// (wsapi.go's Open).
func (b *Bot) onReady(s *discordgo.Session, e *discordgo.Event) {
	var r struct {
		ResumeGatewayURL string `json:"resume_gateway_url"`
	}
	if err := json.Unmarshal(e.RawData, &r); err != nil || r.ResumeGatewayURL == "" {
		return
	}
	if !setResumeURL(s, r.ResumeGatewayURL+"?v="+discordgo.APIVersion+"&encoding=json") {
		b.log.Warn("discord: cannot resume on resume_gateway_url with this discordgo; resuming on the connect URL")
	}
}

// setResumeURL sets s's unexported gateway field to url under the session's lock, and
// reports whether this discordgo has the field.
func setResumeURL(s *discordgo.Session, url string) bool {
	f := reflect.ValueOf(s).Elem().FieldByName("gateway")
	if !f.IsValid() || f.Kind() != reflect.String {
		return false
	}
	s.Lock()
	defer s.Unlock()
	reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem().SetString(url)
	return true
}
