package discord

import (
	"github.com/bwmarrin/discordgo"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/challenges"
	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/bot/matches"
	"github.com/missivechess/missive/bot/tournaments"
	"github.com/missivechess/missive/bot/words"
)

// permission is a Discord permission the bot needs to run games, with its name as
// Discord's server settings show it in English, and the message of the catalogue
// that names it in the reader's language.
type permission struct {
	bit       int64
	name, key string
}

var (
	permSendMessages  = permission{discordgo.PermissionSendMessages, "Send Messages", "perm.send-messages"}
	permSendInThread  = permission{discordgo.PermissionSendMessagesInThreads, "Send Messages in Threads", "perm.send-in-threads"}
	permAttachFiles   = permission{discordgo.PermissionAttachFiles, "Attach Files", "perm.attach-files"}
	permEmbedLinks    = permission{discordgo.PermissionEmbedLinks, "Embed Links", "perm.embed-links"}
	permManageThreads = permission{discordgo.PermissionManageThreads, "Manage Threads", "perm.manage-threads"}
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
func missingPermissions(i *discordgo.Interaction, ch channelInfo) []permission {
	have := i.AppPermissions
	if i.GuildID == "" || have == 0 || have&discordgo.PermissionAdministrator != 0 {
		return nil // a direct message, or no permissions sent
	}
	need := []permission{permSendMessages}
	if isThread(ch.Type) || have&discordgo.PermissionCreatePublicThreads != 0 {
		need = append(need, permSendInThread)
	}
	need = append(need, permAttachFiles, permEmbedLinks)
	var missing []permission
	for _, p := range need {
		if have&p.bit == 0 {
			missing = append(missing, p)
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
	b.respond(i, bot.Reply{Private: true, Refused: true, Text: setupRefusal(b.askerLang(i), missing)}, kindRun)
	return true
}

// setupRefusal is the sentence refusing to set up games without the missing
// permissions, in language l.
func setupRefusal(l i18n.Lang, missing []permission) string {
	loc := catalogue.For(l)
	names := make([]string, len(missing))
	for i, p := range missing {
		names[i] = loc.T(p.key, nil)
	}
	if len(names) == 1 {
		return loc.T("setup.one", i18n.Data{"Permission": names[0]})
	}
	return loc.T("setup.many", i18n.Data{"Permissions": words.In(l).And(names)})
}
