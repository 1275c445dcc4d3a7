// Package leakcheck fails a test binary that leaves goroutines running after
// its tests: every goroutine of the code under test has an owner that stops
// it and waits for it (docs/DESIGN.md, "Goroutines and their owners"), so
// none may outlive the Close of what started it.
//
// A package's tests use it from TestMain:
//
//	func TestMain(m *testing.M) { leakcheck.Main(m) }
package leakcheck

import (
	"fmt"
	"os"
	"testing"
	"time"

	"go.uber.org/goleak"
)

// settle is how long the goroutines left after the tests get to end before
// they count as leaked: a client's connection readers and writers, and the
// in-process broker's, end shortly after their Close returns, not at once.
const settle = 5 * time.Second

// Main runs the tests and, when they pass, fails the binary if goroutines
// other than the test framework's are still running once settle has passed.
// ignore names more goroutines to leave alone (goleak.IgnoreTopFunction):
// only ones that are not the project's own.
func Main(m *testing.M, ignore ...goleak.Option) {
	code := m.Run()
	if code == 0 {
		if err := wait(settle, ignore...); err != nil {
			fmt.Fprintf(os.Stderr, "leakcheck: goroutines still running %v after the tests: %v\n", settle, err)
			code = 1
		}
	}
	os.Exit(code)
}

// wait returns nil once no goroutine but the ignored ones runs, or the last
// goroutines found when d has passed.
func wait(d time.Duration, ignore ...goleak.Option) error {
	deadline := time.Now().Add(d)
	for {
		err := goleak.Find(ignore...)
		if err == nil || time.Now().After(deadline) {
			return err
		}
		time.Sleep(100 * time.Millisecond)
	}
}
