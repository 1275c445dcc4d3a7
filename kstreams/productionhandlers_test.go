package kstreams_test

import (
	"slices"
	"testing"

	"github.com/stoatflow/stoatflow/kstreams"
)

type namedHandler struct {
	kstreams.DefaultProductionExceptionHandler
	name string
}

// TestProductionHandlersBindClassesToNewHandlers: a class makes a new
// handler of its own function each time, Kafka's default class is always
// bound and cannot be rebound, and anything else is unbound.
func TestProductionHandlersBindClassesToNewHandlers(t *testing.T) {
	const class = "com.acme.Mine"
	h := kstreams.ProductionHandlers{class: func() kstreams.ProductionExceptionHandler { return &namedHandler{name: "mine"} }}
	if err := h.Validate(); err != nil {
		t.Fatal(err)
	}
	a, ok := h.New(class)
	b, _ := h.New(class)
	if n, _ := a.(*namedHandler); !ok || n == nil || n.name != "mine" || a == b {
		t.Errorf("New(%s) = %v, %v and then %v: want a new handler of the class each time", class, a, ok, b)
	}
	var none kstreams.ProductionHandlers
	if d, ok := none.New(kstreams.DefaultProductionExceptionHandlerClass); !ok || d == nil {
		t.Errorf("Kafka's default class unbound: %v %v", d, ok)
	}
	if _, ok := none.New(class); ok {
		t.Errorf("%s bound in no handlers", class)
	}
	if got, want := h.Classes(), []string{class, kstreams.DefaultProductionExceptionHandlerClass}; !slices.Equal(got, want) {
		t.Errorf("Classes() = %v, want %v", got, want)
	}
	for _, bad := range []kstreams.ProductionHandlers{
		{"": h[class]},
		{class: nil},
		{kstreams.DefaultProductionExceptionHandlerClass: h[class]},
	} {
		if err := bad.Validate(); err == nil {
			t.Errorf("%v: accepted", bad)
		}
	}
}
