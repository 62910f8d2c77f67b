//go:build !race

package render_test

// raceDetector reports whether the tests run under the race detector, whose shadow
// memory and slowdown make heap measurements of thousands of frames meaningless.
const raceDetector = false
