package guide

import (
	"context"
	"fmt"
	"strings"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/clock"
	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/bot/words"
)

// rulesCard is the /rules card of one variant: the rules in short, with every house
// rule of docs/RULES.md marked as such, in the words "house rule: <name>" that the
// document uses for it. Its sentences are the catalogue's rules.<variant>.* messages:
// summary, rule1 to rule<rules>, draws, timeout (when hopeless is set) and input.
type rulesCard struct {
	// rules is how many rules the card lists.
	rules int
	// hopeless says that the card says what material of the opponent's could not
	// mate, so that a player out of time draws (rules.<variant>.timeout).
	hopeless bool
}

// cards holds the rules cards by variant key.
var cards = map[string]rulesCard{
	"gothic":  {rules: 5, hopeless: true},
	"keltic":  {rules: 5, hopeless: true},
	"gochess": {rules: 6, hopeless: true},
	"gess":    {rules: 4, hopeless: false},
}

// rulesCommand is /rules; its answer is private.
func (f *feature) rulesCommand() bot.Command {
	return bot.Command{Handle: f.cmdRules, Spec: bot.CommandSpec{Name: CmdRules, Description: "The rules of a game, with Missive's house rules", Private: true, Options: []bot.OptionSpec{
		{Name: "variant", Description: "The game", Type: bot.OptString, Required: true, Choices: f.svc.VariantChoices()}}}}
}

// cmdRules shows the rules card of a variant, in the asker's language.
func (f *feature) cmdRules(ctx context.Context, req bot.Request) bot.Reply {
	loc := f.svc.AskerLocalizer(ctx, Catalogue, req)
	reg := f.svc.Registry()
	v, err := reg.Lookup(req.Args.Get("variant"))
	if err != nil {
		return bot.Refusal(loc.T("rules.which", i18n.Data{"Keys": strings.Join(reg.Keys(), "|")}))
	}
	name := words.In(loc.Lang()).Variant(v.Key(), v.Name())
	card, ok := cards[v.Key()]
	if !ok {
		return bot.Reply{Private: true, Title: name, Text: loc.T("rules.nocard", nil)}
	}
	key := "rules." + v.Key() + "."
	var b strings.Builder
	b.WriteString(loc.T(key+"summary", nil) + "\n")
	for i := 1; i <= card.rules; i++ {
		b.WriteString("• " + loc.T(fmt.Sprintf("%srule%d", key, i), nil) + "\n")
	}
	hopeless := ""
	if card.hopeless {
		hopeless = loc.T(key+"timeout", nil)
	}
	fields := []bot.Field{
		{Name: loc.T("rules.field.draws", nil), Value: loc.T(key+"draws", nil)},
		{Name: loc.T("rules.field.moves", nil), Value: loc.T(key+"input", nil)},
	}
	fields = append(fields, clockFields(loc, hopeless)...)
	fields = append(fields,
		bot.Field{Name: loc.T("rules.field.banks", nil), Value: f.bankLeaveRules(loc)},
		bot.Field{Name: loc.T("rules.field.offers", nil), Value: loc.T("rules.offers", nil)},
	)
	return bot.Reply{Private: true, Title: loc.T("rules.title", i18n.Data{"Game": name}), Text: b.String(), Fields: fields}
}

// fieldMost is the most characters Discord shows in an embed field's value
// (Discord's documentation, "Embed Limits").
const fieldMost = 1024

// clockFields describe the correspondence clock; hopeless says what material of
// the opponent's could not mate, so that a player out of time draws
// (docs/RULES.md), "" for a game with no such draw. The fair-clock rule ends the
// clock's field, or has a field of its own in a language where the two together
// would not fit one.
func clockFields(loc *i18n.Localizer, hopeless string) []bot.Field {
	days := words.In(loc.Lang()).OrInts(clock.DaysChoices)
	t := loc.T("rules.clock.lose", i18n.Data{"Days": days})
	if hopeless != "" {
		t = loc.T("rules.clock.draw", i18n.Data{"Days": days, "Hopeless": hopeless})
	}
	name, outage := loc.T("rules.field.clock", nil), loc.T("rules.outage", nil)
	if len([]rune(t+" "+outage)) > fieldMost {
		return []bot.Field{{Name: name, Value: t}, {Name: loc.T("rules.field.outages", nil), Value: outage}}
	}
	return []bot.Field{{Name: name, Value: t + " " + outage}}
}

// outageRule is the fair-clock rule common to every game's card, in English (the
// catalogue's rules.outage).
const outageRule = "House rule: outages. Time while Missive is offline or cut off from Discord for more than 5 minutes does not count: every running game's deadline and reminders move on by the outage, and the players are told; a game already out of time before the outage still ends on time."

// bankLeaveRules describes time banks, leave, extra time and the digest, for the
// /rules cards.
func (f *feature) bankLeaveRules(loc *i18n.Localizer) string {
	leave := f.svc.Limits().LeaveDays
	if leave <= 0 {
		leave = bot.DefaultLeaveDays
	}
	return loc.T("rules.banks", i18n.Data{"Given": clock.MaxGivenDays, "Leave": loc.N("rules.leave", leave, nil)})
}
