package bot

import (
	"fmt"
	"unicode/utf8"

	"github.com/missivechess/missive/rules"
)

// MaxNameLen is the most characters of a player's name, an opponent's included:
// Discord allows 32 for usernames, display names and nicknames alike.
const MaxNameLen = 32

// MaxTournamentNameLen is the most characters of a tournament's name.
const MaxTournamentNameLen = 80

// nameTooLong returns the sentence refusing name, the player's text for what (such
// as "An opponent's name"), when it has more than most characters; "" when it fits.
func nameTooLong(what, name string, most int) string {
	if n := utf8.RuneCountInString(name); n > most {
		return fmt.Sprintf("%s has at most %d characters; %s has %d.", what, most, rules.Echo(name), n)
	}
	return ""
}

// shownID writes an id a player typed (a game, challenge or tournament number) for a
// refusal: as typed when short, else quoted and shortened by rules.Echo.
func shownID(id string) string {
	if utf8.RuneCountInString(id) <= rules.EchoLimit {
		return id
	}
	return rules.Echo(id)
}
