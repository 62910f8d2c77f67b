package review

import (
	"context"

	"github.com/missivechess/missive/bot"
)

// What the external tests (package review_test) reach of the feature's insides.

var UnitsSentence = unitsSentence

// Quiet is the gate the review's lane waits at before each search.
func Quiet(s *bot.Service) func(context.Context) error { return (&reviewer{svc: s}).quiet }

// Catalogue is the review's message catalogue.
var Catalogue = catalogue
