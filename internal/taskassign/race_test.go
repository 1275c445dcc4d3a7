//go:build race

package taskassign

// raceEnabled reports a test binary built with -race.
const raceEnabled = true
