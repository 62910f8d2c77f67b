package discordtest

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
)

// recorder is a testing.TB that keeps the errors reported to it instead of failing, so
// tests can check what the fake reports; everything else goes to the real test.
type recorder struct {
	testing.TB
	mu   sync.Mutex
	errs []string
}

func (r *recorder) Error(args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errs = append(r.errs, fmt.Sprint(args...))
}

func (r *recorder) Errorf(format string, args ...any) { r.Error(fmt.Sprintf(format, args...)) }

func (r *recorder) Helper() {}

// reported returns the errors recorded so far.
func (r *recorder) reported() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.errs...)
}

// mentions reports whether one recorded error contains every part.
func (r *recorder) mentions(parts ...string) bool { return r.mentionsAfter(0, parts...) }

// mentionsAfter reports whether one error recorded after the first before contains
// every part.
func (r *recorder) mentionsAfter(before int, parts ...string) bool {
	for _, e := range r.reported()[before:] {
		all := true
		for _, p := range parts {
			all = all && strings.Contains(e, p)
		}
		if all {
			return true
		}
	}
	return false
}

// timeout bounds each wait of a test.
func timeout(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// open opens a discordgo session against srv and closes it when the test ends. Handlers
// are added before opening so none of the first events is missed.
func open(t testing.TB, srv *Server, handlers ...any) *discordgo.Session {
	t.Helper()
	ds := srv.NewSession()
	for _, h := range handlers {
		ds.AddHandler(h)
	}
	if err := ds.Open(); err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { ds.Close() })
	return ds
}

// receive waits for a value on ch.
func receive[T any](t testing.TB, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(15 * time.Second):
		t.Fatalf("timed out waiting for %s", what)
	}
	var zero T
	return zero
}

// restCode returns the Discord error code of a discordgo REST error, or -1.
func restCode(err error) int {
	var re *discordgo.RESTError
	if errors.As(err, &re) && re.Message != nil {
		return re.Message.Code
	}
	return -1
}

// testCommands is a small command set like the bot's.
func testCommands() []*discordgo.ApplicationCommand {
	admin := int64(discordgo.PermissionManageServer)
	minRating, one := float64(0), 1
	return []*discordgo.ApplicationCommand{
		{
			Name: "move", Description: "Play a move in this thread's game",
			Options: []*discordgo.ApplicationCommandOption{
				{Type: discordgo.ApplicationCommandOptionString, Name: "move", Description: "The move, e.g. e2e4", Required: true, Autocomplete: true, MinLength: &one},
				{Type: discordgo.ApplicationCommandOptionInteger, Name: "game", Description: "Game number", MinValue: &minRating},
			},
		},
		{
			Name: "challenge", Description: "Challenge someone to a game",
			Options: []*discordgo.ApplicationCommandOption{
				{Type: discordgo.ApplicationCommandOptionUser, Name: "opponent", Description: "Who to play", Required: true},
				{Type: discordgo.ApplicationCommandOptionString, Name: "variant", Description: "Which variant", Required: true,
					Choices: []*discordgo.ApplicationCommandOptionChoice{{Name: "Gothic Chess", Value: "gothic"}, {Name: "Gess", Value: "gess"}}},
			},
		},
		{
			Name: "settings", Description: "Server settings", DefaultMemberPermissions: &admin,
			Options: []*discordgo.ApplicationCommandOption{
				{Type: discordgo.ApplicationCommandOptionSubCommand, Name: "channel", Description: "Where games go",
					Options: []*discordgo.ApplicationCommandOption{
						{Type: discordgo.ApplicationCommandOptionChannel, Name: "channel", Description: "The channel", Required: true,
							ChannelTypes: []discordgo.ChannelType{discordgo.ChannelTypeGuildText}},
					}},
			},
		},
	}
}

// register registers testCommands for the first guild.
func register(t testing.TB, srv *Server, ds *discordgo.Session) []*discordgo.ApplicationCommand {
	t.Helper()
	cmds, err := ds.ApplicationCommandBulkOverwrite(srv.ApplicationID(), srv.Guild().ID, testCommands())
	if err != nil {
		t.Fatalf("ApplicationCommandBulkOverwrite: %v", err)
	}
	return cmds
}

// command is an application command with the contexts and integration_types of
// Discord's application command object (0 guild, 1 bot DM, 2 private channel; 0
// guild install, 1 user install), which discordgo v0.28.1's ApplicationCommand
// leaves out; the adapter's discord.Command does the same.
type command struct {
	discordgo.ApplicationCommand
	Contexts         *[]int `json:"contexts,omitempty"`
	IntegrationTypes *[]int `json:"integration_types,omitempty"`
}

// overwriteCommands replaces the commands of guild ("" globally) with cmds, as discordgo's
// ApplicationCommandBulkOverwrite does, through the generic request API, since that
// method's ApplicationCommand would drop contexts and integration_types.
func overwriteCommands(ds *discordgo.Session, app, guild string, cmds []*command) error {
	endpoint := discordgo.EndpointApplicationGlobalCommands(app)
	if guild != "" {
		endpoint = discordgo.EndpointApplicationGuildCommands(app, guild)
	}
	_, err := ds.RequestWithBucketID("PUT", endpoint, cmds, endpoint)
	return err
}
