package discord

import (
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/challenges"
	"github.com/missivechess/missive/bot/matches"
	"github.com/missivechess/missive/bot/tournaments"
)

// permission is a Discord permission the bot needs to run games, with its name as
// Discord's server settings show it.
type permission struct {
	bit  int64
	name string
}

var (
	permSendMessages = permission{discordgo.PermissionSendMessages, "Send Messages"}
	permSendInThread = permission{discordgo.PermissionSendMessagesInThreads, "Send Messages in Threads"}
	permAttachFiles  = permission{discordgo.PermissionAttachFiles, "Attach Files"}
	permEmbedLinks   = permission{discordgo.PermissionEmbedLinks, "Embed Links"}
)

// setsUpGame reports whether req starts games or an event that will: a challenge, its
// acceptance, creating or starting a tournament, starting an engine match.
func setsUpGame(req bot.Request) bool {
	switch req.Command {
	case challenges.CmdChallenge, challenges.CmdAccept:
		return true
	case tournaments.CmdTournament:
		a := req.Args["action"]
		return a == "create" || a == "start"
	case matches.CmdMatch:
		a := req.Args["action"]
		return a == "" || a == "start"
	}
	return false
}

// missingPermissions lists the permissions the bot lacks, among those games need where
// interaction i came from, according to the interaction's app_permissions: posting
// (Send Messages in the channel, or in a forum to open posts), posting in threads when
// games get threads there (Create Public Threads; without it games stay in the
// channel), and showing boards (Attach Files, Embed Links).
func missingPermissions(i *discordgo.Interaction, ch channelInfo) []string {
	have := i.AppPermissions
	if i.GuildID == "" || have == 0 || have&discordgo.PermissionAdministrator != 0 {
		return nil // a direct message, or no permissions sent
	}
	need := []permission{permSendMessages}
	if isThread(ch.Type) || have&discordgo.PermissionCreatePublicThreads != 0 {
		need = append(need, permSendInThread)
	}
	need = append(need, permAttachFiles, permEmbedLinks)
	var missing []string
	for _, p := range need {
		if have&p.bit == 0 {
			missing = append(missing, p.name)
		}
	}
	return missing
}

// refuseSetup refuses, with a sentence naming the missing permissions, a request that
// would set up games where the bot could not deliver them; it reports whether it did.
func (b *Bot) refuseSetup(i *discordgo.Interaction, req bot.Request, ch channelInfo) bool {
	if !setsUpGame(req) {
		return false
	}
	missing := missingPermissions(i, ch)
	if len(missing) == 0 {
		return false
	}
	b.respond(i, bot.Reply{Private: true, Refused: true, Text: setupRefusal(missing)}, kindRun)
	return true
}

// setupRefusal is the sentence refusing to set up games without the missing permissions.
func setupRefusal(missing []string) string {
	names := "the " + missing[0] + " permission"
	if len(missing) > 1 {
		names = "the " + strings.Join(missing[:len(missing)-1], ", ") + " and " + missing[len(missing)-1] + " permissions"
	}
	return "I can't run games here: I lack " + names + " in this channel, so moves and notices could not be posted. " +
		"A server admin can grant them in the channel's settings (Permissions), or you can play in another channel."
}
