//go:build !failpoint

package failpoint

import (
	"errors"
	"os"
	"testing"
)

// Without the tag nothing can arm a point: not Arm, not the environment.
func TestWithoutTagNothingFires(t *testing.T) {
	if Enabled {
		t.Fatal("Enabled is true in a build without the failpoint tag")
	}
	if err := Arm(AfterCommit + "=error"); !errors.Is(err, ErrNotCompiled) {
		t.Fatalf("Arm = %v, want ErrNotCompiled", err)
	}
	t.Setenv(EnvVar, "*=error")
	if os.Getenv(EnvVar) == "" {
		t.Fatal("setenv failed")
	}
	for _, p := range []string{AfterChangelogFlush, AfterSendOffsets, AfterCommit, BetweenStores, MidRestore, StandbyMid, StandbyPromote, StandbyDemote, RebalanceCallback} {
		if err := Hit(p); err != nil {
			t.Fatalf("Hit(%s) = %v in a build without failpoints", p, err)
		}
	}
}
