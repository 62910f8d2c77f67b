package storage_test

import (
	"github.com/missivechess/missive/internal/toy"
	"github.com/missivechess/missive/rules"
)

// toyRegistry holds both walking toy variants.
func toyRegistry() *rules.Registry {
	return rules.NewRegistry(toy.Walk{}, toy.Walk{Place: true})
}
