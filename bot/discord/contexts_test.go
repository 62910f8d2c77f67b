package discord

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/missivechess/missive/bot"
)

// Commands are encoded with Discord's contexts and integration_types, which
// discordgo v0.28.1's ApplicationCommand lacks, beside its own fields.
func TestCommandJSON(t *testing.T) {
	cmds := ApplicationCommands([]bot.CommandSpec{{Name: "move", Description: "Make a move"},
		{Name: "match", Description: "Run a match", Admin: true, Contexts: []bot.Context{bot.ContextGuild}, Integrations: []bot.Integration{bot.IntegrationGuild}}})
	data, err := json.Marshal(cmds)
	if err != nil {
		t.Fatal(err)
	}
	got := string(data)
	for _, want := range []string{`"name":"move"`, `"description":"Make a move"`, `"contexts":[0,1,2]`, `"integration_types":[0,1]`,
		`"name":"match"`, `"contexts":[0]`, `"integration_types":[0]`, `"default_member_permissions":"32"`} {
		if !strings.Contains(got, want) {
			t.Errorf("%s lacks %s", got, want)
		}
	}
	if strings.Contains(got, "dm_permission") {
		t.Errorf("%s has dm_permission", got)
	}
}

// The raw payload gives the channel, the context and the interaction metadata's id of
// the message a button is on, which discordgo v0.28.1's Interaction leaves out.
func TestReadInteraction(t *testing.T) {
	raw := json.RawMessage(`{"id":"9","type":3,"data":{"custom_id":"x","component_type":2},"context":2,"channel":{"id":"5","type":11,"parent_id":"4"},
		"message":{"id":"7","channel_id":"5","interaction_metadata":{"id":"8","type":2}}}`)
	var i discordgo.Interaction
	if err := json.Unmarshal(raw, &i); err != nil {
		t.Fatal(err)
	}
	ch := readInteraction(raw, &i)
	if !ch.known || ch.Type != discordgo.ChannelTypeGuildPublicThread || ch.ParentID != "4" || ch.context != InteractionContextPrivateChannel {
		t.Errorf("channel %+v", ch)
	}
	if i.Message == nil || i.Message.Interaction == nil || i.Message.Interaction.ID != "8" {
		t.Errorf("message %+v", i.Message)
	}
	// In a group DM (no guild), the request's context comes from the payload's context.
	dm := json.RawMessage(`{"id":"9","type":2,"data":{"id":"1","name":"move","type":1},"channel_id":"5","context":2,
		"channel":{"id":"5","type":3},"user":{"id":"3","username":"alice"}}`)
	i = discordgo.Interaction{}
	if err := json.Unmarshal(dm, &i); err != nil {
		t.Fatal(err)
	}
	if req := (&Bot{}).request(&i, readInteraction(dm, &i)); req.Context != bot.ContextPrivateChannel || req.Where() != bot.ContextPrivateChannel {
		t.Errorf("group DM request context %q", req.Context)
	}
	if req := (&Bot{}).request(&i, channelInfo{}); req.Context != bot.ContextBotDM {
		t.Errorf("request without a context: %q, want the bot's DM", req.Context)
	}
	// The deprecated interaction field, when Discord sends it, is left as discordgo read it.
	raw = json.RawMessage(`{"id":"9","type":3,"data":{"custom_id":"x","component_type":2},"message":{"id":"7","interaction":{"id":"6","type":2},"interaction_metadata":{"id":"8","type":2}}}`)
	i = discordgo.Interaction{}
	if err := json.Unmarshal(raw, &i); err != nil {
		t.Fatal(err)
	}
	if ch := readInteraction(raw, &i); ch.known || ch.context != InteractionContextGuild || i.Message.Interaction.ID != "6" {
		t.Errorf("channel %+v, message interaction %+v", ch, i.Message.Interaction)
	}
	if ch := readInteraction(json.RawMessage(`not json`), &discordgo.Interaction{}); ch != (channelInfo{}) {
		t.Errorf("bad payload gave %+v", ch)
	}
}
