package bot_test

import (
	"testing"

	"github.com/missivechess/missive/bot/bottest"
)

// BenchmarkMoveReply measures the time from a move command to its ready reply with
// the board's PNG (and text board), over a real data file (fsync on every commit)
// that holds a few hundred games, with the real renderer. Engine thinking is not
// involved (people play both sides); the opponent's notification, drawn in the
// background, is waited for outside the measured time. It reports the median and
// the 99th percentile per variant.
func BenchmarkMoveReply(b *testing.B) {
	for _, variant := range []string{"gothic", "keltic", "gochess", "gess"} {
		b.Run(variant, func(b *testing.B) { bottest.MoveReplies(b, variant, nil) })
	}
}
