package bot

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/missivechess/missive/storage"
)

// Server events: tournaments and engine matches, which admins set up and which
// have a place (a thread) of their own.

// mustAdmin refuses members without the server-management permission what, such
// as "create a tournament", and everyone outside a server (a direct message has no
// such permission); local play (the console) has no permission to check.
func mustAdmin(req Request, what string) error {
	switch {
	case req.local():
		return nil
	case req.Place.Guild == "":
		return refuse(ErrRefused, "Only a server's members who may manage it can %s, in the server.", what)
	case req.Admin:
		return nil
	}
	return refuse(ErrRefused, "Only members who may manage this server can %s.", what)
}

// eventInfo is what finding an event needs to know of it.
type eventInfo struct{ id, name, guild, thread string }

// eventKind says how to find one kind of event (T) that a request means.
type eventKind[T any] struct {
	option string // the option that names one by number
	get    func(tx *storage.Tx, id string) (T, error)
	list   func(tx *storage.Tx, guild string, active bool) ([]T, error)
	info   func(T) eventInfo
	// noSuch refuses an event number (raw: as typed) that names none of the server.
	noSuch func(raw, id string) error
	// none refuses when the server has had no such event; several, with the list of
	// the active ones, when the request must name one.
	none, several string
}

// findEvent picks the event of kind k a request means: the one named, the active
// one whose thread the request came from, the only active one of the server, or,
// when none is active, the latest one (for its results).
func findEvent[T any](tx *storage.Tx, req Request, k eventKind[T]) (T, error) {
	var zero T
	raw := req.Args.Get(k.option)
	if id := strings.TrimPrefix(raw, "#"); id != "" {
		ev, err := k.get(tx, id)
		if errors.Is(err, storage.ErrNotFound) || (err == nil && k.info(ev).guild != req.Place.Guild) {
			return zero, k.noSuch(raw, id)
		}
		return ev, err
	}
	active, err := k.list(tx, req.Place.Guild, true)
	if err != nil {
		return zero, err
	}
	for _, ev := range active {
		if req.Place.Thread != "" && k.info(ev).thread == req.Place.Thread {
			return ev, nil
		}
	}
	switch len(active) {
	case 0:
		over, err := k.list(tx, req.Place.Guild, false)
		if err != nil {
			return zero, err
		}
		if len(over) > 0 {
			return over[len(over)-1], nil
		}
		return zero, refuse(ErrRefused, "%s", k.none)
	case 1:
		return active[0], nil
	}
	names := make([]string, len(active))
	for i, ev := range active {
		names[i] = fmt.Sprintf("%s (%s)", k.info(ev).id, k.info(ev).name)
	}
	return zero, refuse(ErrRefused, k.several, strings.Join(names, ", "))
}

// SetEventThread records the thread an adapter opened for a tournament or match;
// a thread already recorded stays.
func (s *Service) SetEventThread(ctx context.Context, ev EventRef, thread string) error {
	return s.store.Update(ctx, func(tx *storage.Tx) error {
		switch ev.Kind {
		case EventMatch:
			m, err := tx.Match(ev.ID)
			if err != nil || m.Thread != "" {
				return err
			}
			m.Thread = thread
			return tx.PutMatch(m)
		case EventTournament:
			t, err := tx.Tournament(ev.ID)
			if err != nil || t.Thread != "" {
				return err
			}
			t.Thread = thread
			return tx.PutTournament(t)
		}
		return fmt.Errorf("bot: no event kind %q", ev.Kind)
	})
}
