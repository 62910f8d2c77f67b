//go:build !race

package engine

// raceDetector reports whether the tests run under the race detector, whose
// slowdown makes a search's keeping to its time meaningless.
const raceDetector = false
