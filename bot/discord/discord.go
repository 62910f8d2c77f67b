package discord

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/bot/views"
)

// Discord's limits on a message: a component's custom id, the action rows of a
// message, and the characters of its embeds together
// (https://discord.com/developers/docs/resources/message#embed-object-embed-limits).
const (
	maxCustomID   = 100
	maxActionRows = 5
	maxEmbedTotal = 6000
)

// shortened ends a description cut to fit Discord's limits, in English (the
// catalogue's "shortened" in other languages: shortenedIn).
const shortened = "\n… (shortened: Discord shows at most 6,000 characters in a message)"

// shortenedIn is shortened in language l, the language of the message it ends.
func shortenedIn(l i18n.Lang) string {
	if l == "" || l == i18n.English {
		return shortened
	}
	return "\n" + catalogue.For(l).T("shortened", nil)
}

// embedLength counts e's characters as Discord does toward the 6,000 of a message.
func embedLength(e *discordgo.MessageEmbed) int {
	n := utf8.RuneCountInString(e.Title) + utf8.RuneCountInString(e.Description)
	for _, f := range e.Fields {
		n += utf8.RuneCountInString(f.Name) + utf8.RuneCountInString(f.Value)
	}
	if e.Footer != nil {
		n += utf8.RuneCountInString(e.Footer.Text)
	}
	if e.Author != nil {
		n += utf8.RuneCountInString(e.Author.Name)
	}
	return n
}

// fitEmbed shortens e to Discord's 6,000-character total: fields beyond half of it go
// first (the last ones), then the description is cut, saying so in language l.
func fitEmbed(e *discordgo.MessageEmbed, l i18n.Lang) {
	if embedLength(e) <= maxEmbedTotal {
		return
	}
	fields := func() int {
		n := 0
		for _, f := range e.Fields {
			n += utf8.RuneCountInString(f.Name) + utf8.RuneCountInString(f.Value)
		}
		return n
	}
	for len(e.Fields) > 0 && fields() > maxEmbedTotal/2 && embedLength(e) > maxEmbedTotal {
		e.Fields = e.Fields[:len(e.Fields)-1]
	}
	if over := embedLength(e) - maxEmbedTotal; over > 0 {
		d := []rune(e.Description)
		suffix := shortenedIn(l)
		keep := max(0, len(d)-over-utf8.RuneCountInString(suffix))
		e.Description = strings.TrimSpace(string(d[:keep]) + suffix)
	}
}

// Options configure a Bot.
type Options struct {
	// Token is the bot token (without the "Bot " prefix).
	Token string
	// Guilds, when not empty, are the servers the commands are registered to (fast to
	// update while developing); empty registers them globally.
	Guilds []string
	// Shards is how many gateway shards the bot runs, all in this process over one
	// service (0 or 1: no sharding). Discord requires sharding from 2,500 servers.
	Shards int
	// IdentifyEvery is the pause between opening shards beyond Discord's max_concurrency
	// (default 5s: Discord allows max_concurrency IDENTIFYs per 5 seconds).
	IdentifyEvery time.Duration
	// Logger receives structured logs (default slog.Default()).
	Logger *slog.Logger
	// HTTPClient and Dialer replace discordgo's (tests point them at a fake Discord).
	HTTPClient *http.Client
	Dialer     *websocket.Dialer
	// DeferAfter is how long a request may run before the interaction is deferred
	// (default 1.5s, well inside Discord's 3 seconds).
	DeferAfter time.Duration
	// Observe, when set, is told of every handled interaction: the command, how long it
	// took and whether it failed (for metrics).
	Observe func(command string, took time.Duration, failed bool)
	// ObserveLocale, when set, is told the locale of every interaction handled (the
	// user's client language, as Discord spells it), for metrics.
	ObserveLocale func(locale string)
}

// Bot connects the play service to Discord: it registers the commands, answers
// interactions and delivers notifications. It implements bot.Notifier.
type Bot struct {
	opts   Options
	ds     *discordgo.Session   // shard 0; REST calls go through it
	shards []*discordgo.Session // one gateway session per shard, shards[0] == ds
	log    *slog.Logger

	mu       sync.Mutex
	svc      *bot.Service
	seen     map[string]time.Time // interaction ids and notification keys handled
	noThread map[string]bool      // channels where the fallback was announced
	prompts  map[string]string    // confirmation questions and modal labels by custom id
	threads  map[string]*threadSlot
	topics   map[string][]posted // messages with buttons about a Reply.Topic
	// ids are the registered commands, for command mentions: the global ones, or
	// those of the first configured guild.
	ids      commandIDs
	failures map[FailureKind]int64 // failed requests to Discord, by kind

	gw       *gatewayWatch        // reports the gateway connection to the service
	watching bool                 // the watcher runs
	closing  bool                 // Shutdown began: no new interactions
	inflight sync.WaitGroup       // interactions being handled
	fullSaid map[string]time.Time // channels told that the server's threads are full
	// closed are threads that exist but take no messages from the bot (see closedThread),
	// and adminsTold the servers whose owner was told why, by server and permission.
	closed     map[string]closedThread
	adminsTold map[string]bool
	// threadsDenied are channels that refused the bot a thread (50013) since their
	// settings last changed, and dmClosed the users whose direct messages refused it
	// (50007), with when.
	threadsDenied map[string]bool
	dmClosed      map[string]time.Time
	places        placeState // servers and channels gone (gone.go)
	// made are the threads this process created: never orphans (orphan.go).
	made map[string]bool
}

// New returns a Bot with one discordgo session per shard, asking only for the Guilds
// intent. The sessions share their handlers, HTTP client and rate limiter; Discord
// routes each server's events to one shard and direct messages to shard 0, so every
// shard must run in the process that holds the service.
func New(opts Options) (*Bot, error) {
	if opts.Token == "" {
		return nil, errors.New("discord: no bot token")
	}
	if opts.Shards < 0 {
		return nil, fmt.Errorf("discord: %d shards", opts.Shards)
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.DeferAfter <= 0 {
		opts.DeferAfter = 1500 * time.Millisecond
	}
	if opts.IdentifyEvery <= 0 {
		opts.IdentifyEvery = 5 * time.Second
	}
	b := &Bot{opts: opts, log: opts.Logger, seen: map[string]time.Time{}, noThread: map[string]bool{}, prompts: map[string]string{}, threads: map[string]*threadSlot{}, topics: map[string][]posted{}, failures: map[FailureKind]int64{},
		closed: map[string]closedThread{}, adminsTold: map[string]bool{}, threadsDenied: map[string]bool{}, dmClosed: map[string]time.Time{},
		places: placeState{removed: map[string]bool{}, unavailable: map[string]bool{}, deleted: map[string]bool{}}, made: map[string]bool{}}
	for id := 0; id < max(opts.Shards, 1); id++ {
		ds, err := discordgo.New("Bot " + opts.Token)
		if err != nil {
			return nil, fmt.Errorf("discord: %w", err)
		}
		ds.Identify.Intents = discordgo.IntentsGuilds
		if opts.Shards > 1 {
			ds.ShardID, ds.ShardCount = id, opts.Shards
		}
		if opts.HTTPClient != nil {
			ds.Client = opts.HTTPClient
		}
		if opts.Dialer != nil {
			ds.Dialer = opts.Dialer
		}
		if id > 0 {
			// One application, one set of REST rate limits.
			ds.Client, ds.Ratelimiter = b.ds.Client, b.ds.Ratelimiter
		} else {
			b.ds = ds
		}
		ds.AddHandler(b.onEvent)
		ds.AddHandler(b.onChannelUpdate)
		ds.AddHandler(b.onThreadUpdate)
		ds.AddHandler(b.onGuildDelete)
		ds.AddHandler(b.onGuildCreate)
		ds.AddHandler(b.onChannelDelete)
		ds.AddHandler(b.onThreadDelete)
		b.shards = append(b.shards, ds)
	}
	b.gw = newGatewayWatch(b.shards...)
	return b, nil
}

// Session returns the bot's discordgo session of shard 0, through which it calls REST.
func (b *Bot) Session() *discordgo.Session { return b.ds }

// Attach sets the service the bot drives; call it before Open.
func (b *Bot) Attach(svc *bot.Service) {
	b.mu.Lock()
	b.svc = svc
	b.mu.Unlock()
}

func (b *Bot) service() *bot.Service {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.svc
}

// Open connects every shard to the gateway, pacing them as Discord's max_concurrency
// asks, and registers the commands once with one bulk overwrite (per configured guild,
// or globally).
func (b *Bot) Open(ctx context.Context) error {
	if b.service() == nil {
		return errors.New("discord: Open before Attach")
	}
	b.mu.Lock()
	if !b.watching {
		b.watching = true
		go b.watchGateway()
	}
	b.mu.Unlock()
	if err := b.openShards(ctx); err != nil {
		return err
	}
	appID := b.ds.State.User.ID
	if b.ds.State.Application != nil && b.ds.State.Application.ID != "" {
		appID = b.ds.State.Application.ID
	}
	cmds := ApplicationCommands(b.service().Commands())
	guilds := b.opts.Guilds
	if len(guilds) == 0 {
		guilds = []string{""}
	}
	for i, g := range guilds {
		got, err := bulkOverwriteCommands(b.ds, appID, g, cmds, discordgo.WithContext(ctx))
		if err != nil {
			b.Close()
			return fmt.Errorf("discord: registering commands (guild %q): %w", g, err)
		}
		if i == 0 {
			b.mu.Lock()
			b.ids = idsOf(got)
			b.mu.Unlock()
		}
	}
	b.log.Info("discord: connected", "user", b.ds.State.User.Username, "shards", len(b.shards), "commands", len(cmds), "guilds", len(b.opts.Guilds))
	return nil
}

// openShards opens the shards' sessions in order: max_concurrency of them at a time
// (Discord's session_start_limit), then a pause of IdentifyEvery.
func (b *Bot) openShards(ctx context.Context) error {
	batch := 1
	if len(b.shards) > 1 {
		if gb, err := b.ds.GatewayBot(discordgo.WithContext(ctx)); err == nil && gb.SessionStartLimit.MaxConcurrency > 1 {
			batch = gb.SessionStartLimit.MaxConcurrency
		}
	}
	for id, ds := range b.shards {
		if id > 0 && id%batch == 0 {
			select {
			case <-time.After(b.opts.IdentifyEvery):
			case <-ctx.Done():
				b.Close()
				return fmt.Errorf("discord: opening shard %d: %w", id, ctx.Err())
			}
		}
		if err := ds.Open(); err != nil {
			b.Close()
			return fmt.Errorf("discord: connecting shard %d to the gateway: %w", id, err)
		}
	}
	return nil
}

// Close disconnects every shard from the gateway.
func (b *Bot) Close() error {
	b.stopWatch()
	// discordgo waits a second for each close frame: close them side by side.
	errs := make([]error, len(b.shards))
	var wg sync.WaitGroup
	for i, ds := range b.shards {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = ds.Close()
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// contextTypes are Discord's interaction context types for the service's contexts.
var contextTypes = map[bot.Context]InteractionContextType{
	bot.ContextGuild:          InteractionContextGuild,
	bot.ContextBotDM:          InteractionContextBotDM,
	bot.ContextPrivateChannel: InteractionContextPrivateChannel,
}

// integrationTypes are Discord's application integration types for the service's
// integrations.
var integrationTypes = map[bot.Integration]ApplicationIntegrationType{
	bot.IntegrationGuild: ApplicationIntegrationGuildInstall,
	bot.IntegrationUser:  ApplicationIntegrationUserInstall,
}

// ApplicationCommands turns the service's command specs into Discord slash commands,
// with the contexts and installs each is offered in (which replace the deprecated
// dm_permission) and a command's subcommands as type-1 options; commands reached
// only through buttons are left out. They are Commands, since discordgo v0.28.1's
// ApplicationCommand has no contexts and installs.
func ApplicationCommands(specs []bot.CommandSpec) []*Command {
	var out []*Command
	for _, c := range specs {
		if c.Button {
			continue
		}
		ac := &Command{ApplicationCommand: discordgo.ApplicationCommand{Name: c.Name, Description: clip(c.Description, 100)}}
		if names := localizations(c.NameIn, 0); len(names) > 0 {
			ac.NameLocalizations = &names
		}
		if descs := localizations(c.DescriptionIn, 100); len(descs) > 0 {
			ac.DescriptionLocalizations = &descs
		}
		contexts := make([]InteractionContextType, 0, 3)
		for _, w := range c.Where() {
			contexts = append(contexts, contextTypes[w])
		}
		installs := make([]ApplicationIntegrationType, 0, 2)
		for _, in := range c.Installs() {
			installs = append(installs, integrationTypes[in])
		}
		ac.Contexts, ac.IntegrationTypes = &contexts, &installs
		if c.Admin {
			// Shown only to members who may manage the server; the service checks again.
			perms := int64(discordgo.PermissionManageServer) // MANAGE_GUILD; v0.29 renames it PermissionManageGuild
			ac.DefaultMemberPermissions = &perms
		}
		if len(c.Subcommands) > 0 {
			for _, sc := range c.Subcommands {
				ac.Options = append(ac.Options, &discordgo.ApplicationCommandOption{
					Type: discordgo.ApplicationCommandOptionSubCommand, Name: sc.Name, Description: clip(sc.Description, 100),
					NameLocalizations: localizations(sc.NameIn, 0), DescriptionLocalizations: localizations(sc.DescriptionIn, 100),
					Options: commandOptions(sc.Options)})
			}
		} else {
			ac.Options = commandOptions(c.Options)
		}
		out = append(out, ac)
	}
	return out
}

// localizations turns a text's translations into Discord's localisations, keyed by
// every Discord locale of each language (Spanish serves es-ES and es-419), each
// clipped to limit characters as the English is (0: a name, never clipped, which
// Discord refuses whole when it does not fit); nil when there are none.
func localizations(t bot.Texts, limit int) map[discordgo.Locale]string {
	if len(t) == 0 {
		return nil
	}
	out := map[discordgo.Locale]string{}
	for lang, s := range t {
		for _, loc := range lang.DiscordLocales() {
			if limit > 0 {
				s = clip(s, limit)
			}
			out[discordgo.Locale(loc)] = s
		}
	}
	return out
}

// commandOptions turns option specs into Discord options, the required ones first
// as Discord wants.
func commandOptions(specs []bot.OptionSpec) []*discordgo.ApplicationCommandOption {
	var all []*discordgo.ApplicationCommandOption
	for _, o := range specs {
		opt := &discordgo.ApplicationCommandOption{
			Name: o.Name, Description: clip(o.Description, 100), Required: o.Required,
			NameLocalizations: localizations(o.NameIn, 0), DescriptionLocalizations: localizations(o.DescriptionIn, 100),
			Autocomplete: o.Autocomplete && len(o.Choices) == 0,
		}
		switch o.Type {
		case bot.OptInteger:
			opt.Type = discordgo.ApplicationCommandOptionInteger
		case bot.OptBoolean:
			opt.Type = discordgo.ApplicationCommandOptionBoolean
		case bot.OptUser:
			opt.Type = discordgo.ApplicationCommandOptionUser
		default:
			opt.Type = discordgo.ApplicationCommandOptionString
		}
		for i, ch := range o.Choices {
			if i == 25 {
				break
			}
			var v any = ch.Value
			if opt.Type == discordgo.ApplicationCommandOptionInteger {
				n, err := strconv.Atoi(ch.Value)
				if err != nil {
					continue
				}
				v = n
			}
			opt.Choices = append(opt.Choices, &discordgo.ApplicationCommandOptionChoice{Name: clip(ch.Name, 100), Value: v,
				NameLocalizations: localizations(ch.NameIn, 100)})
		}
		if o.Bounded() && opt.Type == discordgo.ApplicationCommandOptionInteger && len(opt.Choices) == 0 {
			lo := float64(o.Min)
			opt.MinValue, opt.MaxValue = &lo, float64(o.Max)
		}
		if o.MaxLength > 0 && opt.Type == discordgo.ApplicationCommandOptionString && len(opt.Choices) == 0 {
			opt.MaxLength = o.MaxLength
		}
		all = append(all, opt)
	}
	var req, rest []*discordgo.ApplicationCommandOption
	for _, o := range all {
		if o.Required {
			req = append(req, o)
		} else {
			rest = append(rest, o)
		}
	}
	return append(req, rest...)
}

// once reports whether key is new, remembering it for an hour.
func (b *Bot) once(key string) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if _, ok := b.seen[key]; ok {
		return false
	}
	b.markLocked(key)
	return true
}

// delivered reports whether key was marked by markDelivered within the hour.
func (b *Bot) delivered(key string) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	_, ok := b.seen[key]
	return ok
}

// markDelivered remembers key for an hour.
func (b *Bot) markDelivered(key string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.markLocked(key)
}

// markLocked remembers key for an hour, forgetting older keys; b.mu is held.
func (b *Bot) markLocked(key string) {
	now := time.Now()
	if len(b.seen) > 10000 {
		for k, t := range b.seen {
			if now.Sub(t) > time.Hour {
				delete(b.seen, k)
			}
		}
	}
	b.seen[key] = now
}

// channelInfo is what an interaction says of its channel: its type and, for a thread,
// its parent (known: the payload had them), and the interaction's context (a server,
// the bot's DM or another private channel). readInteraction reads them from the raw
// payload, since discordgo v0.28.1's Interaction has neither.
type channelInfo struct {
	Type     discordgo.ChannelType `json:"type"`
	ParentID string                `json:"parent_id"`
	known    bool
	context  InteractionContextType
	// userInstallOnly: the app is installed for the user only, not in the server.
	userInstallOnly bool
}

func isThread(t discordgo.ChannelType) bool {
	switch t {
	case discordgo.ChannelTypeGuildPublicThread, discordgo.ChannelTypeGuildPrivateThread, discordgo.ChannelTypeGuildNewsThread:
		return true
	}
	return false
}

func isForum(t discordgo.ChannelType) bool {
	return t == discordgo.ChannelTypeGuildForum || t == discordgo.ChannelTypeGuildMedia
}

// onEvent handles INTERACTION_CREATE from the raw event, which carries the channel's
// kind, so that no request to Discord comes before the deferral timer starts, and the
// interaction's context, which discordgo v0.28.1 does not decode (see readInteraction).
func (b *Bot) onEvent(s *discordgo.Session, e *discordgo.Event) {
	if e.Type == "READY" {
		b.onReady(s, e)
		return
	}
	if e.Type != "INTERACTION_CREATE" {
		return
	}
	ic, ok := e.Struct.(*discordgo.InteractionCreate)
	if !ok || ic.Interaction == nil {
		return
	}
	ch := readInteraction(e.RawData, ic.Interaction)
	outsideServer(ic.Interaction, &ch)
	b.onInteraction(s, ic, time.Now(), ch)
}

func (b *Bot) onInteraction(s *discordgo.Session, ic *discordgo.InteractionCreate, arrived time.Time, ch channelInfo) {
	i := ic.Interaction
	if !b.enter() {
		b.refuseClosing(i)
		return
	}
	defer b.inflight.Done()
	if !b.once("i:" + i.ID) {
		b.log.Info("discord: interaction delivered twice, ignored", "id", i.ID)
		return
	}
	start := time.Now()
	command := ""
	failed := false
	defer func() {
		if r := recover(); r != nil {
			failed = true
			b.log.Error("discord: panic in interaction", "id", i.ID, "panic", r, "stack", string(debug.Stack()))
			_ = s.InteractionRespond(i, &discordgo.InteractionResponse{
				Type: discordgo.InteractionResponseChannelMessageWithSource,
				Data: &discordgo.InteractionResponseData{Content: catalogue.For(clientLang(i)).T("error.internal", nil), Flags: discordgo.MessageFlagsEphemeral},
			})
		}
		if b.opts.Observe != nil && command != "" {
			b.opts.Observe(command, time.Since(start), failed)
		}
		if b.opts.ObserveLocale != nil && command != "" {
			b.opts.ObserveLocale(string(i.Locale))
		}
	}()
	switch i.Type {
	case discordgo.InteractionApplicationCommandAutocomplete:
		command = "autocomplete"
		b.autocomplete(i, ch)
	case discordgo.InteractionApplicationCommand:
		req := b.request(i, ch)
		data := i.ApplicationCommandData()
		req.Command = data.Name
		for _, o := range optionsOf(data.Options, req.Args) {
			req.Args[o.Name] = optionText(o)
			if o.Type == discordgo.ApplicationCommandOptionUser && data.Resolved != nil {
				if u, ok := data.Resolved.Users[fmt.Sprint(o.Value)]; ok {
					req.Names[u.ID] = displayName(u)
				}
			}
		}
		command = req.Command
		if b.refuseSetup(i, req, ch) {
			failed = true
			return
		}
		spec, _ := b.service().Spec(req.Command)
		failed = b.run(i, req, spec.Private, arrived, kindRun) // a deferred answer starts private when the command's answer is
	case discordgo.InteractionMessageComponent:
		data := i.MessageComponentData()
		a, err := decodeID(data.CustomID)
		if err != nil {
			command = "component"
			failed = true
			b.respond(i, bot.Reply{Private: true, Refused: true, Text: catalogue.For(b.askerLang(i)).T("button.stale", nil)}, kindRun)
			return
		}
		command = a.command
		switch a.kind {
		case kindConfirm:
			confirm := a
			confirm.kind = kindRun
			loc := catalogue.For(b.askerLang(i))
			b.respond(i, bot.Reply{Private: true, Text: b.prompt(data.CustomID, loc.T("confirm.ask", i18n.Data{"Command": a.command}))}, kindRun,
				button(confirm, loc.T("confirm.yes", nil), discordgo.DangerButton))
			return
		case kindModal:
			b.openModal(i, a, ch)
			return
		case kindSelect:
			if len(data.Values) > 0 {
				a.args[a.input] = data.Values[0]
			}
		}
		req := b.request(i, ch)
		req.Command = a.command
		for k, v := range a.args {
			req.Args[k] = v
		}
		if b.refuseSetup(i, req, ch) {
			failed = true
			return
		}
		failed = b.run(i, req, false, arrived, a.kind)
	case discordgo.InteractionModalSubmit:
		data := i.ModalSubmitData()
		a, err := decodeID(data.CustomID)
		if err != nil {
			return
		}
		command = a.command
		req := b.request(i, ch)
		req.Command = a.command
		for k, v := range a.args {
			req.Args[k] = v
		}
		req.Args[a.input] = modalValue(data.Components, a.input)
		if b.refuseSetup(i, req, ch) {
			failed = true
			return
		}
		failed = b.run(i, req, false, arrived, kindRun)
	}
}

// optionsOf returns the options of an interaction's command, those of its
// subcommand when it has one, whose name goes to args under bot.SubcommandArg.
func optionsOf(opts []*discordgo.ApplicationCommandInteractionDataOption, args bot.Args) []*discordgo.ApplicationCommandInteractionDataOption {
	if len(opts) == 1 && opts[0].Type == discordgo.ApplicationCommandOptionSubCommand {
		args[bot.SubcommandArg] = opts[0].Name
		return opts[0].Options
	}
	return opts
}

func optionText(o *discordgo.ApplicationCommandInteractionDataOption) string {
	switch v := o.Value.(type) {
	case float64:
		return strconv.FormatInt(int64(v), 10)
	case bool:
		return strconv.FormatBool(v)
	case string:
		return v
	default:
		return fmt.Sprint(v)
	}
}

func displayName(u *discordgo.User) string {
	if u.GlobalName != "" {
		return u.GlobalName
	}
	return u.Username
}

// request returns the service request for interaction i in channel ch, without command
// and options; it asks Discord nothing.
func (b *Bot) request(i *discordgo.Interaction, ch channelInfo) bot.Request {
	u := i.User
	if i.Member != nil && i.Member.User != nil {
		u = i.Member.User
	}
	req := bot.Request{ID: i.ID, Args: bot.Args{}, Names: map[string]string{}, Locale: string(i.Locale)}
	if i.GuildLocale != nil {
		req.GuildLocale = string(*i.GuildLocale) // sent in a server only
	}
	if u != nil {
		req.User = bot.User{ID: u.ID, Name: displayName(u)}
		if i.Member != nil && i.Member.Nick != "" {
			req.User.Name = i.Member.Nick
		}
		// Discord computes the member's permissions in the channel; the service
		// checks admin commands against them.
		req.Admin = i.Member != nil && i.Member.Permissions&(discordgo.PermissionManageServer|discordgo.PermissionAdministrator) != 0
		req.Names[u.ID] = req.User.Name
	}
	req.Place = bot.Place{Guild: i.GuildID, Channel: i.ChannelID}
	switch {
	case i.GuildID != "":
		req.Context = bot.ContextGuild
	case ch.context == InteractionContextPrivateChannel: // read from the raw event (see rawInteraction)
		req.Context = bot.ContextPrivateChannel
	default:
		req.Context = bot.ContextBotDM
	}
	if i.GuildID == "" {
		return req // a direct message
	}
	if !ch.known {
		// Discord sends the channel with every interaction; the state is the fallback.
		ch = b.stateChannel(i.ChannelID)
	}
	if isThread(ch.Type) && ch.ParentID != "" {
		req.Place.Channel, req.Place.Thread = ch.ParentID, i.ChannelID
	}
	return req
}

// stateChannel returns what the shards' states know of a guild channel or thread
// (each shard's state holds the servers of that shard). It reads under each state's
// lock, since discordgo updates channels in place.
func (b *Bot) stateChannel(id string) channelInfo {
	for _, ds := range b.shards {
		if c, ok := stateChannel(ds.State, id); ok {
			return c
		}
	}
	return channelInfo{}
}

// stateChannel returns what st knows of channel id.
func stateChannel(st *discordgo.State, id string) (channelInfo, bool) {
	st.RLock()
	defer st.RUnlock()
	for _, g := range st.Guilds {
		for _, list := range [][]*discordgo.Channel{g.Channels, g.Threads} {
			for _, c := range list {
				if c.ID == id {
					return channelInfo{Type: c.Type, ParentID: c.ParentID, known: true}, true
				}
			}
		}
	}
	return channelInfo{}, false
}

// channelType returns the type of a guild channel from the state (0 when unknown).
func (b *Bot) channelType(id string) discordgo.ChannelType { return b.stateChannel(id).Type }

func (b *Bot) autocomplete(i *discordgo.Interaction, ch channelInfo) {
	data := i.ApplicationCommandData()
	req := b.request(i, ch)
	req.Command = data.Name
	focused, typed := "", ""
	for _, o := range optionsOf(data.Options, req.Args) {
		if o.Focused {
			focused, typed = o.Name, fmt.Sprint(o.Value)
			continue
		}
		req.Args[o.Name] = optionText(o)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	var choices []*discordgo.ApplicationCommandOptionChoice
	for _, c := range b.service().Complete(ctx, req, focused, typed) {
		if len(choices) == 25 {
			break
		}
		if c.Value == "" || len(c.Value) > 100 {
			continue
		}
		name := c.Label
		if c.Description != "" {
			name += " — " + c.Description
		}
		if name == "" {
			name = c.Value
		}
		choices = append(choices, &discordgo.ApplicationCommandOptionChoice{Name: clip(name, 100), Value: c.Value})
	}
	if choices == nil {
		choices = []*discordgo.ApplicationCommandOptionChoice{}
	}
	if err := b.ds.InteractionRespond(i, &discordgo.InteractionResponse{
		Type: discordgo.InteractionApplicationCommandAutocompleteResult,
		Data: &discordgo.InteractionResponseData{Choices: choices},
	}); err != nil {
		b.failed(err)
		b.log.Warn("discord: autocomplete answer failed", "error", err)
	}
}

// run handles req for interaction i (a press of a button of kind, or kindRun), which
// arrived at arrived, answering at once when the service is quick and deferring
// otherwise (DeferAfter after arrival); it reports whether the request failed or was
// refused.
func (b *Bot) run(i *discordgo.Interaction, req bot.Request, private bool, arrived time.Time, kind string) bool {
	ctx, cancel := context.WithTimeout(context.Background(), 14*time.Minute)
	defer cancel()
	done := make(chan bot.Reply, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				b.log.Error("discord: panic in service", "panic", r, "stack", string(debug.Stack()))
				done <- bot.Reply{Private: true, Refused: true, Text: catalogue.For(b.askerLang(i)).T("error.retry", nil)}
			}
		}()
		done <- b.service().Handle(ctx, req)
	}()
	var reply bot.Reply
	answered := false
	// A request that has already waited DeferAfter (queued behind others) is
	// deferred at once, whatever the service does meanwhile.
	if wait := b.opts.DeferAfter - time.Since(arrived); wait > 0 {
		timer := time.NewTimer(wait)
		select {
		case reply = <-done:
			answered = true
		case <-timer.C:
		}
		timer.Stop()
	}
	if answered {
		b.respond(i, reply, kind)
	} else {
		deferred := &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource}
		switch {
		case kind == kindAnswer:
			// The answer may replace the message the button is on.
			deferred.Type = discordgo.InteractionResponseDeferredMessageUpdate
		case private:
			deferred.Data = &discordgo.InteractionResponseData{Flags: discordgo.MessageFlagsEphemeral}
		default:
			deferred.Data = &discordgo.InteractionResponseData{}
		}
		err := b.ds.InteractionRespond(i, deferred)
		if err != nil {
			b.failed(err)
			b.log.Warn("discord: deferring failed", "error", err)
		}
		reply = <-done
		if err != nil {
			b.fallback(i, reply)
		} else {
			b.complete(i, reply, private, kind)
		}
	}
	if reply.Started != nil {
		b.openThread(i, reply)
	}
	return reply.Refused
}

// respond answers i, a press of a button of kind (or kindRun), at once with reply and
// any extra buttons: in place of the pressed message when the reply answers it.
func (b *Bot) respond(i *discordgo.Interaction, r bot.Reply, kind string, extra ...discordgo.MessageComponent) {
	m := b.message(r)
	if len(extra) > 0 {
		if len(m.components) >= maxActionRows {
			m.components = m.components[:maxActionRows-1]
		}
		m.components = append(m.components, discordgo.ActionsRow{Components: extra})
	}
	data := &discordgo.InteractionResponseData{
		Content: m.content, Embeds: m.embeds, Components: m.components, Files: m.files,
		AllowedMentions: m.mentions,
	}
	if r.Private {
		data.Flags = discordgo.MessageFlagsEphemeral
	}
	typ, inPlace := discordgo.InteractionResponseChannelMessageWithSource, replaces(i, r, kind)
	var replaced *discordgo.Message
	if inPlace {
		typ, replaced = discordgo.InteractionResponseUpdateMessage, i.Message
	} else {
		b.rememberOriginal(i, r, m)
	}
	if err := b.interactionRespond(i, &discordgo.InteractionResponse{Type: typ, Data: data}, m); err != nil {
		b.failed(err)
		b.log.Warn("discord: answering an interaction failed", "error", err)
		if code(err) != discordgo.ErrCodeInteractionHasAlreadyBeenAcknowledged {
			b.fallback(i, r)
		}
		return
	}
	b.shown(i, r, i.ChannelID, nil, m, replaced)
}

// fallback delivers the answer to interaction i outside the interaction, when Discord
// refused or lost the answer: a public answer is posted in the channel with a mention
// of the user, a private one goes to the user's direct messages.
func (b *Bot) fallback(i *discordgo.Interaction, r bot.Reply) {
	user := b.request(i, channelInfo{}).User
	if r.Private && i.GuildID != "" {
		if user.ID == "" {
			return
		}
		dm, err := b.ds.UserChannelCreate(user.ID)
		if err == nil {
			_, err = b.send(dm.ID, r)
		}
		if err != nil {
			b.failed(err)
			b.log.Warn("discord: the private answer's fallback by direct message failed", "error", err)
		}
		return
	}
	r.Private = false
	if user.ID != "" && i.GuildID != "" && !slices.Contains(r.Mentions, user.ID) {
		r.Mentions = append(slices.Clone(r.Mentions), user.ID)
	}
	if _, err := b.send(i.ChannelID, r); err != nil {
		b.failed(err)
		b.log.Warn("discord: the answer's fallback in the channel failed", "error", err)
	}
}

// complete finishes a deferred interaction with r; kind is the pressed button's.
func (b *Bot) complete(i *discordgo.Interaction, r bot.Reply, deferredPrivate bool, kind string) {
	m := b.message(r)
	if kind == kindAnswer {
		b.completeAnswer(i, r, m)
		return
	}
	if r.Private && !deferredPrivate {
		// The deferred answer is public. Discord turns the first followup into the
		// deferred message, so finish that first, then send the private content as an
		// ephemeral followup and remove the public placeholder.
		note := catalogue.For(b.askerLang(i)).T("answered.private", nil)
		if _, err := b.ds.InteractionResponseEdit(i, &discordgo.WebhookEdit{Content: &note}); err != nil {
			b.failed(err)
			b.log.Warn("discord: finishing the deferred answer failed", "error", err)
		}
		if _, err := b.followupMessageCreate(i, &discordgo.WebhookParams{
			Content: m.content, Embeds: m.embeds, Components: m.components, Files: m.files,
			Flags: discordgo.MessageFlagsEphemeral, AllowedMentions: m.mentions,
		}, m); err != nil {
			b.failed(err)
			b.log.Warn("discord: private followup failed", "error", err)
			b.fallback(i, r)
		}
		if err := b.ds.InteractionResponseDelete(i); err != nil {
			b.failed(err)
			b.log.Warn("discord: removing the deferred placeholder failed", "error", err)
		}
		return
	}
	content := m.content
	b.rememberOriginal(i, r, m)
	_, err := b.interactionResponseEdit(i, &discordgo.WebhookEdit{
		Content: &content, Embeds: &m.embeds, Components: &m.components, Files: m.files, AllowedMentions: m.mentions,
	}, m)
	if err == nil {
		b.shown(i, r, i.ChannelID, nil, m, nil)
		return
	}
	b.failed(err)
	b.log.Warn("discord: completing a deferred answer failed; following up", "error", err)
	// A followup replaces a deferred answer that was never completed; files are read
	// afresh.
	m = b.message(r)
	var flags discordgo.MessageFlags
	if deferredPrivate {
		flags = discordgo.MessageFlagsEphemeral
	}
	msg, err := b.followupMessageCreate(i, &discordgo.WebhookParams{
		Content: m.content, Embeds: m.embeds, Components: m.components, Files: m.files,
		Flags: flags, AllowedMentions: m.mentions,
	}, m)
	if err != nil {
		b.failed(err)
		b.log.Warn("discord: the followup failed too", "error", err)
		b.fallback(i, r)
		return
	}
	b.shown(i, r, i.ChannelID, msg, m, nil)
}

// completeAnswer finishes the press of an answer button deferred as an update of its
// message: the reply replaces that message when it answers it, else it follows up.
func (b *Bot) completeAnswer(i *discordgo.Interaction, r bot.Reply, m outgoing) {
	if replaces(i, r, kindAnswer) {
		content := m.content
		if _, err := b.interactionResponseEdit(i, &discordgo.WebhookEdit{
			Content: &content, Embeds: &m.embeds, Components: &m.components, Files: m.files, AllowedMentions: m.mentions,
		}, m); err != nil {
			b.log.Warn("discord: updating the answered message failed", "error", err)
			return
		}
		b.shown(i, r, i.ChannelID, nil, m, i.Message)
		return
	}
	params := &discordgo.WebhookParams{Content: m.content, Embeds: m.embeds, Components: m.components, Files: m.files, AllowedMentions: m.mentions}
	if r.Private {
		params.Flags = discordgo.MessageFlagsEphemeral
	}
	msg, err := b.followupMessageCreate(i, params, m)
	if err != nil {
		b.log.Warn("discord: answering a deferred press failed", "error", err)
		return
	}
	b.shown(i, r, i.ChannelID, msg, m, nil)
}

// openModal answers a Move-style button with a modal asking for a.input, once the
// service agrees that the presser plays the button's game, still in progress: anyone
// else is refused at once, privately, rather than after typing a move.
func (b *Bot) openModal(i *discordgo.Interaction, a action, ch channelInfo) {
	req := b.request(i, ch)
	req.Command = a.command
	for k, v := range a.args {
		req.Args[k] = v
	}
	svc := b.service()
	if r := svc.View(context.Background(), req, func(tx *bot.Tx) error {
		g, err := svc.FindGame(tx.Tx, req, bot.TurnGame)
		if err != nil {
			return err
		}
		return bot.MustBeActive(g)
	}); r.Refused {
		r.Private = true
		b.respond(i, r, kindRun)
		return
	}
	lang := b.askerLang(i)
	label := b.prompt(encodeID(a), upperFirst(b.localName(lang, a.command, a.input)))
	err := b.ds.InteractionRespond(i, &discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseModal,
		Data: &discordgo.InteractionResponseData{
			CustomID: encodeID(a), Title: clip(upperFirst(b.localName(lang, a.command, "")), 45),
			Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
				discordgo.TextInput{CustomID: a.input, Label: clip(label, 45), Style: discordgo.TextInputShort, Required: true, MaxLength: 100},
			}}},
		},
	})
	if err != nil {
		b.failed(err)
		b.log.Warn("discord: opening a modal failed", "error", err)
	}
}

func modalValue(comps []discordgo.MessageComponent, id string) string {
	for _, c := range comps {
		switch v := c.(type) {
		case *discordgo.ActionsRow:
			if s := modalValue(v.Components, id); s != "" {
				return s
			}
		case *discordgo.TextInput:
			if v.CustomID == id {
				return v.Value
			}
		}
	}
	return ""
}

// openThread opens the thread of a game just started from interaction i, posts the
// board there and records it; where threads are refused it stays in the channel and
// says so once. A board that meets a transient failure (a 5xx) is handed to the
// outbox, so the new thread is never left empty.
func (b *Bot) openThread(i *discordgo.Interaction, r bot.Reply) {
	g := *r.Started
	if g.Place.Channel == "" {
		g.Place.Channel = i.ChannelID
	}
	if g.Place.Guild == "" {
		g.Place.Guild = i.GuildID
	}
	th, _ := b.gameThread(context.Background(), &g, r.Title)
	if th == "" {
		return
	}
	asker := b.request(i, channelInfo{})
	board := b.service().Handle(context.Background(), bot.Request{
		User: asker.User, Place: bot.Place{Guild: g.Place.Guild, Channel: g.Place.Channel, Thread: th},
		Command: views.CmdBoard, Args: bot.Args{"game": g.ID},
		Locale: asker.Locale, GuildLocale: asker.GuildLocale, Public: true, // the thread's first post, for all to read
	})
	if board.Refused {
		return
	}
	board.Mentions = r.Mentions
	g.Place.Thread = th
	err := b.post(context.Background(), &g, nil, r.Title, board, "")
	if err == nil {
		return
	}
	b.log.Warn("discord: posting the board in the game thread failed", "error", err)
	if !Transient(err) {
		return
	}
	// Not lost: the board goes through the outbox, which retries it until it is posted
	// (a mention of the first player only: the outbox keeps one addressee).
	n := bot.Notification{Key: "board/" + g.ID, Kind: bot.NoticeInfo, Channel: true, Game: &g, Reply: board}
	if len(r.Mentions) > 0 {
		n.To = bot.User{ID: r.Mentions[0]}
	}
	if err := b.service().Update(context.Background(), func(tx *bot.Tx) error { tx.Send(n, nil); return nil }); err != nil {
		b.log.Error("discord: queueing the game's first board failed", "game", g.ID, "error", err)
	}
}

// threadSlot is the thread of one game, created at most once per process (again after
// a transient failure).
type threadSlot struct {
	once sync.Once
	id   string
	err  error // creation failed transiently: try again next time
}

// gameThread returns the thread of game g, creating it (named name) and recording
// it with the service the first time: for a challenge just accepted, or a game the
// service started itself (a tournament round) when its first notification comes.
// It returns "" for games outside a server or where threads are refused, and with it
// the error of a transient failure to create the thread (see thread).
func (b *Bot) gameThread(ctx context.Context, g *bot.GameRef, name string) (string, error) {
	if g.ID == "" || g.Place.Guild == "" || g.Place.Channel == "" {
		return "", nil
	}
	if g.Place.Thread != "" {
		return g.Place.Thread, nil
	}
	return b.newGameThread(ctx, g, "game:"+g.ID, name)
}

// newGameThread opens a thread for game g under key and records it with the service.
func (b *Bot) newGameThread(ctx context.Context, g *bot.GameRef, key, name string) (string, error) {
	if name == "" {
		name = catalogue.For(b.serverLang(g.Place.Guild)).T("thread.game", i18n.Data{"Game": g.ID})
	}
	return b.thread(ctx, key, g.Place.Channel, name, func(th string) error {
		return b.service().SetThread(context.Background(), g.ID, th)
	})
}

// eventThread returns the thread of a tournament or match whose news is to be
// posted at place, creating it and recording it with the service the first time.
// It returns "" outside a server or where threads are refused, and with it the error
// of a transient failure to create the thread (see thread).
func (b *Bot) eventThread(ctx context.Context, ev bot.EventRef, place bot.Place) (string, error) {
	if place.Thread != "" {
		return place.Thread, nil
	}
	if place.Guild == "" || place.Channel == "" || ev.ID == "" {
		return "", nil
	}
	return b.thread(ctx, string(ev.Kind)+":"+ev.ID, place.Channel, ev.Name, func(th string) error {
		return b.service().SetEventThread(context.Background(), ev, th)
	})
}

// thread returns the thread kept under key, opening it in channel at most once per
// process (again after a transient failure, whose error it returns) and recording it
// with record.
func (b *Bot) thread(ctx context.Context, key, channel, name string, record func(thread string) error) (string, error) {
	b.mu.Lock()
	slot := b.threads[key]
	if slot == nil {
		slot = &threadSlot{}
		b.threads[key] = slot
	}
	b.mu.Unlock()
	slot.once.Do(func() { slot.id, slot.err = b.createThread(ctx, key, channel, name, record) })
	if slot.err != nil {
		b.mu.Lock()
		if b.threads[key] == slot {
			delete(b.threads, key)
		}
		b.mu.Unlock()
	}
	return slot.id, slot.err
}

// createThread opens a public thread named name in channel, or a post in a forum or
// media channel, and records it; where the bot may not create threads it says so once
// per channel and returns "". It returns the error of a transient failure (a rate
// limit among them: see startThread), nil after a permanent one.
func (b *Bot) createThread(ctx context.Context, key, channel, name string, record func(thread string) error) (string, error) {
	if b.threadsRefused(channel) {
		return "", nil
	}
	if id := b.orphanThread(ctx, channel, clip(name, 100)); id != "" {
		b.log.Info("discord: adopting a thread made before a restart", "for", key, "thread", id)
		if err := record(id); err != nil {
			b.log.Error("discord: recording a thread failed", "for", key, "thread", id, "error", err)
		}
		return id, nil
	}
	th, err := b.startThread(ctx, channel, clip(name, 100), isForum(b.channelType(channel)))
	if err != nil {
		kind, transient := Classify(err)
		b.failed(err)
		if kind == FailMissingPermissions {
			b.denyThreads(channel)
			b.mu.Lock()
			first := !b.noThread[channel]
			b.noThread[channel] = true
			b.mu.Unlock()
			if t := b.channelType(channel); first && !isForum(t) {
				_, _ = b.ds.ChannelMessageSend(channel, catalogue.For(b.channelLang(channel)).T("threads.denied", nil))
			}
			return "", nil
		}
		if kind == FailThreadCap {
			b.threadsFull(key, channel) // and the next post tries again
			return "", nil
		}
		b.log.Warn("discord: creating a thread failed", "for", key, "kind", kind, "error", err)
		if transient {
			return "", err
		}
		return "", nil
	}
	b.mu.Lock()
	b.made[th.ID] = true
	b.mu.Unlock()
	if err := record(th.ID); err != nil {
		b.log.Error("discord: recording a thread failed", "for", key, "thread", th.ID, "error", err)
	}
	return th.ID, nil
}

// startThread opens a public thread named name in channel, or, in a forum or media
// channel (forum), a post whose first message is its name, as discordgo's ThreadStart
// and ForumThreadStartComplex do, but never waits out a rate limit: Discord's
// thread-creation limit is shared by a server's channels and its waits run to minutes,
// which would hold an outbox worker (and a tournament's other notices) that long. A 429
// is answered as a *discordgo.RateLimitError with Discord's retry_after (the request
// is made with discordgo.WithRetryOnRatelimit(false)), and so is a request that
// discordgo's rate limiter would have held back before sending it because the bucket
// is spent (its request sleeps in LockBucket, and no RequestOption turns that off):
// the bucket is locked here, checked with GetWaitTime and handed to
// RequestWithLockedBucket only when no wait is due. Notify turns the error into a
// *bot.RetryAfter (see notifyError), and the outbox tries that destination again after
// the wait. Only a 502, which discordgo retries itself, may still wait on the bucket.
func (b *Bot) startThread(ctx context.Context, channel, name string, forum bool) (*discordgo.Channel, error) {
	data := struct {
		discordgo.ThreadStart
		Message *discordgo.MessageSend `json:"message,omitempty"`
	}{ThreadStart: discordgo.ThreadStart{Name: name, AutoArchiveDuration: 10080, Type: discordgo.ChannelTypeGuildPublicThread}}
	if forum {
		data.Type = 0 // a post's type is the forum's to decide
		data.Message = &discordgo.MessageSend{Content: name, AllowedMentions: &discordgo.MessageAllowedMentions{Users: []string{}}}
	}
	body, err := json.Marshal(data)
	if err != nil {
		return nil, fmt.Errorf("discord: encoding a thread: %w", err)
	}
	endpoint := discordgo.EndpointChannelThreads(channel)
	rl := b.ds.Ratelimiter
	bucket := rl.GetBucket(endpoint) // discordgo's bucket id for this route (ThreadStartComplex's)
	bucket.Lock()
	if wait := rl.GetWaitTime(bucket, 1); wait > 0 {
		bucket.Unlock()
		return nil, &discordgo.RateLimitError{RateLimit: &discordgo.RateLimit{
			TooManyRequests: &discordgo.TooManyRequests{Message: "rate limit bucket spent", RetryAfter: wait}, URL: endpoint}}
	}
	bucket.Remaining-- // as discordgo's LockBucketObject, which Release below undoes from the answer's headers
	resp, err := b.ds.RequestWithLockedBucket("POST", endpoint, "application/json", body, bucket, 0,
		discordgo.WithContext(ctx), discordgo.WithRetryOnRatelimit(false))
	if err != nil {
		return nil, err
	}
	var th discordgo.Channel
	if err := json.Unmarshal(resp, &th); err != nil {
		return nil, fmt.Errorf("discord: reading the new thread: %w", err)
	}
	return &th, nil
}

// send posts r as a message in channel.
func (b *Bot) send(channel string, r bot.Reply) (*discordgo.Message, error) {
	m := b.message(r)
	msg, err := b.channelMessageSend(channel, &discordgo.MessageSend{
		Content: m.content, Embeds: m.embeds, Components: m.components, Files: m.files, AllowedMentions: m.mentions,
	}, m)
	if err == nil {
		b.shown(nil, r, channel, msg, m, nil)
	}
	return msg, err
}

// nonce is the message nonce of notification id's post of the given way ("c" in
// the channel, "d" by direct message): Discord checks a nonce against all of the
// bot's recent messages, so the two posts of one notification need their own.
func nonce(id, way string) string {
	if id == "" {
		return ""
	}
	return "n" + id + way
}

// sendNotice posts r in channel like send, with nonce as Discord's message nonce and
// enforce_nonce set, so that a retry after a lost answer returns the message posted
// the first time instead of posting it again ("If true and nonce is present, it will
// be checked for uniqueness in the past few minutes. If another message was created
// by the same author with the same nonce, that message will be returned and no new
// message will be created": Create Message, Discord's documentation). discordgo's
// MessageSend has no enforce_nonce, so the request is made here (attach.go).
func (b *Bot) sendNotice(ctx context.Context, channel string, r bot.Reply, nonce string) (*discordgo.Message, error) {
	if nonce == "" || len(nonce) > 25 {
		return b.send(channel, r)
	}
	m := b.message(r)
	if since := lateSince(ctx); !since.IsZero() {
		if msg := b.postedSince(ctx, channel, since, m); msg != nil {
			b.log.Info("discord: a late resend found its earlier delivery", "channel", channel, "message", msg.ID)
			return msg, nil
		}
	}
	data := struct {
		discordgo.MessageSend
		Nonce        string `json:"nonce"`
		EnforceNonce bool   `json:"enforce_nonce"`
	}{MessageSend: discordgo.MessageSend{Content: m.content, Embeds: m.embeds, Components: m.components, AllowedMentions: m.mentions},
		Nonce: nonce, EnforceNonce: true}
	for _, e := range data.Embeds {
		if e.Type == "" {
			e.Type = discordgo.EmbedTypeRich
		}
	}
	var msg discordgo.Message
	// A 429 is answered to the caller (the outbox waits retry_after) rather than waited
	// out here, so one slow channel holds no worker.
	if err := b.upload("POST", discordgo.EndpointChannelMessages(channel), data, m, &msg, discordgo.WithContext(ctx), discordgo.WithRetryOnRatelimit(false)); err != nil {
		return nil, err
	}
	b.shown(nil, r, channel, &msg, m, nil)
	return &msg, nil
}

// threadGone reports whether a post in a thread failed because the thread is gone:
// deleted (10003) or hidden from the bot (50001), so the game needs a new one.
func threadGone(kind FailureKind) bool {
	return kind == FailUnknownChannel || kind == FailMissingAccess
}

// post posts r at g's place (its thread, or its channel). When the game's thread is
// gone (deleted, hidden) it opens a new thread for the game, recorded with
// Service.SetThread, and posts there; failing that, or for an event's thread, it posts
// in the parent channel. When the thread exists but takes no messages from the bot
// (locked, or Send Messages in Threads denied: see closedThread) it is remembered, the
// server's owner is told once what permission is missing, and this and later posts go
// to the parent channel without asking the thread again. A thread that is only
// archived needs none of this: posting unarchives it. The error is the last failure
// when nothing was posted.
//
// nonce, when not empty, is the message nonce of every attempt (see sendNotice).
func (b *Bot) post(ctx context.Context, g *bot.GameRef, ev *bot.EventRef, title string, r bot.Reply, nonce string) error {
	place, parent := g.Place.Thread, g.Place.Channel
	if place == "" || b.isClosed(place) {
		place = parent
	}
	if t := b.channelType(place); isForum(t) {
		return fmt.Errorf("discord: posting in channel %s: %w", place, errForum)
	}
	var err error
	var kind FailureKind
	if place != parent && b.threadDeleted(place) {
		// Discord said so (THREAD_DELETE): no request to learn it again.
		err, kind = fmt.Errorf("discord: thread %s: %w", place, errThreadDeleted), FailUnknownChannel
	} else {
		if _, err = b.sendNotice(ctx, place, r, nonce); err == nil {
			return nil
		}
		kind = b.failed(err)
	}
	if place == parent || !threadGone(kind) && !closesThread(kind) {
		return err
	}
	if closesThread(kind) {
		b.log.Warn("discord: the thread takes no messages from the bot; posting in its channel", "thread", place, "kind", kind, "error", err)
		b.closeThread(place, parent, kind)
		b.tellAdmins(g.Place.Guild, parent, kind)
	} else {
		b.log.Warn("discord: the thread is gone; moving on", "thread", place, "kind", kind, "error", err)
		if g.ID != "" && ev == nil {
			if th, _ := b.newGameThread(ctx, g, "game:"+g.ID+":after:"+place, title); th != "" {
				_, err2 := b.sendNotice(ctx, th, r, nonce)
				if err2 == nil {
					return nil
				}
				b.failed(err2)
				err = err2
			}
		}
	}
	if t := b.channelType(parent); isForum(t) {
		return err
	}
	if _, err2 := b.sendNotice(ctx, parent, r, nonce); err2 != nil {
		b.failed(err2)
		return err2
	}
	return nil
}

// Notify delivers n: a mention in the game's thread or channel and/or a direct message;
// a player whose direct messages are closed is mentioned in the thread instead.
// A thread that can no longer take messages is replaced (see post). Each post carries
// n.ID as its message nonce (see sendNotice), and each part that arrived is remembered
// under n.Key, so delivering n again after an error sends only what failed.
//
// Its error keeps bot.Notifier's contract: nil when the player was reached one way; a
// *bot.RetryAfter for a rate limit; otherwise an error satisfying
// errors.Is(err, bot.ErrPermanent) when nothing can succeed later (see Classify), and
// a plain error to retry. Every error names its FailureKind (bot.FailureReason).
func (b *Bot) Notify(ctx context.Context, n bot.Notification) error {
	dmKey, placeKey := "", ""
	if n.Key != "" {
		dmKey, placeKey = "n:"+n.Key+":dm", "n:"+n.Key+":place"
	}
	sent := func(key string) bool { return key != "" && b.delivered(key) }
	done := func(key string) {
		if key != "" {
			b.markDelivered(key)
		}
	}
	ctx = withQueued(ctx, n.Queued)
	r := n.Reply
	r.Private = false
	r.Mentions = nil
	if n.To.ID != "" {
		r.Mentions = []string{n.To.ID}
	}
	inPlace, direct := n.Channel, n.Direct
	var errs []error
	reached := false
	gone := n.Game != nil && b.placeGone(n.Game.Place)
	if gone {
		// The bot left the game's server, or its channel was deleted: the player is
		// told by direct message instead, and nothing is asked of the place.
		inPlace, direct = false, true
	} else if inPlace && n.Game != nil && b.placeUnavailable(n.Game.Place) {
		inPlace = false
		errs = append(errs, errUnavailable) // the outbox tries again later
	}
	if direct && n.To.ID != "" {
		if sent(dmKey) {
			reached = true
		} else if b.dmsClosed(n.To.ID) {
			inPlace = !gone
		} else {
			dm, err := b.ds.UserChannelCreate(n.To.ID, discordgo.WithContext(ctx))
			if err == nil {
				_, err = b.sendNotice(ctx, dm.ID, r, nonce(n.ID, "d"))
			}
			switch {
			case err == nil:
				done(dmKey)
				reached = true
			case b.failed(err) == FailDMClosed:
				b.closeDMs(n.To.ID)
				inPlace = !gone
			default:
				errs = append(errs, err)
			}
		}
	}
	if inPlace && n.Game != nil {
		if sent(placeKey) {
			reached = true
		} else {
			g := *n.Game
			var wait error // the thread waits for Discord's thread-creation limit
			if g.ID != "" && g.Place.Thread == "" {
				var err error
				g.Place.Thread, err = b.gameThread(ctx, n.Game, n.Reply.Title)
				if rateLimited(err) {
					wait = err
				}
			}
			if n.Event != nil {
				th, err := b.eventThread(ctx, *n.Event, n.Game.Place)
				if th != "" {
					g.Place.Thread = th
				} else if rateLimited(err) {
					wait = err
				}
			}
			if wait != nil {
				// Not posted in the channel meanwhile: the notice waits for its thread
				// (createThread counted the failure).
				errs = append(errs, wait)
			} else if g.Place.Thread != "" || g.Place.Channel != "" {
				if err := b.post(ctx, &g, n.Event, n.Reply.Title, r, nonce(n.ID, "c")); err != nil {
					errs = append(errs, err)
				} else {
					done(placeKey)
					reached = true
				}
			}
		}
	}
	return notifyError(errs, reached)
}

// rateLimited reports whether err is Discord's rate limit.
func rateLimited(err error) bool {
	kind, _ := Classify(err)
	return err != nil && kind == FailRateLimited
}

// notifyError is Notify's answer for the failures errs of its parts: nil when the
// player was reached another way and nothing can be retried; otherwise the most
// hopeful failure, marked as bot.Notifier asks.
func notifyError(errs []error, reached bool) error {
	var permanent, transient error
	for _, err := range errs {
		if Transient(err) {
			transient = err
		} else if permanent == nil {
			permanent = err
		}
	}
	switch {
	case transient != nil:
		kind, _ := Classify(transient)
		var rl *discordgo.RateLimitError
		if errors.As(transient, &rl) && rl.TooManyRequests != nil {
			return &bot.RetryAfter{Wait: rl.RetryAfter, Err: &deliveryError{kind: kind, err: transient}}
		}
		return &deliveryError{kind: kind, err: transient}
	case permanent != nil && !reached:
		kind, _ := Classify(permanent)
		return &deliveryError{kind: kind, err: permanent, permanent: true}
	}
	return nil
}

// deliveryError is a failure to deliver a notification, with its kind.
type deliveryError struct {
	kind      FailureKind
	err       error
	permanent bool
}

func (e *deliveryError) Error() string {
	return "discord: delivering a notification (" + string(e.kind) + "): " + e.err.Error()
}

// Unwrap returns the cause, and bot.ErrPermanent for a permanent failure.
func (e *deliveryError) Unwrap() []error {
	if e.permanent {
		return []error{e.err, bot.ErrPermanent}
	}
	return []error{e.err}
}

// FailureReason names the kind of failure, for metrics.
func (e *deliveryError) FailureReason() string { return string(e.kind) }

// outgoing is a Reply rendered for Discord.
type outgoing struct {
	content    string
	embeds     []*discordgo.MessageEmbed
	components []discordgo.MessageComponent
	files      []*discordgo.File
	attached   []attachment // the files' entries, with their descriptions
	ready      time.Time    // when it was rendered: the reply exists since
	mentions   *discordgo.MessageAllowedMentions
	prompts    map[string]string // custom id -> confirmation question or modal label
}

// message renders r for Discord and remembers its components' prompts.
func (b *Bot) message(r bot.Reply) outgoing {
	b.mu.Lock()
	ids := b.ids
	b.mu.Unlock()
	r.Text = mentionCommands(r.Text, ids)
	r.Fields = slices.Clone(r.Fields)
	for i := range r.Fields {
		r.Fields[i].Value = mentionCommands(r.Fields[i].Value, ids)
	}
	m := message(r)
	m.ready = time.Now()
	b.remember(m)
	return m
}

// message renders r as Discord content, an embed, files and components.
func message(r bot.Reply) outgoing {
	var m outgoing
	var ats []string
	for _, id := range r.Mentions {
		ats = append(ats, "<@"+id+">")
	}
	m.content = strings.Join(ats, " ")
	m.mentions = &discordgo.MessageAllowedMentions{Users: r.Mentions}
	if m.mentions.Users == nil {
		m.mentions.Users = []string{}
	}
	e := &discordgo.MessageEmbed{Title: clip(r.Title, 256), Description: r.Text}
	if r.Refused {
		e.Color = 0xd9534f
	}
	image := false
	for _, f := range r.Files {
		m.attached = append(m.attached, attachment{ID: strconv.Itoa(len(m.files)), Filename: f.Name, Description: clip(f.Alt, maxDescription)})
		m.files = append(m.files, &discordgo.File{Name: f.Name, ContentType: f.ContentType, Reader: strings.NewReader(string(f.Data))})
		if !image && (f.ContentType == "image/png" || f.ContentType == "image/gif") {
			e.Image = &discordgo.MessageEmbedImage{URL: "attachment://" + f.Name}
			image = true
		}
	}
	if r.Board != "" && !image {
		e.Description = strings.TrimSpace(e.Description + "\n```\n" + r.Board + "\n```")
	}
	for i, f := range r.Fields {
		if i == 25 {
			break
		}
		e.Fields = append(e.Fields, &discordgo.MessageEmbedField{Name: clip(f.Name, 256), Value: clip(f.Value, 1024), Inline: f.Inline})
	}
	e.Description = clip(e.Description, 4096)
	fitEmbed(e, r.Lang)
	if e.Title != "" || e.Description != "" || len(e.Fields) > 0 || e.Image != nil {
		m.embeds = []*discordgo.MessageEmbed{e}
	}
	// Buttons fill the rows a select menu leaves.
	buttonRows := maxActionRows
	if r.Choice != nil && len(r.Choice.Options) > 0 {
		buttonRows--
	}
	var row []discordgo.MessageComponent
	for _, a := range r.Actions {
		if a.URL != "" {
			// A link button opens its url and has no custom_id; Discord takes urls
			// of at most 512 characters (Button Object, "url").
			if len(a.URL) > maxButtonURL || len(m.components) == buttonRows {
				continue
			}
			row = append(row, discordgo.Button{Label: clip(a.Label, 80), Style: discordgo.LinkButton, URL: a.URL})
			if len(row) == 5 {
				m.components = append(m.components, discordgo.ActionsRow{Components: row})
				row = nil
			}
			continue
		}
		act := action{kind: kindRun, command: a.Command, args: a.Args, label: a.InputLabel, input: a.Input}
		switch {
		case a.Answers && a.Input == "" && a.Confirm == "":
			act.kind = kindAnswer
		case a.Input != "":
			act.kind = kindModal
		case a.Confirm != "":
			act.kind = kindConfirm
			act.label = a.Confirm
		}
		if act.args == nil {
			act.args = bot.Args{}
		}
		id := encodeID(act)
		if len(id) > maxCustomID {
			continue
		}
		if act.label != "" {
			if m.prompts == nil {
				m.prompts = map[string]string{}
			}
			m.prompts[id] = act.label
		}
		if len(m.components) == buttonRows {
			break // Discord shows at most five action rows
		}
		row = append(row, button(act, a.Label, buttonStyle(a.Style)))
		if len(row) == 5 {
			m.components = append(m.components, discordgo.ActionsRow{Components: row})
			row = nil
		}
	}
	if len(row) > 0 {
		m.components = append(m.components, discordgo.ActionsRow{Components: row})
	}
	if c := r.Choice; c != nil && len(c.Options) > 0 {
		act := action{kind: kindSelect, command: c.Command, args: c.Args, input: c.Arg}
		if act.args == nil {
			act.args = bot.Args{}
		}
		if id := encodeID(act); len(id) <= maxCustomID {
			menu := discordgo.SelectMenu{CustomID: id, Placeholder: clip(c.Placeholder, 150)}
			for i, o := range c.Options {
				if i == 25 {
					break
				}
				menu.Options = append(menu.Options, discordgo.SelectMenuOption{Label: clip(o.Label, 100), Value: clip(o.Value, 100), Description: clip(o.Description, 100)})
			}
			m.components = append(m.components, discordgo.ActionsRow{Components: []discordgo.MessageComponent{menu}})
		}
	}
	if m.components == nil {
		m.components = []discordgo.MessageComponent{}
	}
	return m
}

// maxButtonURL is the longest url a link button may open (Discord's Button Object).
const maxButtonURL = 512

func buttonStyle(s bot.ButtonStyle) discordgo.ButtonStyle {
	switch s {
	case bot.StylePrimary:
		return discordgo.PrimaryButton
	case bot.StyleSuccess:
		return discordgo.SuccessButton
	case bot.StyleDanger:
		return discordgo.DangerButton
	}
	return discordgo.SecondaryButton
}

func button(a action, label string, style discordgo.ButtonStyle) discordgo.Button {
	return discordgo.Button{Label: clip(label, 80), Style: style, CustomID: encodeID(a)}
}

// The kinds of component action encoded in a custom id.
const (
	kindRun     = "r" // run the command
	kindConfirm = "k" // ask first, then run
	kindModal   = "m" // ask for input in a modal, then run
	kindSelect  = "s" // run with the picked value as input
	// kindAnswer (living.go): run, and replace the message when the reply answers it
)

// action is what a component does, as encoded in its custom id:
// kind|command|input|url-encoded args. Confirmation texts and modal labels are not
// encoded (custom ids hold 100 characters); the adapter words them itself.
type action struct {
	kind    string
	command string
	input   string
	args    bot.Args
	label   string // not encoded
}

// prompt returns the confirmation question or modal label remembered for custom id
// (they do not fit in it), or def after a restart.
func (b *Bot) prompt(id, def string) string {
	b.mu.Lock()
	defer b.mu.Unlock()
	if p, ok := b.prompts[id]; ok {
		return p
	}
	return def
}

// remember keeps the prompts of r's components.
func (b *Bot) remember(m outgoing) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.prompts) > 50000 {
		clear(b.prompts)
	}
	for id, p := range m.prompts {
		b.prompts[id] = p
	}
}

func encodeID(a action) string {
	v := url.Values{}
	for k, x := range a.args {
		v.Set(k, x)
	}
	return a.kind + "|" + a.command + "|" + a.input + "|" + v.Encode()
}

func decodeID(id string) (action, error) {
	parts := strings.SplitN(id, "|", 4)
	if len(parts) != 4 || parts[1] == "" {
		return action{}, fmt.Errorf("discord: malformed custom id %q", id)
	}
	v, err := url.ParseQuery(parts[3])
	if err != nil {
		return action{}, fmt.Errorf("discord: malformed custom id %q: %w", id, err)
	}
	a := action{kind: parts[0], command: parts[1], input: parts[2], args: bot.Args{}}
	for k := range v {
		a.args[k] = v.Get(k)
	}
	if (a.kind == kindModal || a.kind == kindSelect) && a.input == "" {
		return action{}, fmt.Errorf("discord: custom id %q names no input", id)
	}
	return a, nil
}

// clip shortens s to at most n runes.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
