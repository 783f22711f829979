//go:build !race

package conform

// raceDetector reports whether the tests run under the race detector.
const raceDetector = false
