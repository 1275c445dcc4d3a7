//go:build invariants

package invariants

import "testing"

func TestEnabledUnderTag(t *testing.T) {
	if !Enabled {
		t.Fatal("Enabled is false under the invariants tag")
	}
}
