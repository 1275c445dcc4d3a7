package kgolog

import (
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
)

// Health is what an instance's Kafka clients last saw of the brokers: the
// connection failure that is still current, if any. A failure is current
// from the first failed connection or handshake until any client reads a
// response from a broker again, so a broker that comes back clears it
// without a restart. It is a kgo hook (pass it with kgo.WithHooks to every
// client of the instance) and is fed by the Loggers made with NewWithHealth,
// which see the handshake failures (TLS, SASL) that the hooks do not.
type Health struct {
	now     func() time.Time
	failing atomic.Bool // fail != nil: read without the lock on every response

	mu   sync.Mutex
	fail *Failure
}

// Failure is a current broker connection failure.
type Failure struct {
	Broker string    // host:port
	Cause  string    // the client's error
	Check  string    // what to check, from the cause
	Since  time.Time // the first failure since the last success
	Last   time.Time // the latest failure
	Count  int       // failures since Since
}

// String is the failure as one sentence for /readyz and the logs.
func (f Failure) String() string {
	return fmt.Sprintf("cannot connect to Kafka broker %s since %s (%d attempts): %s. Check: %s",
		f.Broker, f.Since.UTC().Format(time.RFC3339), f.Count, f.Cause, f.Check)
}

// NewHealth returns a Health with no failure.
func NewHealth() *Health { return &Health{now: time.Now} }

// Failed records a failed connection or handshake to broker addr.
func (h *Health) Failed(addr, cause string) {
	if h == nil {
		return
	}
	now := h.now()
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.fail == nil {
		h.fail = &Failure{Since: now}
	}
	h.fail.Broker, h.fail.Cause, h.fail.Check, h.fail.Last = addr, cause, hint(cause), now
	h.fail.Count++
	h.failing.Store(true)
}

// ok records a response read from a broker: the brokers are reachable.
func (h *Health) ok() {
	if !h.failing.Load() {
		return
	}
	h.mu.Lock()
	h.fail = nil
	h.failing.Store(false)
	h.mu.Unlock()
}

// Current returns the current failure, if any.
func (h *Health) Current() (Failure, bool) {
	if h == nil {
		return Failure{}, false
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.fail == nil {
		return Failure{}, false
	}
	return *h.fail, true
}

// OnBrokerConnect implements kgo.HookBrokerConnect: a failed dial (refused,
// unresolvable, TLS handshake) is a failure.
func (h *Health) OnBrokerConnect(meta kgo.BrokerMetadata, _ time.Duration, _ net.Conn, err error) {
	if err != nil {
		h.Failed(net.JoinHostPort(meta.Host, fmt.Sprint(meta.Port)), err.Error())
	}
}

// OnBrokerRead implements kgo.HookBrokerRead: a response read means the
// broker answers. SASL handshake and authenticate responses (keys 17 and
// 36) do not count: an authentication that the broker refuses is read too.
func (h *Health) OnBrokerRead(_ kgo.BrokerMetadata, key int16, _ int, _, _ time.Duration, err error) {
	if err == nil && key != 17 && key != 36 {
		h.ok()
	}
}

var (
	_ kgo.HookBrokerConnect = (*Health)(nil)
	_ kgo.HookBrokerRead    = (*Health)(nil)
)
