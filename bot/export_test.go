package bot

import "errors"

// What the external tests (package bot_test) reach of the service's insides.

const (
	EngineRetry      = engineRetry
	EngineCheckEvery = engineCheckEvery
	MaxSuggestions   = maxSuggestions
)

// Engines is the adapter NewEngine returns, for the checks of external engines.
type Engines = engines

// Handlers returns every command the service handles, as plugged.
func Handlers(s *Service) []Command { return s.commands }

var (
	Destination = destination
	SeqOf       = seqOf
)

// OutageSteps makes s give outages back size games (and players) a transaction and
// stop (with an error, as a killed process would) after batches batches; 0 lets it
// run to the end.
func OutageSteps(s *Service, size, batches int) {
	s.outageBatch, s.outageStep = size, nil
	if batches > 0 {
		s.outageStep = func(n int) error {
			if n >= batches {
				return errOutageStopped
			}
			return nil
		}
	}
}

var errOutageStopped = errors.New("stopped half-way by the test")

var TextWordsIn = textWords
