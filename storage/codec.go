package storage

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// recordFormat is the version written in every record's envelope. Readers refuse a
// newer one; a migration rewrites older ones.
const recordFormat = 1

// envelope is the stored form of every record: {"v":1,"data":{...}}.
type envelope struct {
	V    int             `json:"v"`
	Data json.RawMessage `json:"data"`
}

// encodeRecord returns the stored bytes of r.
func encodeRecord(r any) ([]byte, error) {
	data, err := json.Marshal(r)
	if err != nil {
		return nil, err
	}
	return json.Marshal(envelope{V: recordFormat, Data: data})
}

// decodeRecord reads stored bytes into r; what names the record in errors.
func decodeRecord(raw []byte, r any, what string) error {
	var env envelope
	if err := json.Unmarshal(raw, &env); err != nil {
		return fmt.Errorf("storage: %s: the stored record is damaged (%v): %w", what, err, ErrCorrupt)
	}
	if env.V != recordFormat {
		return fmt.Errorf("storage: %s: record format %d is not format %d that this build reads: %w", what, env.V, recordFormat, ErrCorrupt)
	}
	if err := json.Unmarshal(env.Data, r); err != nil {
		return fmt.Errorf("storage: %s: the stored record is damaged (%v): %w", what, err, ErrCorrupt)
	}
	return nil
}

// sep separates the parts of composite index keys.
const sep = 0x00

// key joins string parts with the NUL separator. Parts are validated (checkKeyPart)
// before they reach here, so the result splits back unambiguously.
func key(parts ...string) []byte {
	n := len(parts)
	for _, p := range parts {
		n += len(p)
	}
	b := make([]byte, 0, n)
	for i, p := range parts {
		if i > 0 {
			b = append(b, sep)
		}
		b = append(b, p...)
	}
	return b
}

// prefix returns the parts joined and followed by a separator, for range scans.
func prefix(parts ...string) []byte { return append(key(parts...), sep) }

// timeKey encodes t as 8 big-endian bytes of Unix milliseconds, so that byte order is
// time order; times before 1970 sort as 1970.
func timeKey(t time.Time) []byte {
	ms := t.UnixMilli()
	if ms < 0 {
		ms = 0
	}
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], uint64(ms))
	return b[:]
}

// parseTimeKey reads the 8-byte time at the start of k.
func parseTimeKey(k []byte) (time.Time, bool) {
	if len(k) < 8 {
		return time.Time{}, false
	}
	return time.UnixMilli(int64(binary.BigEndian.Uint64(k[:8]))).UTC(), true
}

// concat joins byte slices into a new slice.
func concat(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

// maxKeyPart bounds ids and other strings used inside keys.
const maxKeyPart = 200

// checkKeyPart validates a string that becomes part of a key.
func checkKeyPart(what, s string, required bool) error {
	switch {
	case s == "" && required:
		return fmt.Errorf("storage: %s is empty: %w", what, ErrInvalid)
	case len(s) > maxKeyPart:
		return fmt.Errorf("storage: %s is %d bytes long, more than %d: %w", what, len(s), maxKeyPart, ErrInvalid)
	case strings.IndexByte(s, sep) >= 0:
		return fmt.Errorf("storage: %s %q contains a NUL byte: %w", what, s, ErrInvalid)
	}
	return nil
}

// utc returns t in UTC without its monotonic reading, the form stored.
func utc(t time.Time) time.Time {
	if t.IsZero() {
		return time.Time{}
	}
	return t.UTC()
}
