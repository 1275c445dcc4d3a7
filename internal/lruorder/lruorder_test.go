package lruorder

import (
	"fmt"
	"testing"
)

func TestOrderFollowsUses(t *testing.T) {
	o := New()
	for _, k := range []string{"a", "b", "c"} {
		o.Use(k)
	}
	check := func(want string) {
		t.Helper()
		if got := fmt.Sprint(o.Keys()); got != want {
			t.Fatalf("keys %s, want %s", got, want)
		}
	}
	check("[a b c]")
	if !o.Touch("a") || o.Touch("x") {
		t.Fatal("Touch reports presence wrongly")
	}
	check("[b c a]")
	o.Use("b") // a present key moves, it is not added twice
	check("[c a b]")
	c := o.Clone()
	if !o.Remove("a") || o.Remove("a") {
		t.Fatal("Remove reports presence wrongly")
	}
	check("[c b]")
	if e, ok := o.Eldest(); !ok || e != "c" || o.Len() != 2 || o.Contains("a") {
		t.Fatalf("eldest %q %v, len %d", e, ok, o.Len())
	}
	if got := fmt.Sprint(c.Keys()); got != "[c a b]" {
		t.Fatalf("the clone changed with the original: %s", got)
	}
	o.Clear()
	if _, ok := o.Eldest(); ok || o.Len() != 0 {
		t.Fatal("Clear left keys")
	}
	o.Use("z")
	check("[z]")
}
