package guide

import (
	"context"
	"fmt"
	"strings"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/clock"
)

// rulesCard is the /rules text of one variant: the rules in short, with every house
// rule of docs/RULES.md marked as such, in the words "house rule: <name>" that the
// document uses for it.
type rulesCard struct {
	summary string
	rules   []string
	draws   string
	timeout string
	input   string
}

// cards holds the rules cards by variant key.
var cards = map[string]rulesCard{
	"gothic": {
		summary: "Chess on a 10x8 board with two extra pieces, by Ed Trice.",
		rules: []string{
			"Setup from White's left: R N B Q C K A B N R, pawns on rank 2; Black mirrors on ranks 8 and 7.",
			"Chancellor (C) moves as rook or knight; Archbishop (A) as bishop or knight.",
			"Pawns as in chess: double step from the second rank, en passant; promotion on the last rank to Q, C, A, R, B or N.",
			"Castling: the king moves three squares toward the rook and the rook lands on the square the king crossed next to it (O-O: Kf1-i1 and Rj1-h1; O-O-O: Kf1-c1 and Ra1-d1). King and rook unmoved, squares between empty, the king not in check, not crossing or landing on an attacked square.",
			"Checkmate wins; no move may leave your own king attacked.",
		},
		draws:   "Drawn automatically, nobody has to claim (house rule: automatic draws): stalemate; threefold repetition; the 50-move rule (castling also resets the count); insufficient material, without pawns: K v K, K+N v K, K+B v K, K+N v K+N, K+B v K+N, K+B v K+B, K+N+N v K.",
		timeout: "only the king; or king and one piece against the king and one piece of the player out of time, no pawn on the board, where no placing of those four is checkmate; or only king and one knight against king and queens; or only bishops, all on one cell colour, with no pawn on the board, against king, queens, rooks and bishops of that colour",
		input:   "SAN (Nf3, Cxe5, b8=A, O-O) or coordinates (g1f3, b7b8a, f1i1).",
	},
	"keltic": {
		summary: "Chess on a 43-cell cross, by D. T. Jagger.",
		rules: []string{
			"The board: ranks 1 and 7 have cells d-f, ranks 2 and 6 c-g, ranks 3 to 5 a-i. Missing cells do not exist: nothing stands on them and sliders stop before them; knights leap over them.",
			"Setup: White B d1, K e1, B f1, R c2, N d2, Q e2, N f2, R g2, pawns a3-i3; Black mirrors on ranks 7, 6, 5.",
			"The bishop moves as a bishop or as a knight (it leaps only with its knight move).",
			"Pawns step one cell straight forward; when that cell is occupied (by either side) or does not exist, a pawn may instead step one cell sideways onto an empty cell. They capture one cell diagonally forward only, and promote on d7, e7, f7 (Black: d1, e1, f1) to Q, R, B or N.",
			"No double step, no en passant, no castling. Checkmate wins.",
		},
		draws:   "Drawn automatically, nobody has to claim (house rule: automatic draws): stalemate; threefold repetition; the 50-move rule; insufficient material K v K and K+N v K only (a single bishop can mate).",
		timeout: "only the king; or king and one piece against the king and one piece of the player out of time, no pawn on the board, where no placing of those four is checkmate",
		input:   "SAN (Nf3, exd4, e7=Q) or coordinates (d2c4, e6e7q).",
	},
	"gochess": {
		summary: "Chess on a 10x10 board with ten random blocked cells, starting with a secret placement of the pieces.",
		rules: []string{
			"Ten cells, drawn at random for each game, are blocked: no piece stands on them, sliders stop before them, knights leap over them.",
			"Placement (/place): in each round both players choose, in secret, a cell for the same kind of piece; both appear together. Order: 8 rounds of pawns, 2 of bishops, 2 of rooks, 2 of knights, the queen, the king. A chosen cell must be empty and not blocked; your second bishop goes on the other cell colour from your first.",
			"If both choose the same cell, both choose again, and no cell tried in that round may be chosen again. A king may not be placed in check. If the two kings would attack each other, both choose again, each avoiding the cells he himself already tried for his king. House rule: no eligible cell. A player with no eligible cell left may first take again the cells tried this round (and, for his king, his own tried cells); only if that still leaves none may he take any empty unblocked cell. If that puts a king in check, its side moves first; if both kings end in check, both choose again.",
			"First to move: the player whose king and queen are nearer (files apart + ranks apart). Ties go to king to nearest knight, other knight, nearest rook, other rook, nearest bishop, other bishop, then pawns nearest first; all equal: White.",
			"Play: pieces move as in chess. Pawns step one cell orthogonally in any of the four directions onto an empty cell and capture one cell diagonally in any of the four directions. No castling, promotion, double step or en passant. Checkmate wins.",
			"The clock runs during placement too: a player who has not chosen by the deadline loses on time; if neither has, the game is drawn (house rule: both out of time).",
		},
		draws:   "Drawn automatically, nobody has to claim (house rule: automatic draws): stalemate; threefold repetition (house rule: repetition; it stands for the source's \"identical pairs of moves three times in a row\", which it covers); the 50-move rule; insufficient material K v K, K+N v K, K+B v K, and K+B v K+B with both bishops on one cell colour.",
		timeout: "only the king; or king and one piece against the king and one piece of the player out of time, no pawn on the board, where no placing of those four is checkmate",
		input:   "Placement: /place d4. Moves: SAN (Nf3, exd5) or coordinates (g1f3).",
	},
	"gess": {
		summary: "Chess played with Go stones, by the Puzzles and Games Ring of Archimedeans.",
		rules: []string{
			"A 20x20 frame (files a-t, ranks 1-20) around an 18x18 playing area; a stone that ends a move on the outer ring is removed. 43 stones each; Black moves first.",
			"A piece is any 3x3 block that holds at least one of your stones and none of your opponent's, named by its centre.",
			"It moves in each of the 8 directions in which its outer eight squares hold one of your stones: any distance if its centre holds a stone, otherwise 1 to 3 squares. It stops at the first position where its block overlaps any other stone; every stone under the block there, of either colour, is removed (the inventors' reading: your own stones do not block).",
			"A ring is a 3x3 block with your stones on all 8 outer squares, an empty centre and no opposing stone. Lose all your rings at the end of any turn and you lose; a move that leaves neither player a ring loses for the mover. No passing.",
		},
		draws:   "The sources have no draws; Missive adds two. House rule: draw by agreement (/draw). House rule: threefold repetition, the same stones with the same side to move for the third time, drawn automatically.",
		timeout: "",
		input:   "Centre before and after: m3-m6 (m3xm6 when stones are removed). Move lists and PGN number from Black's first move: 1. Black's move, White's reply (house rule: move numbers).",
	},
}

// rulesCommand is /rules; its answer is private.
func (f *feature) rulesCommand() bot.Command {
	return bot.Command{Handle: f.cmdRules, Spec: bot.CommandSpec{Name: CmdRules, Description: "The rules of a game, with Missive's house rules", Private: true, Options: []bot.OptionSpec{
		{Name: "variant", Description: "The game", Type: bot.OptString, Required: true, Choices: f.svc.VariantChoices()}}}}
}

// cmdRules shows the rules card of a variant.
func (f *feature) cmdRules(_ context.Context, req bot.Request) bot.Reply {
	reg := f.svc.Registry()
	v, err := reg.Lookup(req.Args.Get("variant"))
	if err != nil {
		return bot.Refusal(fmt.Sprintf("Which game? Say /rules variant:<%s>.", strings.Join(reg.Keys(), "|")))
	}
	card, ok := cards[v.Key()]
	if !ok {
		return bot.Reply{Private: true, Title: v.Name(), Text: "No rules card is written for this game yet."}
	}
	var b strings.Builder
	b.WriteString(card.summary + "\n")
	for _, r := range card.rules {
		b.WriteString("• " + r + "\n")
	}
	fields := []bot.Field{
		{Name: "Draws", Value: card.draws},
		{Name: "Moves", Value: card.input},
		{Name: "Clock", Value: clockRules(card.timeout)},
		{Name: "Time banks, leave and more time", Value: f.bankLeaveRules()},
		{Name: "Offers", Value: "/draw offers a draw; the offer lapses when your opponent moves instead of answering. /takeback asks to take back your last move (casual games only; your opponent must accept). /abort calls a game off before both sides have moved. /resign at any time."},
	}
	return bot.Reply{Private: true, Title: "Rules · " + v.Name(), Text: b.String(), Fields: fields}
}

// clockRules describes the correspondence clock; hopeless says what material of
// the opponent's could not mate, so that a player out of time draws (docs/RULES.md).
func clockRules(hopeless string) string {
	t := "Each move has the game's days per move (1, 2, 3, 5, 7, 10 or 14); the deadline starts again with each move. Reminders come before it (24 h and 2 h by default; change them with /settings). Out of time, you lose"
	if hopeless != "" {
		t += ", unless your opponent could not mate you by any series of legal moves (the FIDE rule), judged from the material (house rule: time-out draw): you draw when your opponent has " + hopeless + "."
	} else {
		t += "."
	}
	return t + " " + outageRule
}

// outageRule is the fair-clock rule common to every game's card.
const outageRule = "House rule: outages. Time while Missive is offline or cut off from Discord for more than 5 minutes does not count: every running game's deadline and reminders move on by the outage, and the players are told; a game already out of time before the outage still ends on time."

// bankLeaveRules describes time banks, leave, extra time and the digest, for the
// /rules cards.
func (f *feature) bankLeaveRules() string {
	leave := f.svc.Limits().LeaveDays
	if leave <= 0 {
		leave = bot.DefaultLeaveDays
	}
	return fmt.Sprintf("A game may have a time bank instead of days per move (/challenge bank:30+1/45): each side starts with 30 days, "+
		"gains 1 day after each of its moves but never beyond 45, and loses on time when its bank runs out; reminders come before that. "+
		"/moretime gives your opponent one more day (at most %d in a game). /leave start freezes your clocks in every game: "+
		"%d days a calendar year (UTC), deadlines and reminders move on by the leave taken, your opponents are told, and a move of yours ends it; "+
		"a tournament may refuse leave in its games. /settings digest_hour sends you a daily list of the games waiting for your move.",
		clock.MaxGivenDays, leave)
}
