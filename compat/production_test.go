package compat

import (
	"strings"
	"testing"

	"github.com/stoatflow/stoatflow/kstreams"
)

// TestProductionHandlerClassResolves: production.exception.handler takes
// Kafka's default, or a class a Go handler is registered under, by either
// key name; any other class is an error that says how to register one.
func TestProductionHandlerClassResolves(t *testing.T) {
	const class = "com.example.RegisteredProductionHandler"
	if err := kstreams.RegisterProductionExceptionHandler(class, func() kstreams.ProductionExceptionHandler {
		return &kstreams.DefaultProductionExceptionHandler{}
	}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ src, want string }{
		{"", kstreams.DefaultProductionExceptionHandlerClass},
		{"production.exception.handler=" + class + "\n", class},
		{"default.production.exception.handler=" + class + "\n", class},
	} {
		c, diags := load(t, "application.id=app\nbootstrap.servers=k:9092\n"+tc.src)
		if diags.HasErrors() {
			t.Errorf("%q: %v", tc.src, diags.Errors())
			continue
		}
		if c.ProductionExceptionHandler != tc.want {
			t.Errorf("%q: handler %q, want %q", tc.src, c.ProductionExceptionHandler, tc.want)
		}
	}
	_, diags := load(t, "application.id=app\nbootstrap.servers=k:9092\nproduction.exception.handler=com.example.Unknown\n")
	errs := diags.Errors()
	if len(errs) != 1 || errs[0].Hint == "" || !strings.Contains(errs[0].Hint, "kstreams.RegisterProductionExceptionHandler") {
		t.Errorf("an unregistered class: %v, want one error whose hint names RegisterProductionExceptionHandler", errs)
	}
	if err := kstreams.RegisterProductionExceptionHandler(kstreams.DefaultProductionExceptionHandlerClass, nil); err == nil {
		t.Error("Kafka's default class was rebound")
	}
}
