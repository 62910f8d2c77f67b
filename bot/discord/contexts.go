package discord

// What Discord's API has that discordgo v0.28.1, the approved release, lacks: the
// contexts and installs of application commands, the context of an interaction and
// the interaction metadata of a message. discordgo v0.29 has them, but is not an
// approved release; so the fields are declared here, sent through discordgo's generic
// request API and read from the raw gateway event. When an approved discordgo has
// them, these give way to its ApplicationCommand.Contexts and IntegrationTypes,
// Interaction.Context and Message.InteractionMetadata.

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/bwmarrin/discordgo"
)

// InteractionContextType is where an interaction was triggered, or where a command
// may be used. Discord's documentation ("Interaction Context Types", in Receiving and
// Responding) lists GUILD (0, in servers), BOT_DM (1, in the DM with the app's bot
// user) and PRIVATE_CHANNEL (2, in group DMs and DMs other than the bot's).
// discordgo v0.28.1 has no such type.
type InteractionContextType int

// Discord's interaction context types.
const (
	InteractionContextGuild          InteractionContextType = 0
	InteractionContextBotDM          InteractionContextType = 1
	InteractionContextPrivateChannel InteractionContextType = 2
)

// ApplicationIntegrationType is where an app is installed. Discord's documentation
// ("Application Integration Types", in Application) lists GUILD_INSTALL (0, to
// servers) and USER_INSTALL (1, to users). discordgo v0.28.1 has no such type.
type ApplicationIntegrationType int

// Discord's application integration types.
const (
	ApplicationIntegrationGuildInstall ApplicationIntegrationType = 0
	ApplicationIntegrationUserInstall  ApplicationIntegrationType = 1
)

// Command is an application command as the bot registers it: discordgo's
// ApplicationCommand and the two fields of Discord's application command object that
// discordgo v0.28.1 leaves out. Discord's documentation: contexts are the
// "interaction context(s) where the command can be used", integration_types the
// "installation contexts where the command is available"; both replace the deprecated
// dm_permission, which the bot does not send. The embedded struct's fields are
// encoded as if they were Command's own (it has no MarshalJSON of its own).
type Command struct {
	discordgo.ApplicationCommand
	Contexts         *[]InteractionContextType     `json:"contexts,omitempty"`
	IntegrationTypes *[]ApplicationIntegrationType `json:"integration_types,omitempty"`
}

// bulkOverwriteCommands replaces the app's commands, in guild or (guild "") globally,
// with cmds, as discordgo's ApplicationCommandBulkOverwrite does, on the same route
// and rate-limit bucket; that method takes discordgo v0.28.1's ApplicationCommand,
// which would drop contexts and integration_types, so the body is sent through the
// generic RequestWithBucketID. Discord's documentation ("Bulk Overwrite Global/Guild
// Application Commands") answers with the commands as registered, read here as
// discordgo's ApplicationCommand: the bot keeps only their ids and subcommands.
func bulkOverwriteCommands(ds *discordgo.Session, appID, guild string, cmds []*Command, opts ...discordgo.RequestOption) ([]*discordgo.ApplicationCommand, error) {
	endpoint := discordgo.EndpointApplicationGlobalCommands(appID)
	if guild != "" {
		endpoint = discordgo.EndpointApplicationGuildCommands(appID, guild)
	}
	if cmds == nil {
		cmds = []*Command{} // Discord wants an array, never null
	}
	body, err := ds.RequestWithBucketID("PUT", endpoint, cmds, endpoint, opts...)
	if err != nil {
		return nil, err
	}
	var got []*discordgo.ApplicationCommand
	if err := json.Unmarshal(body, &got); err != nil {
		return nil, fmt.Errorf("discord: reading the registered commands: %w", err)
	}
	return got, nil
}

// requestRaw sends body, of contentType, to urlStr on discordgo's rate-limit bucket
// for the route: what discordgo v0.29's Session.RequestRaw does. discordgo v0.28.1
// keeps that method unexported (request), so the bucket is locked here and the body
// handed to the exported RequestWithLockedBucket, which releases the bucket, waits out
// a 429 and retries a 502 as Session.Request does.
func requestRaw(ds *discordgo.Session, method, urlStr, contentType string, body []byte, opts ...discordgo.RequestOption) ([]byte, error) {
	bucketID := strings.SplitN(urlStr, "?", 2)[0]
	return ds.RequestWithLockedBucket(method, urlStr, contentType, body, ds.Ratelimiter.LockBucket(bucketID), 0, opts...)
}

// rawInteraction is what an INTERACTION_CREATE payload carries that discordgo
// v0.28.1's Interaction leaves out:
//   - channel, the partial channel object (its type and, for a thread, its parent),
//     which no discordgo release decodes;
//   - context, Discord's "context where the interaction was triggered from" (an
//     interaction context type), which discordgo v0.29 decodes as Interaction.Context;
//   - authorizing_integration_owners, which says whether the app is installed in the
//     interaction's server (key "0") or only for the user (key "1");
//   - message.interaction_metadata.id: Discord's message object says interaction
//     ("sent if the message is a response to an interaction") is deprecated in favour
//     of interaction_metadata, whose id is the ID of the interaction the message
//     answers; discordgo v0.28.1 decodes only the deprecated field, which Discord (and
//     the fake) may leave out.
type rawInteraction struct {
	Channel *channelInfo            `json:"channel"`
	Context *InteractionContextType `json:"context"`
	// Owners is authorizing_integration_owners: the installs the interaction was
	// authorized for, keyed by integration type ("0" the server, "1" the user).
	Owners  map[string]string `json:"authorizing_integration_owners"`
	Message *struct {
		InteractionMetadata *struct {
			ID string `json:"id"`
		} `json:"interaction_metadata"`
	} `json:"message"`
}

// readInteraction reads from the raw INTERACTION_CREATE payload what discordgo
// v0.28.1 leaves out of i (see rawInteraction): it returns the channel, with the
// interaction's context, and records the interaction metadata's id of the message a
// component is on in i.Message.Interaction when discordgo left that empty (the two
// carry the same interaction's ID), so that the rest of the adapter finds it where
// discordgo puts it.
func readInteraction(raw json.RawMessage, i *discordgo.Interaction) channelInfo {
	var p rawInteraction
	if json.Unmarshal(raw, &p) != nil {
		return channelInfo{}
	}
	var ch channelInfo
	if p.Channel != nil {
		ch = *p.Channel
		ch.known = true
	}
	if p.Context != nil {
		ch.context = *p.Context
	}
	if p.Owners != nil {
		_, guild := p.Owners[strconv.Itoa(int(ApplicationIntegrationGuildInstall))]
		ch.userInstallOnly = !guild
	}
	if i != nil && i.Message != nil && i.Message.Interaction == nil && p.Message != nil &&
		p.Message.InteractionMetadata != nil && p.Message.InteractionMetadata.ID != "" {
		i.Message.Interaction = &discordgo.MessageInteraction{ID: p.Message.InteractionMetadata.ID}
	}
	return ch
}

// outsideServer turns interaction i from a server the app is not installed in (its
// authorizing_integration_owners hold only the user install: the user runs a
// user-installed command where the bot is not a member) into what it is for the bot:
// a private channel, as a group DM. The bot can post nothing in that server, so the
// service plays such games by direct messages, and the interaction is answered
// through its token alone; the member's server permissions mean nothing to the bot
// there. Discord also limits such an interaction to 5 followups
// (https://discord.com/developers/docs/interactions/receiving-and-responding#followup-messages).
func outsideServer(i *discordgo.Interaction, ch *channelInfo) {
	if i.GuildID == "" || !ch.userInstallOnly {
		return
	}
	if i.Member != nil && i.User == nil {
		i.User = i.Member.User
	}
	i.Member, i.GuildID = nil, ""
	*ch = channelInfo{known: true, context: InteractionContextPrivateChannel}
}
