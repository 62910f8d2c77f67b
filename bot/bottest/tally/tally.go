package tally

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/missivechess/missive/bot"
	"github.com/missivechess/missive/bot/words"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/storage"
)

// CmdTally is /tally.
const CmdTally = "tally"

// NoticeTally is the kind of the notice a player gets when a game of theirs ends.
const NoticeTally bot.NoticeKind = "tally"

// ErrRefused is the error the GameEnded hook returns for the game FailOn names.
var ErrRefused = errors.New("tally: refused")

// Tally is the feature's state: the service it extends, what its after-commit hook
// saw, and a game whose end its in-transaction hook refuses (for tests).
type Tally struct {
	svc *bot.Service

	mu     sync.Mutex
	after  []string // "game id: white's count" as the after-commit hook read it
	failOn string
}

// New returns a tally not yet plugged in; Feature plugs it.
func New() *Tally { return &Tally{} }

// Feature is the constructor the service calls (bot.Config.Features).
func (f *Tally) Feature(s *bot.Service) bot.Feature {
	f.svc = s
	return bot.Feature{
		Commands: []bot.Command{{
			Spec: bot.CommandSpec{Name: CmdTally, Description: "How many of your games have ended", Private: true, Options: []bot.OptionSpec{
				{Name: "style", Description: "How to say it", Type: bot.OptString, Autocomplete: true}}},
			Handle: f.handle,
			Complete: map[string]bot.Completer{"style": func(_ *storage.Tx, _ bot.Request, add func(label, value string) bool) {
				for _, v := range []string{"short", "long"} {
					if !add(v, v) {
						return
					}
				}
			}},
		}},
		GameEnded:      f.ended,
		AfterGameEnded: f.afterEnded,
	}
}

// FailOn makes the in-transaction hook refuse the end of game id ("" for none).
func (f *Tally) FailOn(id string) {
	f.mu.Lock()
	f.failOn = id
	f.mu.Unlock()
}

// After returns what the after-commit hook saw, one "game: count" a game.
func (f *Tally) After() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.after...)
}

// key is where the count of a player's ended games is kept (a player record under
// a made-up id, so that the feature needs no storage of its own).
func key(player string) string { return "tally:" + player }

// ended counts g for both players in the transaction that ends it and tells each
// their new count.
func (f *Tally) ended(end bot.GameEnd) error {
	f.mu.Lock()
	fail := end.Game.ID == f.failOn
	f.mu.Unlock()
	if fail {
		return ErrRefused
	}
	for _, seat := range end.Game.Players {
		p, err := bot.Settings(end.Tx.Tx, key(seat.ID))
		if err != nil {
			return err
		}
		p.Name += "|"
		if err := end.Tx.PutPlayer(p); err != nil {
			return err
		}
		end.Tx.TellDirect(seat, NoticeTally, bot.Reply{Title: "Tally",
			Text: fmt.Sprintf("Game %s is over: you have %s.", end.Game.ID, words.Plural(len(p.Name), "finished game"))},
			"tally/"+end.Game.ID+"/"+seat.ID)
	}
	return nil
}

// Count reads a player's count from the store.
func (f *Tally) Count(ctx context.Context, player string) int {
	n := -1
	_ = f.svc.Read(ctx, func(tx *storage.Tx) error {
		p, err := bot.Settings(tx, key(player))
		n = len(p.Name)
		return err
	})
	return n
}

// afterEnded reads the count back once the transaction has committed.
func (f *Tally) afterEnded(ctx context.Context, g *storage.Game) {
	line := g.ID + ": " + strings.Repeat("|", f.Count(ctx, g.Players[rules.White].ID))
	f.mu.Lock()
	f.after = append(f.after, line)
	f.mu.Unlock()
}

func (f *Tally) handle(ctx context.Context, req bot.Request) bot.Reply {
	return bot.Reply{Private: true, Title: "Tally", Text: strings.Repeat("|", f.Count(ctx, req.User.ID))}
}
