package storage

import (
	"errors"
	"fmt"
)

// Sentinel errors for control flow; errors returned by this package wrap them with %w
// and a sentence naming the record and what to do.
var (
	// ErrNotFound: no record has the requested key.
	ErrNotFound = errors.New("not found")
	// ErrExists: a record (or a unique index entry such as a game's thread) with that key already exists.
	ErrExists = errors.New("already exists")
	// ErrConflict: the record changed since it was loaded (its version moved on); reload and retry.
	ErrConflict = errors.New("version conflict")
	// ErrInvalid: a record has a field the schema does not allow (empty id, NUL in a key, bad enum).
	ErrInvalid = errors.New("invalid record")
	// ErrReplay: a stored game no longer replays under the current rules.
	ErrReplay = errors.New("game record does not replay")
	// ErrCorrupt: the data file or one of its records is damaged or is not a Missive data file.
	ErrCorrupt = errors.New("data file damaged")
	// ErrLocked: another process holds the data file open.
	ErrLocked = errors.New("data file in use")
	// ErrSchema: the data file's schema version is newer than this build (or, read-only, older).
	ErrSchema = errors.New("unsupported schema version")
	// ErrReadOnly: a write was attempted on a store opened read-only.
	ErrReadOnly = errors.New("read-only store")
	// ErrClosed: the store was used after Close.
	ErrClosed = errors.New("store closed")
)

// ReplayError reports a game whose record no longer replays: the start position or
// one move of the list is refused by the rules. It matches ErrReplay with errors.Is
// and unwraps to the rules error (rules.ErrIllegalMove, rules.ErrBadPosition, ...).
type ReplayError struct {
	Game  string // the game's id
	Index int    // 0-based index in the move list, or -1 for the start position
	Move  string // the stored move text (empty for the start position)
	Err   error  // the rules error
}

// Error names the game and the move that fails.
func (e *ReplayError) Error() string {
	if e.Index < 0 {
		return fmt.Sprintf("storage: game %s does not replay: its start position is refused: %v", e.Game, e.Err)
	}
	return fmt.Sprintf("storage: game %s does not replay: move list entry %d (index %d, %q) is refused: %v",
		e.Game, e.Index+1, e.Index, e.Move, e.Err)
}

// Unwrap returns the rules error.
func (e *ReplayError) Unwrap() error { return e.Err }

// Is reports whether target is ErrReplay.
func (e *ReplayError) Is(target error) bool { return target == ErrReplay }
