package storage

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// recordFormat is the version written as the first member of every record,
// {"v":1,...}. Readers refuse any other; a migration rewrites older ones.
const recordFormat = 1

// formatPrefix starts every record of the current format.
var formatPrefix = []byte(`{"v":1,`)

// wireCodec is implemented by records with their own stored form (Game), so that
// encoding and decoding take one JSON pass.
type wireCodec interface {
	encodeWire() ([]byte, error)
	decodeWire(raw []byte) error
}

// encodeRecord returns the stored bytes of r: its JSON object with "v" first.
func encodeRecord(r any) ([]byte, error) {
	var data []byte
	var err error
	if w, ok := r.(wireCodec); ok {
		data, err = w.encodeWire()
	} else {
		data, err = json.Marshal(r)
	}
	if err != nil {
		return nil, err
	}
	if len(data) < 2 || data[0] != '{' {
		return nil, fmt.Errorf("storage: a record encodes to %.20q, not a JSON object", data)
	}
	out := make([]byte, 0, len(formatPrefix)+len(data))
	out = append(out, formatPrefix...)
	if len(data) == 2 { // {}
		return append(out[:len(out)-1], '}'), nil
	}
	return append(out, data[1:]...), nil
}

// decodeRecord reads stored bytes into r; what names the record in errors.
func decodeRecord(raw []byte, r any, what string) error {
	if !bytes.HasPrefix(raw, formatPrefix) && string(raw) != `{"v":1}` {
		var probe struct {
			V *int `json:"v"`
		}
		if err := json.Unmarshal(raw, &probe); err != nil || probe.V == nil {
			return fmt.Errorf("storage: %s: the stored record is damaged (it is not a versioned JSON record): %w", what, ErrCorrupt)
		}
		return fmt.Errorf("storage: %s: record format %d is not format %d that this build reads: %w", what, *probe.V, recordFormat, ErrCorrupt)
	}
	var err error
	if w, ok := r.(wireCodec); ok {
		err = w.decodeWire(raw)
	} else {
		err = json.Unmarshal(raw, r)
	}
	if err != nil {
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
