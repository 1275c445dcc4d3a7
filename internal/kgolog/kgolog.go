// Package kgolog routes franz-go's client logs through StoatFlow's logger.
//
// franz-go logs every request at its Info level; those go to Debug, so a
// healthy client is quiet. Warnings and errors keep their level. A broker
// that cannot be reached (refused connection, TLS or SASL failure) makes the
// client retry without end and log each attempt: such a failure is logged at
// Warn with what to check, and the same failure (address and cause) at most
// once per interval, with the number of repeats left out meanwhile.
package kgolog

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
)

// RepeatInterval is how often one connection failure is logged again.
const RepeatInterval = 30 * time.Second

// Logger adapts a slog.Logger to franz-go's kgo.Logger.
type Logger struct {
	log      *slog.Logger
	interval time.Duration
	now      func() time.Time

	health *Health

	mu   sync.Mutex
	seen map[string]*repeat
}

type repeat struct {
	last    time.Time
	dropped int
}

// New returns a kgo.Logger writing to log, with every entry tagged with the
// client's role (e.g. "main-consumer", "producer").
func New(log *slog.Logger, client string) kgo.Logger {
	return NewWithHealth(log, client, nil)
}

// NewWithHealth is New that also records connection failures in h (which
// may be nil), every one of them, including those it leaves out of the log.
func NewWithHealth(log *slog.Logger, client string, h *Health) kgo.Logger {
	return &Logger{log: log.With("kafka_client", client), interval: RepeatInterval, now: time.Now, seen: map[string]*repeat{}, health: h}
}

// Level returns the most verbose level the slog handler takes: franz-go then
// skips formatting entries that would be dropped.
func (l *Logger) Level() kgo.LogLevel {
	ctx := context.Background()
	switch {
	case l.log.Enabled(ctx, slog.LevelDebug):
		return kgo.LogLevelDebug
	case l.log.Enabled(ctx, slog.LevelWarn):
		// franz-go's Info entries would all go to Debug; its connection
		// failures are Warn and Error entries.
		return kgo.LogLevelWarn
	case l.log.Enabled(ctx, slog.LevelError):
		return kgo.LogLevelError
	}
	return kgo.LogLevelNone
}

// Log writes one franz-go entry.
func (l *Logger) Log(level kgo.LogLevel, msg string, keyvals ...any) {
	if addr, cause, ok := connectionFailure(msg, keyvals); ok {
		l.connectionFailure(addr, cause, msg, keyvals)
		return
	}
	var lvl slog.Level
	switch level {
	case kgo.LogLevelError:
		lvl = slog.LevelError
	case kgo.LogLevelWarn:
		lvl = slog.LevelWarn
	default:
		lvl = slog.LevelDebug
	}
	l.log.Log(context.Background(), lvl, msg, keyvals...)
}

// connectionFailure recognises franz-go's entries for a failed connection
// or handshake and returns the broker's address and the cause.
func connectionFailure(msg string, keyvals []any) (addr, cause string, ok bool) {
	if !strings.Contains(msg, "unable to open connection") && !strings.Contains(msg, "unable to initialize sasl") &&
		!strings.Contains(msg, "unable to dial") {
		return "", "", false
	}
	for i := 0; i+1 < len(keyvals); i += 2 {
		k, _ := keyvals[i].(string)
		switch k {
		case "addr":
			addr = fmt.Sprint(keyvals[i+1])
		case "err":
			cause = fmt.Sprint(keyvals[i+1])
		}
	}
	return addr, cause, true
}

func (l *Logger) connectionFailure(addr, cause, msg string, keyvals []any) {
	l.health.Failed(addr, cause)
	key := addr + "\x00" + cause
	now := l.now()
	l.mu.Lock()
	r := l.seen[key]
	if r == nil {
		r = &repeat{}
		l.seen[key] = r
	} else if now.Sub(r.last) < l.interval {
		r.dropped++
		l.mu.Unlock()
		return
	}
	dropped := r.dropped
	r.last, r.dropped = now, 0
	l.mu.Unlock()
	args := append([]any{"broker", addr, "cause", cause, "check", hint(cause)}, dropped0(dropped)...)
	args = append(args, "detail", msg)
	l.log.Warn("cannot connect to Kafka broker", args...)
}

func dropped0(n int) []any {
	if n == 0 {
		return nil
	}
	return []any{"repeats_not_logged", n}
}

// hint says what to check for a connection failure's cause.
func hint(cause string) string {
	c := strings.ToLower(cause)
	switch {
	case strings.Contains(c, "connection refused"):
		return "is a broker listening on that address and port (bootstrap.servers, the broker's advertised.listeners)?"
	case strings.Contains(c, "no such host"), strings.Contains(c, "lookup"):
		return "does the host name resolve (bootstrap.servers, advertised.listeners)?"
	case strings.Contains(c, "tls"), strings.Contains(c, "x509"), strings.Contains(c, "certificate"):
		return "security.protocol and the ssl.* settings: does the listener speak TLS, and is its certificate trusted?"
	case strings.Contains(c, "sasl"), strings.Contains(c, "authentication"):
		return "sasl.mechanism and sasl.jaas.config: the user, the password and the mechanism the listener enables"
	case strings.Contains(c, "timeout"), strings.Contains(c, "i/o timeout"):
		return "is the address reachable from here (firewall, network), and is it a Kafka listener?"
	case strings.Contains(c, "eof"), strings.Contains(c, "reset by peer"):
		return "the broker closed the connection: does security.protocol match the listener (PLAINTEXT, SSL, SASL_*)?"
	}
	return "bootstrap.servers, security.protocol and the broker's listeners"
}
