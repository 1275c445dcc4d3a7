//go:build race

package state

// raceEnabled reports a test binary built with -race.
const raceEnabled = true
