package bot

import (
	"github.com/missivechess/missive/rules"
)

// What the views (bot/views) reach of the kernel beyond api.go.

// PictureText returns p's description for screen readers and its board drawn as
// text (a reply asked as text instead of a picture).
func (s *Service) PictureText(p *Picture) (alt, board string) {
	return p.alt, s.render.Text(p.pos, p.opts)
}

// PGNResult is the PGN result of o: "*" for an aborted game, which has none.
func PGNResult(o rules.Outcome) string { return result(o) }

// CmdNext is /next (views.CmdNext), kept for the tests still in bot.
const CmdNext = "next"
