//go:build race

package variants_test

// raceDetector reports whether the tests run under the race detector, which makes
// the oracle's search of every Go-Chess position too slow to do in full.
const raceDetector = true
