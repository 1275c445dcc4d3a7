package compat

import (
	"context"
	"errors"
	"log/slog"
	"strings"

	"github.com/stoatflow/stoatflow/properties"
)

// Severity says whether a Diagnostic stops the application.
type Severity int

// The severities.
const (
	SeverityWarning Severity = iota
	SeverityError
)

// String returns "warning" or "error".
func (s Severity) String() string {
	if s == SeverityError {
		return "error"
	}
	return "warning"
}

// Diagnostic is one finding about the configuration: the key, where it was set,
// Kafka's message (or StoatFlow's where Kafka has none) and what to do.
type Diagnostic struct {
	Severity Severity
	Key      string
	// Pos is where Key was set; zero for a key that was not set.
	Pos properties.Pos
	// Message is the finding, in Kafka's words where Kafka reports the same
	// thing (e.g. "Invalid value 0 for configuration num.stream.threads: ...").
	Message string
	// Hint says what to do about it; may be empty.
	Hint string
}

// String renders "file:line: error: message; hint".
func (d Diagnostic) String() string {
	var b strings.Builder
	if !d.Pos.IsZero() {
		b.WriteString(d.Pos.String())
		b.WriteString(": ")
	}
	b.WriteString(d.Severity.String())
	b.WriteString(": ")
	b.WriteString(d.Message)
	if d.Hint != "" {
		b.WriteString("; ")
		b.WriteString(d.Hint)
	}
	return b.String()
}

// Error implements error, so an error Diagnostic can be returned as one.
func (d Diagnostic) Error() string { return "compat: " + d.String() }

// ErrInvalidConfig is matched by errors.Is for the error of Diagnostics.Err.
var ErrInvalidConfig = errors.New("compat: invalid configuration")

// Diagnostics is every finding of one Load, in key order.
type Diagnostics []Diagnostic

// Errors returns the error findings.
func (ds Diagnostics) Errors() Diagnostics { return ds.filter(SeverityError) }

// Warnings returns the warning findings.
func (ds Diagnostics) Warnings() Diagnostics { return ds.filter(SeverityWarning) }

func (ds Diagnostics) filter(s Severity) Diagnostics {
	var out Diagnostics
	for _, d := range ds {
		if d.Severity == s {
			out = append(out, d)
		}
	}
	return out
}

// HasErrors reports whether any finding is an error.
func (ds Diagnostics) HasErrors() bool { return len(ds.Errors()) > 0 }

// Err returns nil when there are no errors, otherwise an error wrapping
// ErrInvalidConfig and every error Diagnostic.
func (ds Diagnostics) Err() error {
	errs := ds.Errors()
	if len(errs) == 0 {
		return nil
	}
	list := []error{ErrInvalidConfig}
	for _, d := range errs {
		list = append(list, d)
	}
	return errors.Join(list...)
}

// Log writes every finding to logger: warnings at Warn, errors at Error.
func (ds Diagnostics) Log(logger *slog.Logger) {
	if logger == nil {
		return
	}
	for _, d := range ds {
		level := slog.LevelWarn
		if d.Severity == SeverityError {
			level = slog.LevelError
		}
		attrs := []any{slog.String("key", d.Key)}
		if !d.Pos.IsZero() {
			attrs = append(attrs, slog.String("pos", d.Pos.String()))
		}
		if d.Hint != "" {
			attrs = append(attrs, slog.String("hint", d.Hint))
		}
		logger.Log(context.Background(), level, d.Message, attrs...)
	}
}
