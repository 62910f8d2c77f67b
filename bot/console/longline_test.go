package console

import (
	"strings"
	"testing"
)

// TestLongLines checks that input lines of any length are refused with a sentence
// and that the console goes on reading: the line after them still runs.
func TestLongLines(t *testing.T) {
	s := newSession(t)
	for _, n := range []int{maxLine + 1, 2 << 20, 5 << 20} {
		out := s.run("/challenge variant:" + strings.Repeat("x", n) + "\n/whoami\n")
		expect(t, out, "[refused] That line is", "a command may be at most 64 KiB", "You are ")
	}
	// A long last line without a line end is refused too.
	out := s.run("/whoami\n" + strings.Repeat("y", 3<<20))
	expect(t, out, "You are ", "[refused] That line is 3145728 bytes long")
}
