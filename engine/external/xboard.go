package external

import (
	"slices"
	"strings"
)

// xboardFeatures are the features an XBoard engine announces with "feature"
// lines after "protover 2", each at its protocol default until announced.
type xboardFeatures struct {
	ping     bool     // answers "ping N" with "pong N"
	setboard bool     // takes a position with "setboard FEN"
	usermove bool     // wants moves sent as "usermove MOVE"
	noReuse  bool     // reuse=0: wants a fresh process for each game
	starting bool     // done=0 without done=1 yet: it asked for time to start
	variants []string // the variants it plays (nil when it names none)
	// answers are the replies owed to the features read so far ("accepted ping",
	// "rejected draw"): the protocol answers each feature, so that an engine
	// knows which of its requests the interface honours.
	answers []string
}

// honoured reports whether Missive does what an engine's feature name=value asks
// of the interface: the features it reads, those it has no use for but does as
// asked (its name, its options), and those whose 0 it keeps by never doing the
// thing (signals, colour commands, SAN: an engine whose san=1 is rejected falls
// back to coordinates, as the protocol's default).
func honoured(name, value string) bool {
	switch name {
	case "ping", "setboard", "usermove", "reuse", "variants", "done", "myname", "option":
		return true
	case "time": // Missive sends the clock ("time", "otim") with each request
		return value == "1"
	case "sigint", "sigterm", "colors", "san":
		return value == "0"
	}
	return false // draw offers, analysis, ICS, the opponent's name, ...
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
		if honoured(name, value) {
			f.answers = append(f.answers, "accepted "+name)
		} else {
			f.answers = append(f.answers, "rejected "+name)
		}
		switch on := value == "1"; name {
		case "ping":
			f.ping = on
		case "setboard":
			f.setboard = on
		case "usermove":
			f.usermove = on
		case "reuse":
			f.noReuse = !on
		case "variants":
			f.variants = strings.Split(value, ",")
			for i := range f.variants {
				f.variants[i] = strings.TrimSpace(f.variants[i])
			}
		case "done":
			done, f.starting = on, !on
		}
	}
	return done
}

// harmlessError reports whether an engine's error line ("Error (unknown command):
// nopost") is about a command whose failure leaves the game as it was sent: the
// handshake's answers, the requests about thinking output and pondering, and the
// clock (sent besides "st", which bounds the move). Fairy-Stockfish, for one,
// knows no "nopost". Any other error is a refusal.
func harmlessError(line string) bool {
	_, cmd, _ := strings.Cut(line, ": ")
	f := strings.Fields(cmd)
	return len(f) > 0 && slices.Contains([]string{"accepted", "rejected", "easy", "hard", "post", "nopost", "computer", "time", "otim"}, f[0])
}
