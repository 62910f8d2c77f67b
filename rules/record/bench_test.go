package record_test

import (
	"testing"
	"time"

	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/rules/record"
)

// benchRecord returns a Gothic record of up to 120 plies (deterministic moves).
func benchRecord(b *testing.B) (rules.Variant, record.Record) {
	v := variant(b, "gothic")
	var r record.Record
	pos, _ := r.Position(v)
	for len(r.Moves) < 120 && !pos.Outcome().IsOver() {
		ms := pos.LegalMoves()
		var err error
		if pos, err = r.PlayMove(pos, pos.Turn(), ms[len(r.Moves)*7%len(ms)], time.Time{}); err != nil {
			b.Fatal(err)
		}
	}
	return v, r
}

// BenchmarkTrace is the replay made when a game is loaded.
func BenchmarkTrace(b *testing.B) {
	v, r := benchRecord(b)
	for b.Loop() {
		if _, err := r.Trace(v); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReplay is the replay with display notation, for history and PGN.
func BenchmarkReplay(b *testing.B) {
	v, r := benchRecord(b)
	for b.Loop() {
		if _, err := r.Replay(v); err != nil {
			b.Fatal(err)
		}
	}
}
