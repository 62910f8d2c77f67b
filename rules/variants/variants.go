package variants

import (
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/gess"
	"github.com/missivechess/missive/rules/gochess"
	"github.com/missivechess/missive/rules/gothic"
	"github.com/missivechess/missive/rules/keltic"
)

// Registry returns a new registry holding all of Missive's variants.
func Registry() *rules.Registry {
	return rules.NewRegistry(all()...)
}

// all lists the variants; each rules sub-package adds its own line here.
func all() []rules.Variant {
	return []rules.Variant{
		gothic.New(),
		keltic.New(),
		gochess.New(),
		gess.Variant{},
	}
}
