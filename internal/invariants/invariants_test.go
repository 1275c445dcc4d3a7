package invariants

import (
	"strings"
	"testing"
)

func TestFailfPanicsWithItsMessage(t *testing.T) {
	defer func() {
		p := recover()
		msg, ok := p.(string)
		if !ok || !strings.HasPrefix(msg, "invariant violated: ") || !strings.Contains(msg, "store counts at offset 7") {
			t.Fatalf("panic = %#v", p)
		}
	}()
	Failf("store %s at offset %d", "counts", 7)
}
