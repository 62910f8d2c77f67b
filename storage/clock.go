package storage

import (
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
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
	return tx.putMeta(metaClockKey, d.String())
}

// putMeta writes one value of the meta bucket.
func (tx *Tx) putMeta(key []byte, value string) error {
	meta, err := tx.metaToWrite()
	if err != nil {
		return err
	}
	return meta.Put(key, []byte(value))
}

// metaToWrite returns the meta bucket for a write.
func (tx *Tx) metaToWrite() (*bolt.Bucket, error) {
	if err := tx.writable(); err != nil {
		return nil, err
	}
	meta, err := tx.bucket(bMeta)
	if err != nil {
		return nil, err
	}
	tx.dirty = true
	return meta, nil
}

// metaHeartbeatKey holds the last time the bot was known to be live (see Tx.Heartbeat).
var metaHeartbeatKey = []byte("heartbeat")

// Heartbeat returns the last time the running bot recorded that it was live and
// connected, and false when it never has.
func (tx *Tx) Heartbeat() (time.Time, bool, error) {
	meta, err := tx.bucket(bMeta)
	if err != nil {
		return time.Time{}, false, err
	}
	raw := meta.Get(metaHeartbeatKey)
	if raw == nil {
		return time.Time{}, false, nil
	}
	t, err := time.Parse(time.RFC3339Nano, string(raw))
	if err != nil {
		return time.Time{}, false, fmt.Errorf("storage: data file %s has a heartbeat %q that is not a time: %w", tx.s.path, raw, ErrCorrupt)
	}
	return t, true, nil
}

// SetHeartbeat records that the bot was live and connected at t.
func (tx *Tx) SetHeartbeat(t time.Time) error {
	return tx.putMeta(metaHeartbeatKey, t.UTC().Format(time.RFC3339Nano))
}
