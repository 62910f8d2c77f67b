package tournaments

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/bot/tournament"
	"github.com/missivechess/missive/bot/words"
	"github.com/missivechess/missive/storage"
)

// leaveText says whether leave freezes the clocks of a tournament's games.
func leaveText(sp speech, refused bool) string {
	if refused {
		return sp.T("info.leave.refused", nil)
	}
	return sp.T("info.leave.allowed", nil)
}

// finalText announces the end of the finished tournament t after pt: "The
// tournament is over: alice wins with 2 points. Congratulations!", naming the
// tie-break that decided a tie on points, or everyone who shares first place;
// without a winner when nobody played.
func (f *feature) finalText(sp speech, t *storage.Tournament, pt tournament.Tournament) string {
	fp := pt.Format.Top(pt.Standings())
	if len(fp.Level) == 0 {
		return sp.T("final.nobody", nil)
	}
	first := fp.Level[0]
	name := func(st tournament.Standing) string { return f.entrantName(t, st.Player) }
	switch {
	case fp.Shared > 1:
		names := make([]string, fp.Shared)
		for i, st := range fp.Level[:fp.Shared] {
			names[i] = name(st)
		}
		return sp.N("final.shared", count(first.Points), i18n.Data{"Names": sp.w.And(names), "Points": sp.decimal(first.Points), "First": names[0]})
	case len(fp.Level) > 1:
		k := slices.Index(pt.Format.Tiebreaks(), fp.Decider)
		second := fp.Level[1]
		others := make([]string, len(fp.Level)-1)
		for i, st := range fp.Level[1:] {
			others[i] = name(st)
		}
		return sp.N("final.tiebreak", count(first.Points), i18n.Data{"Winner": name(first), "Tiebreak": sp.T("tiebreak."+string(fp.Decider), nil),
			"Value": sp.decimal(first.Tiebreaks[k]), "Second": name(second), "SecondValue": sp.decimal(second.Tiebreaks[k]),
			"Points": sp.decimal(first.Points), "Others": sp.w.And(others)})
	}
	return sp.N("final.wins", count(first.Points), i18n.Data{"Winner": name(first), "Points": sp.decimal(first.Points)})
}

// textRows is the most standings rows shown as text: a Discord message holds
// 4,096 characters, and the picture shows every player.
const textRows = 40

// standings lays out the standings of t after pt as a Table, with the format's
// tie-breaks and their legend, all in sp: its title (standingsTitle), headers
// and note are drawn on the picture too.
func (f *feature) standings(sp speech, t *storage.Tournament, pt tournament.Tournament) bot.Table {
	tbs := pt.Format.Tiebreaks()
	h := func(id string) string { return sp.T("table."+id, nil) }
	tbl := bot.Table{Title: standingsTitle(sp, t, pt), Columns: []bot.Column{{Header: h("rank"), Right: true}, {Header: h("player"), Max: 26},
		{Header: h("points"), Right: true}, {Header: h("games"), Right: true}, {Header: h("wins"), Right: true}, {Header: h("draws"), Right: true}, {Header: h("losses"), Right: true}}}
	names := make([]string, len(tbs))
	for i, tb := range tbs {
		short := sp.T("tiebreak."+string(tb)+".short", nil)
		tbl.Columns = append(tbl.Columns, bot.Column{Header: short, Right: true})
		names[i] = sp.T("table.legend", i18n.Data{"Short": short, "Name": sp.T("tiebreak."+string(tb), nil)})
	}
	for _, st := range pt.Standings() {
		name := f.entrantName(t, st.Player)
		if st.Withdrawn {
			name = sp.T("table.withdrawn", i18n.Data{"Player": name})
		}
		cells := []string{strconv.Itoa(st.Rank), name, sp.cell(st.Points), strconv.Itoa(st.Played + st.Unplayed),
			strconv.Itoa(st.Wins), strconv.Itoa(st.Draws), strconv.Itoa(st.Losses)}
		for _, v := range st.Tiebreaks {
			cells = append(cells, sp.decimal(v)) // a Sonneborn-Berger has quarters: one notation a column
		}
		tbl.Rows = append(tbl.Rows, bot.TableRow{Cells: cells, Muted: st.Withdrawn})
	}
	tbl.Note = sp.T("table.note", i18n.Data{"Legend": strings.Join(names, sp.T("table.legendsep", nil))})
	return tbl
}

// standingsText draws tbl as monospace text of at most textRows rows, with its
// legend: the fallback under a picture, and the whole reply of
// /tournament show:table.
func standingsText(sp speech, tbl bot.Table, fence bool) string {
	text := tbl.Text(textRows)
	if fence {
		text = "```\n" + text + "```\n"
	}
	if left := len(tbl.Rows) - textRows; left > 0 {
		text += sp.N("table.more", left, nil) + "\n"
	}
	return text + tbl.Note
}

// standingsTitle names the moment of the standings: final; in or after a
// Swiss round; for a round robin, whose games all run at once, by the games
// decided.
func standingsTitle(sp speech, t *storage.Tournament, pt tournament.Tournament) string {
	pending := len(pt.Pending())
	switch {
	case t.Status == storage.TournamentFinished:
		return sp.T("title.final", i18n.Data{"Name": t.Name})
	case pt.Format != tournament.Swiss:
		return sp.N("title.decided", len(pt.Games), i18n.Data{"Name": t.Name, "Decided": len(pt.Games) - pending})
	case pending > 0:
		return sp.T("title.during", i18n.Data{"Name": t.Name, "Round": pt.Round(), "Rounds": pt.Rounds})
	}
	return sp.T("title.after", i18n.Data{"Name": t.Name, "Round": pt.Round(), "Rounds": pt.Rounds})
}

// standingsPicture is the picture job for tbl, with the text as its fallback,
// both in sp.
func standingsPicture(sp speech, t *storage.Tournament, tbl bot.Table) *bot.Picture {
	var top []string
	for i, r := range tbl.Rows {
		if i == 10 {
			top = append(top, "…")
			break
		}
		top = append(top, sp.T("table.alt.row", i18n.Data{"Rank": r.Cells[0], "Player": r.Cells[1], "Points": r.Cells[2]}))
	}
	return bot.TablePicture(tbl, standingsText(sp, tbl, false), "standings-"+t.ID+".png",
		sp.T("table.alt", i18n.Data{"Title": tbl.Title, "Top": cmp.Or(strings.Join(top, ", "), sp.T("table.alt.nobody", nil))}))
}

// postStandings posts text with the standings after pt in the tournament's place,
// in news: the server's language, the picture's too.
func (f *feature) postStandings(tx *bot.Tx, news speech, t *storage.Tournament, pt tournament.Tournament, text, key string) {
	f.post(tx, news, t, text, key)
	tx.PictureLast(standingsPicture(news, t, f.standings(news, t, pt)))
}

// standingsReply is /tournament standings: a picture of the whole table with
// the text as its fallback, or (show:table) the text alone.
func (f *feature) standingsReply(sp speech, t *storage.Tournament, show string) (bot.Reply, *bot.Picture, error) {
	if show != "" && show != "image" && show != "table" {
		return bot.Reply{}, nil, sp.refuse("standings.badshow", i18n.Data{"Show": sp.quote(show)})
	}
	if len(t.Pairing) == 0 {
		text := sp.N("standings.notstarted", len(t.Entrants), i18n.Data{"ID": t.ID})
		if len(t.Entrants) == 0 {
			text = sp.T("standings.notstarted.none", i18n.Data{"ID": t.ID})
		}
		return bot.Reply{Title: t.Name, Text: text}, nil, nil
	}
	pt, err := pairing(t)
	if err != nil {
		return bot.Reply{}, nil, err
	}
	head := sp.N("standings.head", len(pt.Pending()), i18n.Data{"Round": pt.Round(), "Rounds": pt.Rounds})
	if t.Status == storage.TournamentFinished {
		head = sp.T("standings.final", nil)
	}
	tbl := f.standings(sp, t, pt)
	if show == "table" {
		return bot.Reply{Title: t.Name, Text: head + "\n" + standingsText(sp, tbl, true)}, nil, nil
	}
	return bot.Reply{Title: t.Name, Text: head}, standingsPicture(sp, t, tbl), nil
}

// infoReply is /tournament info, in sp.
func (f *feature) infoReply(sp speech, t *storage.Tournament) bot.Reply {
	rated := sp.T("info.casual", nil)
	if t.Rated {
		rated = sp.T("info.rated", nil)
	}
	most := sp.T("info.nolimit", nil)
	if t.MaxPlayers > 0 {
		most = strconv.Itoa(t.MaxPlayers)
	}
	rounds := sp.T("info.perOpponent", nil)
	if t.Format == storage.Swiss {
		rounds = sp.T("info.atStart", nil)
		if t.Rounds > 0 {
			rounds = strconv.Itoa(t.Rounds)
		}
	} else if t.Rounds > 0 {
		rounds = strconv.Itoa(t.Rounds)
	}
	var names []string
	for _, en := range t.Entrants {
		n := words.Seat(en.Player)
		if en.Withdrawn {
			n = sp.T("info.withdrew", i18n.Data{"Player": n})
		}
		names = append(names, n)
	}
	field := func(id, value string) bot.Field {
		return bot.Field{Name: sp.T("info."+id, nil), Value: value, Inline: true}
	}
	return bot.Reply{Title: sp.T("info.title", i18n.Data{"ID": t.ID, "Name": t.Name}), Fields: []bot.Field{
		field("game", f.svc.VariantNameIn(sp.Lang(), t.Variant)),
		field("format", sp.T("format."+string(t.Format), nil)),
		field("rounds", rounds),
		field("clock", bot.ClockTextIn(sp.Lang(), t.DaysPerMove, t.Bank)),
		field("leave", leaveText(sp, t.NoLeave)),
		field("games", rated),
		field("status", sp.T("status."+string(t.Status), nil)),
		field("max", most),
		field("engines", cmp.Or(strings.Join(t.Engines, ", "), sp.T("info.none", nil))),
		{Name: sp.T("info.players", i18n.Data{"Count": len(t.Entrants)}), Value: cmp.Or(strings.Join(names, ", "), sp.T("info.nobody", nil))},
	}}
}
