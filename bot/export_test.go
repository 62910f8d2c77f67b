package bot

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
