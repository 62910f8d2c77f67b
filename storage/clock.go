package storage

import (
	"fmt"
	"time"
)

// metaClockKey holds a console's clock offset (see Tx.ClockOffset).
var metaClockKey = []byte("clock-offset")

// ClockOffset returns how far a console has moved its clock on past the real time
// (its /wait), zero when it never has; the bot does not use it.
func (tx *Tx) ClockOffset() (time.Duration, error) {
	meta, err := tx.bucket(bMeta)
	if err != nil {
		return 0, err
	}
	raw := meta.Get(metaClockKey)
	if raw == nil {
		return 0, nil
	}
	d, err := time.ParseDuration(string(raw))
	if err != nil {
		return 0, fmt.Errorf("storage: data file %s has a clock offset %q that is not a duration: %w", tx.s.path, raw, ErrCorrupt)
	}
	return d, nil
}

// SetClockOffset records a console's clock offset, for ClockOffset after a restart.
func (tx *Tx) SetClockOffset(d time.Duration) error {
	if err := tx.writable(); err != nil {
		return err
	}
	meta, err := tx.bucket(bMeta)
	if err != nil {
		return err
	}
	tx.dirty = true
	return meta.Put(metaClockKey, []byte(d.String()))
}
