package settings

import "github.com/missivechess/missive/bot"

// HasField reports whether r has a field name whose value is value.
func HasField(r bot.Reply, name, value string) bool {
	for _, f := range r.Fields {
		if f.Name == name && f.Value == value {
			return true
		}
	}
	return false
}
