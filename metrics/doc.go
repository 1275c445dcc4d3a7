// Package metrics implements the hooks of the core packages with a
// VictoriaMetrics registry and serves them as Prometheus text.
package metrics
