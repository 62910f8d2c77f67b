package bot

import (
	"errors"
	"sync"
)

// ErrServerLeft refuses starting a game in a server the adapter reported the bot has
// left (GuildLeft): nothing could be posted there, so a tournament's next round waits
// until the bot is back (its pairing transaction fails and is tried again at a later
// tick).
var ErrServerLeft = errors.New("the bot is not in that server")

// leftServers are the servers the adapter reported the bot has left, in memory: an
// adapter reports them again after a restart (Discord's READY lists only the servers
// the bot is in).
type leftServers struct {
	mu sync.Mutex
	m  map[string]bool
}

// GuildLeft records that the bot was removed from server guild (left true) or is in
// it again (false). While it is out, no game starts there (ErrServerLeft), so a
// tournament in that server stops pairing; games already there go on through direct
// messages, as the adapter delivers their notices.
func (s *Service) GuildLeft(guild string, left bool) {
	s.left.mu.Lock()
	defer s.left.mu.Unlock()
	if s.left.m == nil {
		s.left.m = map[string]bool{}
	}
	if left {
		s.left.m[guild] = true
	} else {
		delete(s.left.m, guild)
	}
}

// InGuild reports whether the bot is in server guild as far as the adapter said
// (true for "", a place outside any server).
func (s *Service) InGuild(guild string) bool {
	s.left.mu.Lock()
	defer s.left.mu.Unlock()
	return guild == "" || !s.left.m[guild]
}
