package discord_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image/png"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/discord"
	"github.com/missivechess/missive/bot/discord/discordtest"
	"github.com/missivechess/missive/bot/features"
	"github.com/missivechess/missive/bot/tournaments"
	"github.com/missivechess/missive/engine"
	"github.com/missivechess/missive/engine/external"
	"github.com/missivechess/missive/rules/variants"
	"github.com/missivechess/missive/storage"
)

// env is a fake Discord with the bot connected to it.
type env struct {
	t   *testing.T
	srv *discordtest.Server
	b   *discord.Bot
	svc *bot.Service
	st  *storage.Store
	ctx context.Context
	// stop stops the bot process (also done when the test ends).
	stop func()
}

func start(t *testing.T, opts discord.Options, cfg discordtest.Config) *env {
	t.Helper()
	return startWith(t, discordtest.New(t, cfg), opts, nil)
}

// startWith connects a bot with opts and engine (nil: none) to srv.
func startWith(t *testing.T, srv *discordtest.Server, opts discord.Options, engine bot.Engine) *env {
	t.Helper()
	return startProcess(t, srv, opts, engine, filepath.Join(t.TempDir(), "bot.db"), nil)
}

// startProcess connects a bot process to srv as startWith does, with its data file at
// path and, when wrap is not nil, wrap's notifier in front of the adapter. The process
// stops at env.stop or when the test ends.
func startProcess(t *testing.T, srv *discordtest.Server, opts discord.Options, engine bot.Engine, path string, wrap func(*discord.Bot) bot.Notifier) *env {
	t.Helper()
	return startTuned(t, srv, opts, engine, path, wrap, nil)
}

// startTuned starts a bot process as startProcess does, with tune (when not nil)
// adjusting the service's configuration first.
func startTuned(t *testing.T, srv *discordtest.Server, opts discord.Options, engine bot.Engine, path string, wrap func(*discord.Bot) bot.Notifier, tune func(*bot.Config)) *env {
	t.Helper()
	reg := variants.Registry()
	st, err := storage.Open(path, reg, &storage.Options{NoSync: true, NoBackupSocket: true})
	if err != nil {
		t.Fatal(err)
	}
	var w io.Writer = io.Discard
	if os.Getenv("MISSIVE_TEST_LOG") != "" {
		w = os.Stderr
	}
	log := slog.New(slog.NewTextHandler(w, nil))
	opts.Token = "test-token"
	opts.HTTPClient, opts.Dialer, opts.Logger = srv.HTTPClient(), srv.Dialer(), log
	b, err := discord.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	var notifier bot.Notifier = b
	if wrap != nil {
		notifier = wrap(b)
	}
	n := uint64(0)
	cfg := bot.Config{Store: st, Registry: reg, Renderer: bot.NewRenderer(), Notifier: notifier, Logger: log, Engine: engine, Gateway: true,
		Rand: func() uint64 { n++; return n * 7919 }}
	if tune != nil {
		tune(&cfg)
	}
	svc, err := bot.New(features.With(cfg, features.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	b.Attach(svc)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	if err := b.Open(ctx); err != nil {
		t.Fatal(err)
	}
	e := &env{t: t, srv: srv, b: b, svc: svc, st: st, ctx: ctx}
	e.stop = sync.OnceFunc(func() {
		b.Close()
		svc.Idle()
		svc.Close()
		st.Close()
		cancel()
	})
	t.Cleanup(e.stop)
	return e
}

// answer waits for the finished original response to in.
func (e *env) answer(in *discordtest.Interaction) *discordtest.Message {
	e.t.Helper()
	if in == nil {
		e.t.Fatal("interaction not delivered")
	}
	m, err := e.srv.WaitOriginal(e.ctx, in, nil)
	if err != nil {
		e.t.Fatalf("no answer to interaction: %v", err)
	}
	return m
}

func text(m *discordtest.Message) string {
	var b strings.Builder
	b.WriteString(m.Content)
	for _, e := range m.Embeds {
		b.WriteString("\n" + e.Title + "\n" + e.Description)
		for _, f := range e.Fields {
			b.WriteString("\n" + f.Name + ": " + f.Value)
		}
	}
	return b.String()
}

// buttonID returns the custom id of the button labelled label in m.
func buttonID(t testing.TB, m *discordtest.Message, label string) string {
	t.Helper()
	var find func(cs []discordtest.Component) string
	find = func(cs []discordtest.Component) string {
		for _, c := range cs {
			if c.Label == label && c.CustomID != "" {
				return c.CustomID
			}
			if id := find(c.Components); id != "" {
				return id
			}
		}
		return ""
	}
	id := find(m.Components)
	if id == "" {
		t.Fatalf("no %q button in %q", label, text(m))
	}
	return id
}

func TestRegistration(t *testing.T) {
	e := start(t, discord.Options{}, discordtest.Config{})
	cmds := e.srv.Commands("")
	names := map[string]bool{}
	for _, c := range cmds {
		names[c.Name] = true
	}
	// Commands that buttons also reach are registered too, so that sentences naming
	// them (and players without the buttons) are never at a dead end.
	for _, want := range []string{"challenge", "accept", "decline", "cancel", "challenges", "move", "place", "board", "games", "resign", "draw", "takeback", "abort", "pgn", "gif", "hint", "rules", "settings", "help"} {
		if !names[want] {
			t.Errorf("command /%s not registered; got %v", want, names)
		}
	}
	if n := len(e.srv.RequestsTo("PUT /applications/{application_id}/commands")); n != 1 {
		t.Errorf("%d bulk overwrites, want 1", n)
	}
	if got := e.srv.Identifies()[0].Intents; got != discordgo.IntentsGuilds {
		t.Errorf("intents %v, want Guilds only", got)
	}
}

// accept has user press Accept on the challenge message ch and returns the message
// as the answer left it: the challenge message itself, updated in place (after a
// deferred update, once the update has come).
func (e *env) accept(user string, ch *discordtest.Message) *discordtest.Message {
	t := e.t
	t.Helper()
	in := e.srv.Click(user, ch.ID, buttonID(t, ch, "Accept"))
	if in == nil {
		t.Fatal("interaction not delivered")
	}
	acc, err := e.srv.WaitOriginal(e.ctx, in, func(m *discordtest.Message) bool { return strings.Contains(text(m), "accepted") })
	if err != nil {
		for _, f := range e.srv.Followups(in) {
			t.Logf("followup: %q", text(f))
		}
		t.Fatalf("the challenge message was not updated with the acceptance: %v", err)
	}
	if acc.ID != ch.ID {
		t.Errorf("the acceptance was posted as message %s, not in place of the challenge %s", acc.ID, ch.ID)
	}
	return acc
}

// gothicGame starts a Gothic game between alice (white) and bob in #general and
// returns its thread.
func gothicGame(e *env) string { return startGame(e, "bob", "general", "gothic") }

// startGame starts a game of variant between alice (white, where colours apply) and
// opponent in channel, and returns its thread once the bot has posted the board there.
func startGame(e *env, opponent, channel, variant string) string {
	t := e.t
	t.Helper()
	before := len(e.srv.Threads(e.srv.Channel(channel).ID))
	opts := []discordtest.Opt{{Name: "variant", Value: variant}, {Name: "opponent", Value: opponent}}
	if variant != "gochess" {
		opts = append(opts, discordtest.Opt{Name: "color", Value: "white"})
	}
	ch := e.answer(e.srv.Command("alice", channel, "challenge", opts...))
	acc := e.accept(opponent, ch)
	var thread string
	if err := e.srv.Wait(e.ctx, func() bool {
		th := e.srv.Threads(e.srv.Channel(channel).ID)
		for _, c := range th {
			if len(th) > before && strings.Contains(c.Name, acc.Embeds[0].Title) {
				thread = c.ID
				return len(e.srv.Messages(thread)) > 0
			}
		}
		return false
	}); err != nil {
		t.Fatalf("no game thread with a board: %v", err)
	}
	return thread
}

func TestGothicGame(t *testing.T) {
	e := start(t, discord.Options{}, discordtest.Config{})
	thread := gothicGame(e)
	if name := e.srv.Channel(thread).Name; !strings.Contains(name, "Gothic") {
		t.Errorf("thread name %q does not name the variant", name)
	}
	board := e.srv.Messages(thread)[0]
	if len(board.Attachments) == 0 {
		t.Error("board message has no image")
	}

	ac := e.srv.Autocomplete("alice", thread, "move", discordtest.Opt{Name: "move", Value: "e"})
	cb, err := e.srv.WaitCallback(e.ctx, ac)
	if err != nil {
		t.Fatal(err)
	}
	if len(cb.Choices) == 0 || len(cb.Choices) > 25 {
		t.Fatalf("%d autocomplete choices", len(cb.Choices))
	}
	found := false
	for _, c := range cb.Choices {
		found = found || c.Name == "e4"
	}
	if !found {
		t.Errorf("e4 not among choices %v", cb.Choices)
	}

	mv := e.answer(e.srv.Command("alice", thread, "move", discordtest.Opt{Name: "move", Value: "e4"}))
	if mv.Ephemeral {
		t.Fatalf("move answered privately: %q", text(mv))
	}
	// A non-player is refused, privately.
	no := e.answer(e.srv.Command("carol", thread, "move", discordtest.Opt{Name: "move", Value: "e5"}))
	if !no.Ephemeral {
		t.Errorf("refusal to carol is public: %q", text(no))
	}
	// Bob moves through the Move button and its modal.
	open := e.srv.Click("bob", mv.ID, buttonID(t, mv, "Move"))
	if _, err := e.srv.WaitCallback(e.ctx, open); err != nil {
		t.Fatal(err)
	}
	sub := e.srv.SubmitModal("bob", open, map[string]string{"move": "e5"})
	reply := e.answer(sub)
	if reply.Ephemeral || !strings.Contains(text(reply), "e5") {
		t.Fatalf("modal move answer: %q (ephemeral %v)", text(reply), reply.Ephemeral)
	}
	// Alice offers a draw with the button; bob is told in the thread. (The buttons
	// of bob's answer are in his client's German.)
	offer := e.answer(e.srv.Click("alice", reply.ID, buttonID(t, reply, "Remis anbieten")))
	if !strings.Contains(strings.ToLower(text(offer)), "draw") {
		t.Errorf("draw offer answer: %q", text(offer))
	}
	if bob := e.srv.User("bob").ID; !strings.Contains(offer.Content, bob) || !strings.Contains(strings.Join(offer.Mentions, " "), bob) {
		t.Errorf("draw offer does not mention bob: %q %v", offer.Content, offer.Mentions)
	}
	// Bob resigns through the button and its confirmation.
	ask := e.answer(e.srv.Click("bob", reply.ID, buttonID(t, reply, "Aufgeben")))
	if !ask.Ephemeral {
		t.Error("resignation confirmation is public")
	}
	done := e.answer(e.srv.Click("bob", ask.ID, buttonID(t, ask, "Ja"))) // bob's client is German
	if !strings.Contains(strings.ToLower(text(done)), "aufgegeben") {
		t.Errorf("resignation answer: %q", text(done))
	}
}

func TestRedeliveredInteractionAppliesOnce(t *testing.T) {
	e := start(t, discord.Options{}, discordtest.Config{})
	thread := gothicGame(e)
	in := e.srv.Command("alice", thread, "move", discordtest.Opt{Name: "move", Value: "e4"})
	e.srv.Redeliver(in)
	e.answer(in)
	e.svc.Idle()
	time.Sleep(200 * time.Millisecond)
	if n := len(e.srv.Callbacks(in)); n != 1 {
		t.Errorf("%d callbacks for one interaction delivered twice", n)
	}
	h := e.answer(e.srv.Command("alice", thread, "history"))
	if strings.Count(text(h), "e4") != 1 {
		t.Errorf("history after a redelivery: %q", text(h))
	}
}

func TestDisconnectResume(t *testing.T) {
	e := start(t, discord.Options{}, discordtest.Config{})
	thread := gothicGame(e)
	e.answer(e.srv.Command("alice", thread, "move", discordtest.Opt{Name: "move", Value: "e4"}))
	if e.srv.Disconnect() != 1 {
		t.Fatal("no gateway connection to drop")
	}
	if err := e.srv.WaitConnected(e.ctx, 1); err != nil {
		t.Fatal(err)
	}
	if n := len(e.srv.Identifies()); n != 1 {
		t.Errorf("%d identifies: the bot identified again instead of resuming", n)
	}
	mv := e.answer(e.srv.Command("bob", thread, "move", discordtest.Opt{Name: "move", Value: "e5"}))
	if mv.Ephemeral {
		t.Errorf("move after resume refused: %q", text(mv))
	}
}

func TestSlowOperationDeferred(t *testing.T) {
	e := start(t, discord.Options{DeferAfter: time.Nanosecond}, discordtest.Config{})
	thread := gothicGame(e)
	in := e.srv.Command("alice", thread, "move", discordtest.Opt{Name: "move", Value: "e4"})
	m := e.answer(in)
	cbs := e.srv.Callbacks(in)
	if len(cbs) == 0 || cbs[0].Type != discordgo.InteractionResponseDeferredChannelMessageWithSource {
		t.Fatalf("callbacks %v, want a deferred answer", cbs)
	}
	if m.Ephemeral || !strings.Contains(text(m), "e4") {
		t.Errorf("deferred answer not completed: %q", text(m))
	}
}

// A slow command whose answer is private (its spec says so, /rules among them) is
// acknowledged privately, so nothing shows publicly even for a moment.
func TestSlowPrivateCommandDeferredPrivately(t *testing.T) {
	e := start(t, discord.Options{DeferAfter: time.Nanosecond}, discordtest.Config{})
	in := e.srv.Command("alice", "general", "rules", discordtest.Opt{Name: "variant", Value: "gothic"})
	m := e.answer(in)
	cbs := e.srv.Callbacks(in)
	if len(cbs) == 0 || cbs[0].Type != discordgo.InteractionResponseDeferredChannelMessageWithSource || !cbs[0].Ephemeral {
		t.Fatalf("callbacks %+v, want a private deferred answer", cbs)
	}
	if !m.Ephemeral || !strings.Contains(text(m), "Gothic") {
		t.Errorf("the rules card is not the private deferred answer: %q (ephemeral %v)", text(m), m.Ephemeral)
	}
}

func TestGoChessPlacementPrivate(t *testing.T) {
	e := start(t, discord.Options{}, discordtest.Config{})
	thread := startGame(e, "bob", "general", "gochess")
	ac := e.srv.Autocomplete("alice", thread, "place", discordtest.Opt{Name: "cell", Value: ""})
	cb, err := e.srv.WaitCallback(e.ctx, ac)
	if err != nil {
		t.Fatal(err)
	}
	if len(cb.Choices) < 2 {
		t.Fatalf("%d cells offered", len(cb.Choices))
	}
	cell := cb.Choices[len(cb.Choices)-1].Value.(string)
	m := e.answer(e.srv.Command("alice", thread, "place", discordtest.Opt{Name: "cell", Value: cell}))
	if !m.Ephemeral || !strings.Contains(text(m), cell) {
		t.Errorf("alice's placement choice is not a private answer naming %s: %q", cell, text(m))
	}
	e.svc.Idle()
	for _, ch := range []string{thread, e.srv.Channel("general").ID} {
		for _, pm := range e.srv.Messages(ch) {
			if !pm.Ephemeral && strings.Contains(text(pm), " "+cell) {
				t.Errorf("alice's secret cell %s shown publicly: %q", cell, text(pm))
			}
		}
	}
}

func TestThreadsRefusedFallsBack(t *testing.T) {
	e := start(t, discord.Options{}, discordtest.Config{})
	for i := 0; i < 2; i++ {
		ch := e.answer(e.srv.Command("alice", "no-threads", "challenge",
			discordtest.Opt{Name: "variant", Value: "gothic"}, discordtest.Opt{Name: "opponent", Value: "bob"}))
		e.answer(e.srv.Click("bob", ch.ID, buttonID(t, ch, "Accept")))
	}
	e.svc.Idle()
	n := 0
	for _, m := range e.srv.Messages("no-threads") {
		if strings.Contains(m.Content, "may not create threads") {
			n++
		}
	}
	if n != 1 {
		t.Errorf("fallback announced %d times, want once", n)
	}
}

func TestConfirmationAndNonPlayerClick(t *testing.T) {
	e := start(t, discord.Options{}, discordtest.Config{})
	thread := gothicGame(e)
	mv := e.answer(e.srv.Command("alice", thread, "move", discordtest.Opt{Name: "move", Value: "e4"}))
	ask := e.answer(e.srv.Click("carol", mv.ID, buttonID(t, mv, "Resign")))
	if !strings.Contains(text(ask), "Resign game") {
		t.Errorf("confirmation question %q, want the service's", text(ask))
	}
	no := e.answer(e.srv.Click("carol", ask.ID, buttonID(t, ask, "Oui"))) // carol's client is French
	if !no.Ephemeral {
		t.Errorf("a non-player's resignation was answered publicly: %q", text(no))
	}
	h := e.answer(e.srv.Command("alice", thread, "board"))
	if strings.Contains(strings.ToLower(text(h)), "resign") {
		t.Errorf("carol resigned someone else's game: %q", text(h))
	}
}

func TestDeferredPrivateReplyStaysPrivate(t *testing.T) {
	e := start(t, discord.Options{DeferAfter: time.Nanosecond}, discordtest.Config{})
	in := e.srv.Command("carol", "general", "move", discordtest.Opt{Name: "move", Value: "e4"})
	ctx, cancel := context.WithTimeout(e.ctx, 5*time.Second)
	defer cancel()
	refusal, err := e.srv.WaitMessage(ctx, "general", func(m *discordtest.Message) bool {
		return strings.Contains(text(m), "aucune partie en cours") // carol's client is French
	})
	if err != nil {
		t.Fatal(err)
	}
	if !refusal.Ephemeral || refusal.VisibleTo != e.srv.User("carol").ID {
		t.Errorf("refusal is not private to carol: %+v", refusal)
	}
	if err := e.srv.Wait(ctx, func() bool {
		for _, m := range e.srv.Messages("general") {
			if m.InteractionID == in.ID && !m.Ephemeral && !m.Deleted {
				return false
			}
		}
		return true
	}); err != nil {
		t.Errorf("a public placeholder stayed: %v", err)
	}
}

func TestNotificationsByDM(t *testing.T) {
	e := start(t, discord.Options{}, discordtest.Config{})
	for _, who := range []string{"bob", "dave"} {
		e.answer(e.srv.Command(who, "general", "settings", discordtest.Opt{Name: "notify", Value: "dm"}))
	}
	games := map[string]string{}
	for _, who := range []string{"bob", "dave"} {
		games[who] = startGame(e, who, "games", "gothic")
		e.answer(e.srv.Command("alice", games[who], "move", discordtest.Opt{Name: "move", Value: "e4"}))
	}
	e.svc.Idle()
	ctx, cancel := context.WithTimeout(e.ctx, 5*time.Second)
	defer cancel()
	// bob gets a direct message about his turn.
	if _, err := e.srv.WaitMessage(ctx, e.srv.DMChannel("bob"), func(m *discordtest.Message) bool {
		return strings.Contains(text(m), "e4")
	}); err != nil {
		t.Errorf("bob got no direct message: %v", err)
	}
	// dave blocks direct messages: he is mentioned in his game's thread instead.
	dave := e.srv.User("dave").ID
	if _, err := e.srv.WaitMessage(ctx, games["dave"], func(m *discordtest.Message) bool {
		return m.InteractionID == "" && slices.Contains(m.Mentions, dave) && strings.Contains(text(m), "e4")
	}); err != nil {
		for _, r := range e.srv.Requests() {
			if strings.Contains(r.Route, "messages") || strings.Contains(r.Route, "users") {
				t.Logf("%s %s %d %.200s", r.Route, r.Path, r.Status, r.Body)
			}
		}
		t.Errorf("dave was not reached in the thread: %v", err)
	}
}

func TestPromotionSelect(t *testing.T) {
	e := start(t, discord.Options{}, discordtest.Config{})
	ch := e.answer(e.srv.Command("alice", "general", "challenge",
		discordtest.Opt{Name: "variant", Value: "gothic"}, discordtest.Opt{Name: "opponent", Value: "bob"},
		discordtest.Opt{Name: "color", Value: "white"}, discordtest.Opt{Name: "fen", Value: "5k4/1P8/10/10/10/10/10/5K4 w - - 0 1"}))
	if ch.Ephemeral {
		t.Fatalf("challenge from a position refused: %q", text(ch))
	}
	e.answer(e.srv.Click("bob", ch.ID, buttonID(t, ch, "Accept")))
	if err := e.srv.Wait(e.ctx, func() bool {
		th := e.srv.Threads(e.srv.Channel("general").ID)
		return len(th) == 1 && len(e.srv.Messages(th[0].ID)) > 0
	}); err != nil {
		t.Fatal(err)
	}
	thread := e.srv.Threads(e.srv.Channel("general").ID)[0].ID
	ask := e.answer(e.srv.Command("alice", thread, "move", discordtest.Opt{Name: "move", Value: "b8"}))
	var menu *discordtest.Component
	var find func(cs []discordtest.Component)
	find = func(cs []discordtest.Component) {
		for i := range cs {
			if cs[i].Type == discordgo.SelectMenuComponent {
				menu = &cs[i]
			}
			find(cs[i].Components)
		}
	}
	find(ask.Components)
	if menu == nil || len(menu.Options) < 2 {
		t.Fatalf("no promotion menu in %q", text(ask))
	}
	var value string
	for _, o := range menu.Options {
		if strings.Contains(strings.ToLower(o.Label+" "+o.Description), "chancellor") {
			value = o.Value
		}
	}
	if value == "" {
		t.Fatalf("no chancellor among %v", menu.Options)
	}
	done := e.answer(e.srv.Select("alice", ask.ID, menu.CustomID, value))
	if done.Ephemeral || !strings.Contains(text(done), "b8") {
		t.Errorf("promotion answer: %q", text(done))
	}
}

func TestGuildRegistration(t *testing.T) {
	srv := discordtest.New(t, discordtest.Config{})
	guild := srv.Guild().ID
	e := startWith(t, srv, discord.Options{Guilds: []string{guild}}, nil)
	if n := len(e.srv.Commands(guild)); n < 14 {
		t.Errorf("%d commands registered to the guild", n)
	}
	if n := len(e.srv.Commands("")); n != 0 {
		t.Errorf("%d global commands with guild registration configured", n)
	}
	// The guild's commands work.
	m := e.answer(e.srv.Command("alice", "general", "rules", discordtest.Opt{Name: "variant", Value: "keltic"}))
	if !strings.Contains(text(m), "Keltic") {
		t.Errorf("/rules answer %q", text(m))
	}
}

func TestAdminActionsCheckedWithDiscordPermissions(t *testing.T) {
	e := start(t, discord.Options{}, discordtest.Config{})
	create := []discordtest.Opt{{Name: "name", Value: "Autumn"},
		{Name: "variant", Value: "gothic"}, {Name: "format", Value: "round-robin"}}
	no := e.answer(e.srv.Command("alice", "general", "tournament create", create...))
	if !no.Ephemeral {
		t.Errorf("alice (no Manage Server) created a tournament: %q", text(no))
	}
	yes := e.answer(e.srv.Command("carol", "general", "tournament create", create...))
	if yes.Ephemeral {
		t.Errorf("carol (Admin role) was refused: %q", text(yes))
	}
}

func TestNotifyPlaceWithoutAddressee(t *testing.T) {
	e := start(t, discord.Options{}, discordtest.Config{})
	general := e.srv.Channel("general").ID
	n := bot.Notification{Key: "tournament/1/round/2", Kind: tournaments.NoticeTournament, Channel: true, To: bot.User{Name: "tournament 1"},
		Game: &bot.GameRef{Place: bot.Place{Guild: e.srv.Guild().ID, Channel: general}}, Reply: bot.Reply{Title: "Autumn", Text: "Round 2 starts."}}
	for i := 0; i < 2; i++ {
		if err := e.b.Notify(e.ctx, n); err != nil {
			t.Fatal(err)
		}
	}
	var posted []*discordtest.Message
	for _, m := range e.srv.Messages(general) {
		if strings.Contains(text(m), "Round 2 starts") {
			posted = append(posted, m)
		}
	}
	if len(posted) != 1 || len(posted[0].Mentions) != 0 {
		t.Errorf("posted %d times (want once, no mention): %+v", len(posted), posted)
	}
}

func TestTournamentGamesGetThreads(t *testing.T) {
	e := start(t, discord.Options{}, discordtest.Config{})
	made := e.answer(e.srv.Command("carol", "games", "tournament create", discordtest.Opt{Name: "name", Value: "Autumn"}, discordtest.Opt{Name: "variant", Value: "gothic"},
		discordtest.Opt{Name: "format", Value: "round-robin"}))
	if made.Ephemeral {
		t.Fatalf("create refused: %q", text(made))
	}
	for _, who := range []string{"alice", "bob"} {
		if m := e.answer(e.srv.Command(who, "games", "tournament join")); m.Ephemeral {
			t.Fatalf("%s could not join: %q", who, text(m))
		}
	}
	if m := e.answer(e.srv.Command("carol", "games", "tournament start")); m.Ephemeral {
		t.Fatalf("start refused: %q", text(m))
	}
	e.svc.Idle()
	ctx, cancel := context.WithTimeout(e.ctx, 10*time.Second)
	defer cancel()
	// One thread for the game, one for the tournament's news.
	threads := map[string]string{}
	if err := e.srv.Wait(ctx, func() bool {
		clear(threads)
		for _, th := range e.srv.Threads(e.srv.Channel("games").ID) {
			if len(e.srv.Messages(th.ID)) > 0 {
				threads[th.Name] = th.ID
			}
		}
		return len(threads) == 2
	}); err != nil {
		t.Fatalf("the tournament and its game got no threads with their news: %v (threads %v)", err, e.srv.Threads(e.srv.Channel("games").ID))
	}
	th := threads["Game 1 · Gothic Chess · Alice vs Bob"]
	if m := e.answer(e.srv.Command("alice", th, "board")); th == "" || m.Ephemeral {
		t.Errorf("the thread does not mean the game: %q (threads %v)", text(m), threads)
	}
	news := e.srv.Messages(threads["Autumn"])
	if len(news) == 0 || !strings.Contains(text(news[0]), "All games have started.") {
		t.Errorf("the tournament's thread: %+v", news)
	}
	if m := e.answer(e.srv.Command("carol", threads["Autumn"], "tournament info")); m.Ephemeral {
		t.Errorf("the tournament's thread does not mean the tournament: %q", text(m))
	}
	// The standings, as a picture by default and as text on request.
	pic := e.answer(e.srv.Command("bob", threads["Autumn"], "tournament standings"))
	checkStandingsPicture(t, pic)
	tbl := e.answer(e.srv.Command("bob", threads["Autumn"], "tournament standings", discordtest.Opt{Name: "show", Value: "table"}))
	if len(tbl.Attachments) != 0 || !strings.Contains(text(tbl), "```") || !strings.Contains(text(tbl), "Sonneborn-Berger") {
		t.Errorf("standings as text: %q, %d attachments", text(tbl), len(tbl.Attachments))
	}
	// A result is posted in the tournament's thread with the standings.
	if m := e.answer(e.srv.Command("bob", th, "resign")); m.Ephemeral {
		t.Fatalf("resign: %q", text(m))
	}
	e.svc.Idle()
	var result *discordtest.Message
	if err := e.srv.Wait(ctx, func() bool {
		for _, m := range e.srv.Messages(threads["Autumn"]) {
			if strings.Contains(text(m), "Game 1 (round 1)") {
				result = m
			}
		}
		return result != nil
	}); err != nil {
		t.Fatalf("no result in the tournament's thread: %v", err)
	}
	checkStandingsPicture(t, result)
}

// checkStandingsPicture checks that m shows tournament 1's standings as a PNG
// in its embed.
func checkStandingsPicture(t *testing.T, m *discordtest.Message) {
	t.Helper()
	if m.Ephemeral || len(m.Attachments) != 1 || m.Attachments[0].Filename != "standings-1.png" || len(m.Embeds) != 1 ||
		m.Embeds[0].Image == nil || m.Embeds[0].Image.URL != "attachment://standings-1.png" {
		t.Fatalf("standings without their picture: %q %+v", text(m), m.Attachments)
	}
	img, err := png.Decode(bytes.NewReader(m.Attachments[0].Data))
	if err != nil || img.Bounds().Dx() < 300 || img.Bounds().Dy() < 100 {
		t.Fatalf("the standings picture: %v, %v", err, img)
	}
}

// An engine match runs in a thread of its own: a result per game, then the final
// score with the PGN attached; only members who may manage the server start one.
func TestEngineMatchInThread(t *testing.T) {
	e := startWith(t, discordtest.New(t, discordtest.Config{}), discord.Options{},
		bot.NewEngine(engine.New(engine.Options{Seed: 1}), nil, nil))
	opts := []discordtest.Opt{{Name: "variant", Value: "gothic"}, {Name: "first_level", Value: 1}, {Name: "second_level", Value: 2},
		{Name: "games", Value: 2}, {Name: "max_plies", Value: 24}}
	if no := e.answer(e.srv.Command("alice", "general", "match start", opts...)); !no.Ephemeral || !strings.Contains(text(no), "Only members who may manage this server") {
		t.Errorf("alice (no Manage Server) started a match: %q", text(no))
	}
	yes := e.answer(e.srv.Command("carol", "general", "match start", opts...))
	if yes.Ephemeral || !strings.Contains(text(yes), "Le match 1 a commencé") { // carol's client is French
		t.Fatalf("carol's match: %q", text(yes))
	}
	general := e.srv.Channel("general").ID
	ctx, cancel := context.WithTimeout(e.ctx, 2*time.Minute) // generous: two engine games under -race on a busy machine
	defer cancel()
	final, err := func() (*discordtest.Message, error) {
		if err := e.srv.Wait(ctx, func() bool { return len(e.srv.Threads(general)) > 0 }); err != nil {
			return nil, err
		}
		return e.srv.WaitMessage(ctx, e.srv.Threads(general)[0].ID, func(m *discordtest.Message) bool {
			return strings.Contains(text(m), "The match is over.")
		})
	}()
	if err != nil {
		t.Fatalf("no final score in the match's thread: %v (threads %v)", err, e.srv.Threads(general))
	}
	threads := e.srv.Threads(general)
	if len(threads) != 1 || !strings.HasPrefix(threads[0].Name, "Match 1 · Missive engine (level 1) vs Missive engine (level 2)") {
		t.Errorf("threads %+v: want one for the match, none per game", threads)
	}
	var results int
	for _, m := range e.srv.Messages(threads[0].ID) {
		if strings.Contains(text(m), " of 2: ") {
			results++
			if len(m.Attachments) != 1 || m.Attachments[0].ContentType != "image/png" {
				t.Errorf("a result without its board: %+v", m.Attachments)
			}
		}
	}
	if results != 2 {
		t.Errorf("%d results posted, want 2", results)
	}
	if len(final.Attachments) != 1 || final.Attachments[0].Filename != "match-1.pgn" ||
		strings.Count(string(final.Attachments[0].Data), `[Event "Missive engine match 1"]`) != 2 {
		t.Errorf("final post's attachments: %+v", final.Attachments)
	}
	for _, m := range e.srv.Messages(general) {
		if strings.Contains(text(m), "The match is over.") || strings.Contains(text(m), " of 2: ") {
			t.Errorf("match news in the channel instead of the thread: %q", text(m))
		}
	}
	score := e.answer(e.srv.Command("carol", threads[0].ID, "match score"))
	if !strings.Contains(text(score), "Les 2 parties sont jouées.") { // carol's client is French
		t.Errorf("score in the thread: %q", text(score))
	}
}

// A reply that names a command shows it as a clickable mention with the id Discord
// gave the command when it was registered.
func TestRepliesMentionRegisteredCommands(t *testing.T) {
	e := start(t, discord.Options{}, discordtest.Config{})
	id := ""
	for _, c := range e.srv.Commands("") {
		if c.Name == "challenges" {
			id = c.ID
		}
	}
	if id == "" {
		t.Fatal("/challenges has no id")
	}
	r := e.answer(e.srv.Command("alice", "general", "accept"))
	if got := text(r); !strings.Contains(got, "</challenges:"+id+"> lists them") {
		t.Fatalf("the refusal does not mention /challenges: %q", got)
	}
}

// Commands are registered with where they are offered (contexts and installs, not
// the deprecated dm_permission), /tournament and /match as subcommands with the
// options each needs, and bounds on numbers and texts.
func TestCommandShapes(t *testing.T) {
	e := start(t, discord.Options{}, discordtest.Config{})
	cmds := map[string]discordtest.Command{}
	for _, c := range e.srv.Commands("") {
		cmds[c.Name] = c
		if strings.Contains(string(c.Raw), "dm_permission") {
			t.Errorf("/%s is registered with dm_permission", c.Name)
		}
	}
	for name, want := range map[string]string{"move": "[0 1 2] [0 1]", "challenge": "[0 1 2] [0 1]", "board": "[0 1 2] [0 1]",
		"accept": "[0 1 2] [0 1]", "tournament": "[0] [0]", "match": "[0] [0]"} {
		c := cmds[name]
		if got := fmt.Sprint(c.Contexts, c.IntegrationTypes); got != want {
			t.Errorf("/%s contexts and installs %s, want %s", name, got, want)
		}
	}
	tour := cmds["tournament"]
	var subs []string
	for _, o := range tour.Options {
		if o.Type != discordgo.ApplicationCommandOptionSubCommand {
			t.Fatalf("/tournament option %q is not a subcommand", o.Name)
		}
		subs = append(subs, o.Name)
	}
	if strings.Join(subs, " ") != "create join leave start standings info" {
		t.Errorf("/tournament subcommands %v", subs)
	}
	create := tour.Option("create")
	if v := findOpt(create.Options, "variant"); v == nil || !v.Required {
		t.Errorf("/tournament create's variant is not required: %+v", v)
	}
	if n := findOpt(create.Options, "name"); n == nil || n.MaxLength == nil || *n.MaxLength != tournaments.MaxNameLen {
		t.Errorf("/tournament create's name has no max_length: %+v", n)
	}
	if l := findOpt(tour.Option("join").Options, "level"); l == nil || l.MinValue == nil || *l.MinValue != 1 || l.MaxValue == nil || *l.MaxValue != 8 {
		t.Errorf("/tournament join's level is not bounded 1-8: %+v", l)
	}
	if l := findOpt(cmds["challenge"].Options, "level"); l == nil || l.MinValue == nil || *l.MinValue != 1 || *l.MaxValue != 8 {
		t.Errorf("/challenge's level is not bounded 1-8: %+v", l)
	}
	if top := findOpt(cmds["leaderboard"].Options, "top"); top == nil || top.MaxValue == nil || *top.MaxValue != 50 {
		t.Errorf("/leaderboard's top is not bounded: %+v", top)
	}
	match := cmds["match"]
	if g := findOpt(match.Option("start").Options, "games"); g == nil || g.MinValue == nil || *g.MinValue != 1 || *g.MaxValue != 100 {
		t.Errorf("/match start's games are not bounded: %+v", g)
	}
	// A subcommand's options reach the service with the subcommand's name.
	info := e.answer(e.srv.Command("alice", "general", "tournament info", discordtest.Opt{Name: "tournament", Value: "7"}))
	if !strings.Contains(text(info), "There is no tournament 7") {
		t.Errorf("/tournament info tournament:7 answered %q", text(info))
	}
}

func findOpt(opts []discordtest.CommandOption, name string) *discordtest.CommandOption {
	for i := range opts {
		if opts[i].Name == name {
			return &opts[i]
		}
	}
	return nil
}

// A challenge made in a direct message reaches the opponent in theirs, with
// buttons; the opponent accepts there, and the challenger hears of it in hers.
// (Discord does not offer /tournament there: see TestCommandShapes.)
func TestChallengeThroughDirectMessages(t *testing.T) {
	e := start(t, discord.Options{}, discordtest.Config{})
	aliceDM, bobDM := e.srv.DMChannel("alice"), e.srv.DMChannel("bob")
	ch := e.answer(e.srv.Command("alice", aliceDM, "challenge", discordtest.Opt{Name: "variant", Value: "gothic"},
		discordtest.Opt{Name: "opponent", Value: "bob"}, discordtest.Opt{Name: "color", Value: "white"}))
	if ch.Ephemeral || strings.Contains(ch.Content, "<@"+e.srv.User("bob").ID+">") {
		t.Fatalf("the challenge in alice's DM: %q", text(ch))
	}
	var notice *discordtest.Message
	if err := e.srv.Wait(e.ctx, func() bool {
		for _, m := range e.srv.Messages(bobDM) {
			if strings.Contains(text(m), "Challenge #1") {
				notice = m
				return true
			}
		}
		return false
	}); err != nil {
		t.Fatalf("bob was not told in his DMs: %v", err)
	}
	// The answer updates the notice in place, possibly after a deferral: wait for it.
	acc := e.accept("bob", notice)
	if acc.Ephemeral || !strings.Contains(text(acc), "Partie 1 beginnt") { // bob's client is German
		t.Fatalf("bob's accept: %q", text(acc))
	}
	if err := e.srv.Wait(e.ctx, func() bool {
		for _, m := range e.srv.Messages(aliceDM) {
			if strings.Contains(text(m), "Game 1 begins") || strings.Contains(text(m), "accepted") {
				return true
			}
		}
		return false
	}); err != nil {
		t.Fatalf("alice was not told in her DMs: %v", err)
	}
}

// A notification is posted with its outbox id as the message nonce (enforce_nonce
// set), the same on a retry; and a failed attempt is not remembered as delivered, so
// the retry posts it.
func TestNotifyRetryCarriesTheSameNonce(t *testing.T) {
	e := start(t, discord.Options{}, discordtest.Config{})
	general := e.srv.Channel("general").ID
	const route = "POST /channels/{channel_id}/messages"
	n := bot.Notification{ID: "42", Key: "move/7/black", Kind: bot.NoticeTurn, Channel: true, To: bot.User{ID: e.srv.User("bob").ID, Name: "bob"},
		Game: &bot.GameRef{Place: bot.Place{Guild: e.srv.Guild().ID, Channel: general}},
		Reply: bot.Reply{Title: "Game 7", Text: "Your move in game 7.",
			Files: []bot.File{{Name: "board.png", ContentType: "image/png", Data: []byte("\x89PNG board")}}}}
	e.srv.FailNext(route, discordtest.Failure{Status: http.StatusInternalServerError, Message: "500: Internal Server Error"})
	if err := e.b.Notify(e.ctx, n); err == nil {
		t.Fatal("the failed post was reported delivered")
	}
	if err := e.b.Notify(e.ctx, n); err != nil {
		t.Fatal(err)
	}
	reqs := e.srv.RequestsTo(route)
	if len(reqs) != 2 {
		t.Fatalf("%d posts, want 2 (the failure and the retry)", len(reqs))
	}
	for i, r := range reqs {
		var body struct {
			Nonce        string `json:"nonce"`
			EnforceNonce bool   `json:"enforce_nonce"`
		}
		if err := json.Unmarshal(r.Body, &body); err != nil || body.Nonce != "n42c" || !body.EnforceNonce || len(r.Files) != 1 {
			t.Errorf("post %d: nonce %q enforce %v, %d files (%v)", i, body.Nonce, body.EnforceNonce, len(r.Files), err)
		}
	}
	var posted int
	for _, m := range e.srv.Messages(general) {
		if strings.Contains(text(m), "Your move in game 7") {
			posted++
		}
	}
	if posted != 1 {
		t.Errorf("posted %d times, want once", posted)
	}
}

// startWithTrice starts the bot with the built-in engine and Trice, an external
// engine for Gothic whose program does not exist (so its first check fails).
func startWithTrice(t *testing.T) *env {
	t.Helper()
	cfgs := []external.Config{{Name: "Trice", Command: "/nonexistent/trice", Protocol: external.XBoard,
		Variants: map[string]string{"gothic": "gothic"}}}
	pool, err := external.NewPool(cfgs)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	return startWith(t, discordtest.New(t, discordtest.Config{}), discord.Options{},
		bot.NewEngine(engine.New(engine.Options{HashBits: 12, Seed: 1}), pool, cfgs))
}

// The engine option's suggestions see the options chosen before it: with the
// game chosen, an engine configured only for another game is left out, and so is
// one whose check failed.
func TestEngineAutocompleteSeesTheVariant(t *testing.T) {
	e := startWithTrice(t)
	offered := func(opts ...discordtest.Opt) []string {
		t.Helper()
		cb, err := e.srv.WaitCallback(e.ctx, e.srv.Autocomplete("alice", "general", "challenge", discordtest.Opt{Name: "engine", Value: ""}, opts...))
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, c := range cb.Choices {
			out = append(out, fmt.Sprintf("%s=%v", c.Name, c.Value))
		}
		return out
	}
	for _, c := range []struct {
		variant string
		want    []string
	}{
		{"keltic", []string{"builtin=builtin"}},
		{"gothic", []string{"builtin=builtin", "Trice=Trice"}},
		{"", []string{"builtin=builtin", "Trice (Gothic Chess)=Trice"}},
	} {
		var opts []discordtest.Opt
		if c.variant != "" {
			opts = append(opts, discordtest.Opt{Name: "variant", Value: c.variant})
		}
		if got := offered(opts...); !slices.Equal(got, c.want) {
			t.Errorf("variant %q: offered %v, want %v", c.variant, got, c.want)
		}
	}
	// Once a check finds that Trice cannot play (its program is missing), it is
	// offered nowhere.
	e.svc.CheckEngines()
	e.svc.Idle()
	for _, variant := range []string{"gothic", ""} {
		var opts []discordtest.Opt
		if variant != "" {
			opts = append(opts, discordtest.Opt{Name: "variant", Value: variant})
		}
		if got := offered(opts...); !slices.Equal(got, []string{"builtin=builtin"}) {
			t.Errorf("variant %q, after the check: offered %v, want builtin alone", variant, got)
		}
	}
}

// /tournament join's engine option is autocompleted through the subcommand, from
// the tournament's own list of engines, not from every engine configured.
func TestTournamentJoinEngineAutocomplete(t *testing.T) {
	e := startWithTrice(t)
	made := e.answer(e.srv.Command("carol", "general", "tournament create", discordtest.Opt{Name: "variant", Value: "gothic"},
		discordtest.Opt{Name: "engines", Value: "trice"}))
	if made.Ephemeral {
		t.Fatalf("carol could not create the tournament: %q", text(made))
	}
	cb, err := e.srv.WaitCallback(e.ctx, e.srv.Autocomplete("carol", "general", "tournament join", discordtest.Opt{Name: "engine", Value: ""}))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range cb.Choices {
		got = append(got, fmt.Sprintf("%s=%v", c.Name, c.Value))
	}
	if want := []string{"Trice=trice"}; !slices.Equal(got, want) {
		t.Errorf("/tournament join engine: offered %v, want %v", got, want)
	}
}
