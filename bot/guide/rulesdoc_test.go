package guide_test

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/bottest"
	"github.com/missivechess/missive/bot/clock"
	"github.com/missivechess/missive/bot/words"
)

// rulesDoc is the rules document, read from the repository.
const rulesDoc = "../../docs/RULES.md"

// The document's sections that the cards are held to: each game's own, the one
// shared by the chess-like games, and the rules of play common to every game.
var (
	gameSection = map[string]string{
		"gothic": "Gothic Chess", "keltic": "Keltic Chess", "gochess": "Go-Chess", "gess": "Gess",
	}
	chessLike     = []string{"gothic", "keltic", "gochess"}
	chessSection  = "Common to the chess-like games"
	commonSection = "Rules of play on Missive"
)

// houseRuleNamed finds every house rule a text names: "house rule: <name>", the name
// ending at the first punctuation.
var houseRuleNamed = regexp.MustCompile(`(?i)house rule: ([a-z][a-z0-9 -]*[a-z0-9])`)

// houseRuleDefined finds the house rules a section of the document states: the bold
// "**House rule: <name>.**" that opens each one.
var houseRuleDefined = regexp.MustCompile(`\*\*House rule: ([a-z][a-z0-9 -]*[a-z0-9])\.\*\*`)

// docSections reads the document and returns its "## " sections by heading, each
// with its runs of white space (line breaks included) written as one space.
func docSections(t *testing.T) map[string]string {
	t.Helper()
	data, err := os.ReadFile(rulesDoc)
	if err != nil {
		t.Fatalf("the rules document must be in the repository: %v", err)
	}
	out := map[string]string{}
	for _, part := range strings.Split("\n"+string(data), "\n## ")[1:] {
		heading, body, _ := strings.Cut(part, "\n")
		out[strings.TrimSpace(heading)] = strings.Join(strings.Fields(body), " ") // lines joined
	}
	for _, h := range append([]string{chessSection, commonSection}, gameSection["gothic"], gameSection["keltic"], gameSection["gochess"], gameSection["gess"]) {
		if _, ok := out[h]; !ok {
			t.Fatalf("%s has no section %q", rulesDoc, h)
		}
	}
	return out
}

func names(re *regexp.Regexp, text string) []string {
	var out []string
	for _, m := range re.FindAllStringSubmatch(text, -1) {
		if n := strings.ToLower(m[1]); !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// Every house rule a /rules card names is stated, under that name, in the document's
// section for that game (or the chess-like games' section, or the common rules of
// play); and every house rule the game's sections state is named on its card.
func TestRulesCardsAgreeWithRulesDoc(t *testing.T) {
	sec := docSections(t)
	h := bottest.New(t)
	for _, v := range []string{"gothic", "keltic", "gochess", "gess"} {
		card := h.Ok("alice", "rules variant:"+v).PlainText()
		own := sec[gameSection[v]]
		if slices.Contains(chessLike, v) {
			own += sec[chessSection]
		}
		defined := names(houseRuleDefined, own)
		common := names(houseRuleDefined, sec[commonSection])
		onCard := names(houseRuleNamed, card)
		for _, n := range onCard {
			if !slices.Contains(defined, n) && !slices.Contains(common, n) {
				t.Errorf("the %s card names the house rule %q, which %s does not state (as **House rule: %s.**) for %s", v, n, rulesDoc, n, gameSection[v])
			}
		}
		for _, n := range defined {
			if !slices.Contains(onCard, n) {
				t.Errorf("%s states the house rule %q for %s, but the %s card does not name it (house rule: %s)", rulesDoc, n, gameSection[v], v, n)
			}
		}
		// The material that draws on time is the same list on the card and in the document.
		if m := regexp.MustCompile(`you draw when your opponent has (.+?)\. `).FindStringSubmatch(card); m != nil {
			if !strings.Contains(own, "draws when the opponent has "+m[1]+" (house rule: time-out draw") {
				t.Errorf("the %s card draws on time against %s; %s's %s section does not say so", v, m[1], rulesDoc, gameSection[v])
			}
		} else if v != "gess" {
			t.Errorf("the %s card names no material that draws on time", v)
		}
	}
}

// The numbers of the common rules of play in the document are the bot's own.
func TestRulesDocNumbers(t *testing.T) {
	common := docSections(t)[commonSection]
	hours := make([]string, len(bot.DefaultReminderHours))
	for i, n := range bot.DefaultReminderHours {
		hours[i] = fmt.Sprintf("%d hours", n)
	}
	for _, want := range []string{
		words.English.OrInts(clock.DaysChoices) + "; " + fmt.Sprint(clock.DefaultDays) + " when a",
		strings.Join(hours, " and ") + " before",
		fmt.Sprintf("at most %d days in a", clock.MaxGivenDays),
		fmt.Sprintf("%d days a calendar year", bot.DefaultLeaveDays),
		fmt.Sprintf("more than %d minutes", int(bot.OutageGrace.Minutes())),
	} {
		if !strings.Contains(common, want) {
			t.Errorf("%s's %q section lacks %q", rulesDoc, commonSection, want)
		}
	}
	for _, b := range clock.BankPresets {
		if !strings.Contains(common, "`"+b+"`") {
			t.Errorf("%s's %q section does not name the time bank %s that the bot suggests", rulesDoc, commonSection, b)
		}
	}
}

// Every field of a rules card fits a Discord embed field, whose value holds at most
// 1024 characters and whose name 256 (Discord's documentation, "Embed Limits"); a
// longer one would be cut off.
func TestRulesCardFieldsFitDiscord(t *testing.T) {
	h := bottest.New(t)
	for _, v := range []string{"gothic", "keltic", "gochess", "gess"} {
		for _, f := range h.Ok("alice", "rules variant:"+v).Fields {
			if n := len([]rune(f.Value)); n > 1024 || len([]rune(f.Name)) > 256 {
				t.Errorf("the %s card's field %q is %d characters, more than Discord's 1024", v, f.Name, n)
			}
		}
	}
}
