package bot

// What the challenges feature (package bot/challenges) needs of the kernel
// beyond api.go.

// Rand returns a random number from the service's source (Config.Rand): the
// colours of a random seat, the start of a Go-Chess board.
func (s *Service) Rand() uint64 { return s.rand() }

// CmdRematch is the name of /rematch, which package challenges declares
// (challenges.CmdRematch); kept for the tests in package bot until the Cmd*
// names leave the kernel.
const CmdRematch = "rematch"
