package discordtest

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
)

// Opt is a command option as a user fills it in: Value is a string, an integer, a float
// or a bool, or for user, channel, role and mentionable options the id or name of one.
type Opt struct {
	Name  string
	Value any
}

// interactionState is an injected interaction and everything the bot did with it.
type interactionState struct {
	Interaction
	owners    map[string]any
	payload   map[string]any
	callbacks []Callback
	acked     bool
	ackType   discordgo.InteractionResponseType
	original  *messageState // the original response, or the component's message
	followups []*messageState
	message   *messageState // the message of a component interaction
	modal     *modalState   // the modal the bot opened in answer
	focused   *CommandOption
	expired   bool // the token was expired by ExpireInteraction
}

// modalState is a modal the bot opened.
type modalState struct {
	customID   string
	title      string
	components []Component
}

// Command delivers an APPLICATION_COMMAND interaction in which user runs command (or a
// subcommand path such as "settings channel") in channel with opts, typed and checked
// against the registered command as the Discord client would, or fails the test and
// returns nil when Discord would not deliver such an interaction.
func (s *Server) Command(user, channel, command string, opts ...Opt) *Interaction {
	return s.command(discordgo.InteractionApplicationCommand, user, channel, command, nil, opts)
}

// Autocomplete delivers an APPLICATION_COMMAND_AUTOCOMPLETE interaction while user types
// focused.Value into the option focused.Name of command; opts are the options filled so far.
func (s *Server) Autocomplete(user, channel, command string, focused Opt, opts ...Opt) *Interaction {
	return s.command(discordgo.InteractionApplicationCommandAutocomplete, user, channel, command, &focused, opts)
}

func (s *Server) command(typ discordgo.InteractionType, user, channel, command string, focused *Opt, opts []Opt) *Interaction {
	s.mu.Lock()
	u, ch := s.mustUser(user), s.mustChannel(channel)
	path := strings.Fields(command)
	if len(path) == 0 {
		s.mu.Unlock()
		panic("discordtest: empty command")
	}
	if ch.isThread() && ch.archived {
		// "Users cannot edit messages, add reactions, use application commands, or join
		// archived threads": https://discord.com/developers/docs/topics/threads (Active &
		// Archived Threads).
		s.mu.Unlock()
		s.fail("discordtest: %s ran /%s in the archived thread %s, where Discord lets nobody use application commands", u.Username, command, channelName(ch))
		return nil
	}
	cmd := s.findCommandLocked(path[0], ch)
	if cmd == nil {
		s.mu.Unlock()
		s.fail("discordtest: %s ran /%s in %s, but the bot has not registered that command there", u.Username, command, channelName(ch))
		return nil
	}
	st, p, err := s.baseLocked(typ, u, ch, true)
	if err != nil {
		s.mu.Unlock()
		s.fail("discordtest: /%s: %v", command, err)
		return nil
	}
	resolved := map[string]map[string]any{}
	options, err := s.buildOptions(st, cmd.Options, path[1:], opts, focused, ch, resolved)
	if err != nil {
		s.mu.Unlock()
		s.fail("discordtest: /%s: %v", command, err)
		return nil
	}
	data := map[string]any{"id": cmd.ID, "name": cmd.Name, "type": int(cmd.Type), "options": options}
	if cmd.GuildID != "" {
		data["guild_id"] = cmd.GuildID
	}
	if len(resolved) > 0 {
		data["resolved"] = resolved
	}
	p["data"] = data
	return s.deliverLocked(st, p)
}

// findCommandLocked finds a chat input command for a channel: the guild's, then global
// ones allowed in that context; s.mu is held.
func (s *Server) findCommandLocked(name string, ch *channelState) *commandState {
	find := func(scope string) *commandState {
		for _, c := range s.commands[scope] {
			if c.Name == name && c.Type == discordgo.ChatApplicationCommand {
				return c
			}
		}
		return nil
	}
	if ch.GuildID != "" {
		if c := find(ch.GuildID); c != nil {
			return c
		}
	}
	c := find("")
	if c == nil {
		return nil
	}
	absent := false
	if g := s.guild(ch.GuildID); g != nil {
		absent = s.botAbsent(g)
	}
	if !offered(c, ch, absent) {
		return nil
	}
	return c
}

func channelName(ch *channelState) string {
	if ch.Type == discordgo.ChannelTypeDM {
		return "a DM"
	}
	return "#" + ch.Name
}

func (s *Server) mustUser(ref string) *User {
	u := s.userLocked(ref)
	if u == nil {
		s.mu.Unlock()
		panic(fmt.Sprintf("discordtest: no user %q", ref))
	}
	return u
}

func (s *Server) mustChannel(ref string) *channelState {
	c := s.channelLocked(ref)
	if c == nil {
		s.mu.Unlock()
		panic(fmt.Sprintf("discordtest: no channel %q", ref))
	}
	return c
}

// localeOf is the locale Discord sends for an interaction of u: "Selected language of
// the invoking user", available on all interaction types except PING
// (https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-object).
func localeOf(u *User) string {
	if u.Locale == "" {
		return "en-US"
	}
	return u.Locale
}

// newToken makes an interaction token shaped like Discord's.
func newToken(id string) string {
	b := make([]byte, 48)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString([]byte("interaction:"+id+":")) + base64.RawURLEncoding.EncodeToString(b)
}

// baseLocked builds the common part of an interaction; s.mu is held.
func (s *Server) baseLocked(typ discordgo.InteractionType, u *User, ch *channelState, isCommand bool) (*interactionState, map[string]any, error) {
	id := s.ids.next()
	st := &interactionState{Interaction: Interaction{ID: id, Token: newToken(id), Type: typ, ChannelID: ch.ID, UserID: u.ID}}
	chj := s.channelJSON(ch)
	p := map[string]any{
		"id": id, "application_id": s.appID, "type": int(typ), "token": st.Token, "version": 1,
		"channel_id": ch.ID, "channel": chj, "locale": localeOf(u), "entitlements": []any{},
		"attachment_size_limit": maxFileSize, "entitlement_sku_ids": []any{},
	}
	if ch.Type == discordgo.ChannelTypeGroupDM {
		if err := s.groupDMInteraction(st, p, u, ch); err != nil {
			return nil, nil, err
		}
	} else if ch.GuildID == "" {
		if ch.Type != discordgo.ChannelTypeDM || ch.RecipientID != u.ID {
			return nil, nil, fmt.Errorf("%s is not the recipient of DM channel %s", u.Username, ch.ID)
		}
		p["user"] = userJSON(*u)
		p["context"] = 1
		p["app_permissions"] = strconv.FormatInt(discordgo.PermissionAllText&^discordgo.PermissionManageMessages, 10)
		st.owners = map[string]any{"0": "0"}
	} else {
		g := s.guild(ch.GuildID)
		m := g.member(u.ID)
		if m == nil {
			return nil, nil, fmt.Errorf("%s is not a member of %s", u.Username, g.Name)
		}
		perms := s.userPerms(ch, u.ID)
		if perms&discordgo.PermissionViewChannel == 0 {
			return nil, nil, fmt.Errorf("%s cannot see %s", u.Username, channelName(ch))
		}
		if isCommand && perms&discordgo.PermissionUseSlashCommands == 0 {
			return nil, nil, fmt.Errorf("%s may not use application commands in %s", u.Username, channelName(ch))
		}
		chj["permissions"] = strconv.FormatInt(perms, 10)
		mj := g.memberJSON(m, true)
		mj["permissions"] = strconv.FormatInt(perms, 10)
		st.GuildID = g.ID
		p["guild_id"] = g.ID
		p["guild"] = map[string]any{"id": g.ID, "locale": g.Locale, "features": []any{}}
		p["guild_locale"] = g.Locale
		p["member"] = mj
		p["context"] = 0
		p["app_permissions"] = strconv.FormatInt(s.botPerms(ch), 10)
		st.owners = map[string]any{"0": g.ID}
		if s.botAbsent(g) {
			s.foreignInteraction(st, p, u)
		}
	}
	p["authorizing_integration_owners"] = st.owners
	return st, p, nil
}

// deliverLocked registers the interaction and sends it; s.mu is held and released here.
func (s *Server) deliverLocked(st *interactionState, p map[string]any) *Interaction {
	st.payload = p
	st.Payload = marshal(p)
	st.Sent = time.Now()
	s.interactions[st.ID] = st
	s.tokens[st.Token] = st
	in := st.Interaction
	s.notifyLocked()
	s.mu.Unlock()
	s.Dispatch("INTERACTION_CREATE", json.RawMessage(in.Payload))
	return &in
}

// Redeliver sends an interaction again with the same id, token and deadline, as Discord
// occasionally does.
func (s *Server) Redeliver(in *Interaction) {
	if in == nil {
		return
	}
	s.Dispatch("INTERACTION_CREATE", in.Payload)
}

// buildOptions fills the options of a command (or of the subcommand named by path) from
// opts as the Discord client would; s.mu is held.
func (s *Server) buildOptions(st *interactionState, defs []CommandOption, path []string, opts []Opt, focused *Opt, ch *channelState, resolved map[string]map[string]any) ([]any, error) {
	if len(path) > 0 {
		sub := findOption(defs, path[0])
		if sub == nil || (sub.Type != discordgo.ApplicationCommandOptionSubCommand && sub.Type != discordgo.ApplicationCommandOptionSubCommandGroup) {
			return nil, fmt.Errorf("no subcommand %q", path[0])
		}
		inner, err := s.buildOptions(st, sub.Options, path[1:], opts, focused, ch, resolved)
		if err != nil {
			return nil, err
		}
		return []any{map[string]any{"name": sub.Name, "type": int(sub.Type), "options": inner}}, nil
	}
	for _, d := range defs {
		if d.Type == discordgo.ApplicationCommandOptionSubCommand || d.Type == discordgo.ApplicationCommandOptionSubCommandGroup {
			return nil, errors.New("the command has subcommands; name one, as in \"settings notify\"")
		}
	}
	given := map[string]Opt{}
	for _, o := range opts {
		if findOption(defs, o.Name) == nil {
			return nil, fmt.Errorf("no option %q", o.Name)
		}
		given[o.Name] = o
	}
	if focused != nil {
		d := findOption(defs, focused.Name)
		if d == nil {
			return nil, fmt.Errorf("no option %q", focused.Name)
		}
		if !d.Autocomplete {
			return nil, fmt.Errorf("option %q does not have autocomplete", focused.Name)
		}
		st.focused = d
	}
	out := []any{}
	for _, d := range defs {
		if focused != nil && d.Name == focused.Name {
			out = append(out, map[string]any{"name": d.Name, "type": int(d.Type), "value": fmt.Sprint(focused.Value), "focused": true})
			continue
		}
		o, ok := given[d.Name]
		if !ok {
			if d.Required && focused == nil {
				return nil, fmt.Errorf("required option %q missing", d.Name)
			}
			continue
		}
		v, err := s.optionValue(&d, o.Value, ch, resolved)
		if err != nil {
			return nil, fmt.Errorf("option %q: %v", d.Name, err)
		}
		out = append(out, map[string]any{"name": d.Name, "type": int(d.Type), "value": v})
	}
	return out, nil
}

// optionValue types and checks one option value; s.mu is held.
func (s *Server) optionValue(d *CommandOption, v any, ch *channelState, resolved map[string]map[string]any) (any, error) {
	add := func(kind, id string, obj map[string]any) {
		if resolved[kind] == nil {
			resolved[kind] = map[string]any{}
		}
		resolved[kind][id] = obj
	}
	var val any
	switch d.Type {
	case discordgo.ApplicationCommandOptionString:
		str, ok := v.(string)
		if !ok {
			return nil, fmt.Errorf("want a string, got %T", v)
		}
		n := utf8.RuneCountInString(str)
		if (d.MinLength != nil && n < *d.MinLength) || (d.MaxLength != nil && n > *d.MaxLength) {
			return nil, fmt.Errorf("length %d is out of the option's bounds", n)
		}
		val = str
	case discordgo.ApplicationCommandOptionInteger, discordgo.ApplicationCommandOptionNumber:
		f, ok := number(v)
		if !ok {
			return nil, fmt.Errorf("want a number, got %T", v)
		}
		if d.Type == discordgo.ApplicationCommandOptionInteger && f != math.Trunc(f) {
			return nil, fmt.Errorf("want an integer, got %v", f)
		}
		if (d.MinValue != nil && f < *d.MinValue) || (d.MaxValue != nil && f > *d.MaxValue) {
			return nil, fmt.Errorf("%v is out of the option's bounds", f)
		}
		val = f
	case discordgo.ApplicationCommandOptionBoolean:
		b, ok := v.(bool)
		if !ok {
			return nil, fmt.Errorf("want a bool, got %T", v)
		}
		val = b
	case discordgo.ApplicationCommandOptionUser, discordgo.ApplicationCommandOptionMentionable:
		ref := fmt.Sprint(v)
		if u := s.userLocked(ref); u != nil {
			add("users", u.ID, userJSON(*u))
			if g := s.guild(ch.GuildID); g != nil {
				if m := g.member(u.ID); m != nil {
					mj := g.memberJSON(m, false)
					mj["permissions"] = strconv.FormatInt(s.userPerms(ch, u.ID), 10)
					add("members", u.ID, mj)
				}
			}
			val = u.ID
			break
		}
		if d.Type == discordgo.ApplicationCommandOptionMentionable {
			if r := s.roleLocked(ch.GuildID, ref); r != nil {
				add("roles", r.ID, roleJSON(*r, 0))
				val = r.ID
				break
			}
		}
		return nil, fmt.Errorf("no user %q", ref)
	case discordgo.ApplicationCommandOptionRole:
		r := s.roleLocked(ch.GuildID, fmt.Sprint(v))
		if r == nil {
			return nil, fmt.Errorf("no role %q", v)
		}
		add("roles", r.ID, roleJSON(*r, 0))
		val = r.ID
	case discordgo.ApplicationCommandOptionChannel:
		c := s.channelLocked(fmt.Sprint(v))
		if c == nil || c.GuildID != ch.GuildID {
			return nil, fmt.Errorf("no channel %q here", v)
		}
		if len(d.ChannelTypes) > 0 && !slices.Contains(d.ChannelTypes, c.Type) {
			return nil, fmt.Errorf("channel type %d is not allowed", c.Type)
		}
		cj := map[string]any{"id": c.ID, "name": c.Name, "type": int(c.Type), "permissions": strconv.FormatInt(s.botPerms(c), 10)}
		if c.isThread() {
			cj["parent_id"] = c.ParentID
			cj["thread_metadata"] = s.channelJSON(c)["thread_metadata"]
		}
		add("channels", c.ID, cj)
		val = c.ID
	default:
		return nil, fmt.Errorf("option type %d is not supported by discordtest", d.Type)
	}
	if len(d.Choices) > 0 {
		found := false
		for _, c := range d.Choices {
			cf, cok := number(c.Value)
			vf, vok := number(val)
			found = found || c.Value == val || (cok && vok && cf == vf)
		}
		if !found {
			return nil, fmt.Errorf("%v is not one of the option's choices", val)
		}
	}
	return val, nil
}

func number(v any) (float64, bool) {
	switch n := v.(type) {
	case int:
		return float64(n), true
	case int64:
		return float64(n), true
	case float64:
		return n, true
	case json.Number:
		f, err := n.Float64()
		return f, err == nil
	}
	return 0, false
}

// roleLocked finds a role of a guild by id or name; s.mu is held.
func (s *Server) roleLocked(guildID, ref string) *Role {
	g := s.guild(guildID)
	if g == nil {
		return nil
	}
	for i := range g.Roles {
		if g.Roles[i].ID == ref || g.Roles[i].Name == ref {
			return &g.Roles[i]
		}
	}
	return nil
}

// Click delivers a MESSAGE_COMPONENT interaction in which user presses the button
// customID on the message messageID, or fails the test and returns nil when the user
// could not press it (no such button, disabled, a link, someone else's ephemeral message).
func (s *Server) Click(user, messageID, customID string) *Interaction {
	return s.component(user, messageID, customID, nil)
}

// Select delivers a MESSAGE_COMPONENT interaction: user picks values in the select menu
// customID on the bot's message messageID (option values for a string select, user,
// role or channel ids or names for the others).
func (s *Server) Select(user, messageID, customID string, values ...string) *Interaction {
	if values == nil {
		values = []string{}
	}
	return s.component(user, messageID, customID, values)
}

func (s *Server) component(user, messageID, customID string, values []string) *Interaction {
	s.mu.Lock()
	u := s.mustUser(user)
	m := s.messages[messageID]
	var problem string
	var comp *Component
	switch {
	case m == nil || m.Deleted:
		problem = "there is no such message"
	case m.Ephemeral && m.VisibleTo != u.ID:
		problem = "the message is ephemeral and only its own user sees it"
	case s.channels[m.ChannelID] != nil && s.channels[m.ChannelID].isThread() && s.channels[m.ChannelID].archived:
		// Discord's web and mobile clients fail components in archived threads
		// (https://github.com/discord/discord-api-docs/issues/8474), and its docs
		// let users do nothing there but delete messages:
		// https://discord.com/developers/docs/topics/threads (Active & Archived Threads).
		problem = "the message is in an archived thread, where Discord's web and mobile clients refuse components"
	default:
		comp = m.Component(customID)
		switch {
		case comp == nil:
			problem = "the message has no component with that custom_id"
		case comp.Disabled:
			problem = "the component is disabled"
		case values == nil && comp.Type != discordgo.ButtonComponent:
			problem = fmt.Sprintf("component type %d is not a button", comp.Type)
		case values == nil && (comp.Style == int(discordgo.LinkButton) || comp.Style == 6):
			problem = "link and premium buttons do not send interactions"
		case values != nil && !isSelect(comp.Type):
			problem = fmt.Sprintf("component type %d is not a select menu", comp.Type)
		}
	}
	if problem != "" {
		s.mu.Unlock()
		s.fail("discordtest: %s cannot use %q on message %s: %s", u.Username, customID, messageID, problem)
		return nil
	}
	ch := s.channels[m.ChannelID]
	st, p, err := s.baseLocked(discordgo.InteractionMessageComponent, u, ch, false)
	if err == nil && values != nil {
		err = s.checkSelect(comp, values, ch)
	}
	if err != nil {
		s.mu.Unlock()
		s.fail("discordtest: %s cannot use %q: %v", u.Username, customID, err)
		return nil
	}
	data := map[string]any{"custom_id": customID, "component_type": int(comp.Type)}
	if comp.ID != 0 {
		data["id"] = comp.ID
	}
	if values != nil {
		data["values"] = values
		if comp.Type != discordgo.SelectMenuComponent {
			resolved := map[string]map[string]any{}
			for i, v := range values {
				typ := discordgo.ApplicationCommandOptionMentionable
				switch comp.Type {
				case discordgo.RoleSelectMenuComponent:
					typ = discordgo.ApplicationCommandOptionRole
				case discordgo.ChannelSelectMenuComponent:
					typ = discordgo.ApplicationCommandOptionChannel
				}
				id, err := s.optionValue(&CommandOption{Type: typ}, v, ch, resolved)
				if err != nil {
					s.mu.Unlock()
					s.fail("discordtest: %s cannot pick %q in %q: %v", u.Username, v, customID, err)
					return nil
				}
				values[i] = id.(string)
			}
			data["resolved"] = resolved
		}
	}
	p["data"] = data
	p["message"] = s.messageJSON(m)
	st.message = m
	return s.deliverLocked(st, p)
}

func isSelect(t discordgo.ComponentType) bool {
	switch t {
	case discordgo.SelectMenuComponent, discordgo.UserSelectMenuComponent, discordgo.RoleSelectMenuComponent,
		discordgo.MentionableSelectMenuComponent, discordgo.ChannelSelectMenuComponent:
		return true
	}
	return false
}

// checkSelect checks the number of values and, for a string select, that each is an option.
func (s *Server) checkSelect(c *Component, values []string, ch *channelState) error {
	lo, hi := 1, 1
	if c.MinValues != nil {
		lo = *c.MinValues
	}
	if c.MaxValues != nil {
		hi = *c.MaxValues
	}
	if len(values) < lo || len(values) > hi {
		return fmt.Errorf("%d values picked; the menu takes %d to %d", len(values), lo, hi)
	}
	if c.Type == discordgo.SelectMenuComponent {
		for _, v := range values {
			if !slices.ContainsFunc(c.Options, func(o SelectOption) bool { return o.Value == v }) {
				return fmt.Errorf("%q is not an option of the menu", v)
			}
		}
	}
	return nil
}

// SubmitModal delivers a MODAL_SUBMIT interaction: user fills in the modal the bot opened
// in answer to opened, fields mapping text inputs' custom ids to the text typed.
func (s *Server) SubmitModal(user string, opened *Interaction, fields map[string]string) *Interaction {
	if opened == nil {
		return nil
	}
	s.mu.Lock()
	u := s.mustUser(user)
	from := s.interactions[opened.ID]
	var problem string
	switch {
	case from == nil || from.modal == nil:
		problem = "the bot did not open a modal in answer to that interaction"
	case from.UserID != u.ID:
		problem = "the modal was opened for another user"
	}
	var comps []any
	if problem == "" {
		var err error
		comps, err = modalSubmission(from.modal.components, fields)
		if err != nil {
			problem = err.Error()
		}
	}
	if problem != "" {
		s.mu.Unlock()
		s.fail("discordtest: %s cannot submit the modal: %s", u.Username, problem)
		return nil
	}
	ch := s.channels[from.ChannelID]
	st, p, err := s.baseLocked(discordgo.InteractionModalSubmit, u, ch, false)
	if err != nil {
		s.mu.Unlock()
		s.fail("discordtest: %s cannot submit the modal: %v", u.Username, err)
		return nil
	}
	p["data"] = map[string]any{"custom_id": from.modal.customID, "components": comps}
	if from.message != nil {
		p["message"] = s.messageJSON(from.message)
		st.message = from.message
	}
	return s.deliverLocked(st, p)
}

// modalSubmission mirrors a modal's layout with the values typed, checking them as the
// client does.
func modalSubmission(comps []Component, fields map[string]string) ([]any, error) {
	used := map[string]bool{}
	var input func(c Component) (map[string]any, error)
	input = func(c Component) (map[string]any, error) {
		if c.Type != discordgo.TextInputComponent {
			return nil, fmt.Errorf("component type %d in a modal is not supported by discordtest", c.Type)
		}
		v := fields[c.CustomID]
		used[c.CustomID] = true
		n := utf8.RuneCountInString(v)
		if (c.Required == nil || *c.Required) && n == 0 {
			return nil, fmt.Errorf("text input %q is required", c.CustomID)
		}
		if n > 0 && ((c.MinLength != nil && n < *c.MinLength) || (c.MaxLength != nil && n > *c.MaxLength)) {
			return nil, fmt.Errorf("text input %q: length %d is out of bounds", c.CustomID, n)
		}
		j := map[string]any{"type": int(c.Type), "custom_id": c.CustomID, "value": v}
		if c.ID != 0 {
			j["id"] = c.ID
		}
		return j, nil
	}
	var out []any
	for _, c := range comps {
		j := map[string]any{"type": int(c.Type)}
		if c.ID != 0 {
			j["id"] = c.ID
		}
		switch {
		case c.Type == discordgo.ActionsRowComponent:
			var inner []any
			for _, sub := range c.Components {
				ij, err := input(sub)
				if err != nil {
					return nil, err
				}
				inner = append(inner, ij)
			}
			j["components"] = inner
		case c.Component != nil: // a label
			ij, err := input(*c.Component)
			if err != nil {
				return nil, err
			}
			j["component"] = ij
		}
		out = append(out, j)
	}
	for k := range fields {
		if !used[k] {
			return nil, fmt.Errorf("the modal has no text input %q", k)
		}
	}
	return out, nil
}

// Callbacks returns the bot's interaction responses to in, accepted or not.
func (s *Server) Callbacks(in *Interaction) []Callback {
	if in == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if st := s.interactions[in.ID]; st != nil {
		return slices.Clone(st.callbacks)
	}
	return nil
}

// WaitCallback waits for the bot's first accepted response to in.
func (s *Server) WaitCallback(ctx context.Context, in *Interaction) (Callback, error) {
	if in == nil {
		return Callback{}, errors.New("discordtest: no interaction")
	}
	var cb Callback
	err := s.Wait(ctx, func() bool {
		for _, c := range s.Callbacks(in) {
			if c.Status < 300 {
				cb = c
				return true
			}
		}
		return false
	})
	return cb, err
}

// Original returns the original response to in as it stands: the message a
// CHANNEL_MESSAGE_WITH_SOURCE or deferred response made, or for a component the message
// the bot updated.
func (s *Server) Original(in *Interaction) (*Message, bool) {
	if in == nil {
		return nil, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.interactions[in.ID]
	if st == nil || st.original == nil {
		return nil, false
	}
	return copyMessage(st.original), true
}

// WaitOriginal waits until the original response to in exists, is no longer deferred,
// and satisfies match (if not nil).
func (s *Server) WaitOriginal(ctx context.Context, in *Interaction, match func(*Message) bool) (*Message, error) {
	var found *Message
	err := s.Wait(ctx, func() bool {
		m, ok := s.Original(in)
		if ok && !m.Deferred && (match == nil || match(m)) {
			found = m
			return true
		}
		return false
	})
	return found, err
}

// Followups returns the followup messages sent for in.
func (s *Server) Followups(in *Interaction) []*Message {
	if in == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*Message
	if st := s.interactions[in.ID]; st != nil {
		for _, m := range st.followups {
			out = append(out, copyMessage(m))
		}
	}
	return out
}

// callbackAllowed says whether a response type may answer an interaction type.
func callbackAllowed(in *interactionState, t discordgo.InteractionResponseType) bool {
	switch t {
	case discordgo.InteractionResponseChannelMessageWithSource, discordgo.InteractionResponseDeferredChannelMessageWithSource:
		return in.Type != discordgo.InteractionApplicationCommandAutocomplete
	case discordgo.InteractionResponseDeferredMessageUpdate, discordgo.InteractionResponseUpdateMessage:
		return in.message != nil
	case discordgo.InteractionApplicationCommandAutocompleteResult:
		return in.Type == discordgo.InteractionApplicationCommandAutocomplete
	case discordgo.InteractionResponseModal:
		return in.Type == discordgo.InteractionApplicationCommand || in.Type == discordgo.InteractionMessageComponent
	}
	return false
}

func (s *Server) interactionCallback(c *call) reply {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.interactions[c.params["interaction_id"]]
	if st == nil || st.Token != c.params["interaction_token"] {
		return apiError(http.StatusNotFound, discordgo.ErrCodeUnknownInteraction, "Unknown interaction")
	}
	typ := discordgo.InteractionResponseType(0)
	if t, ok := c.body["type"].(float64); ok {
		typ = discordgo.InteractionResponseType(t)
	}
	data, _ := c.body["data"].(map[string]any)
	cb := Callback{Type: typ, After: time.Since(st.Sent), Files: c.files}
	if data != nil {
		cb.Data = marshal(data)
	}
	_ = decodeInto(data, &struct {
		Content    *string                 `json:"content"`
		Flags      *discordgo.MessageFlags `json:"flags"`
		Embeds     *[]Embed                `json:"embeds"`
		Components *[]Component            `json:"components"`
		Choices    *[]Choice               `json:"choices"`
		CustomID   *string                 `json:"custom_id"`
		Title      *string                 `json:"title"`
	}{&cb.Content, &cb.Flags, &cb.Embeds, &cb.Components, &cb.Choices, &cb.CustomID, &cb.Title})
	cb.Ephemeral = cb.Flags&discordgo.MessageFlagsEphemeral != 0

	r := s.respondLocked(st, c, typ, data, &cb)
	cb.Status = r.status
	st.callbacks = append(st.callbacks, cb)
	s.notifyLocked()
	return r
}

// respondLocked applies an interaction response; s.mu is held.
func (s *Server) respondLocked(st *interactionState, c *call, typ discordgo.InteractionResponseType, data map[string]any, cb *Callback) reply {
	if cb.After > s.timeout {
		s.fail("discordtest: interaction %s answered after %v; Discord allows %v, so the user saw \"The application did not respond\"",
			st.ID, cb.After.Round(time.Millisecond), s.timeout)
		return apiError(http.StatusNotFound, discordgo.ErrCodeUnknownInteraction, "Unknown interaction").expected()
	}
	if st.acked {
		return apiError(http.StatusBadRequest, discordgo.ErrCodeInteractionHasAlreadyBeenAcknowledged, "Interaction has already been acknowledged.")
	}
	if !callbackAllowed(st, typ) {
		return invalidForm([]Violation{{Where: "body", Pointer: "/type",
			Message: fmt.Sprintf("response type %d cannot answer an interaction of type %d", typ, st.Type)}})
	}
	ch := s.channels[st.ChannelID]
	switch typ {
	case discordgo.InteractionResponseChannelMessageWithSource, discordgo.InteractionResponseDeferredChannelMessageWithSource:
		cont, r := parseBody(data)
		if r != nil {
			return *r
		}
		var m *messageState
		if typ == discordgo.InteractionResponseDeferredChannelMessageWithSource {
			m = &messageState{Message: Message{ID: s.ids.next(), ChannelID: ch.ID, GuildID: ch.GuildID, AuthorID: s.bot.ID,
				Flags: cont.Flags&discordgo.MessageFlagsEphemeral | discordgo.MessageFlagsLoading, Deferred: true, Created: time.Now()}}
			m.Ephemeral = m.Flags&discordgo.MessageFlagsEphemeral != 0
			s.addMessageLocked(ch, m)
		} else {
			var r *reply
			if m, r = s.newMessageLocked(ch, cont, c.files); r != nil {
				return *r
			}
		}
		if st.Type == discordgo.InteractionApplicationCommand {
			m.Type = discordgo.MessageTypeChatInputCommand
		}
		m.InteractionID, m.interaction = st.ID, st
		if m.Ephemeral {
			m.VisibleTo = st.UserID
		}
		st.original = m
	case discordgo.InteractionResponseUpdateMessage:
		cont, r := parseBody(data)
		if r != nil {
			return *r
		}
		if r := s.editLocked(st.message, cont, c.files); r != nil {
			return *r
		}
		st.original = st.message
	case discordgo.InteractionResponseDeferredMessageUpdate:
		st.original = st.message
	case discordgo.InteractionApplicationCommandAutocompleteResult:
		if err := checkChoices(st.focused, cb.Choices); err != nil {
			s.fail("discordtest: interaction %s: %v", st.ID, err)
		}
	case discordgo.InteractionResponseModal:
		st.modal = &modalState{customID: cb.CustomID, title: cb.Title, components: cb.Components}
	}
	st.acked, st.ackType = true, typ
	if v := c.query.Get("with_response"); v == "true" {
		res := map[string]any{"type": int(typ)}
		if st.original != nil {
			res["message"] = s.messageJSON(st.original)
		}
		return okJSON(map[string]any{"interaction": map[string]any{
			"id": st.ID, "type": int(st.Type), "activity_instance_id": nil,
			"response_message_id": nilIfNoMsg(st.original), "response_message_loading": typ == discordgo.InteractionResponseDeferredChannelMessageWithSource,
			"response_message_ephemeral": st.original != nil && st.original.Ephemeral,
		}, "resource": res})
	}
	return noContent()
}

func nilIfNoMsg(m *messageState) any {
	if m == nil {
		return nil
	}
	return m.ID
}

// checkChoices checks autocomplete choices against the focused option's type.
func checkChoices(opt *CommandOption, choices []Choice) error {
	if opt == nil {
		return nil
	}
	for i, c := range choices {
		_, isNum := number(c.Value)
		_, isStr := c.Value.(string)
		switch opt.Type {
		case discordgo.ApplicationCommandOptionString:
			if !isStr {
				return fmt.Errorf("choice %d of string option %q has value %v (%T)", i, opt.Name, c.Value, c.Value)
			}
		case discordgo.ApplicationCommandOptionInteger, discordgo.ApplicationCommandOptionNumber:
			if !isNum {
				return fmt.Errorf("choice %d of numeric option %q has value %v (%T)", i, opt.Name, c.Value, c.Value)
			}
		}
	}
	return nil
}

// hookInteraction finds the interaction of a webhook route; s.mu is held.
func (s *Server) hookInteraction(c *call) (*interactionState, *reply) {
	st := s.tokens[c.params["webhook_token"]]
	if c.params["webhook_id"] != s.appID || st == nil {
		r := apiError(http.StatusNotFound, discordgo.ErrCodeUnknownWebhook, "Unknown Webhook")
		return nil, &r
	}
	if st.expired || time.Since(st.Sent) > s.cfg.InteractionTokenLifetime {
		// "Interaction tokens are valid for 15 minutes":
		// https://discord.com/developers/docs/interactions/receiving-and-responding#followup-messages
		r := apiError(http.StatusUnauthorized, discordgo.ErrCodeInvalidWebhookTokenProvided, "Invalid Webhook Token").expected()
		return nil, &r
	}
	if !st.acked {
		s.fail("discordtest: interaction %s: the bot used its webhook before responding to it", st.ID)
		r := apiError(http.StatusNotFound, discordgo.ErrCodeUnknownWebhook, "Unknown Webhook").expected()
		return nil, &r
	}
	return st, nil
}

func (s *Server) followup(c *call) reply {
	s.mu.Lock()
	defer s.mu.Unlock()
	st, r := s.hookInteraction(c)
	if r != nil {
		return *r
	}
	cont, r := parseBody(c.body)
	if r != nil {
		return *r
	}
	// Discord turns the first followup after a deferred response into that response.
	if o := st.original; o != nil && o.Deferred && o.interaction == st && len(st.followups) == 0 {
		if r := s.editLocked(o, cont, c.files); r != nil {
			return *r
		}
		o.Flags &^= discordgo.MessageFlagsLoading
		return okJSON(s.messageJSON(o))
	}
	if r := s.foreignFollowupLocked(st); r != nil {
		return *r
	}
	ch := s.channels[st.ChannelID]
	m, r := s.newMessageLocked(ch, cont, c.files)
	if r != nil {
		return *r
	}
	m.InteractionID, m.interaction = st.ID, st
	if m.Ephemeral {
		m.VisibleTo = st.UserID
	}
	st.followups = append(st.followups, m)
	return okJSON(s.messageJSON(m))
}

func (s *Server) webhookMessage(c *call) reply {
	s.mu.Lock()
	defer s.mu.Unlock()
	st, r := s.hookInteraction(c)
	if r != nil {
		return *r
	}
	var m *messageState
	if id, ok := c.params["message_id"]; ok {
		if st.original != nil && st.original.ID == id {
			m = st.original
		}
		for _, f := range st.followups {
			if f.ID == id {
				m = f
			}
		}
	} else {
		m = st.original
	}
	if m == nil || m.Deleted {
		return unknownMessage()
	}
	switch c.r.Method {
	case http.MethodDelete:
		m.Deleted = true
		return noContent()
	case http.MethodPatch:
		cont, r := parseBody(c.body)
		if r != nil {
			return *r
		}
		if r := s.editLocked(m, cont, c.files); r != nil {
			return *r
		}
		m.Flags &^= discordgo.MessageFlagsLoading
	}
	return okJSON(s.messageJSON(m))
}
