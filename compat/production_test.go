package compat

import (
	"strings"
	"testing"
)

// TestProductionHandlerClassResolves: production.exception.handler takes
// Kafka's default, or a class the program has a Go handler for, by either
// key name; any other class is an error that says how to bind one.
func TestProductionHandlerClassResolves(t *testing.T) {
	const class = "com.example.BoundProductionHandler"
	bound := WithProductionHandlerClasses(class)
	for _, tc := range []struct{ src, want string }{
		{"", defaultProductionHandlerClass},
		{"production.exception.handler=" + defaultProductionHandlerClass + "\n", defaultProductionHandlerClass},
		{"production.exception.handler=" + class + "\n", class},
		{"default.production.exception.handler=" + class + "\n", class},
	} {
		c, diags := load(t, "application.id=app\nbootstrap.servers=k:9092\n"+tc.src, bound)
		if diags.HasErrors() {
			t.Errorf("%q: %v", tc.src, diags.Errors())
			continue
		}
		if c.ProductionExceptionHandler != tc.want {
			t.Errorf("%q: handler %q, want %q", tc.src, c.ProductionExceptionHandler, tc.want)
		}
	}
	for _, opts := range [][]LoadOption{nil, {WithProductionHandlerClasses("com.example.Other")}} {
		_, diags := load(t, "application.id=app\nbootstrap.servers=k:9092\nproduction.exception.handler="+class+"\n", opts...)
		errs := diags.Errors()
		if len(errs) != 1 || errs[0].Hint == "" || !strings.Contains(errs[0].Hint, "kstreams.ProductionHandlers") {
			t.Errorf("a class the loader was not given: %v, want one error whose hint names kstreams.ProductionHandlers", errs)
		}
	}
}
