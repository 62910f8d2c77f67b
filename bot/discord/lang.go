package discord

import (
	"context"
	"embed"
	"unicode"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/storage"
)

//go:embed locales/*.yaml
var localeFiles embed.FS

// catalogue is the adapter's own sentences in every language (locales/): what it
// answers or posts itself, beside the service's replies.
var catalogue = i18n.MustLoad("discord", localeFiles)

// clientLang returns the language of interaction i's client (its locale), for an
// answer that cannot wait for the player's settings (a panic, a shutdown).
func clientLang(i *discordgo.Interaction) i18n.Lang { return i18n.Of(string(i.Locale)) }

// askerLang returns the language to answer interaction i in (bot.AskerLang): the
// player's choice with /settings language, else their client's.
func (b *Bot) askerLang(i *discordgo.Interaction) i18n.Lang {
	lang := clientLang(i)
	u := i.User
	if i.Member != nil && i.Member.User != nil {
		u = i.Member.User
	}
	svc := b.service()
	if svc == nil || u == nil {
		return lang
	}
	req := bot.Request{User: bot.User{ID: u.ID}, Locale: string(i.Locale)}
	if err := svc.Read(context.Background(), func(tx *storage.Tx) error {
		l, err := bot.AskerLang(tx, req)
		if err == nil {
			lang = l
		}
		return err
	}); err != nil {
		b.log.Warn("discord: the asker's language is unknown", "user", u.ID, "error", err)
	}
	return lang
}

// serverLang returns the language of what the adapter posts in server guild for
// all to read (bot.ServerLang); English outside a server.
func (b *Bot) serverLang(guild string) i18n.Lang {
	lang := i18n.English
	svc := b.service()
	if svc == nil || guild == "" {
		return lang
	}
	if err := svc.Read(context.Background(), func(tx *storage.Tx) error {
		l, err := bot.ServerLang(tx, guild, "")
		if err == nil {
			lang = l
		}
		return err
	}); err != nil {
		b.log.Warn("discord: the server's language is unknown", "guild", guild, "error", err)
	}
	return lang
}

// channelLang returns the language of a post in channel: its server's.
func (b *Bot) channelLang(channel string) i18n.Lang {
	if c, err := b.ds.State.Channel(channel); err == nil {
		return b.serverLang(c.GuildID)
	}
	return i18n.English
}

// upperFirst returns s with its first letter in upper case ("Move", "Zug").
func upperFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}

// localName returns command cmd's name, or its option opt's when opt is set, as
// language l's clients show it; English when the spec has none.
func (b *Bot) localName(l i18n.Lang, cmd, opt string) string {
	name := cmd
	if opt != "" {
		name = opt
	}
	svc := b.service()
	if svc == nil {
		return name
	}
	spec, ok := svc.Spec(cmd)
	switch {
	case !ok:
		return name
	case opt == "":
		return spec.NameIn.In(l, spec.Name)
	}
	if o, ok := spec.Option(opt); ok {
		return o.NameIn.In(l, o.Name)
	}
	return name
}
