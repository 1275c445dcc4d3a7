package sidecar

import (
	"testing"

	"github.com/stoatflow/stoatflow/internal/leakcheck"
)

// TestMain fails the package's tests when a goroutine outlives them: the
// run, shadow and demo commands' servers, readers and instances must all
// have stopped once the command returns.
func TestMain(m *testing.M) { leakcheck.Main(m) }
