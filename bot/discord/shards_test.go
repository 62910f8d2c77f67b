package discord_test

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/missivechess/missive/bot/discord"
	"github.com/missivechess/missive/bot/discord/discordtest"
)

// guildOnShard returns a guild id that Discord routes to shard of count.
func guildOnShard(n uint64, shard, count int) string {
	for {
		id := strconv.FormatUint(n<<22, 10)
		if discordtest.ShardOf(id, count) == shard {
			return id
		}
		n++
	}
}

// twoServers is a world of two servers on different shards of two: the default one
// on shard 0 and "Second" (#lobby; erin and frank) on shard 1.
func twoServers() discordtest.Config {
	first := discordtest.DefaultGuild()
	first.ID = guildOnShard(1000, 0, 2)
	second := discordtest.Guild{
		ID: guildOnShard(2000, 1, 2), Name: "Second",
		Roles: []discordtest.Role{
			{Name: "@everyone", Permissions: discordtest.DefaultGuild().Roles[0].Permissions},
			{Name: "Missive", Permissions: discordtest.DefaultGuild().Roles[2].Permissions, Managed: true},
		},
		Channels: []discordtest.Channel{{Name: "lobby", Type: discordgo.ChannelTypeGuildText}},
		Members: []discordtest.Member{
			{User: discordtest.User{Username: "erin", GlobalName: "Erin"}},
			{User: discordtest.User{Username: "frank", GlobalName: "Frank"}},
		},
	}
	return discordtest.Config{Guilds: []discordtest.Guild{first, second}}
}

// challengeIn starts a Gothic game that from (white) proposes to opponent in channel
// and returns the game's thread once its board is posted.
func challengeIn(e *env, from, opponent, channel string) string {
	t := e.t
	t.Helper()
	ch := e.answer(e.srv.Command(from, channel, "challenge", discordtest.Opt{Name: "variant", Value: "gothic"},
		discordtest.Opt{Name: "opponent", Value: opponent}, discordtest.Opt{Name: "color", Value: "white"}))
	e.accept(opponent, ch)
	var thread string
	if err := e.srv.Wait(e.ctx, func() bool {
		for _, c := range e.srv.Threads(e.srv.Channel(channel).ID) {
			thread = c.ID
			return len(e.srv.Messages(thread)) > 0
		}
		return false
	}); err != nil {
		t.Fatalf("no game thread with a board in #%s: %v", channel, err)
	}
	return thread
}

// One process runs both shards over one service: each server's interactions come to
// its shard, direct messages to shard 0, and a Resign pressed on a direct message
// about a game in the shard-1 server resigns that game and no other (with one data file
// per shard, game ids collided and shard 0 resigned its own game of the same number).
func TestShardsInOneProcess(t *testing.T) {
	e := start(t, discord.Options{Shards: 2, IdentifyEvery: 10e6}, twoServers())
	var shards [][2]int
	for _, id := range e.srv.Identifies() {
		shards = append(shards, id.Shard)
	}
	if !slices.Equal(shards, [][2]int{{0, 2}, {1, 2}}) {
		t.Fatalf("identified as shards %v, want [0 2] then [1 2]", shards)
	}
	if n := len(e.srv.RequestsTo("PUT /applications/{application_id}/commands")); n != 1 {
		t.Errorf("commands registered %d times, want once", n)
	}

	first := challengeIn(e, "alice", "bob", "general")
	e.answer(e.srv.Command("erin", "lobby", "settings", discordtest.Opt{Name: "notify", Value: "dm"}))
	second := challengeIn(e, "frank", "erin", "lobby")
	for _, ev := range e.srv.ShardEvents(1) {
		if strings.HasSuffix(ev, "INTERACTION_CREATE") {
			goto routed
		}
	}
	t.Fatalf("shard 1 got no interaction: %v", e.srv.ShardEvents(1))
routed:
	e.answer(e.srv.Command("frank", second, "move", discordtest.Opt{Name: "move", Value: "e4"}))
	e.svc.Idle()
	notice, err := e.srv.WaitMessage(e.ctx, e.srv.DMChannel("erin"), func(m *discordtest.Message) bool {
		return strings.Contains(text(m), "e4") && resignID(m) != ""
	})
	if err != nil {
		t.Fatalf("erin got no direct message with a Resign button: %v", err)
	}
	before := len(e.srv.ShardEvents(0))
	ask := e.answer(e.srv.Click("erin", notice.ID, buttonID(t, notice, "Resign")))
	if len(e.srv.ShardEvents(0)) == before {
		t.Error("the press in a direct message did not come to shard 0")
	}
	done := e.answer(e.srv.Click("erin", ask.ID, buttonID(t, ask, "Yes")))
	if done.Ephemeral {
		t.Fatalf("resigning from the direct message was refused: %q", text(done))
	}
	if b := text(e.answer(e.srv.Command("frank", second, "board"))); !strings.Contains(strings.ToLower(b), "resign") {
		t.Errorf("the shard-1 game was not resigned: %q", b)
	}
	if b := text(e.answer(e.srv.Command("alice", first, "board"))); strings.Contains(strings.ToLower(b), "resign") {
		t.Errorf("the shard-0 game was resigned: %q", b)
	}
}

// resignID returns the custom id of m's Resign button, or "".
func resignID(m *discordtest.Message) string {
	for _, row := range m.Components {
		for _, c := range row.Components {
			if c.Label == "Resign" {
				return c.CustomID
			}
		}
	}
	return ""
}
