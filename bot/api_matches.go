package bot

// What the engine matches feature (package bot/matches) needs of the kernel
// beyond api.go.

// Rand returns a random number from the service's source (Config.Rand): the
// colours of a random seat, the start of a Go-Chess board.
func (s *Service) Rand() uint64 { return s.rand() }
