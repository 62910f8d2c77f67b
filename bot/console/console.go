package console

import (
	"bufio"
	"context"
	"embed"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/guide"
	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/bot/play"
	"github.com/missivechess/missive/bot/words"
	"github.com/missivechess/missive/rules"
)

//go:embed locales/*.yaml
var localeFiles embed.FS

// catalogue is the console's own lines in every language (locales/).
var catalogue = i18n.MustLoad("console", localeFiles)

// Console runs commands typed on a terminal (or read from a script) against a
// Service. Set it up with New.
type Console struct {
	svc    *bot.Service
	out    io.Writer
	images string
	clock  *Clock
	// saveClock keeps the clock's offset (Options.SaveClock).
	saveClock func(context.Context, time.Duration) error
	user      string
	locale    string
	prompt    bool
	seq       int

	// confirm is the command a line without a slash asked for that waits for the
	// player's yes (a resignation, say), or nil.
	confirm *bot.Request

	mu      sync.Mutex
	busy    bool
	pending []bot.Notification
	// shown is the prompt printed last, while the console waits for a line; "" when
	// none is waiting.
	shown string
}

// Clock is the console's clock: the real time plus an offset that /wait moves on.
// Give its Now to the store and the service.
type Clock struct {
	mu     sync.Mutex
	offset time.Duration
	base   func() time.Time
}

// NewClock returns a clock that follows base (time.Now when nil).
func NewClock(base func() time.Time) *Clock {
	if base == nil {
		base = time.Now
	}
	return &Clock{base: base}
}

// Now returns the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.base().Add(c.offset)
}

// Advance moves the clock on by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.offset += d
	c.mu.Unlock()
}

// Offset returns how far the clock has been moved on.
func (c *Clock) Offset() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.offset
}

// Options configure a Console.
type Options struct {
	Out    io.Writer // where replies and notifications are printed
	Images string    // the folder for pictures and PGN files
	Clock  *Clock    // the clock shared with the store and service (for /wait)
	User   string    // the first identity (default "alice")
	Prompt bool      // print a prompt before each line (for people at a terminal)
	// Locale is the language the console's requests say their user speaks, as a
	// Discord client would send it ("de", "pt-BR"); empty: English.
	Locale string
	// SaveClock, when set, keeps the clock's offset after each /wait, so that a
	// console started again on the same data file keeps the same time.
	SaveClock func(ctx context.Context, offset time.Duration) error
}

// New returns a console printing to opts.Out. Its Notify method must be the
// service's Notifier, so create the console first and the service with it, then call
// Attach.
func New(opts Options) *Console {
	c := &Console{out: opts.Out, images: opts.Images, clock: opts.Clock, user: opts.User, locale: opts.Locale, prompt: opts.Prompt, saveClock: opts.SaveClock}
	if c.user == "" {
		c.user = "alice"
	}
	if c.clock == nil {
		c.clock = NewClock(nil)
	}
	return c
}

// lang returns the language of the console's user (Options.Locale).
func (c *Console) lang() i18n.Lang { return i18n.Of(c.locale) }

// loc returns the localizer of the console's own lines.
func (c *Console) loc() *i18n.Localizer { return catalogue.For(c.lang()) }

// t returns the console's line id in the user's language.
func (c *Console) t(id string, data i18n.Data) string { return c.loc().T(id, data) }

// refused prints a refusal: the tag and text.
func (c *Console) refused(text string) { c.printf("%s %s\n", c.t("tag.refused", nil), text) }

// Attach sets the service the console drives.
func (c *Console) Attach(svc *bot.Service) { c.svc = svc }

// Welcome returns the lines the console starts with, in its language: where the
// data file and the files it writes are, who the user is and how to go on.
func (c *Console) Welcome(data, files string) string {
	loc := c.loc()
	return loc.T("welcome.data", i18n.Data{"Data": data}) + "\n" + loc.T("welcome.files", i18n.Data{"Files": files}) + "\n" +
		loc.T("welcome.you", i18n.Data{"Name": c.user}) + "\n"
}

// Queue puts every notification in one queue: the console is one screen, on which
// they show in the order they happened.
func (c *Console) Queue(bot.Notification) string { return "console" }

// Notify prints a notification, or keeps it until the reply to the command that
// caused it has been printed.
func (c *Console) Notify(_ context.Context, n bot.Notification) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.busy {
		c.pending = append(c.pending, n)
		return nil
	}
	if c.shown != "" {
		fmt.Fprintln(c.out) // news while the prompt waits (an engine match's): on a line of its own
	}
	c.printNotification(n)
	fmt.Fprint(c.out, c.shown)
	return nil
}

// maxLine is the longest input line the console runs; a longer one is refused.
const maxLine = 64 << 10

// Run reads commands from in until it ends, /quit, or ctx ends. A line longer than
// maxLine is refused with a sentence, and reading goes on. Read from a script (no
// prompt), the end of the script waits for the engine matches it started, whose
// results are printed as they come.
func (c *Console) Run(ctx context.Context, in io.Reader) error {
	r := bufio.NewReaderSize(in, maxLine)
	for {
		if c.prompt {
			c.mu.Lock()
			c.shown = c.user + "> "
			fmt.Fprint(c.out, c.shown)
			c.mu.Unlock()
		}
		line, long, err := readLine(r)
		if err != nil && line == "" && long == 0 {
			if errors.Is(err, io.EOF) {
				c.end()
				return nil
			}
			return err
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if long > 0 {
			c.refused(c.t("line.toolong", i18n.Data{"Bytes": long, "KiB": maxLine >> 10}))
		} else if quit := c.Line(ctx, line); quit {
			return nil
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				c.end()
				return nil
			}
			return err
		}
	}
}

// end is the end of the input: a script's end waits for the engine matches it
// started; a person at the terminal leaves at once (a match goes on at the next
// start).
func (c *Console) end() {
	if !c.prompt && c.svc != nil {
		c.svc.Idle()
	}
}

// readLine reads one line of r without its line end; a line longer than r's buffer
// is read to its end, not kept, and reported by its length in long.
func readLine(r *bufio.Reader) (line string, long int, err error) {
	b, err := r.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		for long = len(b); errors.Is(err, bufio.ErrBufferFull); long += len(b) {
			b, err = r.ReadSlice('\n')
		}
		if err == nil {
			long-- // the line end
		}
		return "", long, err
	}
	return strings.TrimRight(string(b), "\r\n"), 0, err
}

// Line runs one line and prints what it produced; it reports whether the line asked
// to quit.
func (c *Console) Line(ctx context.Context, line string) (quit bool) {
	line = strings.TrimSpace(line)
	if line == "" || strings.HasPrefix(line, "#") {
		return false
	}
	c.mu.Lock()
	c.busy, c.shown = true, ""
	c.mu.Unlock()
	defer c.flush()
	if req := c.confirm; req != nil {
		c.confirm = nil
		if c.yes(line) {
			c.handle(ctx, *req)
			return false
		}
		c.printf("%s\n", c.t("confirm.notdone", i18n.Data{"Command": req.Command}))
		if c.no(line) {
			return false
		}
	}
	slash := strings.HasPrefix(line, "/")
	if !slash {
		bare, err := c.bare(line)
		if err != nil {
			c.refused(err.Error())
			return false
		}
		line = "/" + bare
	}
	fields, err := c.split(line[1:])
	if err != nil || len(fields) == 0 {
		c.refused(fmt.Sprint(err))
		return false
	}
	typed := fields
	fields = c.english(fields)
	name := strings.ToLower(fields[0])
	switch name {
	case "quit", "exit", "q":
		return true
	case "as":
		if len(fields) != 2 || !validName(fields[1]) {
			c.refused(c.t("as.usage", i18n.Data{"Most": bot.MaxNameLen}))
			return false
		}
		c.user = strings.ToLower(fields[1])
		c.printf("%s\n", c.t("as.now", i18n.Data{"Name": c.user}))
		return false
	case "whoami":
		c.printf("%s\n", c.t("whoami", i18n.Data{"Name": c.user}))
		return false
	case "wait":
		c.wait(ctx, fields[1:])
		return false
	case "help", "?":
		c.help(ctx, fields[1:])
		return false
	}
	spec, ok := c.svc.Spec(name)
	if !ok {
		c.refused(c.t("nocommand", i18n.Data{"Name": words.ShownID(name)}))
		return false
	}
	if fen, ok := unquotedPosition(line, typed, fields); ok {
		c.refused(c.t("fen.quotes", i18n.Data{"FEN": strconv.Quote(fen)}) + "\n" + c.t("usage", i18n.Data{"Usage": c.usageOf(spec)}))
		return false
	}
	args, err := c.parseArgs(spec, fields[1:])
	if err != nil {
		c.refused(err.Error() + "\n" + c.t("usage", i18n.Data{"Usage": c.usageOf(spec)}))
		return false
	}
	req := bot.Request{User: bot.User{ID: c.user, Name: c.user}, Command: name, Args: args, Locale: c.locale}
	if q := c.question(req); !slash && q != "" {
		c.confirm = &req
		c.printf("%s\n", c.t("confirm.ask", i18n.Data{"Question": q, "Command": name}))
		return false
	}
	c.handle(ctx, req)
	return false
}

// handle runs req and prints its reply.
func (c *Console) handle(ctx context.Context, req bot.Request) {
	c.seq++
	req.ID = fmt.Sprintf("console-%d-%d", time.Now().UnixNano(), c.seq)
	reply := c.svc.Handle(ctx, req)
	c.svc.Settled()
	c.printReply(reply, "")
}

// question is what the console asks before it runs req typed without a slash, as
// Discord asks before a button's command that ends or changes a game: "" for a
// command it runs at once.
func (c *Console) question(req bot.Request) string {
	var key string
	switch req.Command {
	case play.CmdResign:
		key = "question.resign"
	case play.CmdAbort:
		key = "question.abort"
	case play.CmdDraw:
		switch strings.ToLower(req.Args.Get("action")) {
		case "decline":
			return ""
		case "accept":
			key = "question.accept"
		default:
			key = "question.draw"
		}
	default:
		return ""
	}
	if id := req.Args.Get("game"); id != "" {
		return c.t(key+".game", i18n.Data{"Game": words.ShownID(strings.TrimPrefix(id, "#"))})
	}
	return c.t(key+".yours", nil)
}

// yes reports whether line answers a question with yes (in English or the user's
// language); no, with no.
func (c *Console) yes(line string) bool { return c.answers(line, "yes y", "confirm.yes") }

func (c *Console) no(line string) bool { return c.answers(line, "no n", "confirm.no") }

// answers reports whether line is one of the English words or those of message id.
func (c *Console) answers(line, english, id string) bool {
	return slices.Contains(append(strings.Fields(english), strings.Fields(c.t(id, nil))...), strings.ToLower(line))
}

// unquotedPosition reports a position written after fen: without the quotes its
// spaces need (fen:*bkb*/... w - - 0 1), and returns it whole: the words that
// follow, up to the next name:value. The words are line's (typed) with their names
// in English (words).
func unquotedPosition(line string, typed, words []string) (string, bool) {
	i := slices.IndexFunc(words, func(w string) bool { return strings.HasPrefix(strings.ToLower(w), "fen:") })
	if i < 0 || i+1 == len(words) {
		return "", false
	}
	name, _, _ := strings.Cut(strings.ToLower(typed[i]), ":")
	if strings.Contains(strings.ToLower(line), name+`:"`) || strings.Contains(strings.ToLower(line), name+":'") {
		return "", false
	}
	fen := []string{words[i][len("fen:"):]}
	for _, w := range words[i+1:] {
		if strings.Contains(w, ":") {
			break
		}
		fen = append(fen, w)
	}
	if len(fen) == 1 || !strings.Contains(fen[0], "/") {
		return "", false
	}
	return strings.Join(fen, " "), true
}

// flush prints the notifications kept during a command, once the work it started
// is done: all but an engine match's, which goes on in the background, its news
// printed as it comes.
func (c *Console) flush() {
	if c.svc != nil {
		c.svc.Settled()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, n := range c.pending {
		c.printNotification(n)
	}
	c.pending = nil
	c.busy = false
}

func (c *Console) printf(format string, args ...any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	fmt.Fprint(c.out, safe(fmt.Sprintf(format, args...)))
}

// safe returns s with every control character but the line end and the tab
// written out as an escape (\x1b), and the characters that turn text around
// (bidirectional overrides) too: nothing a player typed, echoed back, can move
// the terminal's cursor, clear its screen or disguise the text around it.
func safe(s string) string {
	unsafe := func(r rune) bool {
		return (unicode.IsControl(r) && r != '\n' && r != '\t') || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069)
	}
	if !strings.ContainsFunc(s, unsafe) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if unsafe(r) {
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// wait moves the clock on and runs the scheduler.
func (c *Console) wait(ctx context.Context, words []string) {
	if len(words) != 1 {
		c.refused(c.t("wait.how", nil))
		return
	}
	d, err := c.parseDuration(words[0])
	if err != nil {
		c.refused(err.Error())
		return
	}
	c.clock.Advance(d)
	if c.saveClock != nil {
		if err := c.saveClock(ctx, c.clock.Offset()); err != nil {
			c.printf("%s %s\n", c.t("tag.error", nil), c.t("wait.saveclock", i18n.Data{"Error": err}))
		}
	}
	c.printf("%s\n", c.t("wait.moved", i18n.Data{"Duration": words[0], "Time": c.date(c.clock.Now())}))
	if _, err := c.svc.Tick(ctx); err != nil {
		c.printf("%s %s\n", c.t("tag.error", nil), c.t("wait.scheduler", i18n.Data{"Error": err}))
	}
	c.svc.Wake()
}

var durationRE = regexp.MustCompile(`^(\d+)(d|h|m)$`)

// date writes the clock's time t as /wait says it: with its year in English ("Mon 3
// Mar 2025 12:00 UTC"), as bot/words writes times in the other languages.
func (c *Console) date(t time.Time) string {
	if c.lang() == i18n.English {
		return t.UTC().Format("Mon 2 Jan 2006 15:04 UTC")
	}
	return words.In(c.lang()).Time(t)
}

// parseDuration reads "3d", "25h" or "90m".
func (c *Console) parseDuration(s string) (time.Duration, error) {
	m := durationRE.FindStringSubmatch(strings.ToLower(s))
	if m == nil {
		return 0, errors.New(c.t("wait.notduration", i18n.Data{"Value": rules.Echo(s)}))
	}
	n, _ := strconv.Atoi(m[1])
	unit := map[string]time.Duration{"d": 24 * time.Hour, "h": time.Hour, "m": time.Minute}[m[2]]
	if n > 365*24*60 {
		return 0, errors.New(c.t("wait.toolong", i18n.Data{"Value": rules.Echo(s)}))
	}
	return time.Duration(n) * unit, nil
}

// help prints the service's /help (the commands and a short guide) with the
// console's own commands, or one command's options.
func (c *Console) help(ctx context.Context, fields []string) {
	if len(fields) == 1 {
		name := i18n.EnglishCommand(c.lang(), "", strings.TrimPrefix(strings.ToLower(fields[0]), "/"))
		if cc, ok := consoleCommandNamed(name); ok {
			c.printf("/%s\n  %s\n", c.ccUsage(cc), c.t("cmd."+cc.key+".help", i18n.Data{"Most": bot.MaxNameLen}))
			return
		}
		spec, ok := c.svc.Spec(name)
		if !ok {
			c.refused(c.t("nocommand", i18n.Data{"Name": words.ShownID(name)}))
			return
		}
		c.printf("%s", c.helpOf(spec))
		return
	}
	var b strings.Builder
	r := c.svc.Handle(ctx, bot.Request{User: bot.User{ID: c.user, Name: c.user}, Command: guide.CmdHelp, Locale: c.locale})
	b.WriteString(plain(r.PlainText()))
	b.WriteString("\n" + c.t("help.options", nil) + "\n" + c.t("help.console", nil) + "\n")
	for _, cc := range consoleCommands {
		fmt.Fprintf(&b, "  /%-11s %s\n", c.ccUsage(cc), c.t("cmd."+cc.key+".summary", nil))
	}
	b.WriteString(c.t("help.you", i18n.Data{"Name": c.user, "Resign": c.commandName(play.CmdResign), "Abort": c.commandName(play.CmdAbort),
		"Draw": c.commandName(play.CmdDraw)}) + "\n")
	c.printf("%s", b.String())
}

// ccUsage is the synopsis of the console's own command cc, named in the user's
// language.
func (c *Console) ccUsage(cc consoleCommand) string {
	return c.t("cmd."+cc.key+".usage", i18n.Data{"Name": c.commandName(cc.key)})
}

// commandName returns command name (English) as the user's language names it.
func (c *Console) commandName(name string) string {
	return strings.TrimPrefix(i18n.Commands(c.lang(), "/"+name), "/")
}

// optionName returns option opt of command cmd as the user's language names it.
func (c *Console) optionName(cmd, opt string) string {
	if spec, ok := c.svc.Spec(cmd); ok {
		if o, ok := spec.Option(opt); ok {
			return o.NameIn.In(c.lang(), opt)
		}
	}
	return opt
}

// helpOf is what /help NAME says of spec in the user's language
// (bot.CommandSpec.HelpIn).
func (c *Console) helpOf(spec bot.CommandSpec) string { return spec.HelpIn(c.lang()) }

// usageOf is spec's synopsis in the user's language (bot.CommandSpec.UsageIn):
// "/move move:<string> [game:<string>]".
func (c *Console) usageOf(spec bot.CommandSpec) string { return spec.UsageIn(c.lang()) }

// subcommands lists spec's subcommands as the user's language names them:
// "create|join|...".
func (c *Console) subcommands(spec bot.CommandSpec) string {
	names := make([]string, len(spec.Subcommands))
	for i, sc := range spec.Subcommands {
		names[i] = sc.NameIn.In(c.lang(), sc.Name)
	}
	return strings.Join(names, "|")
}

// english returns the words of a command line with the names in English that the
// user typed as their language names them (/zug partie:2 zug:e4 is /move game:2
// move:e4): the command, its subcommand (also given as action:NAME) and its
// options' names, never a value. English names stay as they are.
func (c *Console) english(fields []string) []string {
	l := c.lang()
	if l == i18n.English || len(fields) == 0 {
		return fields
	}
	out := slices.Clone(fields)
	cmd := i18n.EnglishCommand(l, "", strings.ToLower(out[0]))
	if cmd != strings.ToLower(out[0]) {
		out[0] = cmd
	}
	paths := []string{cmd}
	if spec, ok := c.svc.Spec(cmd); ok && len(spec.Subcommands) > 0 {
		sub := ""
		for i, w := range out[1:] {
			if k, v, ok := strings.Cut(w, ":"); ok && strings.EqualFold(k, bot.SubcommandArg) {
				sub = i18n.EnglishCommand(l, cmd, strings.ToLower(v))
				out[i+1] = k + ":" + sub
				break
			}
		}
		if sub == "" && len(out) > 1 && !strings.Contains(out[1], ":") {
			if en := i18n.EnglishCommand(l, cmd, strings.ToLower(out[1])); en != strings.ToLower(out[1]) {
				out[1] = en
			}
			sub = strings.ToLower(out[1])
		}
		if sc, ok := spec.Subcommand(sub); ok {
			paths = []string{cmd + "." + sc.Name}
		} else {
			for _, sc := range spec.Subcommands {
				paths = append(paths, cmd+"."+sc.Name)
			}
		}
	}
	for i, w := range out[1:] {
		k, v, ok := strings.Cut(w, ":")
		if !ok {
			continue
		}
		for _, p := range paths {
			if en := i18n.EnglishCommand(l, p+".option", strings.ToLower(k)); en != strings.ToLower(k) {
				out[i+1] = en + ":" + v
				break
			}
		}
	}
	return out
}

// bare returns line, typed without a slash, as a command line without it: a line
// whose first word names a command is that command ("help", "games", "challenge
// gothic bob"), for no move of any game is spelt as one; any other line is a move,
// perhaps with the game it is for (e2e4 game:3). Other words are refused. The
// command and the option may be named in the user's language.
func (c *Console) bare(line string) (string, error) {
	fields := strings.Fields(line)
	first := i18n.EnglishCommand(c.lang(), "", strings.ToLower(fields[0]))
	if _, ok := c.svc.Spec(first); ok {
		return line, nil
	}
	if _, ok := consoleCommandNamed(first); ok {
		return line, nil
	}
	for _, w := range fields[1:] {
		if name, _, ok := strings.Cut(w, ":"); !ok || i18n.EnglishCommand(c.lang(), play.CmdMove+".option", strings.ToLower(name)) != "game" {
			return "", errors.New(c.t("bare.unreadable", i18n.Data{"Line": rules.Echo(line), "Game": c.optionName(play.CmdMove, "game"),
				"Board": c.commandName("board"), "Help": c.commandName(guide.CmdHelp)}))
		}
	}
	return "move " + line, nil
}

// consoleCommandNamed returns the console's own command called name (or one of
// its other spellings).
func consoleCommandNamed(name string) (consoleCommand, bool) {
	i := slices.IndexFunc(consoleCommands, func(cc consoleCommand) bool { return slices.Contains(cc.names, name) })
	if i < 0 {
		return consoleCommand{}, false
	}
	return consoleCommands[i], true
}

// consoleCommand is a command of the console itself, not of the service. Its
// synopsis, summary and what /help NAME says are the catalogue's cmd.<key>.usage,
// .summary and .help; its name in other languages command.<name>.name.
type consoleCommand struct {
	key   string
	names []string // the name, then its other spellings
}

// consoleCommands are the console's own commands, as /help shows them.
var consoleCommands = []consoleCommand{
	{"as", []string{"as"}},
	{"whoami", []string{"whoami"}},
	{"wait", []string{"wait"}},
	{"help", []string{"help", "?"}},
	{"quit", []string{"quit", "exit", "q"}},
}

// validName reports whether s can be a console identity.
func validName(s string) bool {
	if s == "" || utf8.RuneCountInString(s) > bot.MaxNameLen || strings.HasPrefix(strings.ToLower(s), "engine") {
		return false
	}
	return !strings.ContainsFunc(s, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-' && r != '_'
	})
}

// split is split with its refusal in the user's language.
func (c *Console) split(line string) ([]string, error) {
	words, err := split(line)
	if err != nil {
		return nil, errors.New(c.t("split.quote", nil))
	}
	return words, nil
}

// split cuts a command line into words, keeping quoted parts ("..." or '...')
// together, also inside name:"value".
func split(line string) ([]string, error) {
	var words []string
	var cur strings.Builder
	in := false
	var quote rune
	quoted := false
	for _, r := range line {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case r == '"' || r == '\'':
			quote, in, quoted = r, true, true
		case unicode.IsSpace(r):
			if in {
				words = append(words, cur.String())
				cur.Reset()
				in, quoted = false, false
			}
		default:
			cur.WriteRune(r)
			in = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("a quote is not closed")
	}
	if in || quoted {
		words = append(words, cur.String())
	}
	return words, nil
}

// parseArgs reads name:value pairs and bare values. A bare value goes to the first
// unset option whose fixed choices include it, else to the next unset option in
// order that has no fixed choices. Its refusals are in the user's language.
func (c *Console) parseArgs(spec bot.CommandSpec, words []string) (bot.Args, error) {
	if len(spec.Subcommands) > 0 {
		return c.parseSubcommand(spec, words)
	}
	l := c.lang()
	args := bot.Args{}
	set := func(name string) bool { _, ok := args[name]; return ok }
	var bare []string
	for _, w := range words {
		if name, value, ok := strings.Cut(w, ":"); ok {
			if _, known := spec.Option(strings.ToLower(name)); known {
				args[strings.ToLower(name)] = value
				continue
			}
		}
		bare = append(bare, w)
	}
	for _, w := range bare {
		placed := false
		for _, o := range spec.Options {
			if !set(o.Name) && slices.ContainsFunc(o.Choices, func(ch bot.OptionChoice) bool { return strings.EqualFold(ch.Value, w) }) {
				args[o.Name], placed = w, true
				break
			}
		}
		for _, o := range spec.Options {
			if !placed && !set(o.Name) && len(o.Choices) == 0 {
				args[o.Name], placed = w, true
			}
		}
		if !placed {
			names := make([]string, len(spec.Options))
			for i, o := range spec.Options {
				names[i] = o.NameIn.In(l, o.Name)
			}
			if len(names) == 0 {
				return nil, errors.New(c.t("args.none", i18n.Data{"Command": spec.Name, "Value": rules.Echo(w)}))
			}
			return nil, errors.New(c.t("args.nofit", i18n.Data{"Value": rules.Echo(w), "Command": spec.Name, "Options": strings.Join(names, ", ")}))
		}
	}
	for _, o := range spec.Options {
		v, ok := args[o.Name]
		if !ok {
			continue
		}
		if o.Type == bot.OptUser {
			args[o.Name] = strings.ToLower(v) // a console player is their name in lower case, as /as makes it
		}
		if len(o.Choices) > 0 && !slices.ContainsFunc(o.Choices, func(ch bot.OptionChoice) bool { return strings.EqualFold(ch.Value, v) }) &&
			o.Name != "variant" && o.Name != "days" { // the service explains those itself
			vals := make([]string, len(o.Choices))
			for i, ch := range o.Choices {
				vals[i] = ch.Value
			}
			return nil, errors.New(c.t("args.choice", i18n.Data{"Option": o.NameIn.In(l, o.Name), "Values": strings.Join(vals, ", "), "Value": rules.Echo(v)}))
		}
	}
	return args, nil
}

// parseSubcommand reads the options of a command with subcommands: the subcommand
// is the first word ("/tournament join") or given as action:join, and the other
// words are its options. Without one, the words may be any subcommand's options and
// the service says what is missing.
func (c *Console) parseSubcommand(spec bot.CommandSpec, words []string) (bot.Args, error) {
	name, rest := "", words
	for i, w := range words {
		if k, v, ok := strings.Cut(w, ":"); ok && strings.EqualFold(k, bot.SubcommandArg) {
			name, rest = v, append(slices.Clone(words[:i]), words[i+1:]...)
			break
		}
	}
	if name == "" && len(words) > 0 && !strings.Contains(words[0], ":") {
		name, rest = words[0], words[1:]
	}
	inner := bot.CommandSpec{Name: spec.Name, Options: spec.AllOptions()}
	if name != "" {
		sc, ok := spec.Subcommand(name)
		if !ok {
			return nil, errors.New(c.t("args.nosub", i18n.Data{"Command": spec.Name, "Value": rules.Echo(name), "Usage": c.subcommands(spec)}))
		}
		inner = bot.CommandSpec{Name: spec.Name + " " + sc.Name, Options: sc.Options}
	}
	args, err := c.parseArgs(inner, rest)
	if err != nil {
		return nil, err
	}
	if name != "" {
		args[bot.SubcommandArg] = strings.ToLower(name)
	}
	return args, nil
}

// printReply prints a reply, indented after a header when it is a notification.
func (c *Console) printReply(r bot.Reply, header string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.writeReply(r, header)
}

// writeReply prints r; the caller holds c.mu.
func (c *Console) writeReply(r bot.Reply, header string) {
	var b strings.Builder
	if header != "" {
		b.WriteString(header + "\n")
	}
	tags := ""
	if r.Refused {
		tags += c.t("tag.refused", nil) + " "
	}
	if r.Private && !r.Refused {
		tags += c.t("tag.private", nil) + " "
	}
	if r.Title != "" {
		b.WriteString(tags + "== " + r.Title + " ==\n")
		tags = ""
	}
	if r.Text != "" {
		b.WriteString(tags + plain(r.Text) + "\n")
	}
	for _, f := range r.Fields {
		fmt.Fprintf(&b, "%s: %s\n", f.Name, strings.ReplaceAll(plain(f.Value), "\n", "\n  "))
	}
	if r.Board != "" {
		b.WriteString(strings.TrimRight(r.Board, "\n") + "\n")
	}
	for _, f := range r.Files {
		if strings.HasPrefix(f.ContentType, "application/x-chess-pgn") || strings.HasPrefix(f.ContentType, "text/") {
			b.WriteString(strings.TrimRight(string(f.Data), "\n") + "\n")
		}
		path, err := c.save(f)
		if err != nil {
			b.WriteString(c.t("file.unsaved", i18n.Data{"Name": f.Name, "Error": err}) + "\n")
			continue
		}
		fmt.Fprintf(&b, "[%s] %s\n", c.t("file."+kind(f.ContentType), nil), path)
	}
	if len(r.Mentions) > 0 {
		b.WriteString("(@" + strings.Join(r.Mentions, ", @") + ")\n")
	}
	if len(r.Actions) > 0 {
		var acts []string
		for _, a := range r.Actions {
			if a.URL != "" { // a link: the page it opens
				acts = append(acts, a.Label+": "+a.URL)
				continue
			}
			acts = append(acts, a.Label+": "+i18n.Commands(c.lang(), usage(a.Command, a.Args, a.Input)))
		}
		b.WriteString(c.t("buttons", i18n.Data{"Buttons": strings.Join(acts, " | ")}) + "\n")
	}
	if ch := r.Choice; ch != nil {
		var opts []string
		for _, o := range ch.Options {
			opts = append(opts, o.Label+": "+i18n.Commands(c.lang(), usage(ch.Command, withArg(ch.Args, ch.Arg, o.Value), "")))
		}
		b.WriteString(ch.Placeholder + ":\n  " + strings.Join(opts, "\n  ") + "\n")
	}
	fmt.Fprint(c.out, safe(b.String()))
}

// printNotification prints a notification for its addressee; the caller holds c.mu.
func (c *Console) printNotification(n bot.Notification) {
	how := ""
	switch {
	case n.Channel && n.Direct:
		how = c.t("notice.both", nil)
	case n.Channel:
		how = c.t("notice.mention", nil)
	case n.Direct:
		how = c.t("notice.direct", nil)
	}
	kind := string(n.Kind)
	if catalogue.Has("notice.kind." + kind) {
		kind = c.t("notice.kind."+kind, nil)
	}
	c.writeReply(n.Reply, c.t("notice.header", i18n.Data{"Name": n.To.Name, "How": how, "Kind": kind}))
}

// usage writes the console command that an action runs.
func usage(cmd string, args bot.Args, input string) string {
	keys := make([]string, 0, len(args))
	for k := range args {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := []string{"/" + cmd}
	for _, k := range keys {
		v := args[k]
		if strings.ContainsAny(v, " \t") {
			v = strconv.Quote(v)
		}
		parts = append(parts, k+":"+v)
	}
	if input != "" {
		parts = append(parts, input+":...")
	}
	return strings.Join(parts, " ")
}

func withArg(a bot.Args, name, value string) bot.Args {
	out := bot.Args{}
	for k, v := range a {
		out[k] = v
	}
	out[name] = value
	return out
}

func kind(contentType string) string {
	switch {
	case strings.HasPrefix(contentType, "image/png"):
		return "picture"
	case strings.HasPrefix(contentType, "image/gif"):
		return "animation"
	case strings.HasPrefix(contentType, "application/x-chess-pgn"):
		return "pgn"
	}
	return "file"
}

// save writes f into the images folder and returns its path.
func (c *Console) save(f bot.File) (string, error) {
	if c.images == "" {
		return "", errors.New(c.t("file.nofolder", nil))
	}
	if err := os.MkdirAll(c.images, 0o755); err != nil {
		return "", err
	}
	path := filepath.Join(c.images, filepath.Base(f.Name))
	if err := os.WriteFile(path, f.Data, 0o644); err != nil {
		return "", err
	}
	return path, nil
}
