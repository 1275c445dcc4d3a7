//go:build !race

package sidecartest

// raceEnabled makes Build build the binary with -race when the test runs
// under the race detector.
const raceEnabled = false
