package bot

import "context"

// What the external tests (package bot_test) reach of the service's insides.

const (
	EngineRetry      = engineRetry
	EngineCheckEvery = engineCheckEvery
	MaxSuggestions   = maxSuggestions
)

// Engines is the adapter NewEngine returns, for the checks of external engines.
type Engines = engines

var UnitsSentence = unitsSentence

// Handlers returns every command the service handles, as plugged.
func Handlers(s *Service) []Command { return s.commands }

// ReviewQuiet is the gate the review's lane waits at before each search.
func ReviewQuiet(s *Service) func(context.Context) error { return (&reviewer{s: s}).quiet }

var (
	Destination = destination
	SeqOf       = seqOf
)
