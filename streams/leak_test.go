package streams_test

import (
	"testing"

	"github.com/stoatflow/stoatflow/internal/leakcheck"
)

// TestMain fails the package's tests when a goroutine outlives them: the
// runtime's threads, the global thread, the shutdown request's consumer and
// the clients they own must all have stopped once each test's instance is
// closed and its broker shut down.
func TestMain(m *testing.M) { leakcheck.Main(m) }
