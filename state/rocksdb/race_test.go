//go:build race

package rocksdb

// raceEnabled reports a test binary built with -race.
const raceEnabled = true
