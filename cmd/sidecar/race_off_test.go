//go:build !race

package main

// raceEnabled makes the end-to-end test build the binary with -race too.
const raceEnabled = false
