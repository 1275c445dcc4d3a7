//go:build !invariants

package invariants

import "testing"

func TestDisabledWithoutTag(t *testing.T) {
	if Enabled {
		t.Fatal("Enabled is true without the invariants tag")
	}
}
