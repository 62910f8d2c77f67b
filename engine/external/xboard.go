package external

import (
	"strings"
)

// xboardFeatures are the features an XBoard engine announces with "feature"
// lines after "protover 2", each at its protocol default until announced.
type xboardFeatures struct {
	ping     bool     // answers "ping N" with "pong N"
	setboard bool     // takes a position with "setboard FEN"
	usermove bool     // wants moves sent as "usermove MOVE"
	san      bool     // wants moves in SAN
	noReuse  bool     // reuse=0: wants a fresh process for each game
	variants []string // the variants it plays (nil when it names none)
}

// read takes in one line of the handshake and reports whether the engine has
// announced all its features (done=1).
func (f *xboardFeatures) read(line string) bool {
	rest, ok := strings.CutPrefix(line, "feature ")
	done := false
	for ok {
		var name, value string
		rest = strings.TrimLeft(rest, " \t")
		if name, rest, ok = strings.Cut(rest, "="); !ok {
			break
		}
		if r, quoted := strings.CutPrefix(rest, `"`); quoted {
			value, rest, _ = strings.Cut(r, `"`)
		} else {
			value, rest, _ = strings.Cut(rest, " ")
		}
		switch on := value == "1"; name {
		case "ping":
			f.ping = on
		case "setboard":
			f.setboard = on
		case "usermove":
			f.usermove = on
		case "san":
			f.san = on
		case "reuse":
			f.noReuse = !on
		case "variants":
			f.variants = strings.Split(value, ",")
			for i := range f.variants {
				f.variants[i] = strings.TrimSpace(f.variants[i])
			}
		case "done":
			done = on
		}
	}
	return done
}
