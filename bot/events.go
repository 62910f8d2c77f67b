package bot

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/storage"
)

// Server events: tournaments and engine matches, which admins set up and which
// have a place (a thread) of their own.

// MustAdmin refuses members without the server-management permission what, such
// as "create a tournament", and everyone outside a server (a direct message has no
// such permission); local play (the console) has no permission to check.
func MustAdmin(req Request, what string) error { return MustAdminIn(req, Same(what)) }

// MustAdminIn is MustAdmin with what in the reader's language: an infinitive
// phrase the refusal ends with ("ein Turnier erstellen", "créer un tournoi").
func MustAdminIn(req Request, what Phrase) error {
	id := "refusal.admin"
	switch {
	case req.Local():
		return nil
	case req.Place.Guild == "":
		id = "refusal.admin.server"
	case req.Admin:
		return nil
	}
	return RefuseIn(ErrRefused, func(l i18n.Lang) string { return catalogue.For(l).T(id, i18n.Data{"What": what(l)}) })
}

// EventInfo is what finding an event needs to know of it.
type EventInfo struct{ ID, Name, Guild, Thread string }

// EventFinder says how to find one kind of event (T) that a request means.
type EventFinder[T any] struct {
	Option string // the option that names one by number
	Get    func(tx *storage.Tx, id string) (T, error)
	List   func(tx *storage.Tx, guild string, active bool) ([]T, error)
	Info   func(T) EventInfo
	// NoSuch refuses an event number (raw: as typed) that names none of the server.
	NoSuch func(raw, id string) error
	// None refuses when the server has had no such event; Several, with the list of
	// the active ones, when the request must name one.
	None, Several string
	// NoneIn and SeveralIn, when set, are None and Several in the reader's
	// language (SeveralIn with the list of the active ones).
	NoneIn    Phrase
	SeveralIn func(l i18n.Lang, list string) string
}

// FindEvent picks the event of kind k a request means: the one named, the active
// one whose thread the request came from, the only active one of the server, or,
// when none is active, the latest one (for its results).
func FindEvent[T any](tx *storage.Tx, req Request, k EventFinder[T]) (T, error) {
	var zero T
	raw := req.Args.Get(k.Option)
	if id := strings.TrimPrefix(raw, "#"); id != "" {
		ev, err := k.Get(tx, id)
		if errors.Is(err, storage.ErrNotFound) || (err == nil && k.Info(ev).Guild != req.Place.Guild) {
			return zero, k.NoSuch(raw, id)
		}
		return ev, err
	}
	active, err := k.List(tx, req.Place.Guild, true)
	if err != nil {
		return zero, err
	}
	for _, ev := range active {
		if req.Place.Thread != "" && k.Info(ev).Thread == req.Place.Thread {
			return ev, nil
		}
	}
	switch len(active) {
	case 0:
		over, err := k.List(tx, req.Place.Guild, false)
		if err != nil {
			return zero, err
		}
		if len(over) > 0 {
			return over[len(over)-1], nil
		}
		if k.NoneIn != nil {
			return zero, RefuseIn(ErrRefused, k.NoneIn)
		}
		return zero, Refuse(ErrRefused, "%s", k.None)
	case 1:
		return active[0], nil
	}
	names := make([]string, len(active))
	for i, ev := range active {
		names[i] = fmt.Sprintf("%s (%s)", k.Info(ev).ID, k.Info(ev).Name)
	}
	list := strings.Join(names, ", ")
	if k.SeveralIn != nil {
		return zero, RefuseIn(ErrRefused, func(l i18n.Lang) string { return k.SeveralIn(l, list) })
	}
	return zero, Refuse(ErrRefused, k.Several, list)
}

// SetEventThread records the thread an adapter opened for a tournament or match;
// a thread already recorded stays.
func (s *Service) SetEventThread(ctx context.Context, ev EventRef, thread string) error {
	set, ok := s.hooks.threads[ev.Kind]
	if !ok {
		return fmt.Errorf("bot: no event kind %q", ev.Kind)
	}
	return s.store.Update(ctx, func(tx *storage.Tx) error { return set(tx, ev.ID, thread) })
}
