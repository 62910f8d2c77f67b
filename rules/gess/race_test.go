//go:build race

package gess

// raceDetector reports whether the tests run under the race detector, which makes
// the deepest perft counts too slow for the unit tests.
const raceDetector = true
