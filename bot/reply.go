package bot

import (
	"strings"

	"github.com/missivechess/missive/bot/i18n"
)

// Reply is the adapter-neutral answer to a request or the content of a notification:
// the Discord adapter turns it into an interaction response or message, the console
// prints it.
type Reply struct {
	// Private replies are shown only to the person who asked (ephemeral in Discord).
	Private bool
	// Refused marks a reply that explains why nothing was done.
	Refused bool
	// Title is a short heading such as "Game 7 · Gothic Chess".
	Title string
	// Text is the body in light Markdown (bold, italics, code spans).
	Text string
	// Fields are short labelled values shown as a table or an embed's fields.
	Fields []Field
	// Board is a monospace text board, for the console and as an accessible fallback.
	Board string
	// Files are attachments: board images (PNG), game animations (GIF), PGN files.
	Files []File
	// Actions are buttons the adapter offers under the reply.
	Actions []Action
	// Choice is a select menu (promotion piece, game to act on), or nil.
	Choice *Choice
	// Game is the game the reply is about, so that adapters can post it in the game's
	// thread; nil when it concerns no single game.
	Game *GameRef
	// Started is set when a game was just created: the Discord adapter opens its
	// thread and reports it with Service.SetThread.
	Started *GameRef
	// Mentions lists the ids of users the reply addresses.
	Mentions []string
	// Topic names what the reply's buttons act on, such as "challenge/7" or "draw/12",
	// so that an adapter can find the messages showing them when that thing changes;
	// empty for none.
	Topic string
	// Update marks the reply as the new state of Topic (a challenge answered, an offer
	// accepted or declined): an adapter that can edit messages replaces the message
	// whose button was pressed with it and disables the buttons of its other messages
	// about Topic, which no longer apply. Others show it as usual.
	Update bool
	// Final marks the last word on Game: the game is over, so an adapter may close its
	// place once this is shown (the Discord adapter archives the game's thread).
	Final bool
	// Lang is the language the reply is written in, its reader's, for the words an
	// adapter adds to it (the Discord adapter's note that a message was shortened);
	// empty for English or unknown.
	Lang i18n.Lang
}

// Field is a labelled value of a Reply.
type Field struct {
	Name   string
	Value  string
	Inline bool
}

// File is an attachment of a Reply.
type File struct {
	Name        string // file name with extension, such as "game-7.png"
	ContentType string // "image/png", "image/gif", "application/x-chess-pgn"
	Data        []byte
	// Alt describes the file for screen readers.
	Alt string
}

// ButtonStyle is how an action's button looks.
type ButtonStyle string

// The button styles, named after what they mean rather than their colour.
const (
	StylePrimary   ButtonStyle = "primary"
	StyleSecondary ButtonStyle = "secondary"
	StyleSuccess   ButtonStyle = "success"
	StyleDanger    ButtonStyle = "danger"
)

// MaxActions is the most buttons a reply carries (Discord: 5 rows of 5).
const MaxActions = 25

// Action is a button: pressing it runs Command with Args as the presser.
type Action struct {
	Label   string
	Style   ButtonStyle
	Command string
	Args    Args
	// Confirm, when set, is a question the adapter asks before running the command.
	Confirm string
	// Input, when set, names an argument the adapter asks the user to type before
	// running the command (a Discord modal); InputLabel is its prompt.
	Input      string
	InputLabel string
	// Answers marks a button that answers the message it is on (accept or decline a
	// challenge or an offer): when the reply is an Update, an adapter that can edit
	// messages replaces that message with it instead of posting a new one.
	Answers bool
	// URL, when set, makes the button a link that opens URL (a game's web page)
	// instead of running a command: Command, Args and the rest are not used.
	URL string
}

// Choice is a select menu: picking option o runs Command with Args plus Arg = o.Value.
type Choice struct {
	Placeholder string
	Command     string
	Arg         string
	Args        Args
	Options     []ChoiceOption
}

// ChoiceOption is one entry of a Choice.
type ChoiceOption struct {
	Label       string
	Value       string
	Description string
}

// GameRef names a game and where it is played.
type GameRef struct {
	ID    string
	Place Place
}

// Place is where a request came from or where a game is played: a Discord server,
// channel and thread (all empty for the console).
type Place struct {
	Guild   string
	Channel string
	Thread  string
}

// Refusal returns a private reply that explains why nothing was done.
func Refusal(text string) Reply {
	return Reply{Private: true, Refused: true, Text: text}
}

// PlainText renders r as plain text: title, text, fields and the text board, for
// logs, the console and accessibility fallbacks.
func (r Reply) PlainText() string {
	var b strings.Builder
	if r.Title != "" {
		b.WriteString(r.Title)
		b.WriteString("\n")
	}
	if r.Text != "" {
		b.WriteString(r.Text)
		b.WriteString("\n")
	}
	for _, f := range r.Fields {
		b.WriteString(f.Name)
		b.WriteString(": ")
		b.WriteString(strings.ReplaceAll(f.Value, "\n", "\n  "))
		b.WriteString("\n")
	}
	if r.Board != "" {
		b.WriteString(r.Board)
		if !strings.HasSuffix(r.Board, "\n") {
			b.WriteString("\n")
		}
	}
	return b.String()
}
