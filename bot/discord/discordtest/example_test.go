package discordtest_test

import (
	"context"
	"fmt"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/missivechess/missive/bot/discord/discordtest"
)

// Example starts a fake Discord, connects a real discordgo session to it, registers a
// command, and plays a user running it. In a test, discordtest.New(t, Config{}) does the
// setup and reports failures to t.
func Example() {
	spec, err := discordtest.DefaultSpec() // the repository's copy of Discord's openapi.json
	if err != nil {
		fmt.Println(err)
		return
	}
	srv, err := discordtest.Start(discordtest.Config{
		Spec:   spec,
		Report: func(msg string) { fmt.Println("FAIL", msg) },
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer srv.Close()

	ds := srv.NewSession() // REST client and gateway dialer go to the fake only
	ds.AddHandler(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
		s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Content: "Hello, " + i.Member.User.Username + "!"},
		})
	})
	if err := ds.Open(); err != nil {
		fmt.Println(err)
		return
	}
	defer ds.Close()
	_, err = ds.ApplicationCommandBulkOverwrite(srv.ApplicationID(), "", []*discordgo.ApplicationCommand{
		{Name: "hello", Description: "Say hello"},
	})
	if err != nil {
		fmt.Println(err)
		return
	}

	in := srv.Command("alice", "general", "hello")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	reply, err := srv.WaitOriginal(ctx, in, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(reply.Content)
	fmt.Println("intents:", srv.Identifies()[0].Intents == discordgo.IntentsGuilds)
	// Output:
	// Hello, alice!
	// intents: true
}
