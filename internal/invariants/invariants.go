// Package invariants gates assertions that are too costly, or too strict
// about internal states, for a production binary: they are compiled in only
// under the `invariants` build tag, which `make test` uses for the unit tests
// of the commit path and for the crash suites.
//
// An assertion reads
//
//	if invariants.Enabled && offset < durable {
//		invariants.Failf("state: store %s: ...", name, ...)
//	}
//
// Enabled is a constant, so without the tag the compiler drops the whole
// statement: production pays nothing. A failed assertion panics with a
// message that names what broke (the store, the partition, the offsets):
// it reports a bug in StoatFlow, never bad input.
package invariants

import "fmt"

// Failf panics with the formatted message, prefixed so that a crash log
// shows at once that an internal invariant, not the input, failed.
func Failf(format string, args ...any) {
	panic("invariant violated: " + fmt.Sprintf(format, args...))
}
