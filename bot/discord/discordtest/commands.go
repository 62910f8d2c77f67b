package discordtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
)

// Command is an application command as the bot registered it.
type Command struct {
	ID          string
	Name        string
	Description string
	Type        discordgo.ApplicationCommandType
	// GuildID is empty for a global command.
	GuildID string
	// DefaultMemberPermissions is nil when everyone may use the command.
	DefaultMemberPermissions *int64
	// Contexts are the interaction contexts (0 guild, 1 bot DM, 2 private channel).
	Contexts []int
	// IntegrationTypes are the installs that offer the command (0 guild, 1 user).
	IntegrationTypes []int
	Options          []CommandOption
	// Raw is the command as the bot sent it.
	Raw json.RawMessage
}

// CommandOption is an option, subcommand or subcommand group of a command.
type CommandOption struct {
	Type         discordgo.ApplicationCommandOptionType `json:"type"`
	Name         string                                 `json:"name"`
	Description  string                                 `json:"description"`
	Required     bool                                   `json:"required"`
	Autocomplete bool                                   `json:"autocomplete"`
	Choices      []Choice                               `json:"choices"`
	Options      []CommandOption                        `json:"options"`
	ChannelTypes []discordgo.ChannelType                `json:"channel_types"`
	MinValue     *float64                               `json:"min_value"`
	MaxValue     *float64                               `json:"max_value"`
	MinLength    *int                                   `json:"min_length"`
	MaxLength    *int                                   `json:"max_length"`
}

// Option returns the option, subcommand or group called name, or nil.
func (c *Command) Option(name string) *CommandOption { return findOption(c.Options, name) }

func findOption(opts []CommandOption, name string) *CommandOption {
	for i := range opts {
		if opts[i].Name == name {
			return &opts[i]
		}
	}
	return nil
}

// commandState is a registered command: the typed view and the object Discord returns.
type commandState struct {
	Command
	version string
	obj     map[string]any
}

// Commands returns the commands registered for a guild (by id or name), or the global
// commands when guild is "".
func (s *Server) Commands(guild string) []Command {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Command
	for _, c := range s.commands[s.scopeLocked(guild)] {
		out = append(out, c.Command)
	}
	return out
}

// scopeLocked maps a guild name or id to the command scope key; s.mu is held.
func (s *Server) scopeLocked(guild string) string {
	for _, g := range s.guilds {
		if g.ID == guild || (guild != "" && g.Name == guild) {
			return g.ID
		}
	}
	return guild
}

// commandScope checks a commands route's application and guild; s.mu is held.
func (s *Server) commandScope(c *call) (string, *reply) {
	if c.params["application_id"] != s.appID {
		r := apiError(http.StatusForbidden, discordgo.ErrCodeMissingAccess, "Missing Access")
		return "", &r
	}
	gid := c.params["guild_id"]
	if gid != "" && s.guild(gid) == nil {
		r := apiError(http.StatusForbidden, discordgo.ErrCodeMissingAccess, "Missing Access")
		return "", &r
	}
	return gid, nil
}

func (s *Server) listCommands(c *call) reply {
	s.mu.Lock()
	defer s.mu.Unlock()
	scope, r := s.commandScope(c)
	if r != nil {
		return *r
	}
	out := []any{}
	for _, cmd := range s.commands[scope] {
		out = append(out, cmd.obj)
	}
	return okJSON(out)
}

func (s *Server) overwriteCommands(c *call) reply {
	if c.list == nil {
		return apiError(http.StatusBadRequest, discordgo.ErrCodeInvalidFormBody, "Invalid Form Body: expected an array of commands")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	scope, r := s.commandWrite(c, func(string) []any { return c.list })
	if r != nil {
		return *r
	}
	var cmds []*commandState
	out := []any{}
	for _, raw := range c.list {
		cmd := s.registerLocked(scope, raw.(map[string]any))
		cmds = append(cmds, cmd)
		out = append(out, cmd.obj)
	}
	s.commands[scope] = cmds
	return okJSON(out)
}

func (s *Server) createCommand(c *call) reply {
	if c.body == nil {
		return apiError(http.StatusBadRequest, discordgo.ErrCodeInvalidFormBody, "Invalid Form Body: expected a command")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	scope, r := s.commandWrite(c, func(scope string) []any {
		all := []any{c.body}
		for _, old := range s.commands[scope] {
			if old.Name != c.str("name") {
				all = append(all, old.obj)
			}
		}
		return all
	})
	if r != nil {
		return *r
	}
	cmd := s.registerLocked(scope, c.body)
	list := []*commandState{cmd}
	for _, old := range s.commands[scope] {
		if old.Name != cmd.Name || old.Type != cmd.Type {
			list = append(list, old)
		}
	}
	s.commands[scope] = list
	return reply{status: http.StatusCreated, body: cmd.obj}
}

// commandWrite checks the call's scope and the command list that registering would
// leave there; s.mu is held.
func (s *Server) commandWrite(c *call, list func(scope string) []any) (string, *reply) {
	scope, r := s.commandScope(c)
	if r != nil {
		return "", r
	}
	if vs := checkCommands(list(scope)); len(vs) > 0 {
		r := s.badCommands(c, vs)
		return "", &r
	}
	return scope, nil
}

func (s *Server) badCommands(c *call, vs []Violation) reply {
	route := c.r.Method + " " + c.r.URL.Path
	for i := range vs {
		vs[i].Route = route
		s.fail("discordtest: %s: Discord would refuse this command: %s at %q", route, vs[i].Message, vs[i].Pointer)
	}
	return invalidForm(vs).expected()
}

// registerLocked stores a command, keeping the id of a command of the same name and type
// as Discord does; s.mu is held.
func (s *Server) registerLocked(scope string, raw map[string]any) *commandState {
	cmd := &commandState{version: s.ids.next()}
	b := marshal(raw)
	cmd.Raw = b
	var wire struct {
		Name        string            `json:"name"`
		Description string            `json:"description"`
		Type        int               `json:"type"`
		Perms       any               `json:"default_member_permissions"`
		Contexts    []int             `json:"contexts"`
		Installs    []int             `json:"integration_types"`
		Options     []CommandOption   `json:"options"`
		NameLoc     map[string]string `json:"name_localizations"`
	}
	_ = json.Unmarshal(b, &wire) // already validated
	cmd.Name, cmd.Description, cmd.Options, cmd.Contexts = wire.Name, wire.Description, wire.Options, wire.Contexts
	cmd.IntegrationTypes = wire.Installs
	cmd.Type = discordgo.ApplicationCommandType(max(wire.Type, 1))
	cmd.GuildID = scope
	if p, ok := permissionValue(wire.Perms); ok {
		cmd.DefaultMemberPermissions = &p
	}
	for _, old := range s.commands[scope] {
		if old.Name == cmd.Name && old.Type == cmd.Type {
			cmd.ID = old.ID
		}
	}
	if cmd.ID == "" {
		cmd.ID = s.ids.next()
	}
	obj := map[string]any{}
	for k, v := range raw {
		obj[k] = v
	}
	obj["id"], obj["application_id"], obj["version"], obj["type"] = cmd.ID, s.appID, cmd.version, int(cmd.Type)
	obj["description"] = cmd.Description
	obj["dm_permission"] = scope == ""
	obj["nsfw"] = false
	if scope != "" {
		obj["guild_id"] = scope
	}
	if cmd.DefaultMemberPermissions != nil {
		obj["default_member_permissions"] = strconv.FormatInt(*cmd.DefaultMemberPermissions, 10)
	} else {
		obj["default_member_permissions"] = nil
	}
	if _, ok := obj["contexts"]; !ok {
		obj["contexts"] = nil
	}
	if _, ok := obj["integration_types"]; !ok {
		obj["integration_types"] = []int{0}
	}
	cmd.obj = obj
	return cmd
}

func permissionValue(v any) (int64, bool) {
	switch p := v.(type) {
	case string:
		n, err := strconv.ParseInt(p, 10, 64)
		return n, err == nil
	case float64:
		return int64(p), true
	}
	return 0, false
}

// nameRE is Discord's rule for command and option names; chat input names are also
// lower case.
var nameRE = regexp.MustCompile(`^[-_'\p{L}\p{N}\p{Devanagari}\p{Thai}]{1,32}$`)

// checkCommands applies the rules Discord enforces on commands beyond its API
// description: names, descriptions, uniqueness, option order and counts.
func checkCommands(list []any) []Violation {
	var vs []Violation
	bad := func(ptr, format string, args ...any) {
		vs = append(vs, Violation{Where: "body", Pointer: ptr, Message: fmt.Sprintf(format, args...)})
	}
	seen := map[string]bool{}
	chat := 0
	for i, raw := range list {
		cmd, _ := raw.(map[string]any)
		ptr := fmt.Sprintf("/%d", i)
		typ := 1
		if t, ok := cmd["type"].(float64); ok {
			typ = int(t)
		}
		name, _ := cmd["name"].(string)
		desc, _ := cmd["description"].(string)
		key := fmt.Sprint(typ, name)
		if seen[key] {
			bad(ptr+"/name", "two commands of type %d are called %q", typ, name)
		}
		seen[key] = true
		if typ != 1 {
			if desc != "" {
				bad(ptr+"/description", "user and message commands must have an empty description")
			}
			continue
		}
		chat++
		checkName(bad, ptr+"/name", name)
		checkDescription(bad, ptr+"/description", desc)
		checkLocalizations(bad, ptr, cmd)
		opts, _ := cmd["options"].([]any)
		checkOptions(bad, ptr+"/options", opts, 0)
		if n := commandLength(cmd); n > 8000 {
			bad(ptr, "the command's names, descriptions and choices total %d characters; Discord allows 8000", n)
		}
	}
	if chat > 100 {
		bad("", "%d chat input commands; Discord allows 100", chat)
	}
	checkLocalNamesUnique(bad, "", list)
	return vs
}

// checkLocalNamesUnique refuses two commands (or two options of one level) that a
// client of some locale would see under one name: Discord refuses two commands or
// options of one name, and a client shows each the name of its locale
// (name_localizations, else name), so the fake holds every locale to the rule
// (https://discord.com/developers/docs/interactions/application-commands#localization;
// never kinder than Discord where it does not spell out the localised case).
func checkLocalNamesUnique(bad func(string, string, ...any), ptr string, list []any) {
	for _, loc := range discordLocales() {
		seen := map[string]int{}
		for i, raw := range list {
			o, _ := raw.(map[string]any)
			if t, ok := o["type"].(float64); ok && ptr == "" && t != 1 {
				continue // user and message commands have names of their own
			}
			name, _ := o["name"].(string)
			if m, ok := o["name_localizations"].(map[string]any); ok {
				if s, ok := m[loc].(string); ok && s != "" {
					name = s
				}
			}
			if j, dup := seen[name]; dup {
				bad(fmt.Sprintf("%s/%d/name_localizations/%s", ptr, i, loc), "in %s, %s/%d and %s/%d are both called %q", loc, ptr, j, ptr, i, name)
			}
			seen[name] = i
		}
	}
	for i, raw := range list {
		o, _ := raw.(map[string]any)
		if opts, ok := o["options"].([]any); ok {
			checkLocalNamesUnique(bad, fmt.Sprintf("%s/%d/options", ptr, i), opts)
		}
	}
}

func checkName(bad func(string, string, ...any), ptr, name string) {
	if !nameRE.MatchString(name) || strings.ToLower(name) != name {
		bad(ptr, "%q is not a valid command or option name (1-32 lower-case letters, digits, - _ ')", name)
	}
}

// checkDescription applies Discord's 1-100 character limit on the descriptions of
// chat input commands and their options (Application Command Structure and
// Application Command Option Structure, "description: 1-100 character
// description", https://discord.com/developers/docs/interactions/application-commands).
func checkDescription(bad func(string, string, ...any), ptr, desc string) {
	if n := utf8.RuneCountInString(desc); n < 1 || n > 100 {
		bad(ptr, "description must be 1 to 100 characters, got %d", n)
	}
}

// checkOptions checks a level of options; depth 0 is the command's own options.
func checkOptions(bad func(string, string, ...any), ptr string, opts []any, depth int) {
	if len(opts) > 25 {
		bad(ptr, "%d options; Discord allows 25", len(opts))
	}
	names := map[string]bool{}
	optional, subs, values := false, 0, 0
	for j, raw := range opts {
		o, _ := raw.(map[string]any)
		p := fmt.Sprintf("%s/%d", ptr, j)
		name, _ := o["name"].(string)
		desc, _ := o["description"].(string)
		typ, _ := o["type"].(float64)
		checkName(bad, p+"/name", name)
		checkDescription(bad, p+"/description", desc)
		checkLocalizations(bad, p, o)
		if names[name] {
			bad(p+"/name", "two options are called %q", name)
		}
		names[name] = true
		switch t := discordgo.ApplicationCommandOptionType(typ); t {
		case discordgo.ApplicationCommandOptionSubCommand, discordgo.ApplicationCommandOptionSubCommandGroup:
			subs++
			if depth >= 2 || (depth == 1 && t == discordgo.ApplicationCommandOptionSubCommandGroup) {
				bad(p+"/type", "subcommands nest at most as command > group > subcommand")
			}
			sub, _ := o["options"].([]any)
			checkOptions(bad, p+"/options", sub, depth+1)
		default:
			values++
			req, _ := o["required"].(bool)
			if req && optional {
				bad(p+"/required", "required option %q comes after an optional one", name)
			}
			optional = optional || !req
			choices, _ := o["choices"].([]any)
			if auto, _ := o["autocomplete"].(bool); auto && len(choices) > 0 {
				bad(p+"/autocomplete", "option %q has both choices and autocomplete", name)
			}
			for k, ch := range choices {
				if c, ok := ch.(map[string]any); ok {
					checkLocalizations(bad, fmt.Sprintf("%s/choices/%d", p, k), c)
				}
			}
			if len(choices) > 25 {
				bad(p+"/choices", "%d choices; Discord allows 25", len(choices))
			}
			checkBounds(bad, p, o, discordgo.ApplicationCommandOptionType(typ))
		}
	}
	if subs > 0 && values > 0 {
		bad(ptr, "subcommands and plain options cannot be mixed at one level")
	}
}

// checkLocalizations applies Discord's rules on the name_localizations and
// description_localizations of a command, option or choice: each key one of
// Discord's locales, each name a valid name (a choice's name is free text up to 100
// characters, which the API description checks), each description 1-100 characters
// (Localization, https://discord.com/developers/docs/interactions/application-commands#localization,
// and the locales of https://discord.com/developers/docs/reference#locales).
func checkLocalizations(bad func(string, string, ...any), ptr string, obj map[string]any) {
	_, choice := obj["value"]
	for _, field := range []string{"name_localizations", "description_localizations"} {
		m, _ := obj[field].(map[string]any)
		for loc, v := range m {
			p := ptr + "/" + field + "/" + loc
			if !slices.Contains(discordLocales(), loc) {
				bad(p, "%q is not one of Discord's locales", loc)
			}
			s, _ := v.(string)
			switch {
			case field == "description_localizations":
				checkDescription(bad, p, s)
			case !choice:
				checkName(bad, p, s)
			}
		}
	}
}

// discordLocales are the locales of Discord's API description (its
// AvailableLocalesEnum), the keys a localisation may have.
var discordLocales = sync.OnceValue(func() []string {
	var doc struct {
		Components struct {
			Schemas struct {
				Locales struct {
					OneOf []struct {
						Const string `json:"const"`
					} `json:"oneOf"`
				} `json:"AvailableLocalesEnum"`
			} `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(specFile, &doc); err != nil {
		panic("discordtest: the embedded API description does not parse: " + err.Error())
	}
	var out []string
	for _, l := range doc.Components.Schemas.Locales.OneOf {
		out = append(out, l.Const)
	}
	return out
})

// longest returns the length in characters of obj's field and of its longest
// localisation (field_localizations): Discord counts a command's length with the
// longest translation of each text.
func longest(obj map[string]any, field string) int {
	s, _ := obj[field].(string)
	n := utf8.RuneCountInString(s)
	m, _ := obj[field+"_localizations"].(map[string]any)
	for _, v := range m {
		if t, ok := v.(string); ok {
			n = max(n, utf8.RuneCountInString(t))
		}
	}
	return n
}

// commandLength counts the characters of names, descriptions and choice names and values,
// which Discord limits per command, each text with its longest translation
// (Application Command Structure: "the combined sum of characters ... per
// application command ... for the locale with the highest character count").
func commandLength(v any) int {
	n := 0
	switch x := v.(type) {
	case map[string]any:
		for k, val := range x {
			switch k {
			case "name", "description":
				n += longest(x, k)
			case "value":
				if s, ok := val.(string); ok {
					n += utf8.RuneCountInString(s)
				}
			case "options", "choices":
				n += commandLength(val)
			}
		}
	case []any:
		for _, e := range x {
			n += commandLength(e)
		}
	}
	return n
}

// checkBounds applies Discord's rules on an option's bounds: min_value and
// max_value only on integer and number options, min_length (0-6000) and max_length
// (1-6000) only on string options, each minimum at most its maximum (Application
// Command Option Structure,
// https://discord.com/developers/docs/interactions/application-commands).
func checkBounds(bad func(string, string, ...any), p string, o map[string]any, t discordgo.ApplicationCommandOptionType) {
	number := t == discordgo.ApplicationCommandOptionInteger || t == discordgo.ApplicationCommandOptionNumber
	minV, hasMinV := o["min_value"].(float64)
	maxV, hasMaxV := o["max_value"].(float64)
	if (hasMinV || hasMaxV) && !number {
		bad(p+"/min_value", "min_value and max_value apply only to integer and number options")
	}
	if hasMinV && hasMaxV && minV > maxV {
		bad(p+"/min_value", "min_value %v is above max_value %v", minV, maxV)
	}
	minL, hasMinL := o["min_length"].(float64)
	maxL, hasMaxL := o["max_length"].(float64)
	if (hasMinL || hasMaxL) && t != discordgo.ApplicationCommandOptionString {
		bad(p+"/max_length", "min_length and max_length apply only to string options")
	}
	if hasMinL && (minL < 0 || minL > 6000) {
		bad(p+"/min_length", "min_length must be 0 to 6000, got %v", minL)
	}
	if hasMaxL && (maxL < 1 || maxL > 6000) {
		bad(p+"/max_length", "max_length must be 1 to 6000, got %v", maxL)
	}
	if hasMinL && hasMaxL && minL > maxL {
		bad(p+"/min_length", "min_length %v is above max_length %v", minL, maxL)
	}
}
