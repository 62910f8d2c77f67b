// Package variants assembles the registry of every game Missive plays.
package variants

import (
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/gess"
)

// Registry returns a new registry holding all of Missive's variants.
func Registry() *rules.Registry {
	return rules.NewRegistry(all()...)
}

// all lists the variants; each rules sub-package adds its own line here.
func all() []rules.Variant {
	return []rules.Variant{
		gess.Variant{},
	}
}
