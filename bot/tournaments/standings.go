package tournaments

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/clock"
	"github.com/missivechess/missive/bot/tournament"
	"github.com/missivechess/missive/bot/words"
	"github.com/missivechess/missive/storage"
)

// leaveText says whether leave freezes the clocks of a tournament's games.
func leaveText(refused bool) string {
	if refused {
		return "not allowed: clocks run during leave"
	}
	return "allowed (/leave)"
}

func points(p float64) string { return strconv.FormatFloat(p, 'f', -1, 64) }

// pointsText writes "1 point", "1.5 points".
func pointsText(p float64) string {
	if p == 1 {
		return "1 point"
	}
	return points(p) + " points"
}

// winnerText says who won the finished tournament t after pt: ": alice wins with 2
// points. Congratulations!", naming the tie-break that decided a tie on points, or
// everyone who shares first place; "." when nobody played.
func (f *feature) winnerText(t *storage.Tournament, pt tournament.Tournament) string {
	fp := pt.Format.Top(pt.Standings())
	if len(fp.Level) == 0 {
		return "."
	}
	first := fp.Level[0]
	name := func(st tournament.Standing) string { return f.entrantName(t, st.Player) }
	switch {
	case fp.Shared > 1:
		names := make([]string, fp.Shared)
		for i, st := range fp.Level[:fp.Shared] {
			names[i] = name(st)
		}
		return fmt.Sprintf(": %s share first place with %s each, level on every tie-break too (%s is listed first as the better seed). Congratulations!",
			words.And(names), pointsText(first.Points), names[0])
	case len(fp.Level) > 1:
		k := slices.Index(pt.Format.Tiebreaks(), fp.Decider)
		second := fp.Level[1]
		others := make([]string, len(fp.Level)-1)
		for i, st := range fp.Level[1:] {
			others[i] = name(st)
		}
		return fmt.Sprintf(": %s wins on the %s tie-break (%s to %s's %s), level on %s with %s. Congratulations!",
			name(first), fp.Decider.Name(), points(first.Tiebreaks[k]), name(second), points(second.Tiebreaks[k]),
			pointsText(first.Points), words.And(others))
	}
	return fmt.Sprintf(": %s wins with %s. Congratulations!", name(first), pointsText(first.Points))
}

// textRows is the most standings rows shown as text: a Discord message holds
// 4,096 characters, and the picture shows every player.
const textRows = 40

// standings lays out the standings of t after pt as a Table titled title, with
// the format's tie-breaks and their legend.
func (f *feature) standings(t *storage.Tournament, pt tournament.Tournament, title string) bot.Table {
	tbs := pt.Format.Tiebreaks()
	tbl := bot.Table{Title: title, Columns: []bot.Column{{Header: "#", Right: true}, {Header: "Player", Max: 26},
		{Header: "Pts", Right: true}, {Header: "Games", Right: true}, {Header: "+", Right: true}, {Header: "=", Right: true}, {Header: "-", Right: true}}}
	names := make([]string, len(tbs))
	for i, tb := range tbs {
		tbl.Columns = append(tbl.Columns, bot.Column{Header: string(tb), Right: true})
		names[i] = string(tb) + " = " + tb.Name()
	}
	for _, st := range pt.Standings() {
		name := f.entrantName(t, st.Player)
		if st.Withdrawn {
			name += " (w/d)"
		}
		cells := []string{strconv.Itoa(st.Rank), name, points(st.Points), strconv.Itoa(st.Played + st.Unplayed),
			strconv.Itoa(st.Wins), strconv.Itoa(st.Draws), strconv.Itoa(st.Losses)}
		for _, v := range st.Tiebreaks {
			cells = append(cells, points(v))
		}
		tbl.Rows = append(tbl.Rows, bot.TableRow{Cells: cells, Muted: st.Withdrawn})
	}
	tbl.Note = "Tie-breaks: " + strings.Join(names, "; ") + "."
	return tbl
}

// standingsText draws tbl as monospace text of at most textRows rows, with its
// legend: the fallback under a picture, and the whole reply of
// /tournament show:table.
func standingsText(tbl bot.Table, fence bool) string {
	text := tbl.Text(textRows)
	if fence {
		text = "```\n" + text + "```\n"
	}
	if left := len(tbl.Rows) - textRows; left > 0 {
		text += fmt.Sprintf("… and %s; the picture (show:image) has everyone.\n", words.Plural(left, "more player"))
	}
	return text + tbl.Note
}

// standingsTitle names the moment of the standings: final; in or after a
// Swiss round; for a round robin, whose games all run at once, by the games
// decided.
func standingsTitle(t *storage.Tournament, pt tournament.Tournament) string {
	pending := len(pt.Pending())
	switch {
	case t.Status == storage.TournamentFinished:
		return t.Name + ": final standings"
	case pt.Format != tournament.Swiss:
		return fmt.Sprintf("%s: standings, %d of %d games decided", t.Name, len(pt.Games)-pending, len(pt.Games))
	case pending > 0:
		return fmt.Sprintf("%s: standings during round %d of %d", t.Name, pt.Round(), pt.Rounds)
	}
	return fmt.Sprintf("%s: standings after round %d of %d", t.Name, pt.Round(), pt.Rounds)
}

// standingsPicture is the picture job for tbl, with the text as its fallback.
func standingsPicture(t *storage.Tournament, tbl bot.Table) *bot.Picture {
	var top []string
	for i, r := range tbl.Rows {
		if i == 10 {
			top = append(top, "…")
			break
		}
		top = append(top, fmt.Sprintf("%s. %s %s", r.Cells[0], r.Cells[1], r.Cells[2]))
	}
	return bot.TablePicture(tbl, standingsText(tbl, false), "standings-"+t.ID+".png",
		tbl.Title+": "+cmp.Or(strings.Join(top, ", "), "no players"))
}

// postStandings posts text with the standings after pt in the tournament's place.
func (f *feature) postStandings(tx *bot.Tx, t *storage.Tournament, pt tournament.Tournament, text, key string) {
	f.post(tx, t, text, key)
	tx.PictureLast(standingsPicture(t, f.standings(t, pt, standingsTitle(t, pt))))
}

// standingsReply is /tournament standings: a picture of the whole table with
// the text as its fallback, or (show:table) the text alone.
func (f *feature) standingsReply(t *storage.Tournament, show string) (bot.Reply, *bot.Picture, error) {
	if show != "" && show != "image" && show != "table" {
		return bot.Reply{}, nil, bot.Refuse(bot.ErrRefused, "There is no standings view %q; use show:image (a picture of the whole table) or show:table (text).", show)
	}
	if len(t.Pairing) == 0 {
		return bot.Reply{Title: t.Name, Text: fmt.Sprintf("Tournament %s has not started yet (%s entered).", t.ID, words.Plural(len(t.Entrants), "player"))}, nil, nil
	}
	pt, err := pairing(t)
	if err != nil {
		return bot.Reply{}, nil, err
	}
	head := fmt.Sprintf("Standings after %d of %d rounds paired, %s in progress.", pt.Round(), pt.Rounds, words.Plural(len(pt.Pending()), "game"))
	if t.Status == storage.TournamentFinished {
		head = "Final standings."
	}
	tbl := f.standings(t, pt, standingsTitle(t, pt))
	if show == "table" {
		return bot.Reply{Title: t.Name, Text: head + "\n" + standingsText(tbl, true)}, nil, nil
	}
	return bot.Reply{Title: t.Name, Text: head}, standingsPicture(t, tbl), nil
}

// infoReply is /tournament info.
func (f *feature) infoReply(t *storage.Tournament) bot.Reply {
	rated := "casual"
	if t.Rated {
		rated = "rated"
	}
	most := "no limit"
	if t.MaxPlayers > 0 {
		most = strconv.Itoa(t.MaxPlayers)
	}
	rounds := "one per opponent"
	if t.Format == storage.Swiss {
		rounds = cmp.Or(strconv.Itoa(t.Rounds), "set at the start")
		if t.Rounds == 0 {
			rounds = "set at the start"
		}
	} else if t.Rounds > 0 {
		rounds = strconv.Itoa(t.Rounds)
	}
	var names []string
	for _, en := range t.Entrants {
		n := words.Seat(en.Player)
		if en.Withdrawn {
			n += " (withdrew)"
		}
		names = append(names, n)
	}
	return bot.Reply{Title: fmt.Sprintf("Tournament %s · %s", t.ID, t.Name), Fields: []bot.Field{
		{Name: "Game", Value: f.svc.VariantName(t.Variant), Inline: true},
		{Name: "Format", Value: strings.ReplaceAll(string(t.Format), "-", " "), Inline: true},
		{Name: "Rounds", Value: rounds, Inline: true},
		{Name: "Clock", Value: clock.Text(t.DaysPerMove, t.Bank), Inline: true},
		{Name: "Leave", Value: leaveText(t.NoLeave), Inline: true},
		{Name: "Games", Value: rated, Inline: true},
		{Name: "Status", Value: string(t.Status), Inline: true},
		{Name: "Maximum players", Value: most, Inline: true},
		{Name: "Engines allowed", Value: cmp.Or(strings.Join(t.Engines, ", "), "none"), Inline: true},
		{Name: fmt.Sprintf("Players (%d)", len(t.Entrants)), Value: cmp.Or(strings.Join(names, ", "), "nobody yet")},
	}}
}
