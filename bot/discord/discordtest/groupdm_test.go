package discordtest

import (
	"encoding/json"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// A group DM offers only commands installed for users in the private-channel
// context; their interactions carry context 2, the user and the authorizing user,
// and the bot may not touch the channel itself.
func TestGroupDMUserInstall(t *testing.T) {
	t.Parallel()
	rec := &recorder{TB: t}
	srv := New(rec, Config{})
	seen := make(chan *discordgo.InteractionCreate, 16)
	ds := open(t, srv, miniBot(t, seen))
	group := srv.GroupDM("friends", "alice", "bob")

	guildOnly := testCommands()[:1] // move, registered with the defaults: servers and the bot's DMs, server install
	if _, err := ds.ApplicationCommandBulkOverwrite(srv.ApplicationID(), "", guildOnly); err != nil {
		t.Fatal(err)
	}
	if in := srv.Command("alice", group, "move", Opt{"move", "e4"}); in != nil || !rec.mentions("has not registered") {
		t.Errorf("a server-installed command was offered in a group DM: %v, %q", in, rec.reported())
	}

	// every context (guild, bot DM, private channel), both installs (guild, user)
	anywhere := []*command{{ApplicationCommand: *testCommands()[0], Contexts: &[]int{0, 1, 2}, IntegrationTypes: &[]int{0, 1}}}
	if err := overwriteCommands(ds, srv.ApplicationID(), "", anywhere); err != nil {
		t.Fatal(err)
	}
	if in := srv.Command("carol", group, "move", Opt{"move", "e4"}); in != nil || !rec.mentions("not in group DM") {
		t.Errorf("carol ran a command in a group DM she is not in: %v", in)
	}
	in := srv.Command("alice", group, "move", Opt{"move", "e4"})
	if in == nil {
		t.Fatalf("not delivered: %q", rec.reported())
	}
	var p struct {
		Context int                 `json:"context"`
		GuildID string              `json:"guild_id"`
		Member  any                 `json:"member"`
		User    struct{ ID string } `json:"user"`
		Owners  map[string]string   `json:"authorizing_integration_owners"`
	}
	if err := json.Unmarshal(in.Payload, &p); err != nil {
		t.Fatal(err)
	}
	alice := srv.User("alice").ID
	if p.Context != 2 || p.GuildID != "" || p.Member != nil || p.User.ID != alice || p.Owners["1"] != alice {
		t.Errorf("group DM interaction %+v", p)
	}
	receive(t, seen, "the interaction")
	if _, err := ds.ChannelMessageSend(group, "hello"); restCode(err) != discordgo.ErrCodeMissingAccess {
		t.Errorf("posting in a group DM the bot is not in: %v, want Missing Access", err)
	}
}
